@testable import GestureEngine
import TouchModel
import Testing

/// `settings: accessibility:` in the engine (docs/ACCESSIBILITY.md): `hold-to-accept`
/// (a touch counts once it has rested) and `tap-at` (which point a tap reports).
@Suite struct AccessibilityEngineTests {
    static func profile(holdToAccept: Double = 0, tapAt: TapPoint = .last) -> AccessibilityProfile {
        var p = AccessibilityProfile()
        p.holdToAccept = holdToAccept
        p.tapAt = tapAt
        return p
    }

    /// A one-finger swipe left that needs its full 20 mm (no sooner distance).
    static var swipeLeft: GestureSpec {
        var s = Spec.swipe(1, [.left], name: "swipe")
        s.thresholds.minDistanceMM = 20
        return s
    }

    // MARK: hold-to-accept

    /// A quick tap and a brushing stroke, both shorter than the rest: nothing fires, where
    /// without the profile each fires its gesture.
    @Test(arguments: [0.0, 0.3])
    func aBrushingTouchFiresNothing(hold: Double) {
        let hand = Hand(.touchpad, [Spec.tap(1, name: "tap"), Self.swipeLeft], profile: Self.profile(holdToAccept: hold))
        hand.down(1)
        hand.wait(0.05)
        hand.lift()
        hand.wait(0.5)
        hand.down(1)
        hand.move(by: Point(x: -40, y: 0), over: 0.15)
        hand.lift()
        hand.wait(0.5)
        #expect(hand.recognized == (hold == 0 ? ["tap", "swipe"] : []))
        #expect(hand.engine.nextDeadline == nil)
    }

    /// A touch that moved away before it was accepted stays refused until it lifts,
    /// however long it then rests: no hold fires from it.
    @Test func aTouchThatMovedAwayNeverCounts() {
        let hand = Hand(.touchpad, [Spec.hold(1, name: "hold")], profile: Self.profile(holdToAccept: 0.3))
        hand.down(1)
        hand.move(by: Point(x: 6, y: 0), over: 0.1)
        hand.wait(2)
        hand.lift()
        #expect(hand.recognized.isEmpty)
        // A new touch that rests is accepted, and holds.
        hand.down(1)
        hand.wait(0.3 + 0.5 + 0.01)
        #expect(hand.recognized == ["hold"])
    }

    /// The finger rests (drifting 2.5 mm, less than a hold allows), is accepted without a
    /// frame at that instant, then strokes: the swipe's distance runs from the accepted
    /// point. 21 mm from there fires though it is only 18.5 mm from where it landed;
    /// 19 mm from there does not, though it is 21.5 mm from where it landed (and fires
    /// without the profile).
    @Test(arguments: [(2.5, 0.3, true), (-2.5, 0.3, false), (-2.5, 0.0, true)])
    func aSwipeCountsFromTheAcceptedPoint(drift: Double, hold: Double, fires: Bool) throws {
        let hand = Hand(.touchpad, [Self.swipeLeft], profile: Self.profile(holdToAccept: hold))
        hand.down(1)
        hand.move(by: Point(x: drift, y: 0), over: 0.1)
        hand.wait(0.25)
        hand.move(by: Point(x: drift > 0 ? -21 : -19, y: 0), over: 0.2)
        hand.lift()
        #expect(hand.recognized == (fires ? ["swipe"] : []))
        if fires && hold > 0 {
            let e = try #require(hand.last("swipe"))
            #expect(e.translation.x <= -20)
        }
    }

