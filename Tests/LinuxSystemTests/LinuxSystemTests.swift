import Glibc
import LinuxSystem
import Testing

/// The system-call layer against the real kernel: errno names, descriptors closed
/// exactly once, EINTR retried, short and broken writes.
@Suite(.serialized) struct LinuxSystemTests {
    @Test(arguments: [
        (ENOENT, "ENOENT (No such file or directory)"), (EACCES, "EACCES (Permission denied)"),
        (EPIPE, "EPIPE (Broken pipe)"), (EAGAIN, "EAGAIN (Resource temporarily unavailable)"),
        (ENOTTY, "ENOTTY (Inappropriate ioctl for device)"), (9999, "errno 9999"),
    ] as [(Int32, String)])
    func errnoMessagesNameTheErrno(code: Int32, message: String) {
        #expect(Errno(rawValue: code).description == message)
    }

    @Test func aFailedOpenSaysWhichErrno() {
        #expect(throws: Errno.noSuchFileOrDirectory) { _ = try OwnedFileDescriptor(opening: "/nonexistent/gestured", O_RDONLY) }
        #expect(SystemCallError("pidfd_open", .tooManyOpenFiles).description == "pidfd_open: EMFILE (Too many open files)")
    }

    @Test func aDroppedDescriptorIsClosed() throws {
        let raw: Int32
        do {
            let pipe = try Pipe()
            raw = pipe.readEnd.descriptor.rawValue
            #expect(isOpen(raw))
        }
        #expect(!isOpen(raw))
    }

    /// After `close()` the number is free; whatever reuses it must not be closed again
    /// when the (consumed) owner's scope ends.
    @Test func anExplicitCloseIsTheOnlyClose() throws {
        let other = try Pipe()
        let raw: Int32
        do {
            let owned = try OwnedFileDescriptor(opening: "/dev/null", O_RDONLY)
            raw = owned.descriptor.rawValue
            try owned.close()
            #expect(!isOpen(raw))
            #expect(dup2(other.readEnd.descriptor.rawValue, raw) == raw)  // another file takes the number
        }
        #expect(isOpen(raw), "the number was closed a second time")
        close(raw)
    }

    @Test func releaseHandsOverWithoutClosing() throws {
        let owned = try OwnedFileDescriptor(opening: "/dev/null", O_RDONLY)
        let fd = owned.release()
        #expect(isOpen(fd.rawValue))
        close(fd.rawValue)
    }

    /// A read blocked on an empty pipe is interrupted by a signal whose handler was
    /// installed without SA_RESTART, so read(2) fails with EINTR; `valueOrErrno`
    /// makes the call again, which returns the byte the handler wrote.
    @Test func anInterruptedReadIsRetried() throws {
        let pipe = try Pipe()
        interruptPipe = pipe.writeEnd.descriptor.rawValue
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in
            var byte: UInt8 = 42
            _ = write(interruptPipe, &byte, 1)
        }
        action.sa_flags = 0  // no SA_RESTART: the read must fail with EINTR
        sigemptyset(&action.sa_mask)
        var old = sigaction()
        sigaction(SIGUSR1, &action, &old)
        defer { sigaction(SIGUSR1, &old, nil) }
        // Swift's worker threads block most signals; this one must reach this thread.
        var usr1 = sigset_t(), oldMask = sigset_t()
        sigemptyset(&usr1)
        sigaddset(&usr1, SIGUSR1)
        pthread_sigmask(SIG_UNBLOCK, &usr1, &oldMask)
        defer { pthread_sigmask(SIG_SETMASK, &oldMask, nil) }

