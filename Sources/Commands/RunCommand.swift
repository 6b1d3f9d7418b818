import DaemonCore
import DaemonLoop
import DesktopActions
import GestureActions
import DesktopSession
import GestureConfig
import GestureInput
import PlainText
import TouchModel

/// `gestured run`: the daemon.
enum RunCommand {
    static let help = """
    usage: gestured run [--config PATH] [--dry-run] [--device PATH|NAME]... [--explain] [-v|-q]

    Runs the daemon in the foreground: reads every touchpad and touchscreen,
    recognizes the configured gestures and runs their actions: commands, and keys,
    clicks and scrolls through its virtual input device. Reloads the config
    when the file changes or on SIGHUP (an invalid new config is reported and the
    old one keeps running); picks up devices plugged in later; exits on SIGTERM or
    Ctrl-C. Logs to standard error (journald priorities when run by systemd).

      --config PATH     the config file (default: $XDG_CONFIG_HOME/gestured/config.yaml,
                        ~/.config/gestured/config.yaml, /etc/gestured/config.yaml,
                        then the built-in default; started from one of the last
                        two, it switches to your own file when you create it)
      --dry-run         print each action (a command with its environment, or
                        keys super+Page_Down) instead of carrying it out
      --device DEV      only this device: a /dev/input/eventN path or a name glob
                        (repeatable)
      --explain         log every recognized gesture and why the others failed
      -v, --verbose     debug logging
      -q, --quiet       warnings and errors only
    """

    static let spec = Arguments.Spec(flags: ["dry-run", "explain", "verbose", "quiet"],
                                     options: ["config", "device", "input-dir", "control-socket", "ui-parent"], repeatable: ["device"],
                                     short: ["v": "verbose", "q": "quiet"])

    /// `adopting`: devices opened by the caller, used beside the ones found.
    static func run(_ args: ArraySlice<String>, adopting devices: [any TouchSource] = []) throws -> GesturedCommand.ExitCode {
        let a = try Arguments(args, spec: spec)
        guard a.positionals.isEmpty else { throw UsageError("unexpected argument '\(a.positionals[0])'") }
        let environment = Logger.environment()
        let logger = Logger(threshold: a.flag("verbose") ? .debug : a.flag("quiet") ? .warning : .info, environment: environment)
        var options = Daemon.Options()
        options.configPath = a.option("config")
        options.dryRun = a.flag("dry-run")
        options.deviceFilters = a.all("device")
        options.inputDirectory = a.option("input-dir") ?? "/dev/input"
        // --control-socket (not in the help): gestured ui's private daemon, nobody else's.
        options.controlSocket = a.option("control-socket") ?? ControlPath.resolve(environment)
        // --ui-parent PID (not in the help either): and it ends when gestured ui does.
        if let parent = a.option("ui-parent") {
            guard let pid = Int32(parent), pid > 0 else { throw UsageError("--ui-parent: not a process id: '\(parent)'") }
            options.parent = pid
        }
        options.adopted = devices
        // The watchdog child logs as the daemon does (journal priorities), and needs nothing else.
        options.grabWatchdog = GrabWatchdog.Launcher(environment: environment["JOURNAL_STREAM"].map { ["JOURNAL_STREAM=\($0)"] } ?? [])
        if options.controlSocket == nil { logger.notice("XDG_RUNTIME_DIR is not set: no control socket (gestured status, enable, disable, reload)") }
        if a.flag("explain") {
            options.onGesture = { session, event in logger.notice(GestureText.line(event, device: session.info.name)) }
            options.onDecisions = { _, decisions in
                for d in decisions { if let text = DecisionTrace.explanation(d) { logger.notice(text) } }
            }
        }
        if a.flag("explain") || options.dryRun {
            options.onFocus = { logger.notice("focused app: \($0?.description ?? "none")") }
        }
        return Daemon.start(options: options, logger: logger, environment: environment)
    }
}

/// `gestured check`: validate a config and exit non-zero on errors.
enum CheckCommand {
    static let help = """
    usage: gestured check [--config PATH | PATH]

    Validates a config file: prints every error and warning as
    file:line:column: severity: message, then a summary. Exits 0 when the file is
    usable (warnings allowed), 3 when it has errors.
    """

