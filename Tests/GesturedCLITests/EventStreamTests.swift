import CLinux
import DesktopSession
import GestureInput
import GestureTestSupport
import Glibc
import LinuxSystem
import Testing
import TouchModel
@testable import Commands
@testable import DaemonLoop
import JSON
@testable import LiveView

/// The control socket's event stream (`subscribe`) on the real daemon in-process: the
/// fake touchpad read by the real libevdev, subscribers as real socket clients.
@Suite(.serialized) struct EventStreamTests {
    static let config = """
    gestures:
      - name: left
        gesture: swipe
        fingers: 3
        direction: left
        command: "true"
      - name: right
        gesture: swipe
        fingers: 3
        direction: right
        command: "true"
    """

    /// A focus source the test moves by hand.
    final class ManualFocus: FocusSource {
        var name: String { "manual" }
        var endpoint: String { "test" }
        var connected: Bool { true }
        var onChange: (FocusedApp?) -> Void = { _ in }
        func start(on loop: FocusLoop, onChange: @escaping (FocusedApp?) -> Void, log: @escaping (String) -> Void) { self.onChange = onChange }
        func stop() {}
    }

    /// A daemon with its control socket, the fake pad not yet adopted.
    final class Session {
        let dir = TempDir()
        let daemon: Daemon
        let focus = ManualFocus()
        var socket: String { dir.path + "/gestured.sock" }

        init(config: String = EventStreamTests.config) throws {
            var options = Daemon.Options()
            options.controlSocket = dir.path + "/gestured.sock"
            options.focus = FocusMonitor(source: focus)
            // The bursts below pour up to 3 s of frames in at once, stamped in the past:
            // a backlog by design, which the stale-frame bound would drop.
            options.staleFrameAge = nil
            daemon = try LiveDeviceTests.makeDaemon(dir, config: config, options: options)
            #expect(daemon.startControl())
            daemon.startFocus()
        }

        func spin(seconds: Double = 30, until done: () -> Bool) -> Bool { LiveDeviceTests.spin(daemon, seconds: seconds, until: done) }

        /// Subscribes and waits for `ok` and `hello`.
        func subscribe(_ request: String = "subscribe rate=1000") throws -> Client {
            let c = try Client(socket, request: request)
            #expect(spin { c.read(); return c.answer != nil && (c.answer != "ok" || !c.lines.isEmpty) }, "no answer to \(request)")
            return c
        }
    }

    /// One connection: its first line, then the stream's lines parsed.
    final class Client {
        let socket: StreamSocket
        var answer: String?
        var lines: [JSONValue] = []
        var raw: [String] = []
        var closed = false
        private var buffer: [UInt8] = []
        private let json: Bool

        init(_ socket: String, request: String) throws {
            self.socket = try StreamSocket.connect(to: socket)
            json = request.hasPrefix("subscribe")
            #expect(throws: Never.self) { try self.socket.sendAll(Array((request + "\n").utf8)) }
        }

