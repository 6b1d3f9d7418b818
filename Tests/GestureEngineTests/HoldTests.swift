import GestureEngine
import TouchModel
import Testing

@Suite struct HoldTests {
    /// UIKit's long press: n still fingers for 0.5 s begin it — at 0.5 s exactly, with
    /// no new frame (the engine's deadline wakes it) — and lifting ends it.
    @Test(arguments: TestDevice.allCases, 1...5)
    func holdBeginsAtHalfASecondWithNoFrame(device: TestDevice, fingers: Int) throws {
        let hand = Hand(device, [Spec.hold(fingers, name: "hold")])
        hand.down(fingers, apart: 0.005)
        let landed = hand.now
        let frames = hand.frames.count
        hand.wait(0.49)
        #expect(hand.recognized.isEmpty)
        hand.wait(0.02)
        #expect(hand.frames.count == frames)          // nothing but the clock moved
        let began = try #require(hand.events.first)
        #expect(began.phase == .began)
        #expect(began.time == landed.adding(seconds: 0.5))
        #expect(began.fingers == fingers)
        #expect(abs(began.duration - 0.5) < 1e-9)
        hand.wait(0.3)
        hand.lift()
        #expect(hand.phases("hold") == [.began, .ended])
        #expect(abs((hand.last("hold")?.duration ?? 0) - 0.8) < 0.011)
    }

    @Test func nextDeadlineIsTheEndOfThePress() {
        let hand = Hand(.touchpad, [Spec.hold(3)])
        #expect(hand.engine.nextDeadline == nil)
        hand.down(3)
        let landed = hand.now
        hand.wait(0.2)   // past the settle window
        #expect(hand.engine.nextDeadline == landed.adding(seconds: 0.5))
        hand.wait(0.4)
        #expect(hand.engine.nextDeadline == nil)
        hand.lift()
        #expect(hand.engine.nextDeadline == nil)
    }

    @Test func movingFailsIt() {
        let hand = Hand(.touchscreen, [Spec.hold(2)])
        hand.down(2)
        hand.wait(0.2)
        hand.move(by: Point(x: 0, y: 6), over: 0.1)
        hand.wait(1)
        hand.lift()
        #expect(hand.recognized.isEmpty)
        #expect(hand.explanations == ["hold-2: moved 5.4 mm, allows 5.0 mm"])
    }

    /// A pressing finger drifts as its pad flattens: 4 mm is still a hold on glass
    /// (5 mm allowed), not on a touchpad (3 mm).
    @Test(arguments: TestDevice.allCases)
    func pressDriftAllowanceDependsOnTheSurface(device: TestDevice) {
        let hand = Hand(device, [Spec.hold(2, name: "hold")])
        hand.down(2)
        hand.wait(0.1)
        hand.moveFinger(0, by: Point(x: 0, y: 4), over: 0.02)
        hand.wait(0.6)
        hand.lift()
        #expect(hand.recognized == (device == .touchscreen ? ["hold"] : []))
    }

    @Test func liftingTooSoonExplains() {
        let hand = Hand(.touchpad, [Spec.hold(4)])
        hand.down(4)
        hand.wait(0.3)
        hand.lift()
        #expect(hand.recognized.isEmpty)
        #expect(hand.explanations == ["hold-4: lifted after 0.30 s, needs 0.50 s"])
    }

    @Test func wrongFingerCountNeverHolds() {
        let hand = Hand(.touchpad, [Spec.hold(4)])
        hand.down(3)
        hand.wait(1)
        hand.lift()
        #expect(hand.recognized.isEmpty)
        #expect(hand.explanations == ["hold-4: 3 fingers, needs 4"])
    }

    /// The press starts when the last finger lands, not the first.
    @Test func pressCountsFromTheLastFinger() {
        let hand = Hand(.touchpad, [Spec.hold(2)])
        hand.down(1)
        hand.wait(0.3)
        hand.down(at: [Point(x: 70, y: 37.5)])
        let second = hand.now
        hand.wait(1)
        #expect(hand.events.first?.time == second.adding(seconds: 0.5))
    }

    /// A tap then a press (taps: 2 = UIKit's numberOfTapsRequired 1).
    @Test func tapThenHold() {
        let hand = Hand(.touchpad, [Spec.hold(1, taps: 2, name: "tap-hold")])
        hand.down(1); hand.wait(0.05); hand.lift()
        hand.wait(0.1)
        hand.down(1)
        hand.wait(0.6)
        #expect(hand.recognized == ["tap-hold"])
    }

    @Test func aPlainPressIsNotATapThenHold() {
        let hand = Hand(.touchpad, [Spec.hold(1, taps: 2, name: "tap-hold")])
        hand.down(1)
        hand.wait(1)
        hand.lift()
        #expect(hand.recognized.isEmpty)
        #expect(hand.explanations == ["tap-hold: 0 taps, needs 1"])
    }

    /// Frames that do not move the fingers (pressure, a resting pad) report no change.
    @Test func stillFramesAreNotChanges() {
        let hand = Hand(.touchscreen, [Spec.hold(2, name: "hold")])
        hand.down(2)
        hand.wait(0.6)
        for _ in 0..<5 { hand.move(by: .zero, over: 0.01) }
        hand.lift()
        #expect(hand.phases("hold") == [.began, .ended])
    }

    /// The hold is continuous: moving after it began reports changes, not a failure.
    @Test func movingAfterItBeganReportsChanges() {
        let hand = Hand(.touchpad, [Spec.hold(3, name: "hold")])
        hand.down(3)
        hand.wait(0.6)
        hand.move(by: Point(x: 10, y: 0), over: 0.1)
        hand.lift()
        #expect(hand.phases("hold") == [.began] + Array(repeating: .changed, count: 10) + [.ended])
    }
}
