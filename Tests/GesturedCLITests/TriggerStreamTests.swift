import DaemonCore
import GestureInput
import GestureTestSupport
import Testing
@testable import Commands
@testable import DaemonLoop

/// What the event stream says of an action no gesture ran: its `action` lines carry
/// `"by":"manual"` (`gestured trigger`, the live view's Run) or `"shortcut"`, a gesture's
/// own `"by":"gesture"`; `gestured events` says so in words. The live view puts such a run
/// in an entry of its own (Tests/Browser/test_trigger.py).
@Suite(.serialized) struct TriggerStreamTests {
    @Test func aTriggersActionLinesSayWhoRanThem() throws {
        let s = try EventStreamTests.Session(config: EventStreamTests.config)
        let reader = try s.subscribe()
        let pad = try FakeTouchpad(name: "Pad")
        s.daemon.adopt(pad.device, announce: true)
        func actions(by: String, _ outcome: String) -> [String] {
            reader.raw.filter { $0.hasPrefix("{\"type\":\"action\"") && $0.contains("\"outcome\":\"\(outcome)\"") && $0.contains("\"by\":\"\(by)\"") }
        }
        LiveDeviceTests.swipe(pad, dxMM: -40)
        #expect(s.spin { reader.read(); return actions(by: "gesture", "exited").count == 1 }, "\(reader.raw.filter { $0.contains("action") })")

        for origin in [TriggerOrigin.manual, .shortcut] {
            #expect(s.daemon.trigger("left", origin: origin).result == .ran)
            #expect(s.spin { reader.read(); return actions(by: origin.rawValue, "exited").count == 1 },
                    "\(origin): \(reader.raw.filter { $0.contains("action") })")
            #expect(actions(by: origin.rawValue, "started").count == 1)
        }
        #expect(actions(by: "gesture", "started").count == 1, "the swipe's own run, once")

        let manual = try #require(actions(by: "manual", "exited").first)
        let text = try #require(EventsCommand.readable(manual))
        #expect(text.hasPrefix("left recognized: 'true' exited 0 (pid "), "\(text)")
        #expect(text.hasSuffix(", run by gestured trigger, not by the gesture"), "\(text)")
        let byGesture = try #require(EventsCommand.readable(actions(by: "gesture", "exited")[0]))
        #expect(!byGesture.contains("run by"), "\(byGesture)")
    }
}
