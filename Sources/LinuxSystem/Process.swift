import CLinux
import Glibc

/// A child process: started with `spawn`, watched through its pidfd, reaped with `reap`.
/// A process id (pid_t) and a user id (uid_t), for the callers that name the types.
public typealias ProcessID = pid_t
public typealias UserID = uid_t

public enum Process {
    /// posix_spawn(3) of `program` (a path; no PATH search) with `arguments` (argv,
    /// from argv[0]) and `environment` (`NAME=value`), set up so that nothing of the
    /// daemon leaks into it:
    /// - stdin from /dev/null, stdout and stderr onto the descriptors given;
    /// - every other descriptor closed (`posix_spawn_file_actions_addclosefrom_np`),
    ///   even one opened without `O_CLOEXEC`;
    /// - an empty signal mask (the daemon blocks signals for its signalfd) and every
    ///   signal's default disposition (the daemon ignores SIGPIPE);
    /// - with `newProcessGroup`, a process group of its own, so that killing the group
    ///   kills what it started too;
    /// - `inherit`: descriptors the child gets as 3, 4, … (the same open file
    ///   descriptions: the grab watchdog's device, clone and heartbeat pipe).
    public static func spawn(_ program: String, arguments: [String], environment: [String],
                             stdout: FileDescriptor, stderr: FileDescriptor, newProcessGroup: Bool,
                             inherit: [FileDescriptor] = []) throws(Errno) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, stdout.rawValue, 1)
        posix_spawn_file_actions_adddup2(&actions, stderr.rawValue, 2)
        // Through numbers above every source first, so that no dup2 overwrites a
        // descriptor a later one still copies from.
        let spare = (inherit.map(\.rawValue).max() ?? 0) + 3 + Int32(inherit.count)
        for (i, fd) in inherit.enumerated() { posix_spawn_file_actions_adddup2(&actions, fd.rawValue, spare + Int32(i)) }
        for i in inherit.indices { posix_spawn_file_actions_adddup2(&actions, spare + Int32(i), 3 + Int32(i)) }
        clinux_posix_spawn_file_actions_addclosefrom(&actions, 3 + Int32(inherit.count))

        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attr, &none)
        posix_spawnattr_setsigdefault(&attr, &all)
        var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        if newProcessGroup {
            posix_spawnattr_setpgroup(&attr, 0)
            flags |= POSIX_SPAWN_SETPGROUP
        }
        posix_spawnattr_setflags(&attr, Int16(flags))

        var pid: pid_t = 0
        // posix_spawn returns the errno rather than setting it.
        let rc = withCStrings(arguments) { argv in
            withCStrings(environment) { envp in posix_spawn(&pid, program, &actions, &attr, argv, envp) }
        }
        guard rc == 0 else { throw Errno(rawValue: rc) }
        return pid
    }

    /// pidfd_open(2): a descriptor that polls readable once `pid` has exited. Unlike
    /// SIGCHLD it cannot be stolen by another waiter nor merge two exits into one.
    public static func descriptor(of pid: pid_t) throws(Errno) -> OwnedFileDescriptor {
        try OwnedFileDescriptor { clinux_pidfd_open(pid) }
    }

    /// waitpid(2) for `pid`: its wait status once it has exited, nil while it runs
    /// (with `blocking` false, `WNOHANG`). `.noChildProcess` when someone else reaped it.
    public static func reap(_ pid: pid_t, blocking: Bool) throws(Errno) -> Int32? {
        var status: Int32 = 0
        let r = try valueOrErrno { waitpid(pid, &status, blocking ? 0 : WNOHANG) }
        return r == pid ? status : nil
    }

    /// getpid(2): this process's id (the call cannot fail).
    public static var currentID: pid_t { getpid() }

    /// getuid(2): the real user id this process runs as (the call cannot fail).
    public static var userID: uid_t { getuid() }

    /// prctl(2) `PR_SET_NAME`: the process's name in `ps`, `top` and `pgrep -x` (the
    /// kernel keeps 15 bytes of it).
    public static func setName(_ name: String) {
        _ = clinux_set_process_name(name)
    }

    /// kill(2) of `pid` alone. A process already gone is no error.
    public static func signal(_ pid: pid_t, _ signal: Int32) {
        _ = try? valueOrErrno { kill(pid, signal) }
    }

    /// kill(2) of `pid`'s whole process group (`-pid`). A group already gone is no error.
    public static func signalGroup(_ pid: pid_t, _ signal: Int32) {
        _ = try? valueOrErrno { kill(-pid, signal) }
    }
}

/// A NULL-terminated `char *[]` for the duration of `body`.
private func withCStrings<R>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
    let c = strings.map { strdup($0) } + [nil]
    defer { c.forEach { free($0) } }
    return body(c)
}

extension Process {
    /// The process's environment (environ(7)): `NAME=value` entries, in order.
    public static func environment() -> [String] {
        var out: [String] = []
        var p = environ
        while let entry = p.pointee {
            out.append(String(cString: entry))
            p += 1
        }
        return out
    }
}
