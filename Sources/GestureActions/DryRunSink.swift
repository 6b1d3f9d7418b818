import DaemonCore
import PlainText
import TouchModel

/// Where invocations go: the process runner, the virtual input device, or the dry-run printer.
public protocol InvocationSink: AnyObject {
    func submit(_ invocation: Invocation)
}

/// `gestured run --dry-run`: prints each command with its environment instead of running it.
public final class DryRunSink: InvocationSink {
    private let write: (String) -> Void

    public init(write: @escaping (String) -> Void) { self.write = write }

    public func submit(_ invocation: Invocation) {
        write(Self.describe(invocation))
    }

    /// `[name] update: <command>` then one `    NAME=value` line per variable, each
    /// escaped: `GESTURE_DEVICE` is whatever the hardware calls itself, and a newline
    /// in it would forge a line (`<0>…`, an emergency, under `JOURNAL_STREAM`).
    public static func describe(_ inv: Invocation) -> String {
        var s = "[\(inv.gesture)] \(inv.trigger): \(inv.command)".printable
        for (name, value) in inv.environment { s += "\n    " + "\(name)=\(value)".printable }
        return s
    }
}
