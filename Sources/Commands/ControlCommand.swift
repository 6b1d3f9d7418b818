import DaemonCore
import DaemonLoop
import JSON
import LinuxSystem
import PlainText
import TouchModel

/// `gestured status|enable|disable|reload`: one request to the running daemon over
/// its control socket (ControlProtocol.swift), and its answer on stdout.
enum ControlCommand {
    static let statusHelp = """
    usage: gestured status [--json]

    Asks the running daemon (this user's) what it is doing: the config in use, the
    devices, every gesture and whether it is enabled, the focused app and where it
    comes from, and the last gestures with the commands they ran.

      --json   the same as one JSON object
    """

    static let enableHelp = """
    usage: gestured enable NAME

    Enables the gesture NAME in the running daemon until it stops (a config with
    'enabled: false' starts it disabled). Survives config reloads.
    """

    static let disableHelp = """
    usage: gestured disable NAME

    Disables the gesture NAME in the running daemon until it stops or
    'gestured enable NAME'. A disabled app-specific gesture gives the gesture back
    to the global binding of it.
    """

    static let triggerHelp = """
    usage: gestured trigger NAME [--app APP]

    Asks the running daemon (this user's) to run the gesture NAME as if it had been
    performed, without touching anything: its command (with GESTURE_TRIGGER=manual
    and the GESTURE_* values a gesture without touches has), its keys or its desktop
    action; a continuous gesture's begin: then end:. It goes where a gesture's
    actions go (max-children, queue-length, command-timeout and the log apply); a
    daemon in dry run (gestured run --dry-run) says what would run and runs nothing.
    A gesture turned off (enabled: false, gestured disable) still runs; one whose
    desktop: is another desktop does not. Bind it to a key in your desktop's own
    shortcuts: docs/ACCESSIBILITY.md.

      --app APP   run the binding of this gesture that APP gets (its apps:
                  variant), as if APP had the focus; default: the focused app

    Prints what ran. Exits 1, saying why, when no gesture has the name, the gesture
    runs nothing for the app (or nothing without fingers), or no daemon runs.
    """

    static let reloadHelp = """
    usage: gestured reload

    Makes the running daemon read its config again (as SIGHUP) and says whether the
    new config was taken; an invalid one is reported and the old one keeps running.
    """

    static func status(_ args: ArraySlice<String>) throws -> GesturedCommand.ExitCode {
        let a = try Arguments(args, spec: .init(flags: ["json"], options: []))
        guard a.positionals.isEmpty else { throw UsageError("unexpected argument '\(a.positionals[0])'") }
        return send(.status(json: a.flag("json")))
    }

    static func enable(_ args: ArraySlice<String>) throws -> GesturedCommand.ExitCode {
        try send(.enable(name(args)))
    }

    static func disable(_ args: ArraySlice<String>) throws -> GesturedCommand.ExitCode {
        try send(.disable(name(args)))
    }

    static func trigger(_ args: ArraySlice<String>) throws -> GesturedCommand.ExitCode {
        let a = try Arguments(args, spec: .init(flags: [], options: ["app"]))
        guard a.positionals.count == 1 else { throw UsageError("needs one gesture NAME (gestured status lists them)") }
        let name = a.positionals[0], app = a.option("app")
        for (what, word) in [("a gesture name", name), ("--app", app ?? "x")] where !isWord(word) {
            throw UsageError("\(what) has no spaces or control characters: '\(word.printable)'")
        }
        return send(.trigger(name, app: app, origin: .manual))
    }

    /// Whether `word` goes into a control request as one word.
    static func isWord(_ word: String) -> Bool {
        !word.isEmpty && word.unicodeScalars.count <= 200 && !word.unicodeScalars.contains { $0.value <= 0x20 || $0.value == 0x7f }
    }

    static func reload(_ args: ArraySlice<String>) throws -> GesturedCommand.ExitCode {
        let a = try Arguments(args, spec: .init(flags: [], options: []))
        guard a.positionals.isEmpty else { throw UsageError("unexpected argument '\(a.positionals[0])'") }
        return send(.reload)
    }

    private static func name(_ args: ArraySlice<String>) throws -> String {
        let a = try Arguments(args, spec: .init(flags: [], options: []))
        guard a.positionals.count == 1 else { throw UsageError("needs one gesture NAME (gestured status lists them)") }
        return a.positionals[0]
    }

    static func send(_ request: ControlRequest) -> GesturedCommand.ExitCode {
        switch ControlClient.exchange(request, environment: Logger.environment()) {
        case .failure(let error):
            Output.err("gestured: \(error)")
            return .failure
        case .success(let reply):
            try? FileDescriptor.standardOutput.writeAll(reply.body)
            if !reply.ok { Output.err("gestured: \(reply.message.printable)") }
            return reply.ok ? .success : .failure
        }
    }

}
