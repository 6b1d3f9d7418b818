import YAMLTree
/// A place in a config file, 1-based as editors count (column in characters).
/// A place in the config file (the YAML reader's marks).
public typealias SourceMark = YAMLMark

public struct Diagnostic: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Severity: String, Sendable { case error, warning }

    public var severity: Severity
    public var file: String
    /// nil for problems with the file as a whole (permissions, size, encoding).
    public var mark: SourceMark?
    /// What is wrong, what was expected, and a did-you-mean where one exists.
    public var message: String

    public init(_ severity: Severity, file: String, mark: SourceMark?, _ message: String) {
        self.severity = severity
        self.file = file
        self.mark = mark
        self.message = message
    }

    public var isError: Bool { severity == .error }

    /// The exact line `gestured check` prints.
    public var description: String {
        if let m = mark { return "\(file):\(m.line):\(m.column): \(severity.rawValue): \(message)" }
        return "\(file): \(severity.rawValue): \(message)"
    }
}

/// Collects diagnostics for one file in the order they are found.
struct DiagnosticLog {
    let file: String
    private(set) var all: [Diagnostic] = []

    init(file: String) { self.file = file }

    mutating func error(_ mark: SourceMark?, _ message: String) {
        errorCount += 1
        all.append(Diagnostic(.error, file: file, mark: mark, message))
    }

    /// A diagnostic of another file read for this one (a shape file).
    mutating func append(_ d: Diagnostic) {
        if d.severity == .error { errorCount += 1 }
        all.append(d)
    }

    mutating func warning(_ mark: SourceMark?, _ message: String) {
        all.append(Diagnostic(.warning, file: file, mark: mark, message))
    }

    private(set) var errorCount = 0
    var hasErrors: Bool { errorCount > 0 }
}