        func read() {
            if socket.readAvailable(into: &buffer, limit: 1 << 24).ended { closed = true }
            while let nl = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<nl], as: UTF8.self)
                buffer.removeSubrange(...nl)
                if answer == nil { answer = line; continue }
                raw.append(line)
                guard json else { continue }
                guard let v = JSONValue.parse(Array(line.utf8)) else { Issue.record("not JSON: \(line)"); continue }
                lines.append(v)
            }
        }

        func of(_ type: String) -> [JSONValue] { lines.filter { $0["type"]?.string == type } }
        func has(_ type: String, _ match: (JSONValue) -> Bool = { _ in true }) -> Bool { of(type).contains(where: match) }
    }

    /// Frames 1 ms apart (a 1 kHz touchscreen's pace), written in chunks the loop
    /// reads between (the fake's pipe holds 64 KiB): `fingers` fingers down for
    /// `count` frames, moving left, the finger count changing at `changes`.
    /// `between`: what readers do at each of the loop's turns (nothing: they read after).
    static func burst(_ s: Session, _ pad: FakeTouchpad, frames count: Int, between: () -> Void = {}, fingersAt: (Int) -> Int) {
        var t = Timestamp(microseconds: clinux_monotonic_ns() / 1000 - Int64(count + 100) * 1000)
        var down = 0
        for i in 0..<count {
            let want = fingersAt(i)
            for slot in 0..<5 {
                pad.send(EventType.abs, AbsCode.mtSlot, Int32(slot), at: t)
                if slot < want {
                    if slot >= down { pad.send(EventType.abs, AbsCode.mtTrackingID, Int32(1000 + i * 5 + slot), at: t) }
                    pad.send(EventType.abs, AbsCode.mtPositionX, Int32(800 - (i % 500) - slot * 50), at: t)
                    pad.send(EventType.abs, AbsCode.mtPositionY, 300, at: t)
                } else if slot < down {
                    pad.send(EventType.abs, AbsCode.mtTrackingID, -1, at: t)
                }
            }
            down = want
            pad.send(EventType.key, KeyCode.btnTouch, want > 0 ? 1 : 0, at: t)
            pad.send(EventType.syn, SynCode.report, 0, at: t)
            t = t.adding(seconds: 0.001)
            if i % 50 == 49 { for _ in 0..<3 { s.daemon.runOnce(timeoutMS: 0); between() } }
        }
    }

    /// What a loop turn queued goes out in one send(2) per subscriber, not one per line:
    /// ten frames read in one turn reach each of two subscribers in one send.
    @Test func aLoopTurnsLinesGoOutInOneSendPerSubscriber() throws {
        let s = try Session()
        let a = try s.subscribe(), b = try s.subscribe()
        let pad = try FakeTouchpad(name: "Pad")
        s.daemon.adopt(pad.device, announce: true)
        #expect(s.spin { a.read(); b.read(); return a.has("device") && b.has("device") })
        let stream = try #require(s.daemon.stream)
        let sends = stream.sends, frames = a.of("frame").count
        Self.burst(s, pad, frames: 10) { _ in 3 }  // written, not yet read: the loop reads all ten in its next turn
        #expect(s.daemon.runOnce(timeoutMS: 1000))
        #expect(stream.sends - sends == 2, "one send for each subscriber")
        #expect(s.spin { a.read(); b.read(); return a.of("frame").count - frames == 10 && b.of("frame").count == a.of("frame").count },
                "the ten frames arrived: \(a.of("frame").count - frames)")
    }

    @Test func everyKindOfLineWithItsFields() throws {
        let s = try Session()
        let c = try s.subscribe()
        #expect(c.answer == "ok")
        let hello = try #require(c.lines.first)
        #expect(hello["type"] == .string("hello") && hello["rate"] == .number(1000) && hello["dry_run"] == .bool(false))
        #expect(hello["pid"] == .number(Double(getpid())) && hello["devices"] == .array([]))
        #expect(hello["gestures"]?.array?.map { $0["name"] } == [.string("left"), .string("right")])
        #expect(hello["focus"]?["source"] == .string("manual"))

        let pad = try FakeTouchpad(name: "Fake\u{1b}]0;owned\u{7} Pad")
        s.daemon.adopt(pad.device, announce: true)
        #expect(s.spin { c.read(); return c.has("device") })
        let added = try #require(c.of("device").first)
        #expect(added["event"] == .string("added") && added["path"] == .string(pad.device.path) && added["kind"] == .string("touchpad"))
        #expect(added["name"] == .string("Fake\u{1b}]0;owned\u{7} Pad") && added["grabbed"] == .bool(false))
        #expect(added["width_mm"] == .number(100) && added["height_mm"] == .number(60))
        #expect(!c.raw.contains { $0.unicodeScalars.contains { $0.value < 0x20 } }, "the device's escape sequence arrives escaped")

        LiveDeviceTests.swipe(pad, dxMM: -40)
        #expect(s.spin { c.read(); return c.has("action") { $0["outcome"] == .string("exited") } })
        let frames = c.of("frame")
        #expect(frames.contains { $0["fingers"] == .number(3) && $0["contacts"]?.array?.count == 3 })
        #expect(frames.last?["fingers"] == .number(0), "the lift is never coalesced away")
        let contact = try #require(frames.first?["contacts"]?.array?.first)
        #expect(contact["x"] == .number(30) && contact["y"] == .number(30) && contact["nx"] != nil && contact["id"] != nil)
        #expect(frames.first?["t_us"]?.number.map { ($0 / 1e6 * 1e6).rounded() } == frames.first?["t"]?.number.map { ($0 * 1e6).rounded() })

        let fired = try #require(c.of("gesture").first { $0["gesture"] == .string("left") })
        #expect(fired["phase"] == .string("recognized") && fired["kind"] == .string("swipe") && fired["direction"] == .string("left"))
        #expect(fired["fingers"] == .number(3) && fired["progress"] == .null && (fired["dx_mm"]?.number ?? 0) < -10)
        #expect(c.has("state") { $0["gesture"] == .string("left") && $0["to"] == .string("recognized") })
        let failed = try #require(c.of("state").first { $0["gesture"] == .string("right") && $0["to"] == .string("failed") })
        #expect(failed["reason"]?.string?.isEmpty == false, "a failure says why, as --explain does: \(failed)")
        #expect(failed["from"] == .string("possible") && failed["kind"] == .string("swipe"))
        let started = try #require(c.of("action").first { $0["outcome"] == .string("started") })
        #expect(started["gesture"] == .string("left") && started["phase"] == .string("recognized") && started["command"] == .string("true"))
        #expect(started["pid"]?.number != nil && started["keys"] == .null)
        #expect(c.has("action") { $0["outcome"] == .string("exited") && $0["status"] == .number(0) })

        s.focus.onChange(FocusedApp(app: "foot", title: "~\u{9b}2J"))
        #expect(s.spin { c.read(); return c.has("focus") })
        #expect(c.of("focus").first?["app"] == .string("foot") && c.of("focus").first?["title"] == .string("~\u{9b}2J"))

        s.dir.write("config.yaml", "gestures:\n  - name: broken\n    gesture: swipe\n    fingers: three\n")
        #expect(!s.daemon.reload(reason: "test"))
        s.dir.write("config.yaml", Self.config)
        #expect(s.daemon.reload(reason: "test"))
        // (The file watcher may reload on the writes too: the test's own reloads are the first.)
        #expect(s.spin { c.read(); return c.has("reload") { $0["ok"] == .bool(true) } }, "\(c.raw.suffix(5))")
        let refused = try #require(c.of("reload").first), taken = try #require(c.of("reload").first { $0["ok"] == .bool(true) })
        #expect(refused["ok"] == .bool(false) && refused["diagnostics"]?.array?.first?["line"] == .number(4))
        #expect(refused["diagnostics"]?.array?.first?["severity"] == .string("error"))
        #expect(taken["gestures"] == .number(2))
        #expect(taken["message"] == .string("reloaded \(s.dir.path)/config.yaml: 2 gestures"))

        s.daemon.remove(pad.device.path, reason: "test")
        #expect(s.spin { c.read(); return c.has("device") { $0["event"] == .string("removed") } })
    }

    /// A slow 3-finger pan toward a 10 mm threshold, 0.5 mm a frame: what an animation
    /// that follows the fingers before the gesture begins reads.
    @Test func aSlowPanShowsItsProgressRisingBelowOneThenBeginsAtTheThreshold() throws {
        let s = try Session(config: "gestures:\n  - {name: drag, gesture: pan, fingers: 3, min-distance: 10mm, update: \"true\"}\n")
        let c = try s.subscribe()
        let pad = try FakeTouchpad(name: "Fake Pad")
        s.daemon.adopt(pad.device, announce: true)
        var t = Timestamp(microseconds: clinux_monotonic_ns() / 1000 - 1_000_000)
        for frame in 0...30 {
            for slot in 0..<3 {
                pad.send(EventType.abs, AbsCode.mtSlot, Int32(slot), at: t)
                if frame == 0 { pad.send(EventType.abs, AbsCode.mtTrackingID, Int32(100 + slot), at: t) }
                pad.send(EventType.abs, AbsCode.mtPositionX, Int32(300 + slot * 100 + frame * 5), at: t)  // 10 units a mm
                pad.send(EventType.abs, AbsCode.mtPositionY, 300, at: t)
            }
            if frame == 0 {
                pad.send(EventType.key, KeyCode.btnTouch, 1, at: t)
                pad.send(EventType.key, KeyCode.btnToolTripleTap, 1, at: t)
            }
            pad.send(EventType.syn, SynCode.report, 0, at: t)
            t = t.adding(seconds: 0.01)
        }
        #expect(s.spin { c.read(); return c.has("gesture") { $0["phase"] == .string("began") } }, "\(c.raw.suffix(5))")
        let lines = c.lines.filter { ["progress", "gesture", "state"].contains($0["type"]?.string) }
        let began = try #require(lines.firstIndex { $0["type"] == .string("gesture") })
        let before = lines[..<began].filter { $0["type"] == .string("progress") }.compactMap { $0["progress"]?.number }
        #expect(before.count >= 5, "progress arrives before began: \(lines.prefix(began))")
        #expect(before == before.sorted() && Set(before).count == before.count, "rising, once per change: \(before)")
        #expect(before.allSatisfy { $0 > 0 && $0 < 1 } && (before.last ?? 0) >= 0.9, "below 1, nearly there: \(before)")
        #expect(lines[..<began].filter { $0["type"] == .string("progress") }.allSatisfy {
            $0["gesture"] == .string("drag") && $0["kind"] == .string("pan") && $0["device"] == .string(pad.device.path)
        })
        let dx = try #require(lines[began]["dx_mm"]?.number)
        #expect(dx >= 10 && dx < 10.6, "began as the fingers passed 10 mm: \(lines[began])")
        #expect(!lines[began...].contains { $0["type"] == .string("progress") }, "none while it runs (the gesture lines carry it)")
    }

    @Test func aSubscriberThatStopsReadingCostsNothingButItsOwnLines() throws {
        let s = try Session()
        let stalled = try Client(s.socket, request: "subscribe rate=1000")
        #expect(s.spin { s.daemon.stream?.count == 1 })
        let pad = try FakeTouchpad()
        s.daemon.adopt(pad.device, announce: true)
        // Far more than the socket and the queue hold: frames, then lines, are dropped.
        Self.burst(s, pad, frames: 3000, fingersAt: { $0 < 2990 ? 3 : 0 })
        _ = s.spin(seconds: 1) { false }
        let queued = try #require(s.daemon.stream?.queuedBytes.first)
        #expect(queued <= StreamSubscribers.queueLimit, "its queue stays bounded: \(queued) bytes")

        // The daemon still answers and still acts.
        let status = try Client(s.socket, request: "status")
        #expect(s.spin { status.read(); return status.closed })
        #expect(status.answer == "ok")
        let reader = try s.subscribe()
        LiveDeviceTests.swipe(pad, dxMM: -40)
        #expect(s.spin { reader.read(); return reader.has("action") { $0["outcome"] == .string("exited") } }, "gestures still fire and are reported")

        // Once it reads again, it learns how much it missed.
        #expect(s.spin { stalled.read(); return stalled.has("lost") })
        let lost = stalled.of("lost").first?["lost"]?.number ?? 0
        #expect(lost > 100, "\(lost) lines lost")
        #expect(s.spin { stalled.read(); return stalled.has("gesture") { $0["gesture"] == .string("left") } }, "and then gets the stream again")
    }

    @Test func sixteenSubscribersAllGetTheStreamAndTheCapIsTheirOwn() throws {
        let s = try Session()
        var clients: [Client] = []
        for _ in 0..<StreamSubscribers.maxSubscribers {
            clients.append(try Client(s.socket, request: "subscribe"))
            #expect(s.spin { s.daemon.stream?.count == clients.count })
        }
        let refused = try Client(s.socket, request: "subscribe")
        #expect(s.spin { refused.read(); return refused.answer != nil })
        #expect(refused.answer?.hasPrefix("error: busy: 32 subscribers") == true, "\(refused.answer ?? "")")
        let status = try Client(s.socket, request: "status")
        #expect(s.spin { status.read(); return status.closed })
        #expect(status.answer == "ok", "subscribers hold none of the 16 request connections")
        clients.removeLast(16)
        #expect(s.spin { s.daemon.stream?.count == 16 })

        let pad = try FakeTouchpad()
        s.daemon.adopt(pad.device, announce: true)
        LiveDeviceTests.swipe(pad, dxMM: -40)
        #expect(s.spin {
            clients.forEach { $0.read() }
            return clients.allSatisfy { $0.has("gesture") { $0["gesture"] == .string("left") } }
        })
        for c in clients {
            #expect(c.has("device") && c.has("frame") && !c.has("lost"))
        }
    }

    @Test(arguments: [30, 60])
    func aKilohertzBurstIsCoalescedToTheRateButKeepsEveryFingerCountChange(rate: Int) throws {
        let s = try Session()
        let c = try s.subscribe("subscribe rate=\(rate)")
        let pad = try FakeTouchpad()
        s.daemon.adopt(pad.device, announce: true)
        // One second at 1 kHz: 1, 2, 3 fingers, a frame of 2, 3 again, and the lift.
        let profile: (Int) -> Int = { i in i < 300 ? 1 : i < 600 ? 2 : i == 800 ? 2 : i < 999 ? 3 : 0 }
        Self.burst(s, pad, frames: 1000, fingersAt: profile)
        #expect(s.spin { c.read(); return c.has("frame") { $0["fingers"] == .number(0) } })
        let frames = c.of("frame")
        let changes = 5
        #expect(frames.count <= rate + 1 + changes, "\(frames.count) frames in 1 s at rate=\(rate)")
        #expect(frames.count >= rate - 1, "the newest frames still arrive at the rate: \(frames.count)")
        var counts: [Double] = []
        for f in frames { if let n = f["fingers"]?.number, counts.last != n { counts.append(n) } }
        #expect(counts == [1, 2, 3, 2, 3, 0], "every finger-count change arrives")
        let times = frames.compactMap { $0["t_us"]?.number }
        #expect(times == times.sorted())
    }

    @Test func aBadRateIsRefused() throws {
        let s = try Session()
        let c = try Client(s.socket, request: "subscribe rate=0")
        #expect(s.spin { c.read(); return c.closed })
        #expect(c.answer == "error: 'rate=' takes frames per second, 1…1000")
        #expect(s.daemon.stream?.count == 0)
    }
}

