import DaemonCore
import DaemonLoop

/// `gestured watch`: every recognizer's state, live, on the real devices.
enum WatchCommand {
    static let help = """
    usage: gestured watch [--config PATH] [--device PATH|NAME]... [--explain]

    The live view of the recognizers on your touchpads and touchscreens, for tuning
    thresholds: every state transition (possible → began → changed → ended, failed,
    cancelled) and every gesture recognized, with its values. Runs no commands.
    Ctrl-C to stop.

      --config PATH   the gestures to watch (default: the config `gestured run` uses)
      --device DEV    only this device: a /dev/input/eventN path or a name glob
      --explain       only recognitions and why the other recognizers failed
    """

    static func run(_ args: ArraySlice<String>) throws -> GesturedCommand.ExitCode {
        let a = try Arguments(args, spec: .init(flags: ["explain", "verbose"], options: ["config", "device", "input-dir"],
                                                repeatable: ["device"], short: ["v": "verbose"]))
        guard a.positionals.isEmpty else { throw UsageError("unexpected argument '\(a.positionals[0])'") }
        let environment = Logger.environment()
        let logger = Logger(threshold: a.flag("verbose") ? .debug : .notice, environment: environment)
        var options = Daemon.Options()
        options.configPath = a.option("config")
        options.deviceFilters = a.all("device")
        options.inputDirectory = a.option("input-dir") ?? "/dev/input"
        options.runCommands = false
        let explainOnly = a.flag("explain")
        options.onGesture = { session, event in
            Output.line(event.time.description + "  " + GestureText.line(event, device: session.info.name))
        }
        options.onDecisions = { _, decisions in
            for d in decisions {
                if explainOnly {
                    if let text = DecisionTrace.explanation(d) { Output.line(d.time.description + "  " + text) }
                } else {
                    Output.line(d.time.description + "  " + DecisionTrace.transition(d))
                }
            }
        }
        options.onFocus = { Output.line("focused app: \($0?.description ?? "none")") }
        return Daemon.start(options: options, logger: logger, environment: environment)
    }
}
