import CLinux
import GestureTestSupport
import Glibc

/// Runs cases as child processes, a few at a time, each with a wall-time limit: a
/// crash (death by a signal) or a hang (killed at the limit) is recorded, never
/// taken down with the harness. Exits are awaited on pidfds with poll(2).
///
/// Each case runs under `gestured-fuzz --measure`, a small process that spawns
/// `gestured`, enforces the limit, writes its peak RSS (wait4's rusage) to stdout and
/// then exits as it did. Why not spawn `gestured` from here: a posix_spawn child
/// shares this process's memory until it execs, and Linux then carries this
/// process's high-water RSS (with its corpus and a 30 MB mutated case: 109 MB) into
/// the child's `ru_maxrss`.
struct Runner {
    struct Outcome {
        /// The signal that ended the child, if one did (SIGKILL at the limit is a hang).
        var signal: Int32?
        var exitCode: Int32?
        var hung: Bool
        var maxRSSKB: Int
        var seconds: Double
    }

    let binary: String
    let timeoutNS: Int64
    let jobs: Int
    /// Where the measuring processes write their figures.
    let workDir: String
    /// This executable, which runs `--measure`.
    let harness: String
    /// Exit status of `--measure` when it killed `gestured` at the limit.
    static let hangStatus: Int32 = 124

    private struct Running {
        var pid: pid_t
        var pidFD: Int32
        var started: Int64
        var killed = false
        var index: Int
    }

    /// Runs `cases` (argv without the binary), calling `done` with each outcome as it comes.
    func run(_ cases: Int, argv: (Int) -> [String], done: (Int, Outcome) -> Void) {
        var running: [Running] = []
        var next = 0
        while next < cases || !running.isEmpty {
            while running.count < jobs && next < cases {
                if let r = spawn(argv(next), index: next) { running.append(r) } else {
                    done(next, Outcome(signal: nil, exitCode: 127, hung: false, maxRSSKB: 0, seconds: 0))
                }
                next += 1
            }
            guard !running.isEmpty else { continue }
            let now = clinux_monotonic_ns()
            var fds = running.map { pollfd(fd: $0.pidFD, events: Int16(POLLIN), revents: 0) }
            let soonest = running.map { $0.killed ? now + 100_000_000 : $0.started + backstopNS }.min()!
            let waitMS = Int32(max(0, min(1000, (soonest - now) / 1_000_000 + 1)))
            _ = poll(&fds, nfds_t(fds.count), waitMS)
            var still: [Running] = []
            let t = clinux_monotonic_ns()
            for (i, var r) in running.enumerated() {
                if fds[i].revents & Int16(POLLIN) != 0 {
                    done(r.index, reap(r, at: t))
                    continue
                }
                if !r.killed && t - r.started > backstopNS {
                    kill(r.pid, SIGKILL)
                    r.killed = true
                }
                still.append(r)
            }
            running = still
        }
    }

    /// The measuring process has the limit; this one only stops it if it overruns.
    private var backstopNS: Int64 { timeoutNS + 5_000_000_000 }

    private func figures(_ index: Int) -> String { workDir + "/rss-\(index)" }

    private func reap(_ r: Running, at t: Int64) -> Outcome {
        var status: Int32 = 0
        while waitpid(r.pid, &status, 0) < 0 && errno == EINTR {}
        close(r.pidFD)
        let rss = readFile(figures(r.index)).flatMap { Int(String(decoding: $0, as: UTF8.self).split(separator: "\n").first ?? "") }
        unlink(figures(r.index))
        let sig = status & 0x7f
        let code = sig == 0 ? (status >> 8) & 0xff : nil
        return Outcome(signal: sig != 0 && !r.killed ? sig : nil, exitCode: code,
                       hung: r.killed || code == Self.hangStatus, maxRSSKB: rss ?? 0, seconds: Double(t - r.started) / 1e9)
    }

    /// `gestured-fuzz --measure TIMEOUT_NS BINARY ARGS…`: runs one case, kills it at the
    /// limit (exit 124), writes `ru_maxrss` (KB) to stdout, then exits with its status
    /// or raises its signal.
    static func measure(_ args: [String]) -> Never {
        guard args.count >= 2, let timeoutNS = Int64(args[0]) else { exit(2) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        guard case .success(let pid) = spawnChild(args[1], Array(args.dropFirst(2)), actions: &actions) else { exit(127) }
        let pidFD = clinux_pidfd_open(pid)
        var fds = [pollfd(fd: pidFD, events: Int16(POLLIN), revents: 0)]
        let deadline = clinux_monotonic_ns() + timeoutNS
        var hung = false
        while fds[0].revents & Int16(POLLIN) == 0 {
            let left = deadline - clinux_monotonic_ns()
            guard left > 0 else { kill(pid, SIGKILL); hung = true; break }
            _ = poll(&fds, 1, Int32(min(left / 1_000_000 + 1, 1000)))
        }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        print(usage.ru_maxrss)
        fflush(nil)
        if hung { exit(hangStatus) }
        let sig = status & 0x7f
        guard sig != 0 else { exit((status >> 8) & 0xff) }
        var noCore = rlimit(rlim_cur: 0, rlim_max: 0)
        setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &noCore)
        signal(sig, SIG_DFL)
        raise(sig)
        exit(128 + sig)
    }

    /// `--measure` for one case, its figures to a file.
    private func spawn(_ args: [String], index: Int) -> Running? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, figures(index), O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let measured = ["--measure", String(timeoutNS), binary] + args
        guard case .success(let pid) = spawnChild(harness, measured, actions: &actions) else { return nil }
        let fd = clinux_pidfd_open(pid)
        guard fd >= 0 else {
            kill(pid, SIGKILL)
            var s: Int32 = 0
            waitpid(pid, &s, 0)
            return nil
        }
        return Running(pid: pid, pidFD: fd, started: clinux_monotonic_ns(), index: index)
    }
}