/// `gestured events` against a `gestured run` child, as a user runs them.
@Suite(.serialized) struct EventsCommandTests {
    static func waitForOutput(_ p: Gestured.Process, _ text: String) -> Bool {
        let deadline = clinux_monotonic_ns() + 10_000_000_000
        while !p.stdout.contains(text) && clinux_monotonic_ns() < deadline && p.poll() == nil { p.pump(ms: 50) }
        p.pump(ms: 0)
        return p.stdout.contains(text)
    }

    @Test func readableThenJSONAndTheEndOfTheStream() throws {
        let s = ControlSocketTests.Session()
        let d = try s.daemon()
        #expect(d.waitForLog("started:"))
        let events = try Gestured.Process(["events"], environment: s.env)
        #expect(Self.waitForOutput(events, "gestured 0.1.0 (pid \(d.pid)): config \(s.config), 2 gestures, 0 devices, frames at 60/s"), "\(events.stdout)\(events.stderr)")
        let json = try Gestured.Process(["events", "--json", "--rate", "5"], environment: s.env)
        #expect(Self.waitForOutput(json, #""rate":5"#))
        #expect(try s.cli(["reload"]).status == 0)
        #expect(Self.waitForOutput(events, "reload: reloaded \(s.config): 2 gestures"), "\(events.stdout)")
        #expect(Self.waitForOutput(json, #"{"type":"reload","file":"\#(s.config)","ok":true"#), "\(json.stdout)")
        #expect(json.stdout.hasPrefix(#"{"type":"hello","version":"0.1.0""#), "raw lines, the answer's 'ok' not among them")
        kill(d.pid, SIGTERM)
        #expect(d.wait() == 0)
        #expect(events.wait() == 0)
        #expect(events.stderr == "gestured: the daemon closed the stream\n")
        #expect(json.wait() == 0)
    }

    @Test func withoutADaemonOrWithABadRate() throws {
        let s = ControlSocketTests.Session()
        let none = try s.cli(["events"])
        #expect(none.status == 1 && none.stderr.contains("no gestured is running for this user"))
        let bad = try s.cli(["events", "--rate", "0"])
        #expect(bad.status == 2 && bad.stderr.hasPrefix("gestured events: --rate takes frames per second, 1…1000"))
    }
}
