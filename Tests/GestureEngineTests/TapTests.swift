import GestureEngine
import TouchModel
import Testing

@Suite struct TapTests {
    static let taps = [1, 2, 3]

    /// n fingers, tapped t times: recognized once, at the last lift, with n fingers.
    @Test(arguments: TestDevice.allCases, [(1, 1), (2, 1), (3, 1), (4, 1), (5, 1), (1, 2), (2, 2), (3, 2), (1, 3), (4, 3)])
    func tapsOfEveryFingerCount(device: TestDevice, fingersAndTaps: (Int, Int)) throws {
        let (fingers, taps) = fingersAndTaps
        let hand = Hand(device, [Spec.tap(fingers, taps: taps, name: "tap")])
        for k in 0..<taps {
            hand.down(fingers, apart: 0.01)
            hand.wait(0.06)
            hand.lift(apart: 0.005)
            if k < taps - 1 {
                #expect(hand.recognized.isEmpty)
                hand.wait(0.15)
            }
        }
        #expect(hand.recognized == ["tap"])
        let e = try #require(hand.events.first)
        #expect(e.fingers == fingers)
        #expect(e.phase == .recognized)
        #expect((e.location - hand.centre).length < 0.01)
    }

    @Test func tooManyFingersExplains() {
        let hand = Hand(.touchpad, [Spec.tap(3)])
        hand.down(4)
        hand.lift()
        #expect(hand.recognized.isEmpty)
        #expect(hand.explanations == ["tap-3: 4 fingers, needs 3"])
    }

    @Test func tooFewFingersExplains() {
        let hand = Hand(.touchpad, [Spec.tap(3)])
        hand.down(2)
        hand.lift()
        #expect(hand.explanations == ["tap-3: 2 fingers, needs 3"])
    }

    /// It fails as soon as the finger has moved too far (4 mm at the frame after 3 mm).
    @Test func aFingerThatMovesIsNotATap() {
        let hand = Hand(.touchscreen, [Spec.tap(1)])
        hand.down(1)
        hand.move(by: Point(x: 5, y: 0), over: 0.05)
        hand.lift()
        #expect(hand.recognized.isEmpty)
        #expect(hand.explanations == ["tap-1: moved 4.0 mm, allows 3.0 mm"])
    }

    /// A press longer than a tap fails at the deadline, without waiting for the lift.
    @Test func aLongPressIsNotATapAndFailsOnTime() {
        let hand = Hand(.touchpad, [Spec.tap(2)])
        hand.down(2)
        // Its own limit; no settle window first: nothing bound takes more than two fingers.
        #expect(hand.engine.nextDeadline == hand.now.adding(seconds: 0.300001))
        hand.wait(0.4)
        #expect(hand.engine.recognizerStates.map(\.state) == [.failed])
        #expect(hand.explanations == ["tap-2: still down after 0.30 s, too long for a tap"])
        hand.lift()
        #expect(hand.recognized.isEmpty)
    }

    /// With no timer (a caller that never calls `timerFired`), the next frame fires
    /// what was due before it: the tap failed when it was held too long, not at the lift.
    @Test func withoutATimerTheNextFrameFiresWhatWasDue() {
        let engine = GestureEngine(device: TestDevice.touchpad.info, specs: [Spec.tap(1)])
        var events: [GestureEvent] = []
        let t0 = Timestamp(seconds: 5)
        engine.process(TouchFrame(time: t0, contacts: ContactList([Contact(id: 1, position: Point(x: 50, y: 30))])), into: &events)
        engine.process(TouchFrame(time: t0.adding(seconds: 0.42)), into: &events)
        #expect(events.isEmpty)
        #expect(engine.explanations == ["tap-1: still down after 0.30 s, too long for a tap"])
        #expect(engine.failures.map(\.time) == [t0.adding(seconds: 0.300001)])
    }

    @Test func theSecondTapMustComeInTime() {
        let hand = Hand(.touchpad, [Spec.tap(1, taps: 2)])
        hand.down(1); hand.wait(0.05); hand.lift()
        hand.wait(0.5)
        #expect(hand.explanations == ["tap-1x2: the next tap did not come within 0.35 s"])
        hand.down(1); hand.wait(0.05); hand.lift()
        #expect(hand.recognized.isEmpty)
    }

    @Test func recognizedTapsResetForTheNextOne() {
        let hand = Hand(.touchpad, [Spec.tap(2)])
        for _ in 0..<3 {
            hand.down(2); hand.wait(0.05); hand.lift()
            hand.wait(1)
        }
        #expect(hand.recognized == ["tap-2", "tap-2", "tap-2"])
        #expect(hand.engine.recognizerStates.map(\.state) == [.possible])
    }
}
