import GestureEngine
import TouchModel
import Testing

/// Pinch `in`/`out` and rotate `clockwise`/`counterclockwise` as separate bindings,
/// and pinches and rotations that nothing else competes with.
@Suite struct PinchRotateDirectionTests {
    /// Both directions bound on the same fingers: only the one the fingers went fires,
    /// once, and says which way it went.
    @Test(arguments: TestDevice.allCases, [(2, 0.5), (2, 1.6), (3, 0.6), (3, 1.5), (4, 0.5), (4, 1.6), (5, 0.6), (5, 1.5)])
    func pinchInAndOutAreSeparateBindings(device: TestDevice, fingersAndScale: (Int, Double)) throws {
        let (fingers, scale) = fingersAndScale
        let hand = Hand(device, [Spec.pinch(fingers, [.in]), Spec.pinch(fingers, [.out])])
        hand.down(fingers, spacing: 15, apart: 0.005)
        hand.wait(0.15)
        hand.pinch(to: scale, over: 0.3)
        hand.lift()
        let expected: Sense = scale < 1 ? .in : .out
        #expect(hand.recognized == ["pinch-\(fingers)-\(expected.rawValue)"])
        #expect(hand.events.filter { $0.phase == .began }.count == 1)
        #expect(hand.events.allSatisfy { $0.sense == expected && $0.directionWord == expected.rawValue })
        let other: Sense = expected == .in ? .out : .in
        // Config order: `in` comes first, so `out` loses to a pinch in before it sees it.
        #expect(hand.explanations == ["pinch-\(fingers)-\(other.rawValue): " +
                                      (expected == .in ? "lost to pinch-\(fingers)-in" : "pinched out, which it does not accept")])
    }

    @Test(arguments: TestDevice.allCases, [(2, 40.0), (2, -40.0), (3, 60.0), (3, -60.0), (4, 40.0), (4, -40.0), (5, 45.0), (5, -45.0)])
    func clockwiseAndCounterclockwiseAreSeparateBindings(device: TestDevice, fingersAndDegrees: (Int, Double)) throws {
        let (fingers, degrees) = fingersAndDegrees
        let hand = Hand(device, [Spec.rotate(fingers, [.clockwise]), Spec.rotate(fingers, [.counterclockwise])])
        hand.down(fingers, spacing: 15)
        hand.wait(0.15)
        hand.rotate(by: degrees, over: 0.3)
        hand.lift()
        let expected: Sense = degrees > 0 ? .clockwise : .counterclockwise
        #expect(hand.recognized == ["rotate-\(fingers)-\(expected.rawValue)"])
        #expect(hand.events.allSatisfy { $0.sense == expected })
    }

    /// The documented rule: the direction is the way the pinch first crossed its
    /// threshold. In past 1.1x, then out to 1.5x: a pinch in, reporting the scale as it
    /// goes (ending above 1); the `out` binding does not also fire. Its `ended` event
    /// says `out`, as its scale does (issue 24: the direction at the end is the net one).
    @Test(arguments: TestDevice.allCases)
    func aPinchThatStartsInwardAndEndsOutwardIsAPinchIn(device: TestDevice) throws {
        let hand = Hand(device, [Spec.pinch(2, [.out]), Spec.pinch(2, [.in])])
        hand.down(2, spacing: 40)
        hand.wait(0.15)
        hand.pinch(to: 0.8, over: 0.2)
        hand.pinch(to: 1.5 / 0.8, over: 0.3)
        hand.lift()
        #expect(hand.recognized == ["pinch-2-in"])
        let end = try #require(hand.last("pinch-2-in"))
        #expect(end.phase == .ended && end.sense == .out && end.scale > 1.4)
        #expect(hand.events("pinch-2-in").dropLast().allSatisfy { $0.sense == .in })
        #expect(hand.explanations == ["pinch-2-out: pinched in, which it does not accept"])
    }

    /// Issue 24, item 5: bound with `command:` alone (`decidesAtLift`, which the config
    /// sets), a pinch is decided at the lift on its net change. The touchscreen
    /// pinch closed to 0.89 while its four fingers settled and ended spread to 1.94: the
    /// `out` binding fires, once, at the lift, with the scale it was decided on; `in` not.
    @Test(arguments: TestDevice.allCases)
    func aCommandOnlyPinchFiresOnItsNetChangeAtTheLift(device: TestDevice) throws {
        var pinchIn = Spec.pinch(4, [.in]), pinchOut = Spec.pinch(4, [.out])
        pinchIn.decidesAtLift = true
        pinchOut.decidesAtLift = true
        let hand = Hand(device, [pinchIn, pinchOut])
        hand.down(4, spacing: 15, apart: 0.005)
        hand.wait(0.15)
        hand.pinch(to: 0.89, over: 0.15)
        hand.pinch(to: 1.94 / 0.89, over: 0.4)
        #expect(hand.events.isEmpty, "nothing fires while the fingers move: \(hand.events.map(\.name))")
        hand.lift()
        #expect(hand.recognized == ["pinch-4-out"])
        let e = try #require(hand.last("pinch-4-out"))
        #expect(e.phase == .recognized && e.sense == .out && e.directionWord == "out")
        #expect(abs(e.scale - 1.94) < 0.1, "the net scale: \(e.scale)")
        #expect(hand.explanations.contains("pinch-4-in: pinched out, which it does not accept"), "\(hand.explanations)")
    }

    /// The same for a rotation: 15° counterclockwise, then 55° clockwise, is a net 40°
    /// clockwise turn; a net change under the threshold fires nothing and says so.
    @Test(arguments: TestDevice.allCases)
    func aCommandOnlyRotationFiresOnItsNetTurnAtTheLift(device: TestDevice) throws {
        var cw = Spec.rotate(2, [.clockwise]), ccw = Spec.rotate(2, [.counterclockwise])
        cw.decidesAtLift = true
        ccw.decidesAtLift = true
        let hand = Hand(device, [ccw, cw])
        hand.down(2, spacing: 40)
        hand.wait(0.15)
        hand.rotate(by: -15, over: 0.15)
        hand.rotate(by: 55, over: 0.4)
        #expect(hand.events.isEmpty)
        hand.lift()
        #expect(hand.recognized == ["rotate-2-clockwise"])
        #expect(try #require(hand.last("rotate-2-clockwise")).sense == .clockwise)

        let back = Hand(device, [ccw, cw])
        back.down(2, spacing: 40)
        back.wait(0.15)
        back.rotate(by: 30, over: 0.2)
        back.rotate(by: -25, over: 0.2)
        back.lift()
        #expect(back.recognized.isEmpty, "a net 5° turn is no rotation")
        #expect(back.explanations.contains { $0.hasPrefix("rotate-2-clockwise: turned 5") }, "\(back.explanations)")
    }

    /// Item 6 of issue 15: a hand drifts 25 mm, then turns 90°. With only the rotation
    /// bound it is a rotation (UIKit's has no "moved together" failure); with a swipe
    /// bound for the same fingers, the early decision picks the swipe, as before.
    @Test(arguments: TestDevice.allCases, [2, 3])
    func aRotationAfterADriftIsARotationUnlessASwipeCompetes(device: TestDevice, fingers: Int) throws {
        func drift(_ hand: Hand) {
            hand.down(fingers, spacing: 20)
            hand.wait(0.15)
            hand.move(by: Point(x: 25, y: 0), over: 0.25)
            hand.rotate(by: 90, over: 0.5)
            hand.lift()
        }
        let alone = Hand(device, [Spec.rotate(fingers, name: "rotate")])
        drift(alone)
        #expect(alone.recognized == ["rotate"], "\(alone.explanations)")
        let rotation = try #require(alone.last("rotate")?.rotation)
        #expect(abs(rotation - .pi / 2) < 0.01)

        let pinchAlone = Hand(device, [Spec.pinch(fingers, name: "pinch"), Spec.rotate(fingers, name: "rotate")])
        drift(pinchAlone)
        #expect(pinchAlone.recognized == ["rotate"], "a pinch is no translation: it does not compete for the drift")

        let withSwipe = Hand(device, [Spec.rotate(fingers, name: "rotate"), Spec.swipe(fingers, name: "swipe")])
        drift(withSwipe)
        #expect(withSwipe.recognized == ["swipe"])
        #expect(withSwipe.explanations.contains("rotate: lost to swipe"), "\(withSwipe.explanations)")
    }

    /// A swipe for other fingers, or declared simultaneous, is no competitor.
    @Test func onlyACompetitorForTheSameFingersDecides() {
        for specs in [[Spec.rotate(2, name: "rotate"), Spec.swipe(3)],
                      [Spec.rotate(2, name: "rotate"), GestureSpec(name: "s", kind: .swipe, fingers: 2...2, simultaneousWith: ["rotate"])]] {
            let hand = Hand(.touchscreen, specs)
            hand.down(2, spacing: 20)
            hand.wait(0.15)
            hand.move(by: Point(x: 25, y: 0), over: 0.25)
            hand.rotate(by: 90, over: 0.5)
            hand.lift()
            #expect(hand.recognized.contains("rotate"), "\(specs.map(\.name))")
        }
    }
}

