import DaemonCore
import GestureConfig
import Glibc
import LinuxSystem

/// Runs commands without ever blocking its caller.
///
/// Each command is started by `CommandSpawner` (`/bin/sh -c COMMAND`, or a plain
/// command without the shell) in its own process group, its stdout/stderr piped
/// into `log` line by line, tagged with the gesture's name. This type decides when
/// and for how long: the commands of one gesture run one after another (a bounded
/// queue each); at most `maxChildren` run at once and past that new commands are
/// dropped with a warning; a command still running after `commandTimeout` is killed
/// with its whole process group.
///
/// The runner exposes one file descriptor, `fd` (an epoll set holding the children's
/// pidfds and pipes and a timerfd for timeouts): when it is readable, call
/// `handleEvents()`. The daemon adds it to its own epoll loop.
///
/// Children are reaped through their pidfds, so the daemon must not reap with
/// `waitpid(-1, …)` nor set SIGCHLD to SIG_IGN.
public final class CommandRunner: InvocationSink {
    public private(set) var settings: Settings
    private let epoll: Epoll
    /// The epoll descriptor to watch for readability.
    public var fd: FileDescriptor { epoll.descriptor }

    private let log: (LogPriority, String) -> Void
    private let clock: () -> Int64
    private let spawner: CommandSpawner
    private var timer: MonotonicTimer
    /// Seconds between a timed-out command's SIGTERM and its SIGKILL.
    private let killGrace: Double

    private final class Child {
        let pid: pid_t
        /// Readable when the child exits; closed when it is reaped.
        let pidfd: OwnedFileDescriptor
        let gesture: String
        let trigger: String
        let command: String
        let origin: TriggerOrigin?
        let started: Int64
        /// When the timeout strikes; after a SIGTERM, when the grace ends.
        var deadline: Int64
        var stage = Stage.running

        init(pid: pid_t, pidfd: consuming OwnedFileDescriptor, gesture: String, trigger: String, command: String, origin: TriggerOrigin?,
             started: Int64, deadline: Int64) {
            self.origin = origin
            self.pid = pid
            self.pidfd = pidfd
            self.gesture = gesture
            self.trigger = trigger
            self.command = command
            self.started = started
            self.deadline = deadline
        }
    }
    /// A command past its timeout gets SIGTERM (a chance to clean up), then SIGKILL
    /// once `killGrace` has passed, each to its whole process group.
    private enum Stage { case running, terminated, killed }
    private struct Queue {
        var running: Int?
        var waiting: [Invocation] = []
    }
    private var children: [Int: Child] = [:]
    private var readers: [Int: OutputReader] = [:]
    private var queues: [String: Queue] = [:]
    private var nextID = 1
    /// Commands dropped since a gesture's first drop was logged: a fast pan against a
    /// slow command would otherwise log a warning per step.
    private var dropped: [String: Int] = [:]
    private var events = [Epoll.Event](repeating: Epoll.Event(), count: 64)

    private static let timerTag: UInt64 = 0
    private static let childTag: UInt64 = 1 << 32
    private static let readerTag: UInt64 = 2 << 32

    /// Pipes still open after their child was reaped (a background grandchild holds
    /// them); past this many the oldest is closed.
    private var maxOrphanReaders: Int { settings.maxChildren * 2 }

    /// - Parameters:
    ///   - log: receives every line the runner has to say, and the commands' output.
    ///   - clock: CLOCK_MONOTONIC in ns, for output rate limits (injectable so tests
    ///     can freeze it). Timeouts always use the kernel's CLOCK_MONOTONIC, as the timerfd does.
    ///   - shell: the interpreter of `-c COMMAND`.
    ///   - environment: `NAME=value` entries every command inherits; the daemon's own by default.
    ///   - killGrace: seconds a timed-out command has between SIGTERM and SIGKILL.
    public init(settings: Settings, log: @escaping (LogPriority, String) -> Void,
                clock: @escaping () -> Int64 = monotonicNanoseconds,
                shell: String = "/bin/sh", environment: [String]? = nil, killGrace: Double = 2) throws(SystemCallError) {
        self.settings = settings
        self.killGrace = killGrace
        self.log = log
        self.clock = clock
        spawner = CommandSpawner(shell: shell, environment: environment ?? Process.environment())
        do throws(Errno) { epoll = try Epoll() } catch { throw SystemCallError("epoll_create1", error) }
        do throws(Errno) { timer = try MonotonicTimer() } catch { throw SystemCallError("timerfd_create", error) }
        do throws(Errno) { try epoll.add(timer.descriptor, tag: Self.timerTag) } catch { throw SystemCallError("epoll_ctl", error) }
    }

    deinit { terminateAll() }

