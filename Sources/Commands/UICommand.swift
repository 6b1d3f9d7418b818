import DaemonLoop
import LinuxSystem
import LiveView
import PlainText

/// `gestured ui`: the live view and playground in the browser (docs/UI.md).
enum UICommand {
    static let help = """
    usage: gestured ui [--no-open] [--replay FILE [--description FILE]] [--config PATH] [--port N]
                      [--idle-exit SECONDS]

    Serves a page on http://127.0.0.1 that shows what gestured sees: your devices
    to scale with the touches on them, every gesture's recognizer as it changes
    state, with its values and why it failed; a config editor that checks as you
    type, tries the edited config beside the running one and saves it; a gesture
    recorder that proposes the binding; and a recording scrubber, whose recognized
    gestures each propose a binding with thresholds taken from the recording.

    Prints the page's address (it carries a secret that logs one browser in, once)
    and opens the browser with xdg-open on a private file that leads to an address
    of its own, so that no secret is on any command line. With the daemon running,
    the page shows its devices and gestures; with none, gestured ui runs its own
    engine on the devices, in dry run (commands are shown, not run). Only this
    user's browser can use the page: it listens on 127.0.0.1 only and checks the
    session, Host and Origin of every request. Exits on Ctrl-C, or by itself when
    no page has been open for 5 minutes.

      --no-open          print the address only; do not start a browser
      --replay FILE      show a recording (evemu, libinput record, gestured record)
                         instead of live devices, to scrub through frame by frame
      --description FILE the evemu device description, for a --replay events file
                         without a header (the .desc file beside it)
      --config PATH      the config to edit, try and show recordings with
                         (default: the one the daemon uses)
      --port N           listen on port N (default: any free port)
      --idle-exit SECS   exit this long after the last page closed (default: 300)
    """

    static func run(_ args: ArraySlice<String>) throws -> GesturedCommand.ExitCode {
        let a = try Arguments(args, spec: .init(flags: ["no-open", "verbose"], options: ["replay", "description", "config", "port", "idle-exit"],
                                                short: ["v": "verbose"]))
        guard a.positionals.isEmpty else { throw UsageError("unexpected argument '\(a.positionals[0])'") }
        var options = UIProcess.Options()
        options.environment = Logger.environment()
        options.configPath = a.option("config")
        options.replay = a.option("replay")
        options.description = a.option("description")
        if options.description != nil && options.replay == nil {
            throw UsageError("--description goes with --replay FILE: it describes the device of a recording without a header")
        }
        options.open = !a.flag("no-open")
        if let p = a.option("port") {
            guard let port = UInt16(p) else { throw UsageError("--port takes a port number, 0 to 65535 (got '\(p)')") }
            options.port = port
        }
        if let s = a.option("idle-exit") {
            guard let seconds = Double(s), seconds.isFinite, seconds > 0 else {
                throw UsageError("--idle-exit takes a number of seconds above 0 (got '\(s)')")
            }
            options.idleExit = seconds
        }
        let logger = Logger(threshold: a.flag("verbose") ? .debug : .notice, environment: options.environment)
        Signals.ignoreBrokenPipe()
        let ui: UIProcess
        do {
            ui = try UIProcess(options: options, logger: logger)
        } catch {
            Output.err("gestured ui: \("\(error)".printable)")
            return .failure
        }
        return ui.run()
    }
}
