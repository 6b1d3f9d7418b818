import CLinux
import GestureEngine
import GestureInput
import GestureTestSupport
import Glibc
import LinuxSystem
import Testing
import TouchModel
@testable import DaemonLoop
import JSON

/// The event stream's shared ring (`subscribe shared`): what gestured's own readers
/// (`events`, `ui`) read, the same lines a line subscriber gets, at no send(2) a frame.
@Suite(.serialized) struct SharedStreamTests {
    /// A shared reader as `gestured events` runs one, driven by the test's spins.
    final class SharedClient {
        let socket: StreamSocket
        let subscription: StreamSubscription
        var lines: [String] = []
        var outcome: StreamSubscription.Outcome = .more
        private var bytes: [UInt8] = []
        /// Wake-up requests sent (`wait POS`).
        var waits = 0
        var asleep = false

        init(_ path: String, rate: Int) throws {
            socket = try StreamSocket.connect(to: path)
            subscription = StreamSubscription(rate: rate)
            try socket.sendAll(subscription.request)
        }

        /// What a reader does when its socket is readable or its tick comes: the
        /// socket's bytes, then the ring; asleep (`wait POS`) when the ring had nothing.
        func read() {
            let ready = (try? Poll.ready([socket.descriptor], timeoutMS: 0))?.first ?? false
            if ready {
                outcome = subscription.readSocket(socket, into: &bytes)
                if ready { asleep = false }
            }
            if subscription.readsRing, !asleep {
                if !subscription.readRing(into: &bytes), subscription.failure == nil, subscription.sleepsNow {
                    try? socket.sendAll(subscription.waitRequest)
                    waits += 1
                    asleep = true
                }
            }
            while let nl = bytes.firstIndex(of: UInt8(ascii: "\n")) {
                lines.append(String(decoding: bytes[..<nl], as: UTF8.self))
                bytes.removeSubrange(...nl)
            }
        }

        var parsed: [JSONValue] { lines.compactMap { JSONValue.parse(Array($0.utf8)) } }
        func has(_ type: String, _ match: (JSONValue) -> Bool = { _ in true }) -> Bool {
            parsed.contains { $0["type"]?.string == type && match($0) }
        }
    }

    static let config = """
    gestures:
      - {name: drag, gesture: pan, fingers: 3, min-distance: 10mm, update: "true"}
      - {name: left, gesture: swipe, fingers: 3, direction: left, command: "true"}
      - {name: pinch, gesture: pinch, fingers: 2, command: "true"}
      - {name: stepped, gesture: pan, fingers: 4, axis: horizontal, every: 5mm, update: "true"}
    """

