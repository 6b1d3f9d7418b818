import DaemonLoop
import LinuxSystem
import PlainText

/// `gestured ui`'s subscription to a daemon's event stream (docs/CONTROL.md,
/// `subscribe`), on the ui's loop: connects, asks for `rate` frames per second, hands on
/// each line; reconnects every second while the daemon is away (a restart, the
/// private daemon of local mode starting up). `resubscribe` starts over with a fresh
/// `hello` (after a reload, or to change the rate).
package final class DaemonFeed {
    package let socketPath: String
    package private(set) var rate: Int
    /// One stream line, without its newline.
    package var onLine: ([UInt8]) -> Void = { _ in }
    /// Told when the connection is lost (the daemon went), or refused (another user's
    /// process serves the socket: said once, until it changes), with why.
    package var onLost: (String) -> Void = { _ in }
    /// Held strongly: the feed may outlive its owner's other parts; the loop's handlers
    /// hold the feed unowned, and it takes them out when it goes.
    private let loop: EventLoop
    private var socket: StreamSocket?
    private var buffer: [UInt8] = []
    private var greeted = false
    /// Counts connections: a line's handler may start a new one (`resubscribe`), after
    /// which the old one's buffer is gone.
    private var generation = 0
    private var retry: MonotonicTimer
    /// The last refusal said (`onLost`), so that a squatter is reported once, not every second.
    private var refusal: String?
    /// A line longer than this (a hello of thousands of gestures) drops the connection.
    package static let lineLimit = 8 << 20
    package static let retryInterval: Int64 = 1_000_000_000

    package init(socketPath: String, rate: Int, loop: EventLoop) throws(Errno) {
        self.socketPath = socketPath
        self.rate = rate
        self.loop = loop
        retry = try MonotonicTimer()
        try loop.add(retry.descriptor) { [unowned self] _ in
            self.retry.acknowledge()
            if self.socket == nil { self.connect() }
        }
    }

    deinit {
        disconnect()
        loop.remove(retry.descriptor)
    }

    /// Connects now; on failure, tries again every `retryInterval`. True if connected.
    @discardableResult
    package func connect() -> Bool {
        guard socket == nil else { return true }
        do {
            // Checked to be served by this user (SO_PEERCRED) before anything is sent or read.
            let connected = try ControlClient.connect(to: socketPath)
            try connected.sendAll(Array("subscribe rate=\(rate)\n".utf8))
            try loop.add(connected.descriptor) { [unowned self] _ in self.readable() }
            socket = consume connected
        } catch {
            if let refused = error as? ControlError, refused.foreignServer, refused.description != refusal {
                refusal = refused.description
                onLost(refused.description)
            }
            retry.arm(atNanoseconds: monotonicNanoseconds() + Self.retryInterval)
            return false
        }
        refusal = nil
        generation += 1
        greeted = false
        buffer.removeAll(keepingCapacity: true)
        return true
    }

    /// Starts over (a new `hello`), at `rate` if given.
    package func resubscribe(rate: Int? = nil) {
        if let rate { self.rate = rate }
        disconnect()
        connect()
    }

    private func disconnect() {
        guard let fd = socket?.descriptor else { return }
        loop.remove(fd)
        socket = nil
    }

    private func readable() {
        guard let result = socket?.readAvailable(into: &buffer, limit: Self.lineLimit) else { return }
        let connection = generation
        var start = 0
        while let nl = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
            let line = Array(buffer[start..<nl])
            start = nl + 1
            if !greeted {
                guard line == Array("ok".utf8) else {
                    return lose("the daemon refused the subscription: \(String(decoding: line, as: UTF8.self).printable)")
                }
                greeted = true
            } else {
                onLine(line)
                if generation != connection { return }
            }
        }
        buffer.removeFirst(start)
        if buffer.count >= Self.lineLimit { return lose("a line longer than \(Self.lineLimit) bytes") }
        switch result {
        case .drained: break
        case .closed: lose("the daemon closed the stream")
        case .failed(let e): lose("read error: \(e)")
        }
    }

    private func lose(_ why: String) {
        disconnect()
        onLost(why)
        retry.arm(atNanoseconds: monotonicNanoseconds() + Self.retryInterval)
    }
}