/// Issue 24: arbitration waits instead of failing. A pinch or rotation is held up only
/// by a translation gesture that could still win in the direction the hand moves.
@Suite struct WaitingArbitrationTests {
    /// The hand drifts 25 mm up-left, then turns 100°, with a `swipe left` bound for the
    /// same fingers: the swipe cannot take up-left, so it holds up nothing; it fails for
    /// its direction and the rotation fires.
    @Test(arguments: TestDevice.allCases, 2...4)
    func aDriftTheSwipeCannotTakeDoesNotFailTheRotation(device: TestDevice, fingers: Int) throws {
        let hand = Hand(device, [Spec.swipe(fingers, [.left], name: "swipe-left"), Spec.rotate(fingers, name: "rotate")])
        hand.down(fingers, spacing: 15, apart: 0.005)
        hand.wait(0.15)
        hand.move(by: Point(x: -17.7, y: -17.7), over: 0.25)
        hand.rotate(by: 100, over: 0.5)
        hand.lift()
        #expect(hand.recognized == ["rotate"], "\(hand.explanations)")
        #expect(hand.explanations.contains("swipe-left: moved up-left, which it does not accept"))
        let end = try #require(hand.last("rotate"))
        #expect(end.phase == .ended && end.sense == .clockwise)
    }