    /// Every line a line subscriber at the same rate gets, the shared reader gets, byte
    /// for byte and in the same order: frames coalesced to the rate (and every finger
    /// count change), progress with the frames it got, `changed` lines with their frames,
    /// state, gesture and action lines.
    ///
    /// `late`: the two compared subscribe after the burst, while another shared reader
    /// (at 60 Hz) has read from the start: the gesture table it was given is one they
    /// never saw, and the progress the daemon writes for its frames is not theirs.
    @Test(arguments: [(30, false), (1000, false), (30, true), (1000, true)])
    func theSharedReaderGetsTheLinesALineSubscriberGets(rate: Int, late: Bool) throws {
        let s = try EventStreamTests.Session(config: Self.config)
        var lineSubscriber: EventStreamTests.Client?
        var sharedReader: SharedClient?
        func join() throws {
            lineSubscriber = try s.subscribe("subscribe rate=\(rate)")
            let client = try SharedClient(s.socket, rate: rate)
            sharedReader = client
            #expect(s.spin { client.read(); return client.subscription.readsRing }, "no shared answer: \(client.outcome)")
        }
        let early = late ? try SharedClient(s.socket, rate: 60) : nil
        if let early { #expect(s.spin { early.read(); return early.subscription.readsRing }) } else { try join() }
        let pad = try FakeTouchpad()
        s.daemon.adopt(pad.device, announce: true)
        // A 1 kHz burst (1, 3, 4 fingers, a lift) and a slow pan: frames to coalesce,
        // progress rising, a pan that begins and changes, a stepped pan.
        let profile: (Int) -> Int = { i in i < 100 ? 1 : i < 500 ? 3 : i < 900 ? 4 : i < 999 ? 3 : 0 }
        // All read as they go, so that none falls behind and loses lines.
        EventStreamTests.burst(s, pad, frames: 1000, between: { lineSubscriber?.read(); sharedReader?.read(); early?.read() }, fingersAt: profile)
        if late {
            // The burst's commands done first: an `action` line of one ending between the
            // two subscriptions would reach one and not the other.
            #expect(s.spin { early?.read(); return s.daemon.runningCommands == 0 }, "the burst's commands did not end")
            s.daemon.runOnce(timeoutMS: 0); early?.read()
            try join()
        }
        let lineClient = try #require(lineSubscriber), shared = try #require(sharedReader)
        // A slow 3-finger pan: progress rising to the pan's 10 mm, then the pan.
        var t = Timestamp(microseconds: clinux_monotonic_ns() / 1000 - 1_000_000)
        for frame in 0...30 {
            for slot in 0..<3 {
                pad.send(EventType.abs, AbsCode.mtSlot, Int32(slot), at: t)
                if frame == 0 { pad.send(EventType.abs, AbsCode.mtTrackingID, Int32(100 + slot), at: t) }
                pad.send(EventType.abs, AbsCode.mtPositionX, Int32(300 + slot * 100 + frame * 5), at: t)
                pad.send(EventType.abs, AbsCode.mtPositionY, 300, at: t)
            }
            if frame == 0 { pad.send(EventType.key, KeyCode.btnTouch, 1, at: t) }
            pad.send(EventType.syn, SynCode.report, 0, at: t)
            t = t.adding(seconds: 0.01)
            if late { s.daemon.runOnce(timeoutMS: 0); lineClient.read(); shared.read(); early?.read() }
        }
        for slot in 0..<3 {
            pad.send(EventType.abs, AbsCode.mtSlot, Int32(slot), at: t)
            pad.send(EventType.abs, AbsCode.mtTrackingID, -1, at: t)
        }
        pad.send(EventType.key, KeyCode.btnTouch, 0, at: t)
        pad.send(EventType.syn, SynCode.report, 0, at: t)
        s.daemon.runOnce(timeoutMS: 0); lineClient.read(); shared.read(); early?.read()
        LiveDeviceTests.swipe(pad, dxMM: -40)
        // Until both have the swipe's lift and the line subscriber's every line.
        func lifts(_ lines: [String]) -> Int { lines.filter { $0.hasPrefix("{\"type\":\"frame\"") && $0.contains("\"fingers\":0,") }.count }
        let deadline = clinux_monotonic_ns() + 30_000_000_000
        while clinux_monotonic_ns() < deadline {
            s.daemon.runOnce(timeoutMS: 20)
            lineClient.read(); shared.read(); early?.read()
            let wanted = late ? 2 : 3
            if lifts(lineClient.raw) >= wanted && lifts(shared.lines) >= wanted && shared.lines.count >= lineClient.raw.count { break }
        }
        let expected = lineClient.raw.filter { !$0.hasPrefix("{\"type\":\"hello\"") }
        let got = shared.lines.filter { !$0.hasPrefix("{\"type\":\"hello\"") }
        #expect(expected.count > (late ? 20 : 60), "a stream worth comparing: \(expected.count) lines")
        for kind in ["frame", "progress", "state", "gesture"] + (late ? [] : ["device"]) {
            #expect(expected.contains { $0.hasPrefix("{\"type\":\"\(kind)\"") }, "the comparison has \(kind) lines: \(Set(expected.map { $0.prefix(16) }))")
        }
        #expect(!expected.contains { $0.hasPrefix("{\"type\":\"lost\"") }, "the line subscriber kept up")
        #expect(got.count == expected.count, "\(got.count) shared lines, \(expected.count) on the socket")
        if let i = zip(got, expected).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
            Issue.record("line \(i) differs:\n shared: \(got[i])\n socket: \(expected[i])")
        }
        #expect(shared.lines.first?.hasPrefix("{\"type\":\"hello\"") == true, "hello first")
    }

    /// The writer stores a case as its place in the declaration; the reader reads it
    /// as its place in `allCases`. Both orders must be one, for every enum in a record.
    @Test func everyCaseInARecordIsWrittenAtItsPlaceInAllCases() {
        func check<E: CaseIterable & Equatable>(_: E.Type) {
            for (i, value) in E.allCases.enumerated() {
                #expect(StreamRing.Body.place(value) == UInt8(i), "\(E.self).\(value)")
            }
        }
        check(GestureKind.self)
        check(GesturePhase.self)
        check(Direction.self)
        check(Sense.self)
        check(Side.self)
        check(RecognizerState.self)
        check(Transition.self)
    }

