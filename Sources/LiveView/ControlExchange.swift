import DaemonLoop
import LinuxSystem

/// One control request (`reload`, `enable NAME`, `disable NAME`) to the daemon on the
/// ui's loop: what `ControlClient.exchange` does, without waiting in poll(2), so a
/// slow daemon never stalls the page's stream. Lives until its answer (or the timeout,
/// `ControlClient.timeoutMS`) is handed to `done`.
package final class ControlExchange {
    private let loop: EventLoop
    private let socket: StreamSocket
    private var timer: MonotonicTimer
    private var reply: [UInt8] = []
    private var done: ((Result<ControlReply, ControlError>) -> Void)?

    package static func start(_ request: ControlRequest, environment: [String: String], loop: EventLoop,
                      done: @escaping (Result<ControlReply, ControlError>) -> Void) {
        let socket: StreamSocket
        do throws(ControlError) {
            socket = try ControlClient.connect(environment: environment)
        } catch {
            return done(.failure(error))
        }
        do {
            // The loop's handlers hold it until `finish` takes them out.
            _ = try ControlExchange(request, socket: socket, loop: loop, done: done)
        } catch {
            done(.failure(ControlError("cannot wait for the daemon's answer: \(error)")))
        }
    }

    private init(_ request: ControlRequest, socket: consuming StreamSocket, loop: EventLoop,
                 done: @escaping (Result<ControlReply, ControlError>) -> Void) throws {
        self.loop = loop
        self.socket = socket
        self.done = done
        timer = try MonotonicTimer()
        // A daemon that refuses us answers and closes before reading: its answer is
        // still there to read after a failed write (EPIPE).
        do throws(Errno) {
            try self.socket.sendAll(Array((request.line + "\n").utf8))
        } catch where error != .brokenPipe {
            throw error
        } catch {}
        try loop.add(self.socket.descriptor) { _ in self.readable() }
        try loop.add(timer.descriptor) { _ in self.finish(.failure(ControlError("the daemon did not answer within \(ControlClient.timeoutMS / 1000) s"))) }
        timer.arm(atNanoseconds: monotonicNanoseconds() + Int64(ControlClient.timeoutMS) * 1_000_000)
    }

    private func readable() {
        switch socket.readAvailable(into: &reply, limit: 16 << 20) {
        case .drained: break
        case .failed(let e): finish(.failure(ControlError("reading the answer: \(e)")))
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
        loop.remove(socket.descriptor)
        loop.remove(timer.descriptor)
        done(result)
    }
}