    /// A plain swipe left still wins against the rotation: the rotation waited while the
    /// swipe could win, and lost when it did.
    @Test(arguments: TestDevice.allCases, 2...4)
    func aPlainSwipeStillWins(device: TestDevice, fingers: Int) {
        let hand = Hand(device, [Spec.swipe(fingers, [.left], name: "swipe-left"), Spec.rotate(fingers, name: "rotate")])
        hand.down(fingers, spacing: 15, apart: 0.005)
        hand.wait(0.15)
        hand.move(by: Point(x: -40, y: 0), over: 0.2)
        hand.lift()
        #expect(hand.recognized == ["swipe-left"])
        #expect(hand.explanations.contains("rotate: lost to swipe-left"))
    }

    /// A pan locked to the vertical axis cannot take a sideways drift either.
    @Test func aPanOffItsAxisHoldsUpNothing() {
        let hand = Hand(.touchpad, [Spec.pan(2...2, axis: .vertical, name: "scroll"), Spec.rotate(2, name: "rotate")])
        hand.down(2, spacing: 15)
        hand.wait(0.15)
        hand.move(by: Point(x: 25, y: 0), over: 0.25)
        hand.rotate(by: -60, over: 0.4)
        hand.lift()
        #expect(hand.recognized == ["rotate"], "\(hand.explanations)")
    }
}
