import CLinux
import GestureTestSupport
import Glibc

/// Runs cases as child processes, a few at a time, each with a wall-time limit: a
/// crash (death by a signal) or a hang (killed at the limit) is recorded, never
/// taken down with the harness. Exits are awaited on pidfds with poll(2); each
/// child's peak memory comes from wait4(2)'s rusage.
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
            let soonest = running.map { $0.killed ? now + 100_000_000 : $0.started + timeoutNS }.min()!
            let waitMS = Int32(max(0, min(1000, (soonest - now) / 1_000_000 + 1)))
            _ = poll(&fds, nfds_t(fds.count), waitMS)
            var still: [Running] = []
            let t = clinux_monotonic_ns()
            for (i, var r) in running.enumerated() {
                if fds[i].revents & Int16(POLLIN) != 0 {
                    done(r.index, reap(r, at: t))
                    continue
                }
                if !r.killed && t - r.started > timeoutNS {
                    kill(r.pid, SIGKILL)
                    r.killed = true
                }
                still.append(r)
            }
            running = still
        }
    }

    private func reap(_ r: Running, at t: Int64) -> Outcome {
        var status: Int32 = 0
        var usage = rusage()
        while wait4(r.pid, &status, 0, &usage) < 0 && errno == EINTR {}
        close(r.pidFD)
        let sig = status & 0x7f
        return Outcome(signal: sig != 0 && !r.killed ? sig : nil, exitCode: sig == 0 ? (status >> 8) & 0xff : nil,
                       hung: r.killed, maxRSSKB: usage.ru_maxrss, seconds: Double(t - r.started) / 1e9)
    }

    /// `spawnChild` with stdin, stdout and stderr on /dev/null.
    private func spawn(_ args: [String], index: Int) -> Running? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        guard case .success(let pid) = spawnChild(binary, args, actions: &actions) else { return nil }
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
