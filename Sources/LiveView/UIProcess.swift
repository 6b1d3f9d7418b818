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

    /// Prints the URL (the first line, flushed: scripts and tests read it), opens it,
    /// and runs until a signal or the idle exit.
    package func run() -> Gestured.ExitCode {
        Output.out(server.url)
        Output.err("gestured ui: \(mode.rawValue) mode; open \(server.url) (Ctrl-C to stop)")
        if options.open { openBrowser() }
        feed?.connect()
        armTicker()
        loop.run()
        server.http.stop()
        localDaemon?.stop()
        return .success
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

    /// xdg-open(1), not waited for: the browser may run for hours. Its exit is reaped by
    /// init once we are gone; a missing xdg-open is said, and the URL is printed anyway.
    private func openBrowser() {
        let path = ["/usr/bin/xdg-open", "/usr/local/bin/xdg-open", "/bin/xdg-open"].first(where: FileSystem.isExecutable)
        guard let path else {
            Output.err("gestured ui: no xdg-open; open the URL above in a browser")
            return
        }
        do {
            let pid = try Process.spawn(path, arguments: ["xdg-open", server.url], environment: Process.environment(),
                                        stdout: .standardError, stderr: .standardError, newProcessGroup: true)
            reapLater(pid)
        } catch {
            Output.err("gestured ui: cannot run xdg-open: \(error); open the URL above in a browser")
        }
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
