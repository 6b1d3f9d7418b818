import Glibc

/// posix_spawn for the tests' and the fuzz harness's child `gestured`s: an empty signal
/// mask (a child inherits the blocked one otherwise), `PATH`, a `HOME` that does not
/// exist (no user config is found) and `environment`; `actions` sets up its fds.
/// Returns the pid, or posix_spawn's error.
public func spawnChild(_ path: String, _ args: [String], environment: [String] = [],
                       actions: inout posix_spawn_file_actions_t) -> Result<pid_t, SpawnError> {
    var attr = posix_spawnattr_t()
    posix_spawnattr_init(&attr)
    defer { posix_spawnattr_destroy(&attr) }
    var empty = sigset_t()
    sigemptyset(&empty)
    posix_spawnattr_setsigmask(&attr, &empty)
    posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETSIGMASK))
    let argv = ([path] + args).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    let env = (["PATH=/usr/bin:/bin", "HOME=/nonexistent-home"] + environment).map { strdup($0) } + [nil]
    defer { env.forEach { free($0) } }
    var pid: pid_t = 0
    let rc = posix_spawn(&pid, path, &actions, &attr, argv, env)
    return rc == 0 ? .success(pid) : .failure(SpawnError(code: rc))
}

public struct SpawnError: Error {
    public var code: Int32
}
