import DaemonLoop
import LinuxSystem
import PlainText

/// `gestured ui`'s subscription to a daemon's event stream (docs/CONTROL.md,
/// `subscribe`), on the ui's loop: connects, asks for the shared stream at `rate` frames
/// per second (`StreamSubscription`), hands on each line; reconnects every second while
/// the daemon is away (a restart, the private daemon of local mode starting up).
/// `resubscribe` starts over with a fresh `hello` (after a reload, or to change the
/// rate). The ring is read at most `rate` times a second while the daemon writes, and
/// not at all while it does not (asleep until the daemon's wake-up).
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
    private var subscription: StreamSubscription?
    private var lines: [UInt8] = []
    /// Counts connections: a line's handler may start a new one (`resubscribe`), after
    /// which the old one's lines are gone.
    private var generation = 0
    private var retry: MonotonicTimer
    /// When to read the ring next, while the daemon writes to it.
    private var tick: MonotonicTimer
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
        tick = try MonotonicTimer()
        try loop.add(retry.descriptor) { [unowned self] _ in
            self.retry.acknowledge()
            if self.socket == nil { self.connect() }
        }
        try loop.add(tick.descriptor) { [unowned self] _ in
            self.tick.acknowledge()
            self.readRing()
        }
    }

    deinit {
        disconnect()
        loop.remove(retry.descriptor)
        loop.remove(tick.descriptor)
    }

    /// Connects now; on failure, tries again every `retryInterval`. True if connected.
    @discardableResult
    package func connect() -> Bool {
        guard socket == nil else { return true }
        let subscription = StreamSubscription(rate: rate)
        do {
            // Checked to be served by this user (SO_PEERCRED) before anything is sent or read.
            let connected = try ControlClient.connect(to: socketPath)
            try connected.sendAll(subscription.request)
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
        self.subscription = subscription
        refusal = nil
        generation += 1
        lines.removeAll(keepingCapacity: true)
        return true
    }

    /// Starts over (a new `hello`), at `rate` if given.
    package func resubscribe(rate: Int? = nil) {
        if let rate { self.rate = rate }
        disconnect()
        connect()
    }

    private func disconnect() {
        tick.arm(atNanoseconds: nil)
        subscription = nil
        guard let fd = socket?.descriptor else { return }
        loop.remove(fd)
        socket = nil
    }

    private func readable() {
        guard let subscription, socket != nil else { return }
        let outcome = subscription.readSocket(into: &lines) { buffer, limit, passed in
            socket?.readAvailable(into: &buffer, limit: limit, passed: &passed) ?? .closed
        }
        let connection = generation
        guard deliver() , generation == connection else { return }
        switch outcome {
        case .more: break
        case .ended(let why): return lose(why)
        case .refused(let why): return lose("the daemon refused the subscription: \(why)")
        }
        if subscription.readsRing { readRing() }
    }

    /// Reads the ring; again in 1/rate s, until it has had nothing for a quarter of a
    /// second (`sleepsNow`): then asks the daemon for a wake-up.
    private func readRing() {
        guard let subscription, subscription.readsRing else { return }
        let connection = generation
        let fresh = subscription.readRing(into: &lines)
        guard deliver(), generation == connection else { return }
        if let failure = subscription.failure { return lose(failure) }
        if fresh || !subscription.sleepsNow {
            tick.arm(atNanoseconds: monotonicNanoseconds() + 1_000_000_000 / Int64(rate))
        } else {
            do {
                try socket?.sendAll(subscription.waitRequest)
            } catch {
                lose("cannot ask the daemon for a wake-up: \(error)")
            }
        }
    }

    /// Hands on each whole line; false if the connection was replaced or lost meanwhile.
    private func deliver() -> Bool {
        let connection = generation
        var start = 0
        while let nl = lines[start...].firstIndex(of: UInt8(ascii: "\n")) {
            let line = Array(lines[start..<nl])
            start = nl + 1
            onLine(line)
            if generation != connection { return false }
        }
        lines.removeFirst(start)
        if lines.count >= Self.lineLimit {
            lose("a line longer than \(Self.lineLimit) bytes")
            return false
        }
        return true
    }

    private func lose(_ why: String) {
        disconnect()
        onLost(why)
        retry.arm(atNanoseconds: monotonicNanoseconds() + Self.retryInterval)
    }
}