    static func run(_ args: ArraySlice<String>) throws -> GesturedCommand.ExitCode {
        let a = try Arguments(args, spec: .init(flags: [], options: ["config"]))
        guard a.positionals.count <= 1 else { throw UsageError("takes one config PATH") }
        if a.positionals.count == 1 && a.option("config") != nil { throw UsageError("give the PATH or --config, not both") }
        let source = resolveConfigPath(explicit: a.positionals.first ?? a.option("config"), environment: Logger.environment())
        let (config, diagnostics) = ConfigLoader.load(source)
        for d in diagnostics { Output.out(d.description.printable) }
        let name: String
        switch source {
        case .file(let path): name = path
        case .builtIn: name = ConfigLoader.builtInName
        }
        let errors = diagnostics.filter(\.isError).count
        let warnings = diagnostics.count - errors
        guard let config else {
            Output.out("\(name): \(errors) error\(errors == 1 ? "" : "s")\(warnings > 0 ? ", \(warnings) warning\(warnings == 1 ? "" : "s")" : "")")
            return .invalidConfig
        }
        Output.out("\(name): ok, \(config.specs.count) gesture\(config.specs.count == 1 ? "" : "s")\(warnings > 0 ? ", \(warnings) warning\(warnings == 1 ? "" : "s")" : "")")
        if config.bindings.contains(where: \.needsInput), let failure = VirtualDevice.probe() {
            Output.out("\(name): warning: key, button and scroll actions cannot be delivered: \(failure): \(VirtualDevice.advice(for: failure))")
        }
        if !config.grab.isEmpty, let failure = VirtualDevice.probe() {
            Output.out("\(name): warning: grab: no device will be grabbed (each needs a copy made through uinput): \(failure): \(VirtualDevice.advice(for: failure))")
        }
        // Per-app gestures in a session that cannot say which app has the focus, or that
        // can only if its compositor offers the wlroots window list (known once connected).
        if config.specs.contains(where: { !$0.apps.only.isEmpty }) {
            switch FocusDetection.detect(Logger.environment()) {
            case .none(let why):
                Output.out("note: gestures with 'apps:' will not fire in this session: \(why)")
            case .source(let wlr as WlrForeignToplevelSource):
                Output.out("note: gestures with 'apps:' need this compositor (\(wlr.compositor)) to offer \(WlrForeignToplevelSource.protocolName) "
                           + "(labwc, wayfire, river and sway do); `gestured status` says whether it does")
            case .source:
                break
            }
        }
        desktopActionNotes(config, name)
        shortcutNotes(config)
        return .success
    }

    /// `shortcut:` is bound by gestured only on GNOME (its extension grabs it); elsewhere
    /// the desktop's own shortcut config runs `gestured trigger NAME`, said in its syntax.
    private static func shortcutNotes(_ config: Config) {
        let environment = Logger.environment()
        let here = config.forDesktop(environment["XDG_CURRENT_DESKTOP"])
        guard let example = here.bindings.first(where: { $0.shortcut != nil }), let shortcut = example.shortcut else { return }
        let detected = Desktop.detect(environment)
        if case .desktop(.gnome) = detected { return }
        let session: String = switch detected {
        case .desktop(let d): d.name
        case .none: "this session"
        }
        Output.out(("note: 'shortcut:' keys are bound only on GNOME (through gestured's extension), not in \(session): "
                    + "bind `gestured trigger NAME` in the desktop's own shortcuts instead, e.g. for '\(example.name)' (\(shortcut)): "
                    + Desktop.triggerBinding(detected, name: example.name, shortcut: shortcut)).printable)
    }

    /// Desktop actions this session's desktop cannot do: said by the desktop's name.
    /// Only the gestures that are on here (`desktop:`) count.
    private static func desktopActionNotes(_ config: Config, _ name: String) {
        let environment = Logger.environment()
        let here = config.forDesktop(environment["XDG_CURRENT_DESKTOP"])
        guard here.bindings.contains(where: \.hasDesktopAction) else { return }
        switch Desktop.detect(environment) {
        case .desktop(let d):
            for p in d.problems(in: here) { Output.out("\(name): warning: \(p)".printable) }
            if let note = d.followNote(in: here) { Output.out("note: \(note)".printable) }
            if case .extWorkspace(_, let compositor) = d {
                Output.out("note: workspace actions go through \(ExtWorkspaceClient.protocolName), if this compositor (\(compositor)) offers it "
                           + "(labwc does); the daemon's log says when it does not".printable)
            }
        case .none(let why):
            Output.out("note: desktop actions ({workspace: next} and the like) will do nothing in this session: \(why)")
        }
    }
}
