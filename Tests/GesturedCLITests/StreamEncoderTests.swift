import DaemonCore
import DesktopSession
import GestureConfig
@testable import GestureEngine
import Testing
import TouchModel
@testable import Commands
@testable import DaemonLoop
import JSON
@testable import LiveView

/// The event stream's lines as a reader gets them: valid JSON, the contract's keys,
/// hostile strings inert.
@Suite struct StreamEncoderTests {
    static let pad = DeviceInfo(name: "Pad\n{\"type\":\"lost\"}\u{1b}[2J\u{9b}", kind: .touchpad, size: Size(width: 100, height: 60))

    static func line(_ write: (inout StreamEncoder) -> Void) throws -> JSONValue {
        var e = StreamEncoder()
        write(&e)
        let bytes = e.bytes
        #expect(bytes.last == UInt8(ascii: "\n"))
        #expect(bytes.filter { $0 == UInt8(ascii: "\n") }.count == 1, "one line")
        #expect(!bytes.dropLast().contains { $0 < 0x20 }, "no raw control character on the line")
        return try #require(JSONValue.parse(bytes.dropLast()), "\(String(decoding: bytes, as: UTF8.self))")
    }

    @Test func aHostileNameStaysInert() throws {
        var e = StreamEncoder()
        e.device(.added, StreamLine.Device(path: "/dev/input/event5", info: Self.pad, grabbed: true))
        let text = String(decoding: e.bytes, as: UTF8.self)
        #expect(text.contains(#""name":"Pad\n{\"type\":\"lost\"}\u001b[2J\u009b""#), "\(text)")
        let v = try Self.line { $0.device(.added, StreamLine.Device(path: "/dev/input/event5", info: Self.pad, grabbed: true)) }
        #expect(v["type"] == .string("device"))
        #expect(v["event"] == .string("added"))
        #expect(v["name"] == .string(Self.pad.name), "the name survives the round trip")
        #expect(v["width_mm"] == .number(100) && v["height_mm"] == .number(60))
        #expect(v["grabbed"] == .bool(true) && v["kind"] == .string("touchpad") && v["slots"] == .number(5))
    }

