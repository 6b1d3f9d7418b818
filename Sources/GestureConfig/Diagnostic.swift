/// A place in a config file, 1-based as editors count (column in characters).
public struct SourceMark: Sendable, Equatable, Comparable {
    public var line: Int
    public var column: Int
    public init(line: Int, column: Int) { self.line = line; self.column = column }
    public static func < (a: SourceMark, b: SourceMark) -> Bool {
        (a.line, a.column) < (b.line, b.column)
    }
}

/// One problem found in a config file, as the user reads it:
/// `config.yaml:12:14: error: unknown gesture 'swpie'; did you mean 'swipe'?`
/// (keyd's `file:line: message`, with a column as compilers print it).
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
        all.append(Diagnostic(.error, file: file, mark: mark, message))
    }

    mutating func warning(_ mark: SourceMark?, _ message: String) {
        all.append(Diagnostic(.warning, file: file, mark: mark, message))
    }

    var hasErrors: Bool { all.contains { $0.isError } }
}
