import GestureEngine

/// One command to run, with the gesture that caused it. Gesture values travel only
/// in `environment`; `command` is the config's text, untouched.
public struct Invocation: Sendable, Equatable {
    /// The binding's name: commands of one gesture run in order, and log lines carry it.
    public var gesture: String
    /// The config key that produced it (`command`, `begin`, `update`, `end`, `cancel`).
    public var trigger: String
    public var command: String
    /// `GESTURE_*` variables, added to the daemon's own environment.
    public var environment: [(name: String, value: String)]

    public init(gesture: String, trigger: String, command: String, environment: [(name: String, value: String)]) {
        self.gesture = gesture
        self.trigger = trigger
        self.command = command
        self.environment = environment
    }

    public static func == (a: Invocation, b: Invocation) -> Bool {
        a.gesture == b.gesture && a.trigger == b.trigger && a.command == b.command
            && a.environment.elementsEqual(b.environment) { $0.name == $1.name && $0.value == $1.value }
    }

    public func value(of name: String) -> String? {
        environment.first { $0.name == name }?.value
    }
}

/// Where invocations go: the process runner, or the dry-run printer.
public protocol InvocationSink: AnyObject {
    func submit(_ invocation: Invocation)
}

/// Priorities as syslog and journald number them.
public enum LogPriority: Int, Sendable, Comparable {
    case error = 3, warning = 4, notice = 5, info = 6, debug = 7
    public static func < (a: LogPriority, b: LogPriority) -> Bool { a.rawValue < b.rawValue }
}

/// `gestured run --dry-run`: prints each command with its environment instead of running it.
public final class DryRunSink: InvocationSink {
    private let write: (String) -> Void

    public init(write: @escaping (String) -> Void) { self.write = write }

    public func submit(_ invocation: Invocation) {
        write(Self.describe(invocation))
    }

    /// `[name] update: <command>` then one `    NAME=value` line per variable.
    public static func describe(_ inv: Invocation) -> String {
        var s = "[\(inv.gesture)] \(inv.trigger): \(inv.command)"
        for (name, value) in inv.environment { s += "\n    \(name)=\(value)" }
        return s
    }
}