    /// A shared reader that keeps up costs the daemon no send(2) while frames come; one
    /// asleep is woken once, with a newline, when the ring has more.
    @Test func aReaderThatKeepsUpCostsNoSendAndASleeperOneWakeUp() throws {
        let s = try EventStreamTests.Session()
        let shared = try SharedClient(s.socket, rate: 60)
        #expect(s.spin { shared.read(); return shared.asleep })
        let pad = try FakeTouchpad()
        s.daemon.adopt(pad.device, announce: true)
        for _ in 0..<500 where !(shared.has("device") && shared.asleep) { s.daemon.runOnce(timeoutMS: 10); shared.read() }
        #expect(shared.has("device") && shared.asleep, "woken by the device line, and asleep again")
        #expect(s.daemon.stream?.sends == 1, "one wake-up")
        let sendsBefore = s.daemon.stream?.sends ?? -1
        // 600 frames while the reader reads between the daemon's turns: it never sleeps.
        var t = Timestamp(microseconds: clinux_monotonic_ns() / 1000 - 2_000_000)
        var woke = 0
        for i in 0..<600 {
            for slot in 0..<3 {
                pad.send(EventType.abs, AbsCode.mtSlot, Int32(slot), at: t)
                if i == 0 { pad.send(EventType.abs, AbsCode.mtTrackingID, Int32(100 + slot), at: t) }
                pad.send(EventType.abs, AbsCode.mtPositionX, Int32(300 + slot * 100 + i % 400), at: t)
                pad.send(EventType.abs, AbsCode.mtPositionY, 300, at: t)
            }
            if i == 0 { pad.send(EventType.key, KeyCode.btnTouch, 1, at: t); pad.send(EventType.key, KeyCode.btnToolTripleTap, 1, at: t) }
            pad.send(EventType.syn, SynCode.report, 0, at: t)
            t = t.adding(seconds: 0.001)
            s.daemon.runOnce(timeoutMS: 0)
            shared.read()
            if i == 0 {
                // The first frame wakes it (the daemon reads its `wait` and sends the newline).
                for _ in 0..<500 where shared.asleep { s.daemon.runOnce(timeoutMS: 10); shared.read() }
                woke = (s.daemon.stream?.sends ?? 0) - sendsBefore
            }
        }
        let sends = (s.daemon.stream?.sends ?? 0) - sendsBefore
        #expect(woke == 1, "one wake-up for the first frame")
        #expect(sends == 1, "\(sends) sends for 600 frames read as they came")
        #expect(shared.parsed.filter { $0["type"] == .string("frame") }.count >= 9, "the frames at 60 a second of their 0.6 s")
    }

    /// A config of a thousand gestures each for twenty apps makes a `hello` of over a
    /// megabyte, more than the socket takes at once: it goes as the socket has room,
    /// whole, and the stream after it.
    @Test func aHelloLargerThanTheSocketTakesArrivesWholeThenTheStream() throws {
        let apps = (0..<20).map { "an-application-with-a-rather-long-name-number-\($0)" }.joined(separator: ", ")
        let config = "gestures:\n" + (0..<1000).map { "  - {name: g\($0), gesture: swipe, fingers: 3, direction: left, command: \"true\", apps: [\(apps)]}\n" }.joined()
        let s = try EventStreamTests.Session(config: config)
        let shared = try SharedClient(s.socket, rate: 60)
        let deadline = clinux_monotonic_ns() + 30_000_000_000
        while !shared.subscription.readsRing && clinux_monotonic_ns() < deadline { s.daemon.runOnce(timeoutMS: 10); shared.read() }
        let hello = try #require(shared.lines.first)
        #expect(hello.utf8.count > 1 << 20, "a hello of \(hello.utf8.count) bytes")
        #expect(JSONValue.parse(Array(hello.utf8))?["gestures"]?.array?.count == 1000)
        let pad = try FakeTouchpad()
        s.daemon.adopt(pad.device, announce: true)
        func device() -> Bool { shared.lines.contains { $0.hasPrefix("{\"type\":\"device\"") } }
        for _ in 0..<500 where !device() { s.daemon.runOnce(timeoutMS: 10); shared.read() }
        #expect(device(), "the stream after it: \(shared.lines.count) lines")
    }

