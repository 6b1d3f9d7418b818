import GestureEngine
import TouchModel
import Testing

/// The scripting helper must produce the frames its words describe, or every other
/// test is testing the wrong thing.
@Suite struct HandTests {
    @Test func fingersLandApartAtTheCentre() {
        let hand = Hand(.touchpad, [])
        hand.down(3, apart: 0.005)
        #expect(hand.frames.map(\.fingerCount) == [1, 2, 3])
        #expect(hand.frames.map { $0.time.microseconds - hand.frames[0].time.microseconds } == [0, 5000, 10000])
        let xs = hand.frames.last!.contacts.map(\.position.x)
        #expect(xs == [40, 55, 70])
        #expect(hand.frames.last!.contacts.allSatisfy { $0.position.y == 37.5 })
    }

    @Test func moveEmitsAFramePerTickAndEndsWhereAsked() {
        let hand = Hand(.touchscreen, [])
        hand.down(2)
        hand.move(by: Point(x: -40, y: 10), over: 0.2)
        #expect(hand.frames.count == 1 + 20)
        let last = hand.frames.last!.contacts
        #expect(abs(last[0].position.x - (150 - 7.5 - 40)) < 1e-9)
        #expect(abs(last[0].position.y - (95 + 10)) < 1e-9)
        #expect(abs(last[0].normalized.x - last[0].position.x / 300) < 1e-12)
    }

    @Test func liftOneEarlyThenTheRest() {
        let hand = Hand(.touchpad, [])
        hand.down(3)
        hand.lift(earlyBy: 0.008)
        #expect(hand.frames.map(\.fingerCount) == [3, 2, 0])
        #expect(hand.frames[2].time.microseconds - hand.frames[1].time.microseconds == 8000)
    }

    @Test func semiMTReportsMoreFingersThanContacts() {
        let hand = Hand(.touchpad, [])
        hand.trackedSlots = 2
        hand.down(3)
        #expect(hand.frames.last!.fingerCount == 3)
        #expect(hand.frames.last!.contacts.count == 2)
    }

    @Test func pinchAndRotateKeepTheCentroid() {
        let hand = Hand(.touchscreen, [])
        hand.down(2, spacing: 40)
        hand.pinch(to: 2, over: 0.1)
        let p = hand.frames.last!.contacts.map(\.position)
        #expect(abs((p[1] - p[0]).length - 80) < 1e-6)
        hand.rotate(by: 90, over: 0.1)
        let q = hand.frames.last!.contacts.map(\.position)
        #expect(abs(q[0].x - q[1].x) < 1e-6)   // now vertical
        #expect(q[0].y < q[1].y)               // clockwise on screen: the left finger went up
    }
}
