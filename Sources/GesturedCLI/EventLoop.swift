import CLinux
import GestureInput
import Glibc

/// One thread, one epoll: every source the daemon waits on is an fd here, and the
/// loop sleeps in `epoll_wait` with no timeout, so an idle daemon makes no wakeups.
final class EventLoop {
    typealias Handler = (UInt32) -> Void

    private let epfd: Int32
    private var handlers: [Int32: Handler] = [:]
    private(set) var running = false

    init() throws {
        epfd = clinux_epoll_create()
        guard epfd >= 0 else { throw SystemError(errno) }
    }

    deinit { close(epfd) }

    /// Watches `fd` for input; `handler` gets the epoll event bits.
    func add(_ fd: Int32, _ handler: @escaping Handler) throws {
        guard clinux_epoll_add(epfd, fd, CLINUX_EPOLLIN, UInt64(UInt32(bitPattern: fd))) == 0 else { throw SystemError(errno) }
        handlers[fd] = handler
    }

    func remove(_ fd: Int32) {
        _ = clinux_epoll_del(epfd, fd)
        handlers[fd] = nil
    }

    func stop() { running = false }

    /// Dispatches until `stop()`. `timeoutMS` bounds one wait (tests only; -1 = forever).
    func run(timeoutMS: Int32 = -1) {
        running = true
        while running { runOnce(timeoutMS: timeoutMS) }
    }

    /// One `epoll_wait` and the handlers of what it returned. Returns false on timeout.
    @discardableResult
    func runOnce(timeoutMS: Int32) -> Bool {
        var events = [clinux_epoll_event](repeating: clinux_epoll_event(), count: 32)
        let n = clinux_epoll_wait(epfd, &events, Int32(events.count), timeoutMS)
        if n <= 0 { return false }
        for i in 0..<Int(n) {
            let fd = Int32(bitPattern: UInt32(truncatingIfNeeded: events[i].data))
            handlers[fd]?(events[i].events)
        }
        return true
    }
}

/// A timerfd on CLOCK_MONOTONIC armed at absolute instants: the engine's deadlines.
final class DeadlineTimer {
    let fd: Int32
    private(set) var armedAt: Int64 = 0

    init() throws {
        fd = clinux_timerfd_create()
        guard fd >= 0 else { throw SystemError(errno) }
    }
    deinit { close(fd) }

    /// Arms at `monotonicNS`, or disarms with nil. Re-arming at the same instant is free.
    func arm(atNanoseconds monotonicNS: Int64?) {
        let target = max(monotonicNS ?? 0, monotonicNS == nil ? 0 : 1)
        guard target != armedAt else { return }
        armedAt = target
        _ = clinux_timerfd_arm_absolute(fd, target)
    }

    /// Consumes the expiration count after the fd became readable.
    func acknowledge() {
        var count: UInt64 = 0
        _ = read(fd, &count, 8)
        armedAt = 0
    }
}

/// SIGTERM, SIGINT and SIGHUP delivered as readable events, not handlers. SIGCHLD is
/// not among them: the command runner reaps each child through its own pidfd, which
/// cannot race with another waiter, so the loop never wakes for it.
final class SignalSource {
    let fd: Int32
    static let signals: [Int32] = [SIGTERM, SIGINT, SIGHUP]

    init() throws {
        var mask = sigset_t()
        sigemptyset(&mask)
        for s in Self.signals { sigaddset(&mask, s) }
        sigprocmask(SIG_BLOCK, &mask, nil)
        fd = clinux_signalfd(&mask)
        guard fd >= 0 else { throw SystemError(errno) }
    }

    deinit {
        close(fd)
        var mask = sigset_t()
        sigemptyset(&mask)
        for s in Self.signals { sigaddset(&mask, s) }
        sigprocmask(SIG_UNBLOCK, &mask, nil)
    }

    /// The signals pending now, drained.
    func drain() -> [Int32] {
        var out: [Int32] = []
        while true {
            let s = clinux_signalfd_read(fd, nil, nil)
            if s <= 0 { break }
            out.append(s)
        }
        return out
    }
}