    @Test func aFrame() throws {
        let contacts = ContactList([Contact(id: 7, slot: 0, position: Point(x: 12.345, y: 45.6), normalized: Point(x: 0.12345, y: 0.76)),
                                    Contact(id: 8, slot: 1, position: Point(x: -0.004, y: 1), normalized: Point(x: 0, y: 0))])
        let frame = TouchFrame(time: Timestamp(microseconds: 12_345_678), contacts: contacts, fingerCount: 3, flags: [.resynced, .buttonDown])
        var e = StreamEncoder()
        e.frame(frame, device: "/dev/input/event5")
        #expect(String(decoding: e.bytes, as: UTF8.self) == #"""
        {"type":"frame","device":"/dev/input/event5","t":12.345678,"t_us":12345678,"fingers":3,"flags":["resynced","button"],"contacts":[{"id":7,"slot":0,"x":12.35,"y":45.60,"nx":0.1235,"ny":0.7600,"major":0.00},{"id":8,"slot":1,"x":0.00,"y":1.00,"nx":0.0000,"ny":0.0000,"major":0.00}]}

        """#)
        e.removeAll()
        e.frame(TouchFrame(time: Timestamp(microseconds: 5)), device: "d")
        #expect(String(decoding: e.bytes, as: UTF8.self).hasPrefix(#"{"type":"frame","device":"d","t":0.000005,"t_us":5,"fingers":0,"flags":[],"contacts":[]}"#))
    }

    /// Integers at every width, where the digit count changes (the writer counts them by comparison).
    @Test func integersAtEveryWidth() throws {
        var values: [Int64] = [0, 9, 10, 99, 100, 999_999, 1_000_000, Int64.max]
        var p: Int64 = 1
        for _ in 0..<18 { p *= 10; values += [p - 1, p, p + 1] }
        for us in values {
            var e = StreamEncoder()
            e.frame(TouchFrame(time: Timestamp(microseconds: us)), device: "d")
            let text = String(decoding: e.bytes, as: UTF8.self)
            #expect(text.contains(#""t_us":\#(us),"#), "\(text)")
            #expect(text.contains(#""t":\#(us / 1_000_000).\#(String(us % 1_000_000).leftPadded(6)),"#), "\(text)")
        }
    }

    /// A number reads on the stream as `replay --json` writes it (`Double.fixed`): the
    /// writer rounds half away from zero without libm, and puts the point in after the
    /// digits; halves, values just below them, a lost sign, carries into a new digit.
    @Test(arguments: 0...4)
    func numbersAreWrittenAsFixedWritesThem(places: Int) {
        var values: [Double] = [0, -0.0, 0.5, 1.5, 2.5, -0.5, 0.125, -0.125, 2.675, 1.005, 0.004, -0.004, 0.0049999, 9.995, 99.995,
                                -99.995, 999.9999, 0.045, 1e-9, 123456.78915, 4503599627370495.5, 4503599627370497, 1e15 + 0.3]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            values.append(Double.random(in: -500...500, using: &generator))
            values.append(Double(Int.random(in: -100_000...100_000, using: &generator)) / 1000 + 0.0005)  // halves of the last place
        }
        for v in values {
            var out = JSONBytes()
            out.number(v, places)
            let written = String(decoding: out.bytes, as: UTF8.self)
            #expect(written == v.fixed(places), "\(v) with \(places) places")
        }
    }

    @Test func aGestureWithSteps() throws {
        let e = GestureEvent(name: "vol", index: 0, kind: .pan, phase: .changed, time: Timestamp(microseconds: 2_000_000),
                             fingers: 2, direction: .up, translation: Point(x: 0, y: -25))
        let v = try Self.line { $0.gesture(e, device: "/dev/input/event5", step: .distance(mm: 10, axis: .vertical)) }
        #expect(v["type"] == .string("gesture") && v["phase"] == .string("changed") && v["kind"] == .string("pan"))
        #expect(v["step"] == .number(2), "25 mm up is two whole 10 mm steps")
        #expect(v["progress"] == .number(0.5), "and half way to the third")
        #expect(v["dy_mm"] == .number(-25) && v["direction"] == .string("up") && v["t"] == .number(2))
        let plain = try Self.line { $0.gesture(e, device: "d", step: nil) }
        #expect(plain["progress"] == .number(1) && plain["step"] == .null)
        let swipe = GestureEvent(name: "s", index: 1, kind: .swipe, phase: .recognized, time: Timestamp(microseconds: 1), fingers: 3, direction: .left)
        #expect(try Self.line { $0.gesture(swipe, device: "d", step: nil) }["progress"] == .null, "discrete: no progress")
    }

    @Test func everyOtherLine() throws {
        let spec = GestureSpec(name: "ws\u{7}", kind: .swipe, fingers: 3...3, directions: [.left], region: Region(x: 0...1, y: 0...0.2))
        let hello = try Self.line {
            $0.hello(StreamLine.Hello(version: "0.9", pid: 42, config: "/c.yaml", dryRun: false, rate: 60, gestures: [(spec, true)],
                                      devices: [StreamLine.Device(path: "/dev/input/event5", info: Self.pad)],
                                      focus: StreamLine.Focus(app: "foot", title: "t", source: "sway")))
        }
        #expect(hello["type"] == .string("hello") && hello["rate"] == .number(60) && hello["pid"] == .number(42))
        let g = try #require(hello["gestures"]?.array?.first)
        #expect(g["name"] == .string("ws\u{7}") && g["direction"] == .string("left") && g["fingers"] == .number(3))
        #expect(g["device"] == .string("any") && g["edges"] == .null && g["region"]?["h"] == .number(0.2))
        #expect(hello["devices"]?.array?.first?["path"] == .string("/dev/input/event5"))
        #expect(hello["focus"]?["app"] == .string("foot"))

        let d = ArenaDecision(time: Timestamp(microseconds: 1_500_000), name: "ws", from: .possible, transition: .fail, to: .failed,
                              reason: .tooShort(mm: 12, needsMM: 20), refused: false)
        let state = try Self.line { $0.state(d, kind: .swipe, device: "/dev/input/event5") }
        #expect(state["from"] == .string("possible") && state["to"] == .string("failed") && state["kind"] == .string("swipe"))
        #expect(state["reason"] == .string(FailureReason.tooShort(mm: 12, needsMM: 20).text), "the reason --explain prints")

        let action = try Self.line { $0.action(StreamLine.Action(gesture: "ws", phase: .recognized, action: .command("swaymsg workspace next"), outcome: .exited(pid: 9, status: 0))) }
        #expect(action["command"] == .string("swaymsg workspace next") && action["keys"] == .null)
        #expect(action["outcome"] == .string("exited") && action["status"] == .number(0) && action["pid"] == .number(9))
        let dropped = try Self.line { $0.action(StreamLine.Action(gesture: "ws", phase: .recognized, action: .command("x"), outcome: .dropped)) }
        #expect(dropped["outcome"] == .string("dropped") && dropped["pid"] == .null)
        #expect(action["by"] == .string("gesture") && dropped["by"] == .string("gesture"), "a gesture's own")
        for origin in TriggerOrigin.allCases {
            let run = try Self.line { $0.action(StreamLine.Action(gesture: "ws", phase: .recognized, action: .command("x"), outcome: .started(pid: 3), origin: origin)) }
            #expect(run["by"] == .string(origin.rawValue))
        }

        let diag = Diagnostic(.error, file: "/c.yaml", mark: SourceMark(line: 3, column: 5), "'fingers' must be a number")
        let reload = try Self.line { $0.reload(StreamLine.Reload(file: "/c.yaml", ok: false, gestures: 1, message: "error", diagnostics: [diag])) }
        #expect(reload["ok"] == .bool(false) && reload["diagnostics"]?.array?.first?["line"] == .number(3))
        #expect(reload["diagnostics"]?.array?.first?["column"] == .number(5))

        let focus = try Self.line { $0.focus(StreamLine.Focus(app: nil, title: nil, source: "x11")) }
        #expect(focus["app"] == .null && focus["source"] == .string("x11"))
        #expect(try Self.line { $0.lost(17) }["lost"] == .number(17))
    }
}

private extension String {
    func leftPadded(_ n: Int) -> String { String(repeating: "0", count: max(0, n - count)) + self }
}
