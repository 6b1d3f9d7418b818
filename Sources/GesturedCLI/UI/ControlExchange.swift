import FocusSources
import Glibc
import LinuxSystem

/// One control request (`reload`, `enable NAME`, `disable NAME`) to the daemon on the
/// ui's loop: what `ControlCommand.exchange` does, without waiting in poll(2), so a
/// slow daemon never stalls the page's stream. Lives until its answer (or the timeout,
/// `ControlCommand.timeoutMS`) is handed to `done`.
final class ControlExchange {
    private let loop: EventLoop
    private let fd: Int32
    private var timer: MonotonicTimer
    private var reply: [UInt8] = []
    private var done: ((Result<ControlReply, ControlError>) -> Void)?

    static func start(_ request: ControlRequest, environment: [String: String], loop: EventLoop,
                      done: @escaping (Result<ControlReply, ControlError>) -> Void) {
        switch ControlCommand.connect(environment: environment) {
        case .failure(let e): done(.failure(e))
        case .success(let fd):
            do {
                // The loop's handlers hold it until `finish` takes them out.
                _ = try ControlExchange(request, fd: fd, loop: loop, done: done)
            } catch {
                close(fd)
                done(.failure(ControlError("cannot wait for the daemon's answer: \(error)")))
            }
        }
    }

    private init(_ request: ControlRequest, fd: Int32, loop: EventLoop, done: @escaping (Result<ControlReply, ControlError>) -> Void) throws {
        self.loop = loop
        self.fd = fd
        self.done = done
        timer = try MonotonicTimer()
        // A daemon that refuses us answers and closes before reading: its answer is
        // still there to read after a failed write (EPIPE).
        if !UnixSocket.writeAll(fd, Array((request.line + "\n").utf8)), errno != EPIPE {
            throw Errno.current
        }
        try loop.add(FileDescriptor(rawValue: fd)) { _ in self.readable() }
        try loop.add(timer.descriptor) { _ in self.finish(.failure(ControlError("the daemon did not answer within \(ControlCommand.timeoutMS / 1000) s"))) }
        timer.arm(atNanoseconds: monotonicNanoseconds() + Int64(ControlCommand.timeoutMS) * 1_000_000)
    }

    private func readable() {
        switch UnixSocket.readAvailable(fd, into: &reply, limit: 16 << 20) {
        case .drained: break
        case .failed(let e): finish(.failure(ControlError("reading the answer: \(UnixSocket.errorText(e))")))
        case .closed:
            guard let r = ControlReply.parse(String(decoding: reply, as: UTF8.self)) else {
                return finish(.failure(ControlError("the daemon's answer is not one this gestured understands")))
            }
            finish(.success(r))
        }
    }

    private func finish(_ result: Result<ControlReply, ControlError>) {
        guard let done else { return }
        self.done = nil
        loop.remove(FileDescriptor(rawValue: fd))
        loop.remove(timer.descriptor)
        close(fd)
        done(result)
    }
}