        let interrupter = Interrupter(target: pthread_self(), tid: currentTID())
        try interrupter.start()
        var byte: UInt8 = 0
        var calls: [Int32] = []
        let n = try valueOrErrno {
            let r = read(pipe.readEnd.descriptor.rawValue, &byte, 1)
            calls.append(r < 0 ? errno : 0)
            return r
        }
        interrupter.join()
        #expect(n == 1 && byte == 42)
        #expect(calls == [EINTR, 0], "the first read was interrupted, the retry read the byte")
        _ = consume pipe
    }

    @Test func writingToAPipeWhoseReaderClosedIsEPIPENotDeath() throws {
        Signals.ignoreBrokenPipe()
        let pipe = try Pipe()
        let writer = pipe.keepingWriteEnd()  // the read end closes here
        #expect(throws: Errno.brokenPipe) { try writer.descriptor.writeAll("a log line\n") }
    }

    @Test func writeAllWritesEverythingThroughShortWrites() throws {
        let pipe = try Pipe(flags: O_NONBLOCK)
        // More than the pipe holds is EAGAIN (non-blocking) after a partial write...
        let big = [UInt8](repeating: 7, count: 1 << 20)
        #expect(throws: Errno.wouldBlock) { try pipe.writeEnd.descriptor.writeAll(big) }
        // ...and what fits is written whole and read back whole.
        let pipe2 = try Pipe()
        try pipe2.writeEnd.descriptor.writeAll([UInt8](repeating: 1, count: 3000))
        let written = pipe2.keepingReadEnd()
        #expect(try written.descriptor.readToEnd(maximumBytes: 1 << 16).count == 3000)
    }

    @Test func readToEndStopsPastTheLimit() throws {
        let file = try OwnedFileDescriptor(opening: "/proc/self/maps", O_RDONLY)
        #expect(throws: Errno.fileTooLarge) { try file.descriptor.readToEnd(maximumBytes: 10) }
    }

    @Test func aTimerArmedInThePastIsReadyInTheEpollSet() throws {
        let epoll = try Epoll()
        var timer = try MonotonicTimer()
        try epoll.add(timer.descriptor, tag: 77)
        timer.arm(atNanoseconds: monotonicNanoseconds() - 1_000_000)
        var events = [Epoll.Event](repeating: Epoll.Event(), count: 4)
        #expect(try epoll.wait(into: &events, timeoutMS: 5000) == 1)
        #expect(events[0].data == 77)
        timer.acknowledge()
        #expect(try epoll.wait(into: &events, timeoutMS: 0) == 0)
    }

    @Test func datagramsReachABoundPathAndAnAbstractName() throws {
        let path = "/tmp/gestured-linuxsystem-\(getpid())"
        unlink(path)
        defer { unlink(path) }
        for address in [path, "@gestured-linuxsystem-\(getpid())"] {
            let listener = try DatagramSocket()
            try listener.bind(to: address)
            try DatagramSocket().send("READY=1\nSTATUS=ok", to: address)
            #expect(listener.receiveAll() == ["READY=1\nSTATUS=ok"])
            #expect(listener.receiveAll() == [], "non-blocking: nothing more, no wait")
        }
        #expect(throws: Errno(rawValue: ENAMETOOLONG)) { try DatagramSocket().send("x", to: String(repeating: "a", count: 200)) }
    }

    @Test func signalNames() {
        #expect(Signals.name(SIGTERM) == "SIGTERM")
        #expect(Signals.name(SIGKILL) == "SIGKILL")
        #expect(Signals.name(999) == "signal 999")
    }
}

nonisolated(unsafe) private var interruptPipe: Int32 = -1

private func isOpen(_ fd: Int32) -> Bool { fcntl(fd, F_GETFD) != -1 }

/// This thread's id, from /proc/thread-self (a link to PID/task/TID).
private func currentTID() -> Int32 {
    var buf = [CChar](repeating: 0, count: 64)
    let n = readlink("/proc/thread-self", &buf, buf.count - 1)
    let text = String(decoding: buf[0..<max(n, 0)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return Int32(text.split(separator: "/").last ?? "") ?? -1
}

/// A thread that waits (bounded, by polling the kernel's view of it) until the target
/// thread sleeps in a system call, then sends it SIGUSR1.
private final class Interrupter: @unchecked Sendable {
    let target: pthread_t
    let tid: Int32
    private var thread = pthread_t()

    init(target: pthread_t, tid: Int32) {
        self.target = target
        self.tid = tid
    }

    func start() throws {
        let context = Unmanaged.passRetained(self).toOpaque()
        let rc = pthread_create(&thread, nil, { raw in
            let me = Unmanaged<Interrupter>.fromOpaque(raw!).takeRetainedValue()
            me.run()
            return nil
        }, context)
        guard rc == 0 else { throw Errno(rawValue: rc) }
    }

    func join() { pthread_join(thread, nil) }

    private func run() {
        let deadline = monotonicNanoseconds() + 10_000_000_000
        while !sleepsInRead() && monotonicNanoseconds() < deadline { sched_yield() }
        pthread_kill(target, SIGUSR1)
    }

    /// /proc/self/task/TID/stat's state is 'S' and its wchan is the pipe's read.
    private func sleepsInRead() -> Bool {
        guard let stat = contents("/proc/self/task/\(tid)/stat"), let close = stat.lastIndex(of: ")") else { return false }
        guard stat[stat.index(close, offsetBy: 2)] == "S" else { return false }
        let wchan = contents("/proc/self/task/\(tid)/wchan") ?? ""
        return wchan.hasSuffix("pipe_read") || wchan == "0" || wchan.isEmpty  // 0: wchan hidden
    }

    private func contents(_ path: String) -> String? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buf = [UInt8](repeating: 0, count: 1024)
        let n = read(fd, &buf, buf.count)
        return n > 0 ? String(decoding: buf[0..<n], as: UTF8.self) : nil
    }
}
