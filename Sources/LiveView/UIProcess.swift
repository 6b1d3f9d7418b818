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
        } else if let path = ControlPath.resolve(env), (try? StreamSocket.connect(to: path)) != nil {
            mode = .daemon
        } else {
            mode = .local
            let local = try LocalDaemon(configPath: options.configPath, environment: env, logger: logger)
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
package final class LocalDaemon {
    package let directory: String
    package var socket: String { directory + "/gestured.sock" }
    private let pid: pid_t

    package init(configPath: String?, environment: [String: String], logger: Logger) throws {
        let base = environment["XDG_RUNTIME_DIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
        directory = try FileSystem.makeTemporaryDirectory(prefix: base + "/gestured-ui-")
        // --ui-parent: it stops when we do, even killed with SIGKILL, and takes the directory with it.
        var args = ["gestured", "run", "--dry-run", "--quiet", "--control-socket", directory + "/gestured.sock", "--ui-parent", String(getpid())]
        if let configPath { args += ["--config", configPath] }
        pid = try Process.spawn("/proc/self/exe", arguments: args, environment: Process.environment().filter { !$0.hasPrefix("NOTIFY_SOCKET=") },
                                stdout: FileDescriptor.standardError, stderr: .standardError, newProcessGroup: true)
        logger.notice("no daemon running: started a private one in dry run (pid \(pid)); commands are shown, not run")
    }

    package func stop() {
        Process.signalGroup(pid, SIGTERM)
        _ = try? Process.reap(pid, blocking: true)
        FileSystem.remove(socket)
        FileSystem.remove(directory)
    }
}
