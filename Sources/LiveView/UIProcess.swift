import DaemonLoop
import GestureConfig
import GestureEngine
import GestureInput
import Glibc
import LinuxSystem
import LiveViewHTTP
import PlainText
import TouchModel

/// `gestured ui`: the page's server, on one epoll loop of its own (never the daemon's:
/// the daemon does not listen on TCP). Sources on the loop: libmicrohttpd's epoll set
/// and its timeout, a signalfd (TERM, INT), a ticker (heartbeats to the pages, the idle
/// exit), the daemon's stream (`DaemonFeed`), and the timer of Try's engines.
///
/// Modes: `daemon` relays the running daemon's stream; `local` starts a private
/// daemon in dry run (`gestured run --dry-run`, its control socket in a directory of
/// its own) and relays that, so the page sees the very same engine and lines;
/// `replay` serves a recording's timeline.
package final class UIProcess {
    package enum Mode: String {
        case daemon, local, replay
    }

    package struct Options {
        package var configPath: String?
        package var replay: String?
        /// The evemu description of `replay`, for an events file without a header.
        package var description: String?
        package var port: UInt16 = 0
        package var open = true
        /// Exit this long after the last page closed its event stream (s).
        package var idleExit: Double = 300
        package var environment: [String: String] = [:]

        package init() {}
    }

    package let options: Options
    package let mode: Mode
    package let loop: EventLoop
    package let server: LiveViewServer
    package let api: UIEndpoints
    private var httpTimer: MonotonicTimer
    private var ticker: MonotonicTimer
    private let signals: SignalDescriptor
    /// When the last page went (ns), nil while one is open.
    private var idleSince: Int64?
    package private(set) var feed: DaemonFeed?
    private var localDaemon: LocalDaemon?

    /// Heartbeats at most this far apart (ns): well within the connection timeout.
    package static let heartbeat: Int64 = 15_000_000_000

    package init(options: Options, logger: Logger) throws {
        self.options = options
        try Self.refuseNonRegularConfig(options.configPath)
        loop = try EventLoop()
        httpTimer = try MonotonicTimer()
        ticker = try MonotonicTimer()
        signals = try SignalDescriptor([SIGTERM, SIGINT])
        server = try LiveViewServer(port: options.port)
        let env = options.environment
        var privateSocket: String?
        if options.replay != nil {
            mode = .replay
        } else if let path = ControlPath.resolve(env), Self.daemonAnswers(at: path, logger: logger) {
            mode = .daemon
        } else {
            mode = .local
            let local = try LocalDaemon(configPath: options.configPath, environment: env, loop: loop, logger: logger)
            localDaemon = local
            privateSocket = local.socket
        }
        let control: [String: String]? = switch mode {
        case .daemon: env
        case .local: ["XDG_RUNTIME_DIR": localDaemon!.directory]
        case .replay: nil
        }
        api = try UIEndpoints(mode: mode, options: options, control: control, loop: loop, logger: logger)
        if let socket = privateSocket ?? (mode == .daemon ? ControlPath.resolve(env) : nil) {
            let feed = try DaemonFeed(socketPath: socket, rate: UIEndpoints.pageRate, loop: loop)
            self.feed = feed
            api.attach(feed)
        }
        if let local = localDaemon {
            local.onExit = { [unowned self] why, diagnostics in self.api.daemonStopped(why, diagnostics) }
            api.restartLocalDaemon = { [unowned local] evenIfRunning in local.restartNow(evenIfRunning: evenIfRunning) }
        }
        // A line resumes suspended streams; libmicrohttpd then wants to run at once
        // (its timeout says 0), which the timer does after this iteration's other sources.
        api.broadcast = { [unowned self] line, droppable in
            self.server.broadcast(line, droppable: droppable)
            self.rearm()
        }
        api.arm = { [unowned self] in self.rearm() }
        server.api = { [unowned self] in self.api.handle($0) }
        server.bodyLimits = UIEndpoints.bodyLimits
        server.streamOpened = { [unowned self] in self.api.greet($0) }
        server.streamsChanged = { [unowned self] n in self.idleSince = n == 0 ? monotonicNanoseconds() : nil }
        try loop.add(server.http.descriptor) { [unowned self] _ in self.serve() }
        try loop.add(httpTimer.descriptor) { [unowned self] _ in
            self.httpTimer.acknowledge()
            self.serve()
        }
        try loop.add(ticker.descriptor) { [unowned self] _ in self.tick() }
        try loop.add(signals.descriptor) { [unowned self] _ in
            if !self.signals.drain().isEmpty { self.loop.stop() }
        }
        idleSince = monotonicNanoseconds()
    }

    /// Whether this user's daemon listens at `path`. A socket served by another user's
    /// process is not believed (`ControlClient.connect`): said, and local mode runs instead.
    private static func daemonAnswers(at path: String, logger: Logger) -> Bool {
        do throws(ControlError) {
            _ = try ControlClient.connect(to: path)
            return true
        } catch {
            if error.foreignServer { logger.warning("gestured ui: \(error)") }
            return false
        }
    }

    /// Prints a login address (the first line, flushed: scripts and tests read it),
    /// opens the browser on another (`openBrowser`), and runs until a signal or the idle exit.
    package func run() -> Gestured.ExitCode {
        let url: String
        do {
            url = try server.newLoginURL()
        } catch {
            Output.err("gestured ui: cannot make a login address: \(error)")
            return .failure
        }
        Output.out(url)
        Output.err("gestured ui: \(mode.rawValue) mode; open \(url) (it works once; Ctrl-C to stop)")
        if options.open { openBrowser() }
        feed?.connect()
        armTicker()
        loop.run()
        server.http.stop()
        localDaemon?.stop()
        if let opener { FileSystem.remove(opener + "/open.html"); FileSystem.remove(opener) }
        return .success
    }

    /// `--config` names the file the page shows and saves. A FIFO (or a device) there
    /// would block the only thread in open(2) at the page's first request, and a ui
    /// blocked there is deaf to SIGTERM (its signalfd takes it): refused at start, with
    /// the file's name. No file yet is fine: Save creates it.
    static func refuseNonRegularConfig(_ path: String?) throws(ConfigFileError) {
        guard let path else { return }
        do throws(ConfigFileError) {
            _ = try ConfigLoader.readRegularFile(path)
        } catch where error.errno == .noSuchFileOrDirectory {
            return
        }
    }

    private func serve() {
        server.http.run()
        rearm()
    }

    /// libmicrohttpd's next timeout on its timer (it must run by then even with nothing to read).
    private func rearm() {
        let target = server.http.timeoutMS.map { monotonicNanoseconds() + Int64(min($0, 86_400_000)) * 1_000_000 }
        // A wakeup already due first re-arms after it runs: no timerfd call per line sent.
        let earlierArmed = httpTimer.armedAt != 0 && target.map { httpTimer.armedAt <= $0 } == true
        if !earlierArmed { httpTimer.arm(atNanoseconds: target) }
    }

    private var tickInterval: Int64 { max(100_000_000, min(Self.heartbeat, Int64(options.idleExit * 1e9) / 2)) }

    private func armTicker() { ticker.arm(atNanoseconds: monotonicNanoseconds() + tickInterval) }

    private func tick() {
        ticker.acknowledge()
        server.heartbeat()
        serve()
        if let since = idleSince, Double(monotonicNanoseconds() - since) / 1e9 >= options.idleExit {
            Output.err("gestured ui: no page open for \(options.idleExit.fixed(0)) s; exiting")
            loop.stop()
            return
        }
        armTicker()
    }

    /// The directory (0700, in the runtime directory) of the file the browser is opened on.
    private var opener: String?

    /// xdg-open(1) of a file that leads the browser to a login address of its own, as
    /// Jupyter does: a command line is anyone's to read (/proc/PID/cmdline, of xdg-open
    /// and of the browser it starts), so no secret goes on one. The file is mode 0600 in
    /// a directory of ours (0700), removed at exit; its address works once, and logs in
    /// a session of its own. Not waited for: the browser may run for hours; its exit is
    /// reaped on the loop. A missing xdg-open is said; the printed address works anyway.
    private func openBrowser() {
        guard let path = Self.xdgOpen(options.environment) else {
            Output.err("gestured ui: no xdg-open; open the address above in a browser")
            return
        }
        do {
            let runtime = options.environment["XDG_RUNTIME_DIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
            let directory = try FileSystem.makeTemporaryDirectory(prefix: runtime + "/gestured-open-")
            opener = directory
            let url = try server.newLoginURL()
            let page = """
                <!DOCTYPE html>
                <html><head><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=\(url)"><title>gestured ui</title></head>
                <body><p>Opening <a href="\(url)">the gestured live view</a>…</p></body></html>

                """
            try AtomicFile.write(Array(page.utf8), to: directory + "/open.html", mode: 0o600)
            let pid = try Process.spawn(path, arguments: ["xdg-open", "file://" + directory + "/open.html"], environment: Process.environment(),
                                        stdout: .standardError, stderr: .standardError, newProcessGroup: true)
            reapLater(pid)
        } catch {
            Output.err("gestured ui: cannot run xdg-open: \(error); open the address above in a browser")
        }
    }

    /// xdg-open on `PATH`, else where Debian puts it.
    static func xdgOpen(_ environment: [String: String]) -> String? {
        let path = (environment["PATH"] ?? "").split(separator: ":").filter { $0.hasPrefix("/") }.map { String($0) + "/xdg-open" }
        return (path + ["/usr/bin/xdg-open", "/usr/local/bin/xdg-open", "/bin/xdg-open"]).first(where: FileSystem.isExecutable)
    }

    /// Reaps a child when it exits (its pidfd on the loop), so it leaves no zombie.
    private func reapLater(_ pid: pid_t) {
        guard let fd = try? Process.descriptor(of: pid) else { return }
        let raw = fd.release()
        try? loop.add(raw) { [unowned self] _ in
            _ = try? Process.reap(pid, blocking: false)
            self.loop.remove(raw)
            close(raw.rawValue)
        }
    }
}

/// Local mode's engine: `gestured run --dry-run` as a child, with its control socket in
/// a private directory (mode 0700) so that it is nobody's daemon but ours. Its output
/// goes to our standard error; it stops with us, however we stop (`--ui-parent`).
///
/// Supervised: when it exits (a config with errors, or none, at start; a crash), the
/// pages are told why (`onExit`: its status and the config's errors), and it starts
/// again after `firstDelay`, then twice as long each time up to `longestDelay`; Save
/// starts it at once (`restartNow`). Its exit is its pidfd on the ui's loop.
package final class LocalDaemon {
    package let directory: String
    package var socket: String { directory + "/gestured.sock" }
    /// The child while it runs.
    package private(set) var pid: pid_t?
    /// Told when it exits: why it is not running and when it starts again, and the
    /// config's diagnostics (what `gestured check` says of the file it would run).
    package var onExit: (String, [Diagnostic]) -> Void = { _, _ in }

    /// The first wait before starting again, doubled after each exit up to `longestDelay` (ns).
    package static let firstDelay: Int64 = 1_000_000_000
    package static let longestDelay: Int64 = 30_000_000_000
    /// A run at least this long was no failure at start: the next wait is the first again (ns).
    package static let steadyRun: Int64 = 30_000_000_000

    private let configPath: String?
    private let environment: [String: String]
    private let logger: Logger
    private let loop: EventLoop
    private var exitWatch: OwnedFileDescriptor?
    private var restartTimer: MonotonicTimer
    private var startedAt: Int64 = 0
    private var delay = LocalDaemon.firstDelay
    /// Save asked for a running one to start over: it starts as soon as it has exited.
    private var restartOnExit = false
    private var stopping = false

    package init(configPath: String?, environment: [String: String], loop: EventLoop, logger: Logger) throws {
        let base = environment["XDG_RUNTIME_DIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
        directory = try FileSystem.makeTemporaryDirectory(prefix: base + "/gestured-ui-")
        self.configPath = configPath
        self.environment = environment
        self.logger = logger
        self.loop = loop
        restartTimer = try MonotonicTimer()
        try loop.add(restartTimer.descriptor) { [unowned self] _ in
            self.restartTimer.acknowledge()
            if self.pid == nil { self.start() }
        }
        start()
    }

    private func start() {
        // A daemon that stopped (Save restarts a running one) took its directory with it:
        // made again, and it must be ours alone, not something another user put there.
        do throws(Errno) {
            try FileSystem.makeDirectory(directory, mode: 0o700)
            let st = try FileSystem.linkStatus(directory)
            guard st.isDirectory, st.owner == Process.userID, st.permissions & 0o077 == 0 else {
                return notRunning("the private daemon's directory \(directory) is no longer this process's own (uid \(st.owner), mode 0\(String(st.permissions, radix: 8)))", [])
            }
        } catch {
            return notRunning("the private daemon's directory \(directory) cannot be made: \(error)", [])
        }
        // --ui-parent: it stops when we do, even killed with SIGKILL, and takes the directory with it.
        var args = ["gestured", "run", "--dry-run", "--quiet", "--control-socket", socket, "--ui-parent", String(getpid())]
        if let configPath { args += ["--config", configPath] }
        let child: pid_t
        do {
            child = try Process.spawn("/proc/self/exe", arguments: args, environment: Process.environment().filter { !$0.hasPrefix("NOTIFY_SOCKET=") },
                                      stdout: FileDescriptor.standardError, stderr: .standardError, newProcessGroup: true)
        } catch {
            return notRunning("the private daemon could not be started: \(error)", [])
        }
        do {
            let watch = try Process.descriptor(of: child)
            try loop.add(watch.descriptor) { [unowned self] _ in self.exited() }
            exitWatch = consume watch
        } catch {
            Process.signalGroup(child, SIGKILL)
            _ = try? Process.reap(child, blocking: true)
            return notRunning("the private daemon's exit cannot be watched: \(error)", [])
        }
        pid = child
        startedAt = monotonicNanoseconds()
        logger.notice("no daemon running: started a private one in dry run (pid \(child)); commands are shown, not run")
    }

    /// Its pidfd is readable: reaped (no wait: it has exited), then started again.
    private func exited() {
        guard let child = pid else { return }
        if let fd = exitWatch?.descriptor { loop.remove(fd) }
        exitWatch = nil
        pid = nil
        let status = (try? Process.reap(child, blocking: true)) ?? nil
        guard !stopping else { return }
        if restartOnExit {
            restartOnExit = false
            return start()
        }
        if monotonicNanoseconds() - startedAt >= Self.steadyRun { delay = Self.firstDelay }
        let how = status.map { $0 & 0x7f == 0 ? "exited with status \(($0 >> 8) & 0xff)" : "was killed by \(Signals.name($0 & 0x7f))" } ?? "exited"
        let source = resolveConfigPath(explicit: configPath, environment: environment)
        let diagnostics = ConfigLoader.load(source).1.filter(\.isError)
        var why = "the private daemon (pid \(child)) \(how)"
        if !diagnostics.isEmpty {
            let file = if case .file(let path) = source { path } else { "the built-in default" }
            why += "; \(file) has \(diagnostics.count) error\(diagnostics.count == 1 ? "" : "s"): "
                + diagnostics.prefix(3).map(\.description).joined(separator: "; ")
        }
        notRunning(why, diagnostics)
    }

    /// Says why it is not running, and starts it again after the delay, doubled for the next time.
    private func notRunning(_ why: String, _ diagnostics: [Diagnostic]) {
        let message = "\(why). It starts again in \(delay / 1_000_000_000) s, and at once when you Save."
        logger.warning("gestured ui: \(message)")
        onExit(message, diagnostics)
        restartTimer.arm(atNanoseconds: monotonicNanoseconds() + delay)
        delay = min(delay * 2, Self.longestDelay)
    }

    /// After a Save: one that is not running starts now (and its next wait is the first
    /// again); a running one starts over if `evenIfRunning` (it runs the built-in default,
    /// and Save made the user's own file). What to tell the page, or nil: it runs on, to
    /// be asked to reload.
    package func restartNow(evenIfRunning: Bool) -> String? {
        delay = Self.firstDelay
        if let pid {
            guard evenIfRunning else { return nil }
            restartOnExit = true
            Process.signalGroup(pid, SIGTERM)
            return "the private daemon starts again, on the saved file"
        }
        restartTimer.arm(atNanoseconds: nil)
        start()
        return pid == nil ? "error: the private daemon could not be started again" : "the private daemon was not running; started it again, on the saved file"
    }

    package func stop() {
        stopping = true
        restartTimer.arm(atNanoseconds: nil)
        if let pid {
            Process.signalGroup(pid, SIGTERM)
            _ = try? Process.reap(pid, blocking: true)
        }
        FileSystem.remove(socket)
        FileSystem.remove(directory)
    }
}
