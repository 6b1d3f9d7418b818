import GestureEngine
import TouchModel
import Testing

@Suite struct CircleTests {
    /// 1–5 fingers draw a circle either way round, on a touchpad and a touchscreen: it
    /// begins after half a turn with the way it went, reports the arc as its rotation,
    /// and ends at the lift with a full turn.
    @Test(arguments: TestDevice.allCases, [(1, 360.0), (1, -360.0), (2, 360.0), (3, -360.0), (4, 360.0), (5, -360.0)])
    func aDrawnCircleEitherWayRound(device: TestDevice, fingersAndDegrees: (Int, Double)) throws {
        let (fingers, degrees) = fingersAndDegrees
        let hand = Hand(device, [Spec.circle(fingers, name: "circle")])
        hand.down(fingers, spacing: 12, apart: 0.005)
        hand.wait(0.15)
        hand.circle(radius: 12, degrees: degrees, over: 0.8)
        hand.lift()
        #expect(hand.recognized == ["circle"])
        let began = try #require(hand.events.first)
        #expect(began.sense == (degrees > 0 ? .clockwise : .counterclockwise))
        #expect(abs(began.rotation) >= .pi && abs(began.rotation) < .pi * 1.2)
        let end = try #require(hand.last("circle"))
        #expect(end.phase == .ended)
        // The arc is counted segment to segment (2 mm each, 9.5° of a 12 mm circle): the
        // first segment only sets the heading, and the last, unfinished one is not in.
        #expect(abs(end.rotation * 180 / .pi - degrees) < 30, "\(end.rotation * 180 / .pi)°")
        #expect(hand.engine.refusedTransitions == 0)
    }

    /// `direction:` filters: a counterclockwise circle does not fire a clockwise binding.
    @Test func theOtherWayRoundFailsWithItsDirection() {
        let hand = Hand(.touchpad, [Spec.circle(1, [.clockwise], name: "cw")])
        hand.down(1)
        hand.wait(0.15)
        hand.circle(radius: 10, degrees: -360, over: 0.8)
        hand.lift()
        #expect(hand.recognized.isEmpty)
        #expect(hand.explanations == ["cw: turned counterclockwise, which it does not accept"])
    }

    /// A straight stroke, however long, turns no arc; an L turns 90°: neither is a circle.
    @Test(arguments: [[Point(x: 60, y: 0)], [Point(x: 30, y: 0), Point(x: 0, y: 30)]])
    func straightStrokesAndCornersAreNoCircle(legs: [Point]) {
        let hand = Hand(.touchscreen, [Spec.circle(1, name: "circle")])
        hand.down(1)
        hand.wait(0.15)
        for leg in legs { hand.move(by: leg, over: 0.3) }
        hand.lift()
        #expect(hand.recognized.isEmpty)
        #expect(hand.explanations.first?.hasPrefix("circle: went ") == true, "\(hand.explanations)")
        #expect(hand.explanations.first?.hasSuffix("° round, needs 180.0°") == true)
    }

    /// A scrub's back-and-forth doubles back on itself: not round.
    @Test func aScrubIsNoCircle() {
        let hand = Hand(.touchpad, [Spec.circle(1, name: "circle"), Spec.scrub()])
        hand.down(1)
        hand.wait(0.15)
        for dx in [15.0, -15, 15, -15] { hand.move(by: Point(x: dx, y: 0), over: 0.1) }
        hand.lift()
        #expect(hand.recognized == ["scrub"])
        #expect(hand.explanations.first?.hasPrefix("circle: the path turned back by ") == true, "\(hand.explanations)")
    }

    /// Fingers turning about their own centre are a rotation, the whole hand going
    /// round is a circle: each fails the other's way.
    @Test func aRotationIsNoCircleAndACircleIsNoRotation() {
        let rotating = Hand(.touchpad, [Spec.circle(2, name: "circle"), Spec.rotate(2, name: "rotate")])
        rotating.down(2, spacing: 30)
        rotating.wait(0.15)
        rotating.rotate(by: 90, over: 0.5)
        rotating.lift()
        #expect(rotating.recognized == ["rotate"])
        #expect(rotating.explanations.contains("circle: fingers moved apart or around (a pinch or rotation), not together"))

        let circling = Hand(.touchpad, [Spec.circle(2, name: "circle"), Spec.rotate(2, name: "rotate")])
        circling.down(2, spacing: 15)
        circling.wait(0.15)
        circling.circle(radius: 12, degrees: 300, over: 0.8)
        circling.lift()
        #expect(circling.recognized == ["circle"])
        #expect(circling.explanations.contains("rotate: lost to circle"), "\(circling.explanations)")
    }

    /// The threshold is the spec's own (`min-arc`): a quarter turn suffices at 90°.
    @Test func itsArcIsConfigurable() {
        var spec = Spec.circle(1, name: "circle")
        spec.thresholds.minArcDeg = 90
        let hand = Hand(.touchscreen, [spec])
        hand.down(1)
        hand.wait(0.15)
        hand.circle(radius: 12, degrees: 120, over: 0.4)
        hand.lift()
        #expect(hand.recognized == ["circle"])
    }
}