    /// New limits after a config reload; running commands keep their deadlines.
    public func update(settings: Settings) { self.settings = settings }

    /// Told what became of each command (the event stream): started, dropped, and how
    /// it ended. Arguments: gesture, trigger (`command`, `begin`, …), command text, who asked when not a gesture (`gestured trigger`, a shortcut).
    public var onOutcome: ((String, String, String, TriggerOrigin?, ActionOutcome) -> Void)?

    public var runningCount: Int { children.count }
    /// Nothing running, waiting, or left to read.
    public var isIdle: Bool { children.isEmpty && readers.isEmpty && queues.values.allSatisfy { $0.waiting.isEmpty } }
    /// The pids of the commands running now.
    public var runningPIDs: [pid_t] { children.values.map(\.pid) }

    // MARK: Submitting

    public func submit(_ inv: Invocation) {
        var q = queues[inv.gesture] ?? Queue()
        defer { queues[inv.gesture] = q.running == nil && q.waiting.isEmpty ? nil : q }
        if q.running != nil {
            guard q.waiting.count < settings.queueLength else {
                drop(inv, "\(plural(q.waiting.count, "command")) already waiting (queue-length)")
                return
            }
            q.waiting.append(inv)
            return
        }
        q.running = start(inv)
    }

    /// Starts `inv` if under the cap; returns the child's id.
    private func start(_ inv: Invocation) -> Int? {
        guard children.count < settings.maxChildren else {
            drop(inv, "\(plural(children.count, "command")) already running (max-children)")
            return nil
        }
        switch spawn(inv) {
        case .failure(let e):
            log(.error, "[\(inv.gesture)] cannot run its '\(inv.trigger)' command: \(e)")
            onOutcome?(inv.gesture, inv.trigger, inv.command, inv.origin, .dropped)
            return nil
        case .success(let id):
            if let c = children[id] { onOutcome?(inv.gesture, inv.trigger, inv.command, inv.origin, .started(pid: c.pid)) }
            if let more = dropped.removeValue(forKey: inv.gesture), more > 0 {
                log(.warning, "[\(inv.gesture)] \(more) more of its \(more == 1 ? "command was" : "commands were") dropped while it was busy")
            }
            return id
        }
    }

    /// Logs the first drop of a run of drops; counts the rest until the gesture runs again.
    private func drop(_ inv: Invocation, _ why: String) {
        onOutcome?(inv.gesture, inv.trigger, inv.command, inv.origin, .dropped)
        if let n = dropped[inv.gesture] {
            dropped[inv.gesture] = n + 1
        } else {
            dropped[inv.gesture] = 0
            log(.warning, "[\(inv.gesture)] \(why); dropped its '\(inv.trigger)' command")
        }
    }

    // MARK: Events

    /// Handles whatever is ready: output, exits, timeouts. Never blocks.
    public func handleEvents() {
        while true {
            let n = (try? epoll.wait(into: &events, timeoutMS: 0)) ?? 0
            guard n > 0 else { return }
            for e in events[0..<n] {
                let id = Int(e.data & 0xffff_ffff)
                switch e.data & ~0xffff_ffff {
                case Self.timerTag: expireTimeouts()
                case Self.childTag: reap(id)
                default: readOutput(id)
                }
            }
            if n < events.count { return }
        }
    }

    private func readOutput(_ id: Int) {
        guard let r = readers[id] else { return }
        if !r.drain(now: clock(), log: log) { closeReader(id) }
    }

    private func closeReader(_ id: Int) {
        guard let r = readers.removeValue(forKey: id) else { return }
        epoll.remove(r.fd)   // the reader closes its pipe as it goes
    }

    private func reap(_ id: Int) {
        guard let c = children[id] else { return }
        let status: Int32?
        do throws(Errno) {
            guard let s = try Process.reap(c.pid, blocking: false) else { return }
            status = s
        } catch {
            guard error == .noChildProcess else { return }
            status = nil
        }
        children[id] = nil
        epoll.remove(c.pidfd.descriptor)
        // Output written before the exit comes before the next command's.
        for (rid, reader) in readers where reader.child == id {
            reader.child = nil
            if !reader.drain(now: clock(), log: log) { closeReader(rid) }
        }
        limitOrphans()
        logExit(c, status: status)
        onOutcome?(c.gesture, c.trigger, c.command, c.origin, Self.outcome(c, status: status))
        armTimer()
        startNext(of: c.gesture)
    }

    private func startNext(of gesture: String) {
        guard var q = queues[gesture] else { return }
        q.running = nil
        while q.running == nil, !q.waiting.isEmpty {
            q.running = start(q.waiting.removeFirst())
        }
        queues[gesture] = q.running == nil && q.waiting.isEmpty ? nil : q
    }

