import DaemonCore
import DesktopSession
import GestureConfig
import GestureEngine
import LinuxSystem
import PlainText
import TouchModel

/// The event stream's readers: control connections that asked to `subscribe` (the
/// ControlServer hands them over after their request line, already checked to be the
/// daemon's own user). Two kinds:
///
/// - **Shared readers** (`subscribe shared`: `gestured events`, `gestured ui`) map one
///   ring of binary records (`StreamRing`) that the daemon writes once per fact, and
///   turn them into lines themselves (`SharedStreamReader`). While they keep up, they
///   cost the daemon a copy per fact and no system call; one asleep (`wait POS`) is
///   woken with a newline once there is more.
/// - **Line subscribers** (`subscribe`, any client such as socat): each line is encoded
///   once (`StreamEncoder`) and queued for every one of them; the queues go out once
///   per loop iteration (`flush`), without blocking: what a socket does not take waits
///   for EPOLLOUT. One that reads slowly or not at all costs the loop nothing more and
///   holds at most `queueLimit` bytes: frames are coalesced to its rate, then dropped
///   past `frameLimit`, then every line past `queueLimit`, and each dropped line is
///   counted and reported as `{"type":"lost","lost":N}` before the next line that fits.
///
/// With no reader of either kind, `isEmpty` is all the daemon asks per frame.
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
    /// How many are connected, of both kinds (tests, `status`).
    package var count: Int { subscribers.count + shared.count }
    /// Bytes each line subscriber has queued and not yet sent (tests: they stay bounded).
    package var queuedBytes: [Int] { subscribers.map(\.pending) }
    /// send(2) calls made so far (tests: one per subscriber per loop turn, however
    /// many lines the turn queued; none to a shared reader that keeps up).
    @exclusivity(unchecked) package private(set) var sends = 0
    /// Told when the first subscriber arrives (true) and the last one leaves (false):
    /// the engines keep their decisions only while someone reads them.
    package var onActiveChange: ((Bool) -> Void)?

    private unowned let loop: EventLoop
    private let log: (String) -> Void
    // Touched per frame and only from the loop's thread: unchecked, as in the engine
    // (each checked access cost a runtime call, in the profile of the 100 Hz drag).
    @exclusivity(unchecked) private var subscribers: [Subscriber] = []
    @exclusivity(unchecked) private var shared: [SharedReader] = []
    /// The shared readers' ring, while there are any.
    @exclusivity(unchecked) private var ring: StreamRing.Writer?
    /// The last frame written into the ring, and whether any shared reader takes it.
    @exclusivity(unchecked) private var lastFrame: (device: String, time: Int64, taken: Bool)?
    @exclusivity(unchecked) private var body = StreamRing.Body()
    /// `head` when the sleeping shared readers were last looked at.
    @exclusivity(unchecked) private var wokenAt: UInt64 = 0
    /// `head` when the newest shared reader joined: it reads from there, so a gesture
    /// table written before is one it does not have.
    @exclusivity(unchecked) private var joinedAt: UInt64 = 0
    /// Per device, the gesture table last written into the ring: for which engine, and
    /// where (`head` before it).
    @exclusivity(unchecked) private var tables: [(device: String, engine: ObjectIdentifier, count: Int, at: UInt64)] = []
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
        for r in shared { loop.remove(r.fd) }
    }

    private final class Subscriber {
        let socket: StreamSocket
        var fd: FileDescriptor { socket.descriptor }
        @exclusivity(unchecked) var queue: [UInt8] = []
        /// Bytes of `queue` already sent.
        @exclusivity(unchecked) var sent = 0
        @exclusivity(unchecked) var lost = 0
        @exclusivity(unchecked) var waitingForRoom = false
        /// Which frames, `changed` lines and progress it gets, at its rate.
        @exclusivity(unchecked) var pacing: StreamPacing

        init(_ socket: consuming StreamSocket, rate: Int) {
            self.socket = socket
            pacing = StreamPacing(rate: rate)
            queue.reserveCapacity(16 << 10)
        }

        var pending: Int { queue.count - sent }
    }

    /// A reader of the shared ring: its socket carries only its requests to be woken
    /// (`wait POS`) and the daemon's wake-ups (a newline).
    private final class SharedReader {
        let socket: StreamSocket
        var fd: FileDescriptor { socket.descriptor }
        /// What it has sent since its last whole request.
        var request: [UInt8] = []
        /// Asleep until the ring is past this (it asked `wait POS`).
        var waitsPast: UInt64?
        /// What is still to go of its `hello` (a config of thousands of gestures makes
        /// one larger than the socket takes at once); nothing else is sent before it.
        var hello: [UInt8] = []
        var helloSent = 0
        /// Which frames it takes at its rate: as its own `SharedStreamReader` decides,
        /// from the same frames, so that progress goes into the ring only for frames
        /// some reader takes.
        @exclusivity(unchecked) var pacing: StreamPacing

        init(_ socket: consuming StreamSocket, rate: Int) {
            self.socket = socket
            pacing = StreamPacing(rate: rate)
        }
    }

    // MARK: Connections

    /// Takes over `socket` (a connection whose request was `subscribe rate=N`): `ok`,
    /// then `hello`, then everything from now on. `shared`: `ok shared SIZE POS` with the
    /// ring's descriptor, then `hello`; the reader reads the ring from POS.
    package func add(_ socket: consuming StreamSocket, rate: Int, shared wantsShared: Bool = false, hello: StreamLine.Hello) {
        guard count < Self.maxSubscribers else {
            try? socket.sendAll(Array("error: busy: \(Self.maxSubscribers) subscribers are connected; try again\n".utf8))
            return
        }
        if wantsShared { return addShared(socket, rate: rate, hello: hello) }
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
        becameActive()
    }

    private func addShared(_ socket: consuming StreamSocket, rate: Int, hello: StreamLine.Hello) {
        // Its socket carries the answer, the hello and wake-ups: the same small buffer as
        // a line subscriber's, so a hello larger than it goes in pieces (`sendHello`).
        try? socket.setSendBufferSize(Self.sendBuffer)
        do throws(Errno) {
            if ring == nil {
                ring = try StreamRing.Writer()
                wokenAt = 0
            }
            guard let ring else { return }
            joinedAt = ring.head
            let readOnly = try ring.memory.readOnlyDescriptor()
            try socket.send(Array("ok shared \(StreamRing.size) \(ring.head)\n".utf8), passing: readOnly.descriptor)
        } catch {
            try? socket.sendAll(Array("error: cannot share the stream: \(error)\n".utf8))
            if shared.isEmpty { ring = nil }
            return
        }
        let r = SharedReader(socket, rate: rate)
        do {
            try loop.add(r.fd) { [unowned self, unowned r] events in self.handle(r, events) }
        } catch {
            return
        }
        scratch.removeAll()
        scratch.hello(hello)
        r.hello = scratch.bytes
        shared.append(r)
        becameActive()
        sendHello(r)
    }

    /// As much of its `hello` as its socket takes now; the rest when it has room.
    private func sendHello(_ r: SharedReader) {
        var calls = 0  // not the stream's sends: the subscription's answer
        switch Self.send(r.hello, from: &r.helloSent, on: r.socket, calls: &calls) {
        case nil: break
        case .wouldBlock?:
            loop.watchWritable(r.fd, true)
            return
        case let e?: return drop(r, why: Self.why(e))
        }
        r.hello = []
        r.helloSent = 0
        loop.watchWritable(r.fd, false)
        wakeSleepers()
    }

    private func becameActive() {
        if isEmpty, count > 0 {
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

    /// A shared reader says `wait POS`: it read the ring up to POS and sleeps until
    /// there is more. Anything else, or its end, ends it.
    private func handle(_ r: SharedReader, _ events: UInt32) {
        if events & Epoll.writable != 0 { sendHello(r) }
        guard events & ~Epoll.writable != 0 else { return }
        let result = r.socket.readAvailable(into: &r.request, limit: 64)
        while let nl = r.request.firstIndex(of: UInt8(ascii: "\n")) {
            let line = String(decoding: r.request[..<nl], as: UTF8.self)
            r.request.removeSubrange(...nl)
            guard line.hasPrefix("wait "), let pos = UInt64(line.dropFirst(5)) else {
                return drop(r, why: "a shared reader asked '\(String(line.prefix(40)).printable)', not 'wait POS'")
            }
            r.waitsPast = pos
            wakeSleepers()
        }
        if r.request.count >= 64 { return drop(r, why: "a shared reader sent 64 bytes without a newline") }
        if result.ended { drop(r, why: nil) }
    }

    /// Its socket closes with it, once the last reference (a caller's) goes.
    private func drop(_ s: Subscriber, why: String?) {
        loop.remove(s.fd)
        subscribers.removeAll { $0 === s }
        if let why { log("control: dropped a stream subscriber: \(why)") }
        becameIdleIfLast()
    }

    private func drop(_ r: SharedReader, why: String?) {
        loop.remove(r.fd)
        shared.removeAll { $0 === r }
        if let why { log("control: dropped a shared stream reader: \(why)") }
        if shared.isEmpty {
            ring = nil
            tables.removeAll()
        }
        becameIdleIfLast()
    }

    private func becameIdleIfLast() {
        if count == 0 && !isEmpty {
            isEmpty = true
            onActiveChange?(false)
        }
    }

    // MARK: Lines

    /// A frame: into the ring, and to each line subscriber whose rate lets it through.
    /// By pointer, as the core gets it: a `TouchFrame` passed by value was a copy of
    /// its ten contact places.
    package func frame(_ frame: UnsafePointer<TouchFrame>, device: String) {
        let t = frame.pointee.time.microseconds, fingers = frame.pointee.fingerCount, flagged = !frame.pointee.flags.isEmpty
        if let ring {
            body.removeAll()
            body.frame(frame, device: device)
            ring.append(.frame, body)
            var taken = false
            for r in shared where r.pacing.takes(time: t, fingers: fingers, flagged: flagged, device: device) {
                taken = true
            }
            lastFrame = (device, t, taken)
        }
        var encoded = false
        for s in subscribers where s.pacing.takes(time: t, fingers: fingers, flagged: flagged, device: device) {
            // A queue already past the frames' limit drops it: counted, not encoded.
            if s.pending >= Self.frameLimit {
                s.lost += 1
                continue
            }
            if !encoded {
                encoder.removeAll()
                encoder.frame(frame.pointee, device: device)
                encoded = true
            }
            _ = encoder.withBytes { queue($0, to: s, isFrame: true) }
        }
    }

    /// The progress of `engine`'s possible gestures at the frame just streamed
    /// (`frame`): into the ring, all of them, by their places in the device's gesture
    /// table (written first when a reader may not have it); to each line subscriber
    /// that took that frame, a line per gesture whose progress changed (in thousandths)
    /// since the last one it got. So at most one per gesture per frame sent, and nothing
    /// while nothing moves.
    package func progress(of engine: GestureEngine, device: String, at time: Timestamp) {
        let t = time.microseconds
        let count = engine.specs.count
        let lines = subscribers.contains { $0.pacing.took(device: device, at: t) }
        // Only for a frame a shared reader takes: the others' progress no reader shows.
        let sharedTook = lastFrame.map { $0.taken && $0.time == t && $0.device == device } ?? false
        let ring = sharedTook ? ring : nil
        guard ring != nil || lines else { return }
        if ring != nil {
            table(of: engine, device: device)
            body.removeAll()
            body.put(device)
            body.put(t)
            body.put(UInt32(count))
        }
        // One pass over the engine for both kinds of reader.
        engine.forEachProgress { index, p in
            let q = Int((p * 1000).rounded())
            if ring != nil {
                body.put(UInt32(index))
                body.put(Int32(q))
            }
            guard lines else { return }
            var encoded = false
            for s in subscribers where s.pacing.progressIsNew(device: device, at: t, index: index, count: count, q: q) {
                if !encoded {
                    encoder.removeAll()
                    encoder.progress(engine.specs[index], thousandths: q, time: time, device: device)
                    encoded = true
                }
                // Dropped with the frames when the queue is that full; then sent again next time.
                if encoder.withBytes({ queue($0, to: s, isFrame: true) }) { s.pacing.sent(progress: q, device: device, index: index) }
            }
        }
        ring?.append(.progress, body)
    }

    /// The device's gesture table into the ring, unless every reader has this engine's:
    /// one written since the newest reader joined that the ring still holds.
    private func table(of engine: GestureEngine, device: String) {
        guard let ring else { return }
        let id = ObjectIdentifier(engine), count = engine.specs.count
        let i = tables.firstIndex { $0.device == device }
        if let i, tables[i].engine == id, tables[i].count == count, tables[i].at >= joinedAt, tables[i].at >= ring.tail { return }
        let entry = (device: device, engine: id, count: count, at: ring.head)
        body.removeAll()
        body.put(device)
        body.put(UInt32(count))
        for spec in engine.specs {
            body.put(case: spec.kind)
            body.put(spec.name)
        }
        ring.append(.table, body)
        if let i { tables[i] = entry } else { tables.append(entry) }
    }

    /// A gesture event. A `changed` one follows its frame: a subscriber that did not
    /// get the frame does not get the update either (the next one it gets is newer).
    package func gesture(_ e: GestureEvent, device: String, step: Step?) {
        let steps = step.map { ActionMapper.steps($0, e) }.flatMap { $0.isFinite ? $0 : nil }
        if let ring {
            body.removeAll()
            body.gesture(e, device: device, steps: steps)
            ring.append(.gesture, body)
        }
        var encoded = false
        for s in subscribers {
            if e.phase == .changed, s.pacing.skipsChange(device: device, at: e.time.microseconds) { continue }
            if s.pending >= Self.queueLimit {
                s.lost += 1
                continue
            }
            if !encoded {
                encoder.removeAll()
                encoder.gesture(e, device: device, steps: steps)
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
            // Into the ring as a record (the reason's text is all a reader needs of it);
            // a line for the line subscribers only when there are any.
            if let ring {
                body.removeAll()
                body.state(d, kind: kind, device: device)
                ring.append(.state, body)
            }
            guard !subscribers.isEmpty else { continue }
            encoder.removeAll()
            encoder.state(d, kind: kind, device: device)
            for s in subscribers { _ = encoder.withBytes { queue($0, to: s, isFrame: false) } }
        }
    }

    /// Starts a device's state lines from now: what its engine decided before is old news.
    package func skipDecisions(of engine: GestureEngine, device: String) {
        _ = cursor(device) { $0.take(from: engine) }
    }

    /// Forgets a device's decision cursor and gesture table (it went, or its engine was replaced).
    package func forget(device: String) {
        cursors.removeAll { $0.device == device }
        tables.removeAll { $0.device == device }
    }

    private func cursor<R>(_ device: String, _ body: (inout DecisionTrace) -> R) -> R {
        if let i = cursors.firstIndex(where: { $0.device == device }) { return body(&cursors[i].trace) }
        cursors.append((device, DecisionTrace()))
        return body(&cursors[cursors.count - 1].trace)
    }

    /// Any other line, to every subscriber, and into the ring as it is.
    package func broadcast(_ write: (inout StreamEncoder) -> Void) {
        encoder.removeAll()
        write(&encoder)
        if let ring { encoder.withBytes { ring.append(.text, UnsafeRawBufferPointer($0)) } }
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

    /// Sends what each line subscriber has queued, as much as its socket takes now, and
    /// wakes the shared readers asleep since before the ring's newest records (the loop
    /// calls it after every iteration's handlers).
    package func flush() {
        if let ring, ring.head != wokenAt { wakeSleepers() }
        guard dirty else { return }
        dirty = false
        for s in subscribers where !s.waitingForRoom && s.pending > 0 { flush(s) }
    }

    /// A newline to each shared reader asleep at a position the ring has passed. A full
    /// socket needs no other: the reader has wake-ups unread.
    private func wakeSleepers() {
        guard let ring else { return }
        wokenAt = ring.head
        for r in shared where r.hello.isEmpty {
            guard let past = r.waitsPast, ring.head > past else { continue }
            r.waitsPast = nil
            sends += 1
            var newline = UInt8(ascii: "\n")
            _ = withUnsafeBytes(of: &newline) { try? r.socket.send($0) }
        }
    }

    private func flush(_ s: Subscriber) {
        switch Self.send(s.queue, from: &s.sent, on: s.socket, calls: &sends) {
        case nil: break
        case .wouldBlock?: return waitForRoom(s)
        case let e?: return drop(s, why: Self.why(e))
        }
        s.queue.removeAll(keepingCapacity: true)
        s.sent = 0
        if s.waitingForRoom {
            s.waitingForRoom = false
            loop.watchWritable(s.fd, false)
        }
    }

    /// Sends `bytes` from `sent` on, as much as `socket` takes now, one send(2) after
    /// another (each counted in `calls`): nil once all are out, or the error that
    /// stopped it (`.wouldBlock`: the socket is full for now).
    private static func send(_ bytes: [UInt8], from sent: inout Int, on socket: borrowing StreamSocket, calls: inout Int) -> Errno? {
        while sent < bytes.count {
            calls += 1
            let start = sent
            let result = bytes.withUnsafeBytes { b -> Result<Int, Errno> in
                do throws(Errno) {
                    return .success(try socket.send(UnsafeRawBufferPointer(rebasing: b[start...])))
                } catch {
                    return .failure(error)
                }
            }
            switch result {
            case .success(let n): sent += n
            case .failure(let e): return e
            }
        }
        return nil
    }

    /// Why a subscriber whose socket failed is dropped, for the log: nothing when it
    /// simply went away.
    private static func why(_ e: Errno) -> String? { e == .brokenPipe || e == .connectionReset ? nil : "\(e)" }

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