    /// A tap needs the rest and then its lift: lifted before the rest is over it is
    /// nothing; after it, it is recognized at the lift, its duration counted from the
    /// acceptance (a 0.5 s touch with a 0.3 s rest is a 0.2 s tap).
    @Test func aTapNeedsTheRestThenItsLift() throws {
        let hand = Hand(.touchscreen, [Spec.tap(1, name: "tap")], profile: Self.profile(holdToAccept: 0.3))
        hand.down(1)
        hand.wait(0.25)
        hand.lift()
        hand.wait(0.5)
        #expect(hand.recognized.isEmpty)
        hand.down(1)
        hand.wait(0.5)
        let lift = hand.now
        hand.lift()
        #expect(hand.recognized == ["tap"])
        #expect(try #require(hand.last("tap")).time == lift)
    }

    /// Two fingers that land 20 ms apart and rest are accepted 20 ms apart: one
    /// two-finger tap, as without the profile.
    @Test func fingersAreAcceptedAsTheyLanded() {
        let hand = Hand(.touchpad, [Spec.tap(1, name: "tap-1"), Spec.tap(2, name: "tap-2")],
                        profile: Self.profile(holdToAccept: 0.2))
        hand.down(2, apart: 0.02)
        hand.wait(0.3)
        hand.lift()
        #expect(hand.recognized == ["tap-2"])
    }

    /// A touch resting when the engine cancels everything (a reload, the device gone)
    /// belongs to no gesture: it is not accepted later.
    @Test func aTouchRestingAtACancelIsNeverAccepted() {
        let hand = Hand(.touchpad, [Spec.hold(1, name: "hold")], profile: Self.profile(holdToAccept: 0.3))
        hand.down(1)
        hand.wait(0.1)
        hand.cancelAll()
        hand.wait(2)
        hand.lift()
        #expect(hand.recognized.isEmpty)
    }

    /// With `hold-to-accept: 0` the engine is the one without the profile: the same
    /// events, at the same times, for the same hand.
    @Test func zeroChangesNothing() {
        func run(_ profile: AccessibilityProfile) -> [GestureEvent] {
            let hand = Hand(.touchpad, [Spec.tap(1), Spec.tap(2), Self.swipeLeft, Spec.hold(1)], profile: profile)
            hand.down(1)
            hand.wait(0.05)
            hand.lift()
            hand.wait(0.5)
            hand.down(2, apart: 0.01)
            hand.lift()
            hand.wait(0.5)
            hand.down(1)
            hand.move(by: Point(x: -30, y: 1), over: 0.2)
            hand.lift()
            hand.down(1)
            hand.wait(0.8)
            hand.lift()
            return hand.events
        }
        let plain = run(AccessibilityProfile())
        #expect(plain.count >= 4)
        #expect(run(Self.profile(holdToAccept: 0)) == plain)
    }

    // MARK: tap-at

    /// A tap whose finger lands at A and lifts at B (2 mm on, within a tap's 3 mm)
    /// reports A with `first` and B with `last`, the default, which is the point the
    /// tap reported before the setting existed.
    @Test(arguments: [TapPoint.first, .last])
    func aTapReportsTheChosenPoint(tapAt: TapPoint) throws {
        let hand = Hand(.touchscreen, [Spec.tap(1, name: "tap")], profile: Self.profile(tapAt: tapAt))
        let a = Point(x: 100, y: 80), b = Point(x: 102, y: 80)
        hand.down(at: [a])
        hand.move(by: b - a, over: 0.05)
        hand.lift()
        let e = try #require(hand.last("tap"))
        #expect((e.location - (tapAt == .first ? a : b)).length < 1e-9)
    }

    /// Two fingers: `first` is the centroid where both had landed.
    @Test func aTwoFingerTapAtFirstIsWhereBothLanded() throws {
        let hand = Hand(.touchpad, [Spec.tap(2, name: "tap")], profile: Self.profile(tapAt: .first))
        hand.down(at: [Point(x: 40, y: 30), Point(x: 60, y: 30)], apart: 0.01)
        hand.move(by: Point(x: 2, y: 2), over: 0.05)
        hand.lift()
        let e = try #require(hand.last("tap"))
        #expect((e.location - Point(x: 50, y: 30)).length < 1e-9)
    }
}