    private static func outcome(_ c: Child, status: Int32?) -> ActionOutcome {
        guard let status, status & 0x7f != 0 else { return .exited(pid: c.pid, status: status.map { ($0 >> 8) & 0xff }) }
        return c.stage == .running ? .killed(pid: c.pid, signal: status & 0x7f) : .timedOut(pid: c.pid)
    }

    private func logExit(_ c: Child, status: Int32?) {
        let ms = (monotonicNanoseconds() - c.started) / 1_000_000
        let what = "[\(c.gesture)] '\(c.trigger)' command"
        guard let status else {
            log(.warning, "\(what) was reaped by someone else; its exit status is unknown")
            return
        }
        let signal = status & 0x7f
        if signal == 0 {
            let code = (status >> 8) & 0xff
            switch code {
            case 0: log(.debug, "\(what) exited successfully after \(ms)ms")
            case 126: log(.warning, "\(what) exited with status 126 (not executable)")
            case 127: log(.warning, "\(what) exited with status 127 (command not found)")
            default: log(.warning, "\(what) exited with status \(code)")
            }
        } else if c.stage == .running {
            log(.warning, "\(what) was killed by signal \(signal) (\(Signals.name(signal)))")
        }
    }

    // MARK: Timeouts

    private func expireTimeouts() {
        timer.acknowledge()
        let now = monotonicNanoseconds()
        for c in children.values where c.stage != .killed && c.deadline <= now {
            let what = "[\(c.gesture)] '\(c.trigger)' command"
            switch c.stage {
            case .running:
                c.stage = .terminated
                c.deadline = now + Int64(killGrace * 1e9)
                Process.signalGroup(c.pid, SIGTERM)
                log(.warning, "\(what) still running after \(formatSeconds(settings.commandTimeout)); sent SIGTERM to its process group")
            case .terminated:
                c.stage = .killed
                Process.signalGroup(c.pid, SIGKILL)
                log(.warning, "\(what) ignored SIGTERM for \(formatSeconds(killGrace)); killed its process group")
            case .killed:
                break
            }
        }
        armTimer()
    }

    private func armTimer() {
        timer.arm(atNanoseconds: children.values.filter { $0.stage != .killed }.map(\.deadline).min())
    }

    // MARK: Shutting down

    /// Kills every command's process group and reaps them (daemon exit). Blocks only
    /// for the moment SIGKILL takes.
    public func terminateAll() {
        for (id, c) in children {
            Process.signalGroup(c.pid, SIGKILL)
            _ = try? Process.reap(c.pid, blocking: true)
            epoll.remove(c.pidfd.descriptor)
            children[id] = nil
        }
        for id in Array(readers.keys) { closeReader(id) }
        queues.removeAll()
        dropped.removeAll()
        armTimer()
    }

    private func limitOrphans() {
        let orphans = readers.filter { $0.value.child == nil }.keys.sorted()
        for id in orphans.dropLast(maxOrphanReaders) {
            readers[id]?.finish(now: clock(), log: log)
            closeReader(id)
        }
    }

    // MARK: Spawning

    private func spawn(_ inv: Invocation) -> Result<Int, SystemCallError> {
        let spawned: CommandSpawner.Spawned
        do throws(SystemCallError) { spawned = try spawner.spawn(inv) } catch { return .failure(error) }
        let id = nextID
        nextID += 1
        let now = monotonicNanoseconds()
        let pid = spawned.pid
        let child = Child(pid: pid, pidfd: spawned.pidfd, gesture: inv.gesture, trigger: inv.trigger, command: inv.command, origin: inv.origin, started: now,
                          deadline: now + Int64(settings.commandTimeout * 1e9))
        children[id] = child
        try? epoll.add(child.pidfd.descriptor, tag: Self.childTag | UInt64(id))
        watchOutput(spawned.stdout, of: id, gesture: inv.gesture, priority: .info)
        watchOutput(spawned.stderr, of: id, gesture: inv.gesture, priority: .notice)
        armTimer()
        log(.debug, "[\(inv.gesture)] running its '\(inv.trigger)' command (pid \(pid))")
        return .success(id)
    }

    private func watchOutput(_ pipe: consuming OwnedFileDescriptor, of child: Int, gesture: String, priority: LogPriority) {
        let rid = nextID
        nextID += 1
        let reader = OutputReader(pipe: pipe, gesture: gesture, priority: priority, child: child)
        readers[rid] = reader
        try? epoll.add(reader.fd, tag: Self.readerTag | UInt64(rid))
    }
}

private func plural(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }

private func formatSeconds(_ s: Double) -> String {
    s == s.rounded() ? "\(Int(s))s" : "\(Int((s * 1000).rounded()))ms"
}
