import DaemonLoop
import GestureConfig
import GestureInput
import Glibc
import PlainText
import TouchModel

/// `gestured`'s entry point: picks the subcommand, maps errors to exit codes.
public enum GesturedCommand {
    public static let version = Gestured.version
    public typealias ExitCode = Gestured.ExitCode

    struct Subcommand {
        var name: String
        var summary: String
        var run: (ArraySlice<String>) throws -> ExitCode
        var help: String
    }

    static var subcommands: [Subcommand] {
        [
            Subcommand(name: "run", summary: "run the daemon in the foreground",
                       run: { try RunCommand.run($0) }, help: RunCommand.help),
            Subcommand(name: "check", summary: "validate a config file",
                       run: CheckCommand.run, help: CheckCommand.help),
            Subcommand(name: "import", summary: "turn a libinput-gestures, fusuma or touchegg config into a gestured config",
                       run: ImportCommand.run, help: ImportCommand.help),
            Subcommand(name: "watch", summary: "live view of every recognizer on the real devices (no commands)",
                       run: WatchCommand.run, help: WatchCommand.help),
            Subcommand(name: "list-devices", summary: "show touchpads and touchscreens, and why other devices are not used",
                       run: ListDevicesCommand.run, help: ListDevicesCommand.help),
            Subcommand(name: "replay", summary: "feed a recording through the pipeline",
                       run: ReplayCommand.run, help: ReplayCommand.help),
            Subcommand(name: "record", summary: "record a device's events to a file for a bug report",
                       run: RecordCommand.run, help: RecordCommand.help),
            Subcommand(name: "record-shape", summary: "record samples of a drawn shape for 'gesture: shape'",
                       run: RecordShapeCommand.run, help: RecordShapeCommand.help),
            Subcommand(name: "status", summary: "what the running daemon is doing: config, devices, gestures, focused app",
                       run: ControlCommand.status, help: ControlCommand.statusHelp),
            Subcommand(name: "enable", summary: "enable a gesture in the running daemon",
                       run: ControlCommand.enable, help: ControlCommand.enableHelp),
            Subcommand(name: "disable", summary: "disable a gesture in the running daemon",
                       run: ControlCommand.disable, help: ControlCommand.disableHelp),
            Subcommand(name: "trigger", summary: "run a gesture's action without the gesture (a key, a launcher, a screen reader)",
                       run: ControlCommand.trigger, help: ControlCommand.triggerHelp),
            Subcommand(name: "reload", summary: "make the running daemon read its config again",
                       run: ControlCommand.reload, help: ControlCommand.reloadHelp),
            Subcommand(name: "events", summary: "print the running daemon's event stream: touches, states, gestures, actions",
                       run: EventsCommand.run, help: EventsCommand.help),
            Subcommand(name: "ui", summary: "the live view and playground in the browser (devices, recognizers, config)",
                       run: UICommand.run, help: UICommand.help),
        ]
    }

    static var usage: String {
        var s = """
        gestured \(version): multi-finger gestures on touchpads and touchscreens → commands

        usage: gestured <command> [options]

        commands:

        """
        let width = subcommands.map(\.name.count).max() ?? 0
        for c in subcommands {
            s += "  " + c.name + String(repeating: " ", count: width - c.name.count + 2) + c.summary + "\n"
        }
        s += """

        gestured <command> --help shows a command's options.

        exit codes: 0 success, 1 failure (file, device or system error), 2 usage error,
                    3 invalid config
        """
        return s
    }

    /// `gestured run ARGS` with `devices`, opened by the caller, used beside the ones
    /// found: how the browser tests feed a real daemon from the in-process fake device
    /// (Tests/Browser/FakeDaemon), which no other process can open.
    public static func runDaemon(_ args: [String], adopting devices: [any TouchSource]) -> ExitCode {
        do {
            return try RunCommand.run(args[...], adopting: devices)
        } catch {
            Output.err("gestured run: \("\(error)".printable)")
            return .usage
        }
    }

    public static func main() {
        let args = Array(CommandLine.arguments.dropFirst())
        // The daemon's own child, with an exit status of its own (GrabWatchdog).
        if args.first == GrabWatchdog.subcommand { exit(GrabWatchdogCommand.run(args.dropFirst())) }
        exit(run(args).rawValue)
    }

    /// Runs a command line (without the program name); the testable entry point.
    public static func run(_ args: [String]) -> ExitCode {
        guard let first = args.first else {
            Output.err(usage)
            return .usage
        }
        switch first {
        case "--help", "-h", "help":
            Output.out(usage)
            return .success
        case "--version", "-V":
            Output.out("gestured \(version)")
            return .success
        default:
            break
        }
        guard let command = subcommands.first(where: { $0.name == first }) else {
            var message = "gestured: unknown command '\(first)'"
            if let guess = DidYouMean.suggestion(for: first, among: subcommands.map(\.name)) { message += "; did you mean '\(guess)'?" }
            Output.err(message + "\n(gestured --help lists the commands)")
            return .usage
        }
        let rest = args.dropFirst()
        if rest.contains("--help") || rest.contains("-h") {
            Output.out(command.help)
            return .success
        }
        do {
            return try command.run(rest)
        } catch let error as UsageError {
            Output.err("gestured \(command.name): \("\(error)".printable)\n(gestured \(command.name) --help shows the options)")
            return .usage
        } catch {
            Output.err("gestured \(command.name): \("\(error)".printable)")
            return .failure
        }
    }
}
