import DaemonCore
import GestureActions
import LinuxSystem
import PlainText
import TouchModel

/// The daemon's log: stderr lines, with `<N>` syslog priorities when stderr is the
/// journal (`JOURNAL_STREAM` set), so journald files each line at its level.
public final class Logger {
    public typealias Level = LogPriority

    public var threshold: Level
    let journal: Bool
    let fd: FileDescriptor
    /// Set when a write failed with EPIPE: nobody reads the log any more (journald
    /// restarted, the terminal closed), so the daemon stops writing it and goes on.
    public private(set) var readerGone = false

    public init(threshold: Level = .info, environment: [String: String] = Logger.environment(),
                fd: FileDescriptor = .standardError) {
        self.threshold = threshold
        self.journal = environment["JOURNAL_STREAM"] != nil
        self.fd = fd
    }

    /// One line per message: control characters in it (a device's name, a file's
    /// text) are escaped, so nothing can forge a second line or its priority.
    public func log(_ level: Level, _ message: String) {
        guard level <= threshold, !readerGone else { return }
        let message = message.printable
        let line = journal ? "<\(level.rawValue)>\(message)\n"
            : level <= .warning ? "gestured: \(level == .error ? "error" : "warning"): \(message)\n" : "gestured: \(message)\n"
        do {
            try fd.writeAll(line)
        } catch {
            if error == .brokenPipe { readerGone = true }
        }
    }

    public func error(_ m: String) { log(.error, m) }
    public func warning(_ m: String) { log(.warning, m) }
    public func notice(_ m: String) { log(.notice, m) }
    public func info(_ m: String) { log(.info, m) }
    public func debug(_ m: String) { log(.debug, m) }

    /// The process environment as a dictionary.
    public static func environment() -> [String: String] {
        var env: [String: String] = [:]
        for s in Process.environment() {
            if let eq = s.firstIndex(of: "=") { env[String(s[..<eq])] = String(s[s.index(after: eq)...]) }
        }
        return env
    }
}