    /// The ring's own rules, without a daemon: a record overwritten before it was read
    /// is a `lost` count and the reader goes on from the oldest record still whole; a
    /// ring that does not add up ends the reading with why, never a crash.
    @Test func aReaderLappedByTheWriterCountsWhatItLostAndGoesOn() throws {
        let writer = try StreamRing.Writer()
        let memory = try SharedMemory(mapping: try writer.memory.readOnlyDescriptor(), count: StreamRing.size)
        let reader = try SharedStreamReader(memory: memory, position: 0, rate: 1000)
        func text(_ n: Int) {
            let line = Array("{\"type\":\"reload\",\"n\":\(n)}\n".utf8)
            line.withUnsafeBytes { writer.append(.text, $0) }
        }
        var out: [UInt8] = []
        for n in 0..<10 { text(n) }
        #expect(reader.read(into: &out))
        #expect(String(decoding: out, as: UTF8.self).split(separator: "\n").count == 10)
        // Three ring's worth: the reader is lapped, and says so once.
        out.removeAll()
        let perRing = StreamRing.capacity / 48
        for n in 0..<(3 * perRing) { text(n) }
        #expect(reader.read(into: &out))
        let lines = String(decoding: out, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("{\"type\":\"lost\",\"lost\":") == true, "\(lines.prefix(2))")
        #expect(lines.count > perRing / 2 && lines.count < 3 * perRing, "what was still there: \(lines.count)")
        #expect(lines.last == "{\"type\":\"reload\",\"n\":\(3 * perRing - 1)}", "up to the newest")
        #expect(reader.failure == nil)
        // A frame record that claims 200 contacts.
        var body = StreamRing.Body()
        body.put("/dev/input/event5"); body.put(Int64(1)); body.put(Int32(3)); body.put(UInt8(0)); body.put(UInt8(200))
        writer.append(.frame, body)
        out.removeAll()
        _ = reader.read(into: &out)
        #expect(reader.failure?.contains("frame record") == true, "\(reader.failure ?? "no failure")")
        #expect(reader.read(into: &out) == false, "and reads nothing more")
    }

    /// Round and round: records of sizes that do not divide the ring (so pads at its
    /// end, and old records' bytes under the new ones' padding), read as they come,
    /// three times the ring over: every frame comes back, nothing lost, nothing refused.
    @Test func aReaderThatKeepsUpReadsEveryRecordLapAfterLap() throws {
        let writer = try StreamRing.Writer()
        let memory = try SharedMemory(mapping: try writer.memory.readOnlyDescriptor(), count: StreamRing.size)
        let reader = try SharedStreamReader(memory: memory, position: 0, rate: 1000)
        var body = StreamRing.Body()
        var out: [UInt8] = []
        var written = 0
        var contacts = 1
        while writer.head < 3 * UInt64(StreamRing.capacity) {
            var f = TouchFrame(time: Timestamp(microseconds: Int64(written) * 1000),
                               contacts: ContactList((0..<contacts).map { Contact(id: Int32($0), position: Point(x: Double(written % 97), y: 1)) }))
            body.removeAll()
            withUnsafePointer(to: &f) { body.frame($0, device: written % 2 == 0 ? "/dev/input/event5" : "/dev/input/event12") }
            writer.append(.frame, body)
            written += 1
            contacts = contacts % 10 + 1
            if written % 3 == 0 { reader.read(into: &out) }
        }
        reader.read(into: &out)
        #expect(reader.failure == nil, "\(reader.failure ?? "")")
        let lines = String(decoding: out, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == written, "\(lines.count) of \(written) frames")
        #expect(!lines.contains { $0.hasPrefix("{\"type\":\"lost\"") })
    }

    /// A line longer than the ring's record limit is one lost line, not a broken ring.
    @Test func aLineTooLongForTheRingIsOneLostLine() throws {
        let writer = try StreamRing.Writer()
        let memory = try SharedMemory(mapping: try writer.memory.readOnlyDescriptor(), count: StreamRing.size)
        let reader = try SharedStreamReader(memory: memory, position: 0, rate: 60)
        let long = Array(repeating: UInt8(ascii: "a"), count: StreamRing.maxRecord) + [10]
        long.withUnsafeBytes { writer.append(.text, $0) }
        Array("{\"type\":\"focus\"}\n".utf8).withUnsafeBytes { writer.append(.text, $0) }
        var out: [UInt8] = []
        reader.read(into: &out)
        #expect(String(decoding: out, as: UTF8.self) == "{\"type\":\"lost\",\"lost\":1}\n{\"type\":\"focus\"}\n")
    }

    /// The mapping another process passes is checked: a memfd whose size can change
    /// under the reader (unsealed), or of another size, is refused.
    @Test func anUnsealedOrMisSizedRingIsRefused() throws {
        let fd = clinux_memfd_create("not-sealed")
        #expect(fd >= 0)
        #expect(ftruncate(fd, off_t(StreamRing.size)) == 0)
        #expect(throws: Errno.self) { try SharedMemory(mapping: OwnedFileDescriptor(adopting: fd), count: StreamRing.size) }
        let writer = try StreamRing.Writer()
        #expect(throws: Errno.self) { try SharedMemory(mapping: try writer.memory.readOnlyDescriptor(), count: StreamRing.size / 2) }
    }
}
