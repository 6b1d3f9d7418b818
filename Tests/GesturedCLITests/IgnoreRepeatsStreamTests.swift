import GestureInput
import GestureTestSupport
import Testing
@testable import DaemonLoop

/// `settings: accessibility: ignore-repeats:` on the real daemon: the repeat is on the
/// event stream as its gesture, with its action `dropped`, and the command runs once.
@Suite(.serialized) struct IgnoreRepeatsStreamTests {
    @Test func aRepeatIsADroppedActionOnTheEventStream() throws {
        let s = try EventStreamTests.Session(config: "settings:\n  accessibility:\n    ignore-repeats: 5s\n" + EventStreamTests.config)
        let reader = try s.subscribe()
        let pad = try FakeTouchpad(name: "Pad")
        s.daemon.adopt(pad.device, announce: true)
        func actions(_ outcome: String) -> Int {
            reader.raw.filter { $0.hasPrefix("{\"type\":\"action\"") && $0.contains("\"outcome\":\"\(outcome)\"") }.count
        }
        func recognized() -> Int {
            reader.raw.filter { $0.hasPrefix("{\"type\":\"gesture\"") && $0.contains("\"phase\":\"recognized\"") }.count
        }
        LiveDeviceTests.swipe(pad, dxMM: -40)
        #expect(s.spin { reader.read(); return actions("started") == 1 })
        LiveDeviceTests.swipe(pad, dxMM: -40)
        #expect(s.spin { reader.read(); return actions("dropped") == 1 }, "\(reader.raw.filter { $0.contains("action") })")
        #expect(recognized() == 2, "both swipes are on the stream")
        #expect(actions("started") == 1, "the command ran once")
    }
}
