import CLinux
import DaemonCore
import GestureActions
import GestureConfig
import Glibc

/// Collects what the runner logs.
final class LogLines: @unchecked Sendable {
    var entries: [(priority: LogPriority, text: String)] = []
    var texts: [String] { entries.map(\.text) }
    func append(_ p: LogPriority, _ s: String) { entries.append((p, s)) }
    func texts(at p: LogPriority) -> [String] { entries.filter { $0.priority == p }.map(\.text) }
}

func monotonicMS() -> Int64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
}

/// Waits on the runner's descriptor (never sleeping blindly) until `done` holds or
/// `timeoutMS` passes; returns whether `done` held.
@discardableResult
func pump(_ runner: CommandRunner, timeoutMS: Int64 = 10_000, until done: () -> Bool) -> Bool {
    let deadline = monotonicMS() + timeoutMS
    while !done() {
        let left = deadline - monotonicMS()
        if left <= 0 { return false }
        var p = pollfd(fd: runner.fd.rawValue, events: Int16(POLLIN), revents: 0)
        _ = poll(&p, 1, Int32(left))
        runner.handleEvents()
    }
    return true
}

func pumpUntilIdle(_ runner: CommandRunner, timeoutMS: Int64 = 10_000) -> Bool {
    pump(runner, timeoutMS: timeoutMS) { runner.isIdle }
}

func makeRunner(_ log: LogLines, timeout: Double = 10, maxChildren: Int = 8, queueLength: Int = 8,
                clock: (() -> Int64)? = nil, shell: String = "/bin/sh",
                environment: [String] = ["PATH=/usr/local/bin:/usr/bin:/bin"], killGrace: Double = 2) throws -> CommandRunner {
    var s = Settings()
    s.commandTimeout = timeout
    s.maxChildren = maxChildren
    s.queueLength = queueLength
    if let clock {
        return try CommandRunner(settings: s, log: log.append, clock: clock, shell: shell, environment: environment,
                                 killGrace: killGrace)
    }
    return try CommandRunner(settings: s, log: log.append, shell: shell, environment: environment, killGrace: killGrace)
}

func invocation(_ gesture: String, _ command: String, env: [(String, String)] = []) -> Invocation {
    Invocation(gesture: gesture, trigger: "command", command: command, environment: env.map { (name: $0.0, value: $0.1) })
}

/// The pids the runner started, from its debug log.
func spawnedPIDs(_ log: LogLines) -> [Int32] {
    log.texts(at: .debug).compactMap { line in
        guard let open = line.lastIndex(of: "("), line.hasSuffix(")"), line.contains("(pid ") else { return nil }
        return Int32(line[line.index(open, offsetBy: 5)..<line.index(before: line.endIndex)])
    }
}

/// The runner's children still in /proc, running or zombie: after a test, none may be
/// left. (Only its own: other test suites in this process may have children of their own.)
func leftovers(_ log: LogLines) -> [String] {
    spawnedPIDs(log).compactMap { pid in
        guard let s = procStat(pid), s.ppid == getpid() else { return nil }
        return "\(pid) \(s.state) \(s.comm)"
    }
}

/// Fields of /proc/PID/stat, or nil when the process is gone.
func procStat(_ pid: Int32) -> (comm: String, state: Character, ppid: Int32, pgrp: Int32)? {
    guard let f = fopen("/proc/\(pid)/stat", "r") else { return nil }
    defer { fclose(f) }
    var buf = [CChar](repeating: 0, count: 1024)
    guard fgets(&buf, Int32(buf.count), f) != nil else { return nil }
    let line = String(decoding: buf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    guard let open = line.firstIndex(of: "("), let close = line.lastIndex(of: ")") else { return nil }
    let comm = String(line[line.index(after: open)..<close])
    let rest = line[line.index(close, offsetBy: 2)...].split(separator: " ")
    guard rest.count > 2, let state = rest[0].first, let ppid = Int32(rest[1]), let pgrp = Int32(rest[2]) else { return nil }
    return (comm, state, ppid, pgrp)
}

/// A process that no longer runs: gone, or a zombie waiting for its (new) parent.
func isDead(_ pid: Int32) -> Bool {
    guard let s = procStat(pid) else { return true }
    return s.state == "Z" || s.state == "X"
}

/// Waits until `pid` has exited, for at most `timeoutMS` of wall time; returns whether
/// it did. A killed grandchild belongs to init, not to us: it dies a moment after its
/// process group was signalled, so a test must wait for that fact, not race it. The
/// wait is on a pidfd, which polls readable when the process exits (pidfd_open(2)).
@discardableResult
func waitUntilDead(_ pid: Int32, timeoutMS: Int64 = 5000) -> Bool {
    let fd = clinux_pidfd_open(pid)
    guard fd >= 0 else { return isDead(pid) }  // ESRCH: already gone and reaped
    defer { close(fd) }
    let deadline = monotonicMS() + timeoutMS
    while !isDead(pid) {
        let left = deadline - monotonicMS()
        if left <= 0 { return false }
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        _ = poll(&p, 1, Int32(left))
    }
    return true
}
