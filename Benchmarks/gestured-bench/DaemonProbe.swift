import Glibc
import LinuxSystem

/// The real `gestured run` binary, started the way systemd starts it: a datagram
/// socket in `$NOTIFY_SOCKET` that receives `READY=1`.
struct DaemonProbe {
    let binary: String
    let config: String
    let directory: String

    struct Started {
        let pid: pid_t
        /// From just before posix_spawn to the READY=1 datagram's arrival.
        let startupMS: Double
    }

    /// Starts the daemon and waits (≤ 5 s) for READY=1.
    func start() -> Started {
        let socketPath = directory + "/notify"
        unlink(socketPath)
        let sock: DatagramSocket
        do throws(Errno) {
            sock = try DatagramSocket()
            try sock.bind(to: socketPath)
        } catch {
            fail("notify socket \(socketPath): \(error)")
        }
        defer { unlink(socketPath) }

        let argv = [binary, "run", "--config", config]
        // A minimal environment: the daemon's own config search and logging only.
        let envp = ["NOTIFY_SOCKET=\(socketPath)", "HOME=\(directory)", "PATH=/usr/bin:/bin"]
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, directory + "/daemon.log", O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var pid: pid_t = 0
        let t0 = nowNS()
        let rc = withCStrings(argv) { a in withCStrings(envp) { e in posix_spawn(&pid, binary, &actions, nil, a, e) } }
        guard rc == 0 else { fail("posix_spawn \(binary): \(String(cString: strerror(rc)))") }

        while true {
            var pfd = pollfd(fd: sock.descriptor.rawValue, events: Int16(POLLIN), revents: 0)
            let waited = (nowNS() - t0) / 1_000_000
            guard waited < 5000, poll(&pfd, 1, Int32(5000 - waited)) > 0 else {
                kill(pid, SIGKILL)
                fail("gestured did not send READY=1 within 5 s (its log: \(directory)/daemon.log)")
            }
            let messages = sock.receiveAll()
            let t1 = nowNS()
            if messages.contains(where: { $0.split(separator: "\n").contains("READY=1") }) {
                return Started(pid: pid, startupMS: Double(t1 - t0) / 1e6)
            }
        }
    }

    func stop(_ pid: pid_t) {
        kill(pid, SIGTERM)
        _ = try? Process.reap(pid, blocking: true)
    }

    /// Context switches (voluntary + involuntary) of every thread of `pid`: each one is
    /// a wakeup of a thread that had gone to sleep (or was preempted).
    static func contextSwitches(_ pid: pid_t) -> Int {
        var total = 0
        guard let dir = opendir("/proc/\(pid)/task") else { return 0 }
        defer { closedir(dir) }
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name.first?.isNumber == true else { continue }
            let task = "\(pid)/task/\(name)"
            total += (procStatus(task, "voluntary_ctxt_switches") ?? 0) + (procStatus(task, "nonvoluntary_ctxt_switches") ?? 0)
        }
        return total
    }

    /// utime + stime of `pid`, in clock ticks.
    static func cpuTicks(_ pid: pid_t) -> Int {
        guard let stat = readFile("/proc/\(pid)/stat"), let close = stat.lastIndex(of: ")") else { return 0 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // After "pid (comm)": state is field 0 here; utime and stime are fields 11 and 12.
        guard fields.count > 12 else { return 0 }
        return (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)
    }

    static func threadCount(_ pid: pid_t) -> Int { procStatus("\(pid)", "Threads") ?? 0 }
}

/// A NULL-terminated `char *[]` for the duration of `body`.
func withCStrings<R>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
    let c = strings.map { strdup($0) } + [nil]
    defer { c.forEach { free($0) } }
    return body(c)
}
