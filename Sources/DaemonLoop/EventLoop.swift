import LinuxSystem

/// One thread, one epoll: every source the daemon waits on is an fd here, and the
/// loop sleeps in `epoll_wait` with no timeout, so an idle daemon makes no wakeups.
package final class EventLoop {
    package typealias Handler = (UInt32) -> Void

    private let epoll: Epoll
    private var handlers: [FileDescriptor: Handler] = [:]
    private var events = [Epoll.Event](repeating: Epoll.Event(), count: 32)
    package private(set) var running = false
    /// Called after each iteration's handlers (the event stream sends what they queued).
    package var afterDispatch: (() -> Void)?

    package init() throws(Errno) { epoll = try Epoll() }

    /// Watches `fd` for input; `handler` gets the epoll event bits.
    package func add(_ fd: FileDescriptor, _ handler: @escaping Handler) throws(Errno) {
        try epoll.add(fd, tag: UInt64(UInt32(bitPattern: fd.rawValue)))
        handlers[fd] = handler
    }

    /// Whether `fd` (added before) also wakes the loop when it can be written to: a
    /// socket with output queued waits for room (EPOLLOUT) instead of blocking.
    package func watchWritable(_ fd: FileDescriptor, _ on: Bool) {
        try? epoll.modify(fd, tag: UInt64(UInt32(bitPattern: fd.rawValue)), events: Epoll.readable | (on ? Epoll.writable : 0))
    }

    package func remove(_ fd: FileDescriptor) {
        epoll.remove(fd)
        handlers[fd] = nil
    }

    package func stop() { running = false }

    /// Dispatches until `stop()`. `timeoutMS` bounds one wait (tests only; -1 = forever).
    package func run(timeoutMS: Int32 = -1) {
        running = true
        while running { runOnce(timeoutMS: timeoutMS) }
    }

    /// One `epoll_wait` and the handlers of what it returned. Returns false on timeout.
    @discardableResult
    package func runOnce(timeoutMS: Int32) -> Bool {
        let n = (try? epoll.wait(into: &events, timeoutMS: timeoutMS)) ?? 0
        if n == 0 {
            afterDispatch?()  // what was queued outside a handler (tests call the daemon directly)
            return false
        }
        for event in events[0..<n] {
            let fd = FileDescriptor(rawValue: Int32(bitPattern: UInt32(truncatingIfNeeded: event.data)))
            handlers[fd]?(event.events)
        }
        afterDispatch?()
        return true
    }
}
