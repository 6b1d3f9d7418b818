import GestureEngine
import Testing
import TouchModel

/// The tracker looks each contact up where it was last frame first; a frame that lists
/// the same fingers in another order (a finger landing in a lower slot) must still
/// follow each finger by its id.
@Suite struct ContactOrderTests {
    static func pan(swapEveryFrame: Bool) -> [GestureEvent] {
        let device = DeviceInfo(name: "test pad", kind: .touchpad, size: Size(width: 100, height: 70), maxFingers: 5)
        let engine = GestureEngine(device: device, specs: [GestureSpec(name: "pan", kind: .pan, fingers: 2...2)])
        var events: [GestureEvent] = []
        var t = Timestamp(microseconds: 1_000_000)
        for step in 0...40 {
            let x = step < 10 ? 0 : Double(step - 10)  // still for 100 ms, then 1 mm a frame
            let a = Contact(id: 1, slot: 0, position: Point(x: 20 + x, y: 20))
            let b = Contact(id: 2, slot: 1, position: Point(x: 40 + x, y: 30))
            let contacts = swapEveryFrame && step % 2 == 1 ? [b, a] : [a, b]
            engine.process(TouchFrame(time: t, contacts: ContactList(contacts)), into: &events)
            t = t.adding(seconds: 0.01)
        }
        engine.process(TouchFrame(time: t), into: &events)
        engine.timerFired(at: t.adding(seconds: 1), into: &events)
        return events.filter { $0.name == "pan" }
    }

    @Test func fingersListedInAnotherOrderAreTheSameFingers() throws {
        let swapped = Self.pan(swapEveryFrame: true)
        let ended = try #require(swapped.last)
        #expect(ended.phase == .ended)
        #expect(abs(ended.translation.x - 30) < 1e-9 && abs(ended.translation.y) < 1e-9, "\(ended.translation)")
        // The same hand, listed in one order, gives the same events.
        let ordered = Self.pan(swapEveryFrame: false)
        #expect(swapped.map(\.translation) == ordered.map(\.translation))
        #expect(swapped.map(\.phase) == ordered.map(\.phase))
    }
}
