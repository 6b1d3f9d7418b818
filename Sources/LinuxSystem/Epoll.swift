import CLinux

/// An epoll(7) set: the descriptors one thread sleeps on. Each registration carries a
/// 64-bit tag that `wait` hands back, so callers tell their sources apart.
public struct Epoll: ~Copyable {
    /// One ready descriptor: `events` (the `EPOLL*` bits) and the tag it was added with.
    public typealias Event = clinux_epoll_event

    /// `EPOLLIN`: what gestured waits for on almost every descriptor.
    public static let readable = CLINUX_EPOLLIN
    /// `EPOLLOUT`: room in a socket's send buffer (the event stream's slow readers).
    public static let writable = CLINUX_EPOLLOUT

    /// `EPOLLRDHUP`: the peer closed its end (a client that went, though nothing is read).
    public static let peerClosed = CLINUX_EPOLLRDHUP

    private let file: OwnedFileDescriptor

    /// The set's own descriptor: readable when any member is, so a set can sit in another loop.
    public var descriptor: FileDescriptor { file.descriptor }

    /// epoll_create1(2) with `EPOLL_CLOEXEC`.
    public init() throws(Errno) { file = try OwnedFileDescriptor { clinux_epoll_create() } }

    /// epoll_ctl(2) `EPOLL_CTL_ADD` of `fd` for `events` (input unless said), tagged `tag`.
    public func add(_ fd: FileDescriptor, tag: UInt64, events: UInt32 = Epoll.readable) throws(Errno) {
        _ = try valueOrErrno { clinux_epoll_add(descriptor.rawValue, fd.rawValue, events, tag) }
    }

    /// epoll_ctl(2) `EPOLL_CTL_MOD`: `fd`'s interest is now `events` (`readable`, `writable`).
    public func modify(_ fd: FileDescriptor, tag: UInt64, events: UInt32) throws(Errno) {
        _ = try valueOrErrno { clinux_epoll_mod(descriptor.rawValue, fd.rawValue, events, tag) }
    }

    /// epoll_ctl(2) `EPOLL_CTL_DEL`. A descriptor that was never added, or is already
    /// closed (the kernel then forgot it by itself), is no error worth reporting.
    public func remove(_ fd: FileDescriptor) {
        _ = try? valueOrErrno { clinux_epoll_del(descriptor.rawValue, fd.rawValue) }
    }

    /// epoll_wait(2) for up to `events.count` ready descriptors, filled in from the
    /// front; `timeoutMS` -1 waits forever, 0 not at all. Returns how many are ready (0
    /// on timeout). A signal that interrupts the wait restarts it.
    public func wait(into events: inout [Event], timeoutMS: Int32) throws(Errno) -> Int {
        Int(try valueOrErrno { clinux_epoll_wait(descriptor.rawValue, &events, Int32(events.count), timeoutMS) })
    }
}

/// A timerfd(2) on CLOCK_MONOTONIC armed at absolute instants: readable once the
/// instant has passed. Non-blocking and close-on-exec.
public struct MonotonicTimer: ~Copyable {
    private let file: OwnedFileDescriptor
    /// The instant armed, in ns; 0 when disarmed.
    public private(set) var armedAt: Int64 = 0

    public var descriptor: FileDescriptor { file.descriptor }

    /// timerfd_create(2).
    public init() throws(Errno) { file = try OwnedFileDescriptor { clinux_timerfd_create() } }

    /// timerfd_settime(2) with `TFD_TIMER_ABSTIME` at `monotonicNS`; nil disarms. An
    /// instant at or before the clock's start fires at once. Re-arming at the instant
    /// already armed makes no call, so callers may re-arm after every event.
    public mutating func arm(atNanoseconds monotonicNS: Int64?) {
        let target = monotonicNS.map { max($0, 1) } ?? 0
        guard target != armedAt else { return }
        armedAt = target
        _ = try? valueOrErrno { clinux_timerfd_arm_absolute(descriptor.rawValue, target) }
    }

    /// read(2) of the expiration count once the descriptor is readable: a one-shot
    /// timer is disarmed by then.
    public mutating func acknowledge() {
        var expirations = [UInt8](repeating: 0, count: 8)
        _ = try? descriptor.read(into: &expirations)
        armedAt = 0
    }
}

/// The current CLOCK_MONOTONIC in ns: the clock of evdev timestamps (once
/// `EVIOCSCLOCKID` is set), of the timers and of command timeouts.
@inlinable
public func monotonicNanoseconds() -> Int64 { clinux_monotonic_ns() }
