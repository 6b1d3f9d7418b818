@testable import GestureEngine
import TouchModel
import Testing

/// Issue 37: a pinch or rotation held up by a gesture for fingers moving together wins
/// once its own evidence has outgrown that gesture's (`Arena.rivalHoldsUp`), not only
/// once that gesture can no longer win: with swipes bound every way, one always could.
@Suite struct EvidenceArbitrationTests {
    /// Where the fingers land, relative to the pivot (the first): two fingers 40 mm
    /// apart (their centre 20 mm from the pivot); three of a hand about its thumb (29
    /// mm); five of a hand about its thumb (67 mm, its outermost finger 101 mm away).
    static let hands: [Int: [Point]] = [
        2: [Point(x: 0, y: 0), Point(x: 40, y: 0)],
        3: [Point(x: 0, y: 0), Point(x: 30, y: -25), Point(x: 50, y: -10)],
        5: [Point(x: 0, y: 0), Point(x: 40, y: -60), Point(x: 65, y: -55), Point(x: 85, y: -40), Point(x: 100, y: -15)],
    ]

    /// The 3M touchscreen's rotations, and their mirror: the fingers turn 60° about one
    /// of them, whose contact slides 2 mm the way the others go (so the motion classifier
    /// says "together", as it did on the recordings). With a swipe bound for each of the
    /// 8 directions, or with `replay --detect`'s every gesture, the rotation fires and
    /// no swipe does.
    @Test(arguments: [2, 3, 5], [60.0, -60.0])
    func aPivotRotationWinsWithSwipesBoundEveryWay(fingers: Int, degrees: Double) throws {
        let eightSwipes = Direction.allCases.map { Spec.swipe(fingers, [$0]) } + [Spec.rotate(fingers)]
        for specs in [eightSwipes, KindTraits.detectCatalogue] {
            let hand = Hand(.touchscreen, specs)
            let at = Point(x: 100, y: 120)
            hand.down(at: Self.hands[fingers]!.map { $0 + at }, apart: 0.005)
            hand.wait(0.12)
            let drift = Point(x: 0, y: degrees > 0 ? 2 : -2)
            hand.rotate(by: degrees, over: 0.6, about: 0, drift: drift)
            hand.lift()
            // `replay --detect` binds rotate-1 too, which takes two fingers (a rotation's
            // least), and comes first.
            let rotate = specs.count == 9 || fingers > 2 ? "rotate-\(fingers)" : "rotate-1"
            #expect(hand.recognized == [rotate], "\(specs.count) gestures: \(hand.recognized) \(hand.explanations)")
            let began = try #require(hand.events(rotate).first)
            #expect(began.sense == (degrees > 0 ? .clockwise : .counterclockwise))
        }
    }

    /// The gate did wait: the classifier took the pivot rotation for fingers moving
    /// together, so without the evidence rule the swipes hold it up.
    @Test func thePivotRotationIsMotionTogether() {
        let hand = Hand(.touchscreen, [Spec.rotate(2)])
        hand.down(at: Self.hands[2]!.map { $0 + Point(x: 100, y: 120) })
        hand.wait(0.12)
        hand.rotate(by: 30, over: 0.3, about: 0, drift: Point(x: 0, y: 2))
        #expect(hand.engine.touches.motion == .translation)
        hand.lift()
    }

    /// A clean 40 mm swipe whose hand twists 10° as it goes is a swipe, whether the
    /// twist is spread over the stroke or made in its first 30 % (10° by 12 mm: the
    /// rotation is past its threshold and ahead of the swipe toward its 20 mm, but
    /// the fingers moved together farther than apart: 3.5–10.5 mm of arc, 12 mm).
    @Test(arguments: [1.0, 0.3], [2, 3, 4])
    func aCleanSwipeWithATwistStaysASwipe(twistOver share: Double, fingers: Int) {
        let specs = Direction.allCases.map { Spec.swipe(fingers, [$0]) } + [Spec.rotate(fingers)]
        let hand = Hand(.touchscreen, specs)
        hand.down(fingers, spacing: 20, apart: 0.005)
        hand.wait(0.12)
        hand.twist(by: 10, whileMoving: Point(x: -40 * share, y: 0), over: 0.2 * share)
        if share < 1 { hand.move(by: Point(x: -40 * (1 - share), y: 0), over: 0.2 * (1 - share)) }
        hand.lift()
        #expect(hand.recognized == ["swipe-\(fingers)-left"], "\(hand.recognized) \(hand.explanations)")
    }

    /// A pinch is weighed by its scale: five fingers closing to 0.7 of their spread
    /// while the hand slides 20 mm (the Dell Canvas's 5-finger pinch in; the slide
    /// makes the motion classifier say "together") is a pinch as it passes 1/1.1, not
    /// once the hand has stopped and the swipe has failed for its speed.
    @Test func aSlidingFiveFingerPinchInWins() throws {
        let specs = Direction.allCases.map { Spec.swipe(5, [$0]) } + [Spec.pinch(5)]
        let hand = Hand(.touchscreen, specs)
        hand.down(at: Self.hands[5]!.map { $0 + Point(x: 100, y: 120) }, apart: 0.005)
        hand.wait(0.12)
        hand.pinch(to: 0.7, over: 0.5, drift: Point(x: 20, y: 0))
        hand.lift()
        #expect(hand.recognized == ["pinch-5"], "\(hand.recognized) \(hand.explanations)")
        let began = try #require(hand.events("pinch-5").first)
        #expect(began.sense == .in && began.scale > 0.85, "began at \(began.scale)")
    }
}
