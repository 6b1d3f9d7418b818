import DaemonCore
import DesktopSession
import GestureConfig
import GestureEngine
import LinuxSystem
import TouchModel

/// The event stream's readers: control connections that asked to `subscribe` (the
/// ControlServer hands them over after their request line, already checked to be the
/// daemon's own user). Each line is encoded once (`StreamEncoder`) and queued for
/// every subscriber; the queues go out once per loop iteration (`flush`), without
/// blocking: what a socket does not take waits for EPOLLOUT. A subscriber that reads
/// slowly or not at all costs the loop nothing more and holds at most `queueLimit`
/// bytes: frames are coalesced to its rate, then dropped past `frameLimit`, then every
/// line past `queueLimit`, and each dropped line is counted and reported as
/// `{"type":"lost","lost":N}` before the next line that fits.
///
/// With no subscriber, `isEmpty` is all the daemon asks per frame.
package final class StreamSubscribers {
    package static let maxSubscribers = 32
    /// Queued bytes a subscriber may hold: about a second of 16 frame lines at 60 Hz.
    package static let queueLimit = 256 << 10
    /// Past this many queued bytes frames are dropped, keeping room for the lines that
    /// say what happened (state, gesture, action).
    package static let frameLimit = 128 << 10
    /// The kernel's send buffer for a subscriber: small, so that a stalled reader
    /// reaches our bounded queue (and `lost`) soon, instead of 2 MiB of kernel memory.
    package static let sendBuffer: Int32 = 64 << 10

    package private(set) var isEmpty = true
    /// How many are connected (tests, `status`).
    package var count: Int { subscribers.count }
    /// Bytes each has queued and not yet sent (tests: they stay bounded).
    package var queuedBytes: [Int] { subscribers.map(\.pending) }
    /// send(2) calls made so far (tests: one per subscriber per loop turn, however
    /// many lines the turn queued).
    @exclusivity(unchecked) package private(set) var sends = 0
    /// Told when the first subscriber arrives (true) and the last one leaves (false):
    /// the engines keep their decisions only while someone reads them.
    package var onActiveChange: ((Bool) -> Void)?

    private unowned let loop: EventLoop
    private let log: (String) -> Void
    // Touched per frame and only from the loop's thread: unchecked, as in the engine
    // (each checked access cost a runtime call, in the profile of the 100 Hz drag).
    @exclusivity(unchecked) private var subscribers: [Subscriber] = []
    @exclusivity(unchecked) private var encoder = StreamEncoder()
    @exclusivity(unchecked) private var scratch = StreamEncoder()
    /// Per device, the arena decisions already streamed: a list, not a dictionary,
    /// since it is asked at every frame and a device path's hash cost more than the
    /// comparison with the one or two devices there are.
    @exclusivity(unchecked) private var cursors: [(device: String, trace: DecisionTrace)] = []
    @exclusivity(unchecked) private var dirty = false

    package init(loop: EventLoop, log: @escaping (String) -> Void) {
        self.loop = loop
        self.log = log
    }

    deinit {
        for s in subscribers { loop.remove(s.fd) }
    }

    private final class Subscriber {
        let socket: StreamSocket
        var fd: FileDescriptor { socket.descriptor }
        /// Least time between two frames of one device, µs.
        let interval: Int64
        @exclusivity(unchecked) var queue: [UInt8] = []
        /// Bytes of `queue` already sent.
        @exclusivity(unchecked) var sent = 0
        @exclusivity(unchecked) var lost = 0
        @exclusivity(unchecked) var waitingForRoom = false
        /// Per device: the last frame sent, and whether the newest frame seen was sent
        /// (its `changed` gesture lines follow it).
        @exclusivity(unchecked) var clocks: [FrameClock] = []

        init(_ socket: consuming StreamSocket, rate: Int) {
            self.socket = socket
            interval = 1_000_000 / Int64(rate)
            queue.reserveCapacity(16 << 10)
        }

        var pending: Int { queue.count - sent }
    }

    private struct FrameClock {
        var device: String
        var sentAt: Int64
        var fingers: Int
        var newest: Int64
        var tookNewest: Bool
        /// Per spec index, the progress last sent, in thousandths (0 until one is).
        var progress: [Int] = []
    }

    // MARK: Connections

    /// Takes over `socket` (a connection whose request was `subscribe rate=N`): `ok`,
    /// then `hello`, then everything from now on.
    package func add(_ socket: consuming StreamSocket, rate: Int, hello: StreamLine.Hello) {
        guard subscribers.count < Self.maxSubscribers else {
            try? socket.sendAll(Array("error: busy: \(Self.maxSubscribers) subscribers are connected; try again\n".utf8))
            return
        }
        try? socket.setSendBufferSize(Self.sendBuffer)
        let s = Subscriber(socket, rate: rate)
        do {
            try loop.add(s.fd) { [unowned self, unowned s] events in self.handle(s, events) }
        } catch {
            return
        }
        subscribers.append(s)
        s.queue.append(contentsOf: "ok\n".utf8)
        scratch.removeAll()
        scratch.hello(hello)
        scratch.withBytes { s.queue.append(contentsOf: $0) }
        flush(s)
        if isEmpty, !subscribers.isEmpty {
            isEmpty = false
            onActiveChange?(true)
        }
    }

    private func handle(_ s: Subscriber, _ events: UInt32) {
        if events & Epoll.writable != 0 { flush(s) }
        guard events & ~Epoll.writable != 0 else { return }
        // A subscriber has nothing to say: what it sends is read and forgotten, and
        // its end (or an error) ends the subscription.
        var ignored: [UInt8] = []
        switch s.socket.readAvailable(into: &ignored, limit: 1 << 16) {
        case .drained: break
        case .closed, .failed: drop(s, why: nil)
        }
    }

    /// Its socket closes with it, once the last reference (a caller's) goes.
    private func drop(_ s: Subscriber, why: String?) {
        loop.remove(s.fd)
        subscribers.removeAll { $0 === s }
        if let why { log("control: dropped a stream subscriber: \(why)") }
        if subscribers.isEmpty && !isEmpty {
            isEmpty = true
            onActiveChange?(false)
        }
    }

    // MARK: Lines

    /// A frame, to each subscriber whose rate lets it through: the newest frame once
    /// `interval` has passed since the last one sent, and always one whose finger
    /// count changed (a touch or a lift) or that carries flags.
    package func frame(_ f: TouchFrame, device: String) {
        var encoded = false
        for s in subscribers where Self.takes(f, device: device, s) {
            // A queue already past the frames' limit drops it: counted, not encoded.
            if s.pending >= Self.frameLimit {
                s.lost += 1
                continue
            }
            if !encoded {
                encoder.removeAll()
                encoder.frame(f, device: device)
                encoded = true
            }
            _ = encoder.withBytes { queue($0, to: s, isFrame: true) }
        }
    }

    private static func takes(_ f: TouchFrame, device: String, _ s: Subscriber) -> Bool {
        let t = f.time.microseconds
        guard let i = s.clocks.firstIndex(where: { $0.device == device }) else {
            s.clocks.append(FrameClock(device: device, sentAt: t, fingers: f.fingerCount, newest: t, tookNewest: true))
            return true
        }
        let c = s.clocks[i]
        let take = f.fingerCount != c.fingers || !f.flags.isEmpty || t - c.sentAt >= s.interval || t < c.sentAt
        s.clocks[i].newest = t
        s.clocks[i].tookNewest = take
        if take {
            s.clocks[i].sentAt = t
            s.clocks[i].fingers = f.fingerCount
        }
        return take
    }

    /// The progress of `engine`'s possible gestures at the frame just streamed
    /// (`frame`): to each subscriber that took that frame, a line per gesture whose
    /// progress changed (in thousandths) since the last one it got. So at most one per
    /// gesture per frame sent, and nothing while nothing moves.
    package func progress(of engine: GestureEngine, device: String, at time: Timestamp) {
        let t = time.microseconds
        guard subscribers.contains(where: { s in s.clocks.contains { $0.device == device && $0.newest == t && $0.tookNewest } }) else { return }
        engine.forEachProgress { index, p in
            let q = Int((p * 1000).rounded())
            var encoded = false
            for s in subscribers {
                guard let c = s.clocks.firstIndex(where: { $0.device == device }), s.clocks[c].newest == t, s.clocks[c].tookNewest
                else { continue }
                if s.clocks[c].progress.count != engine.specs.count {
                    s.clocks[c].progress = Array(repeating: 0, count: engine.specs.count)  // a new engine (reload)
                }
                guard s.clocks[c].progress[index] != q else { continue }
                if !encoded {
                    encoder.removeAll()
                    encoder.progress(engine.specs[index], thousandths: q, time: time, device: device)
                    encoded = true
                }
                // Dropped with the frames when the queue is that full; then sent again next time.
                if encoder.withBytes({ queue($0, to: s, isFrame: true) }) { s.clocks[c].progress[index] = q }
            }
        }
    }

    /// A gesture event. A `changed` one follows its frame: a subscriber that did not
    /// get the frame does not get the update either (the next one it gets is newer).
    package func gesture(_ e: GestureEvent, device: String, step: Step?) {
        var encoded = false
        for s in subscribers {
            if e.phase == .changed, let c = s.clocks.first(where: { $0.device == device }), c.newest == e.time.microseconds, !c.tookNewest { continue }
            if s.pending >= Self.queueLimit {
                s.lost += 1
                continue
            }
            if !encoded {
                encoder.removeAll()
                encoder.gesture(e, device: device, step: step)
                encoded = true
            }
            _ = encoder.withBytes { queue($0, to: s, isFrame: false) }
        }
    }

    /// The arena decisions `engine` made since the last call for `device`, as state lines.
    package func decisions(of engine: GestureEngine, device: String) {
        let decisions = cursor(device) { $0.take(from: engine) }
        for d in decisions {
            let kind = engine.specs.first { $0.name == d.name }?.kind
            broadcast { $0.state(d, kind: kind, device: device) }
        }
    }

    /// Starts a device's state lines from now: what its engine decided before is old news.
    package func skipDecisions(of engine: GestureEngine, device: String) {
        _ = cursor(device) { $0.take(from: engine) }
    }

    /// Forgets a device's decision cursor (it went, or its engine was replaced).
    package func forget(device: String) { cursors.removeAll { $0.device == device } }

    private func cursor<R>(_ device: String, _ body: (inout DecisionTrace) -> R) -> R {
        if let i = cursors.firstIndex(where: { $0.device == device }) { return body(&cursors[i].trace) }
        cursors.append((device, DecisionTrace()))
        return body(&cursors[cursors.count - 1].trace)
    }

    /// Any other line, to every subscriber.
    package func broadcast(_ write: (inout StreamEncoder) -> Void) {
        encoder.removeAll()
        write(&encoder)
        for s in subscribers { _ = encoder.withBytes { queue($0, to: s, isFrame: false) } }
    }

    /// Whether the line was queued (false: counted as lost).
    @discardableResult
    private func queue(_ line: UnsafeBufferPointer<UInt8>, to s: Subscriber, isFrame: Bool) -> Bool {
        let pending = s.pending
        if pending > 0 && pending + line.count > (isFrame ? Self.frameLimit : Self.queueLimit) {
            s.lost += 1
            return false
        }
        if s.lost > 0 {
            scratch.removeAll()
            scratch.lost(s.lost)
            scratch.withBytes { s.queue.append(contentsOf: $0) }
            s.lost = 0
        }
        s.queue.append(contentsOf: line)
        dirty = true
        return true
    }

    // MARK: Writing

    /// Sends what each subscriber has queued, as much as its socket takes now (the
    /// loop calls it after every iteration's handlers).
    package func flush() {
        guard dirty else { return }
        dirty = false
        for s in subscribers where !s.waitingForRoom && s.pending > 0 { flush(s) }
    }

    private func flush(_ s: Subscriber) {
        while s.pending > 0 {
            sends += 1
            let sent = s.queue.withUnsafeBytes { bytes -> Result<Int, Errno> in
                do throws(Errno) {
                    return .success(try s.socket.send(UnsafeRawBufferPointer(rebasing: bytes[s.sent...])))
                } catch {
                    return .failure(error)
                }
            }
            switch sent {
            case .success(let n): s.sent += n
            case .failure(.wouldBlock): return waitForRoom(s)
            case .failure(let e): return drop(s, why: e == .brokenPipe || e == .connectionReset ? nil : "\(e)")
            }
        }
        s.queue.removeAll(keepingCapacity: true)
        s.sent = 0
        if s.waitingForRoom {
            s.waitingForRoom = false
            loop.watchWritable(s.fd, false)
        }
    }

    /// The socket is full: the loop wakes us when it has room. What was sent is cut
    /// from the queue's front, so the queue holds only what is still to go.
    private func waitForRoom(_ s: Subscriber) {
        if s.sent > 0 {
            s.queue.removeFirst(s.sent)
            s.sent = 0
        }
        guard !s.waitingForRoom else { return }
        s.waitingForRoom = true
        loop.watchWritable(s.fd, true)
    }
}
