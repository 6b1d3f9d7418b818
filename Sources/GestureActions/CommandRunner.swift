import CLinux
import GestureConfig
import Glibc

/// Runs commands without ever blocking its caller.
///
/// Each command is `/bin/sh -c COMMAND` (a plain one, without the shell: see
/// `plainArgv`), started with `posix_spawn` in its own
/// process group, with an empty signal mask and default signal dispositions, stdin
/// from /dev/null and stdout/stderr piped into `log` line by line, tagged with the
/// gesture's name. The commands of one gesture run one after another (a bounded
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
    /// The epoll descriptor to watch for readability.
    public let fd: Int32

    private let log: (LogPriority, String) -> Void
    private let clock: () -> Int64
    private let shell: String
    private let baseEnvironment: [String]
    private let timerFD: Int32
    /// Seconds between a timed-out command's SIGTERM and its SIGKILL.
    private let killGrace: Double

    private struct Child {
        var pid: pid_t
        var pidfd: Int32
        var gesture: String
        var trigger: String
        var started: Int64
        /// When the timeout strikes; after a SIGTERM, when the grace ends.
        var deadline: Int64
        var stage = Stage.running
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
    private var armedDeadline: Int64 = 0

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
                clock: @escaping () -> Int64 = { clinux_monotonic_ns() },
                shell: String = "/bin/sh", environment: [String]? = nil, killGrace: Double = 2) throws(RunnerError) {
        self.settings = settings
        self.killGrace = killGrace
        self.log = log
        self.clock = clock
        self.shell = shell
        self.baseEnvironment = (environment ?? Self.processEnvironment()).filter { !$0.hasPrefix("GESTURE_") }
        let ep = clinux_epoll_create()
        guard ep >= 0 else { throw RunnerError(call: "epoll_create1", errno: errno) }
        let tfd = clinux_timerfd_create()
        guard tfd >= 0 else {
            let e = errno
            close(ep)
            throw RunnerError(call: "timerfd_create", errno: e)
        }
        guard clinux_epoll_add(ep, tfd, CLINUX_EPOLLIN, Self.timerTag) == 0 else {
            let e = errno
            close(ep); close(tfd)
            throw RunnerError(call: "epoll_ctl", errno: e)
        }
        fd = ep
        timerFD = tfd
    }

    deinit {
        terminateAll()
        close(timerFD)
        close(fd)
    }

    /// New limits after a config reload; running commands keep their deadlines.
    public func update(settings: Settings) { self.settings = settings }

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
            return nil
        case .success(let id):
            if let more = dropped.removeValue(forKey: inv.gesture), more > 0 {
                log(.warning, "[\(inv.gesture)] \(more) more of its \(more == 1 ? "command was" : "commands were") dropped while it was busy")
            }
            return id
        }
    }

    /// Logs the first drop of a run of drops; counts the rest until the gesture runs again.
    private func drop(_ inv: Invocation, _ why: String) {
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
        var events = [clinux_epoll_event](repeating: clinux_epoll_event(), count: 64)
        while true {
            let n = clinux_epoll_wait(fd, &events, Int32(events.count), 0)
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return }
            for e in events[0..<Int(n)] {
                let id = Int(e.data & 0xffff_ffff)
                switch e.data & ~0xffff_ffff {
                case Self.timerTag: expireTimeouts()
                case Self.childTag: reap(id)
                default: readOutput(id)
                }
            }
            if n < Int32(events.count) { return }
        }
    }

    private func readOutput(_ id: Int) {
        guard let r = readers[id] else { return }
        if !r.drain(now: clock(), log: log) { closeReader(id) }
    }

    private func closeReader(_ id: Int) {
        guard let r = readers.removeValue(forKey: id) else { return }
        clinux_epoll_del(fd, r.fd)
        close(r.fd)
    }

    private func reap(_ id: Int) {
        guard let c = children[id] else { return }
        var status: Int32 = 0
        let r = waitpid(c.pid, &status, WNOHANG)
        guard r == c.pid || (r < 0 && errno == ECHILD) else { return }
        children[id] = nil
        clinux_epoll_del(fd, c.pidfd)
        close(c.pidfd)
        // Output written before the exit comes before the next command's.
        for (rid, reader) in readers where reader.child == id {
            reader.child = nil
            if !reader.drain(now: clock(), log: log) { closeReader(rid) }
        }
        limitOrphans()
        logExit(c, status: r < 0 ? nil : status)
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

    private func logExit(_ c: Child, status: Int32?) {
        let ms = (clinux_monotonic_ns() - c.started) / 1_000_000
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
            log(.warning, "\(what) was killed by signal \(signal) (\(signalName(signal)))")
        }
    }

    // MARK: Timeouts

    private func expireTimeouts() {
        var expirations: UInt64 = 0
        _ = read(timerFD, &expirations, 8)
        armedDeadline = 0
        let now = clinux_monotonic_ns()
        for (id, c) in children where c.stage != .killed && c.deadline <= now {
            let what = "[\(c.gesture)] '\(c.trigger)' command"
            switch c.stage {
            case .running:
                children[id]?.stage = .terminated
                children[id]?.deadline = now + Int64(killGrace * 1e9)
                kill(-c.pid, SIGTERM)
                log(.warning, "\(what) still running after \(formatSeconds(settings.commandTimeout)); sent SIGTERM to its process group")
            case .terminated:
                children[id]?.stage = .killed
                kill(-c.pid, SIGKILL)
                log(.warning, "\(what) ignored SIGTERM for \(formatSeconds(killGrace)); killed its process group")
            case .killed:
                break
            }
        }
        armTimer()
    }

    private func armTimer() {
        let next = children.values.filter { $0.stage != .killed }.map(\.deadline).min() ?? 0
        guard next != armedDeadline else { return }
        armedDeadline = next
        _ = clinux_timerfd_arm_absolute(timerFD, next)
    }

    // MARK: Shutting down

    /// Kills every command's process group and reaps them (daemon exit). Blocks only
    /// for the moment SIGKILL takes.
    public func terminateAll() {
        for (id, c) in children {
            kill(-c.pid, SIGKILL)
            var status: Int32 = 0
            while waitpid(c.pid, &status, 0) < 0 && errno == EINTR {}
            clinux_epoll_del(fd, c.pidfd)
            close(c.pidfd)
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

    private func spawn(_ inv: Invocation) -> Result<Int, RunnerError> {
        var out: [Int32] = [0, 0], err: [Int32] = [0, 0]
        guard clinux_pipe2(&out, O_CLOEXEC) == 0 else { return .failure(RunnerError(call: "pipe2", errno: errno)) }
        guard clinux_pipe2(&err, O_CLOEXEC) == 0 else {
            let e = errno
            close(out[0]); close(out[1])
            return .failure(RunnerError(call: "pipe2", errno: e))
        }
        defer { close(out[1]); close(err[1]) }
        let result = posixSpawn(inv, stdout: out[1], stderr: err[1])
        guard case .success(let pid) = result else {
            close(out[0]); close(err[0])
            return result.map { _ in 0 }
        }
        let pidfd = clinux_pidfd_open(pid)
        guard pidfd >= 0 else {
            let e = errno
            kill(-pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            close(out[0]); close(err[0])
            return .failure(RunnerError(call: "pidfd_open", errno: e))
        }
        let id = nextID
        nextID += 1
        let now = clinux_monotonic_ns()
        children[id] = Child(pid: pid, pidfd: pidfd, gesture: inv.gesture, trigger: inv.trigger, started: now,
                             deadline: now + Int64(settings.commandTimeout * 1e9))
        clinux_epoll_add(fd, pidfd, CLINUX_EPOLLIN, Self.childTag | UInt64(id))
        for (pipeFD, priority) in [(out[0], LogPriority.info), (err[0], LogPriority.notice)] {
            _ = fcntl(pipeFD, F_SETFL, fcntl(pipeFD, F_GETFL) | O_NONBLOCK)
            let rid = nextID
            nextID += 1
            readers[rid] = OutputReader(fd: pipeFD, gesture: inv.gesture, priority: priority, child: id)
            clinux_epoll_add(fd, pipeFD, CLINUX_EPOLLIN, Self.readerTag | UInt64(rid))
        }
        armTimer()
        log(.debug, "[\(inv.gesture)] running its '\(inv.trigger)' command (pid \(pid))")
        return .success(id)
    }

    /// posix_spawn(3) of `shell -c command` with the child set up as the type comment says.
    private func posixSpawn(_ inv: Invocation, stdout: Int32, stderr: Int32) -> Result<pid_t, RunnerError> {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, stdout, 1)
        posix_spawn_file_actions_adddup2(&actions, stderr, 2)
        // Descriptors the daemon opened without O_CLOEXEC must not leak into commands.
        clinux_posix_spawn_file_actions_addclosefrom(&actions, 3)

        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attr, &none)     // the daemon blocks signals for its signalfd
        posix_spawnattr_setsigdefault(&attr, &all)   // and may ignore some (SIGPIPE)
        posix_spawnattr_setpgroup(&attr, 0)          // own group: a timeout kills grandchildren too
        posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        let envp = baseEnvironment + inv.environment.map { "\($0.name)=\($0.value)" }
        // A plain command skips the shell (see `plainArgv`); one the PATH cannot find goes
        // through the shell after all, which reports it as users expect ("not found", 127).
        var program = shell
        var argv = [shell, "-c", inv.command]
        if let words = Self.plainArgv(inv.command), let path = Self.resolve(words[0], environment: envp) {
            program = path
            argv = words
        }
        var pid: pid_t = 0
        let rc = withCStrings(argv) { cargv in
            withCStrings(envp) { cenvp in
                posix_spawn(&pid, program, &actions, &attr, cargv, cenvp)
            }
        }
        guard rc == 0 else { return .failure(RunnerError(call: "posix_spawn \(program)", errno: rc)) }
        return .success(pid)
    }

    /// Words a shell would pass through untouched: no quoting, expansion, globbing,
    /// redirection, operators or assignments, and not a shell builtin or keyword. Such
    /// a command runs without `/bin/sh`: one process start instead of two (the shell,
    /// then the command), which is most of the gesture-to-command latency. Anything
    /// else goes through `sh -c`, as written.
    static func plainArgv(_ command: String) -> [String]? {
        guard !command.isEmpty, command.utf8.count <= 4096 else { return nil }
        var words: [String] = []
        for word in command.split(whereSeparator: { $0 == " " || $0 == "\t" }) {
            guard word.unicodeScalars.allSatisfy(isPlain) else { return nil }
            words.append(String(word))
        }
        guard let first = words.first, !first.contains("="), !shellOnlyWords.contains(first) else { return nil }
        return words
    }

    private static func isPlain(_ c: Unicode.Scalar) -> Bool {
        switch c {
        case "a"..."z", "A"..."Z", "0"..."9", "_", ".", "/", ":", "+", ",", "@", "%", "=", "-": return true
        default: return false
        }
    }

    /// Builtins and keywords: no program of that name would do what the shell does.
    static let shellOnlyWords: Set<String> = [
        "cd", "exit", "export", "unset", "set", "alias", "unalias", "eval", "exec", ".", "source", "read",
        "wait", "trap", "shift", "return", "break", "continue", "local", "readonly", "times", "type",
        "ulimit", "umask", "command", "hash", "getopts", "jobs", "fg", "bg", "if", "then", "else", "elif",
        "fi", "for", "while", "until", "do", "done", "case", "esac", "in", "function", "select",
    ]

    /// The executable `name` names, searched on the command's own PATH as the shell would.
    static func resolve(_ name: String, environment: [String]) -> String? {
        if name.contains("/") { return access(name, X_OK) == 0 ? name : nil }
        let path = environment.last { $0.hasPrefix("PATH=") }.map { String($0.dropFirst(5)) } ?? "/usr/local/bin:/usr/bin:/bin"
        for dir in path.split(separator: ":", omittingEmptySubsequences: false) {
            let candidate = (dir.isEmpty ? "." : String(dir)) + "/" + name
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// The process's environment, `NAME=value` entries in order.
    public static func processEnvironment() -> [String] {
        var out: [String] = []
        var p = environ
        while let entry = p.pointee {
            out.append(String(cString: entry))
            p += 1
        }
        return out
    }
}

/// A system call that failed, with the errno's name and text.
public struct RunnerError: Error, CustomStringConvertible, Sendable {
    public var call: String
    public var errno: Int32
    public var description: String { "\(call): \(String(cString: strerror(errno)))" }
}

/// A NULL-terminated `char *[]` for the duration of `body`.
private func withCStrings<R>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
    let c = strings.map { strdup($0) } + [nil]
    defer { c.forEach { free($0) } }
    return body(c)
}

private func signalName(_ s: Int32) -> String {
    switch s {
    case SIGKILL: return "SIGKILL"
    case SIGTERM: return "SIGTERM"
    case SIGINT: return "SIGINT"
    case SIGSEGV: return "SIGSEGV"
    case SIGABRT: return "SIGABRT"
    case SIGPIPE: return "SIGPIPE"
    case SIGHUP: return "SIGHUP"
    default: return "signal \(s)"
    }
}

private func plural(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }

private func formatSeconds(_ s: Double) -> String {
    s == s.rounded() ? "\(Int(s))s" : "\(Int((s * 1000).rounded()))ms"
}
