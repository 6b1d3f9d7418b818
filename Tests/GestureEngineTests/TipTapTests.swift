import GestureEngine
import TouchModel
import Testing

@Suite struct TipTapTests {
    /// One finger rests at the centre for 300 ms; `fingers` more land `dx` mm to its
    /// side and tap for 80 ms; the resting finger stays.
    static func tipTap(_ hand: Hand, dx: Double, fingers: Int = 1, rest: Double = 0.3, tap: Double = 0.08) {
        hand.down(at: [hand.centre])
        hand.wait(rest)
        hand.down(at: (0..<fingers).map { Point(x: hand.centre.x + dx + Double($0) * 12 * (dx < 0 ? -1 : 1), y: hand.centre.y) })
        hand.wait(tap)
        hand.lift(fingers)
    }

    /// One finger rests at the centre for `rest` seconds, then another lands `dx` mm
    /// to its side (the hand's finger 1).
    static func restThenLand(_ hand: Hand, rest: Double = 0.3, dx: Double = 20) {
        hand.down(at: [hand.centre])
        hand.wait(rest)
        hand.down(at: [Point(x: hand.centre.x + dx, y: hand.centre.y)])
    }

    /// Both sides, on a touchpad and a touchscreen: recognized once the resting finger
    /// has stayed down the settle window after the tap, with the side it landed on.
    @Test(arguments: TestDevice.allCases, [(-20.0, Side.left), (20.0, Side.right)])
    func aTapBesideARestingFingerIsATipTapOfThatSide(device: TestDevice, tap: (dx: Double, side: Side)) throws {
        let hand = Hand(device, [Spec.tipTap(name: "tip")])
        Self.tipTap(hand, dx: tap.dx)
        let lifted = hand.now
        #expect(hand.recognized.isEmpty, "not while the resting finger could still lift with the tap")
        hand.wait(0.2)
        #expect(hand.recognized == ["tip"])
        let e = try #require(hand.events.first)
        #expect(e.side == tap.side && e.kind == .tipTap && e.fingers == 1)
        #expect(abs(e.time.seconds(since: lifted) - 0.1) < 0.001, "\(e.time.seconds(since: lifted))")
        #expect(abs(e.location.x - (hand.centre.x + tap.dx)) < 0.01, "where the tap landed")
        hand.lift()
        #expect(hand.events.count == 1 && hand.engine.refusedTransitions == 0)
    }

    /// `side:` filters: a tap to the right does not fire a left binding, and says why.
    @Test func theOtherSideFailsWithItsSide() {
        let hand = Hand(.touchpad, [Spec.tipTap(1, [.left]), Spec.tipTap(1, [.right])])
        Self.tipTap(hand, dx: 25)
        hand.wait(0.2)
        #expect(hand.recognized == ["tip-tap-right"])
        #expect(hand.explanations == ["tip-tap-left: tapped to the right, which it does not accept"])
    }

    /// Two fingers tap beside the resting one (`fingers: 2`); a one-finger binding
    /// fails on the count.
    @Test func twoFingersTapBesideIt() throws {
        let hand = Hand(.touchscreen, [Spec.tipTap(1, name: "one"), Spec.tipTap(2, name: "two")])
        Self.tipTap(hand, dx: -20, fingers: 2)
        hand.wait(0.2)
        #expect(hand.recognized == ["two"])
        #expect(try #require(hand.events.first).fingers == 2)
        #expect(hand.explanations == ["one: 2 fingers, needs 1"])
    }

    /// The resting finger must rest: one that moves 5 mm before the tap, or while it,
    /// makes no tip-tap.
    @Test(arguments: [true, false])
    func aRestingFingerThatMovesTooMuchFails(duringTheTap: Bool) {
        let hand = Hand(.touchpad, [Spec.tipTap(name: "tip")])
        hand.down(at: [hand.centre])
        hand.wait(0.1)
        if !duringTheTap { hand.moveFinger(0, by: Point(x: 0, y: 5), over: 0.1) }
        hand.wait(0.1)
        hand.down(at: [Point(x: hand.centre.x + 20, y: hand.centre.y)])
        if duringTheTap { hand.moveFinger(0, by: Point(x: 0, y: 5), over: 0.05) }
        hand.lift(1)
        hand.wait(0.2)
        #expect(hand.recognized.isEmpty)
        // It fails on the frame that takes it past 3 mm.
        let why = hand.explanations.joined()
        #expect(why.hasPrefix("tip: the resting finger moved ") && why.hasSuffix(" mm, allows 3.0 mm"), "\(why)")
    }

    /// The tap is a tap: held 400 ms it is too long, as a plain tap's would be.
    @Test func aTapHeldTooLongFails() {
        let hand = Hand(.touchscreen, [Spec.tipTap(name: "tip")])
        Self.tipTap(hand, dx: 20, tap: 0.4)
        hand.wait(0.2)
        #expect(hand.recognized.isEmpty)
        #expect(hand.explanations == ["tip: still down after 0.30 s, too long for a tap"])
    }

    /// Issue 37: a second tap landing beside the resting finger before the first was
    /// taken (40 ms after it lifted, within the 100 ms it waits) fails the tip-tap for
    /// what happened, not as "2 taps, needs 1" (a tip-tap has no taps to count).
    @Test func aSecondTapBeforeTheFirstCountedSaysSo() {
        let hand = Hand(.touchpad, [Spec.tipTap(name: "tip")])
        Self.tipTap(hand, dx: 20)
        hand.wait(0.04)
        hand.down(at: [Point(x: hand.centre.x + 20, y: hand.centre.y)])
        hand.lift(1)
        hand.wait(0.2)
        #expect(hand.recognized.isEmpty)
        #expect(hand.explanations == ["tip: fingers landed again 40 ms after the tap, before it counted (it waits 100 ms): one tip-tap per rest"])
    }

    /// The tapping finger that slides is no tap either.
    @Test func aTapThatSlidesFails() {
        let hand = Hand(.touchpad, [Spec.tipTap(name: "tip")])
        Self.restThenLand(hand)
        hand.moveFinger(1, by: Point(x: 0, y: 6), over: 0.05)
        hand.lift(1)
        hand.wait(0.2)
        #expect(hand.recognized.isEmpty)
        let why = hand.explanations.joined()
        #expect(why.hasPrefix("tip: moved ") && why.hasSuffix(" mm, allows 3.0 mm"), "\(why)")
    }

    /// Arbitration, both ways, with a plain two-finger tap bound beside it: fingers put
    /// down together (30 ms apart) and lifted together are the plain tap; a finger that
    /// rested first and stays after the tap is the tip-tap. And a first finger that
    /// rested 200 ms but lifts with the other is the plain tap too.
    @Test func aPlainTwoFingerTapIsNotATipTapAndATipTapIsNotAPlainTap() {
        let specs = [Spec.tipTap(name: "tip"), Spec.tap(2)]
        let plain = Hand(.touchpad, specs)
        plain.down(2, spacing: 20, apart: 0.03)
        plain.wait(0.08)
        plain.lift()
        plain.wait(0.5)
        #expect(plain.recognized == ["tap-2"])
        #expect(plain.explanations == ["tip: the first finger rested 30 ms before the others landed, needs 150 ms"])

        let tip = Hand(.touchpad, specs)
        Self.tipTap(tip, dx: 20)
        tip.wait(0.2)
        tip.lift()
        tip.wait(0.5)
        #expect(tip.recognized == ["tip"])

        let together = Hand(.touchpad, specs)
        Self.restThenLand(together, rest: 0.2)
        together.wait(0.06)
        together.lift(1)
        together.wait(0.02)
        together.lift()
        together.wait(0.5)
        #expect(together.recognized == ["tap-2"])
        #expect(together.explanations == ["tip: the resting finger lifted with the others, or before them (a plain tap of them all)"])
    }

    /// Arbitration, both ways, with a plain two-finger swipe bound: two fingers that
    /// land together and swipe are the swipe (the tip-tap and tip-swipe fail at once);
    /// a finger that rests while the other swipes is the tip-swipe, which crosses its
    /// distance first.
    @Test func aPlainTwoFingerSwipeIsNotATipSwipeAndATipSwipeIsNotAPlainSwipe() {
        let specs = [Spec.tipTap(name: "tip"), Spec.tipTap(swipe: [.up], name: "tip-up"), Spec.swipe(2)]
        let plain = Hand(.touchpad, specs)
        plain.down(2, spacing: 20, apart: 0.01)
        plain.wait(0.12)
        plain.move(by: Point(x: 0, y: -30), over: 0.15)
        plain.lift()
        #expect(plain.recognized == ["swipe-2"])

        // A first finger that rested, then moves with the second, is no resting finger.
        let late = Hand(.touchpad, specs)
        Self.restThenLand(late)
        late.wait(0.12)
        late.move(by: Point(x: 0, y: -30), over: 0.15)
        late.lift()
        #expect(late.recognized == ["swipe-2"])
        #expect(late.explanations.contains { $0.hasPrefix("tip-up: the resting finger moved ") }, "\(late.explanations)")

        let tip = Hand(.touchpad, specs)
        Self.restThenLand(tip, dx: -20)
        tip.wait(0.05)
        tip.moveFinger(1, by: Point(x: 0, y: -30), over: 0.15)
        tip.lift()
        #expect(tip.recognized == ["tip-up"])
        #expect(tip.events.first?.side == .left && tip.events.first?.direction == .up)
    }

    /// A tip-swipe the wrong way fails with the way it went; one too short fails at
    /// the lift.
    @Test func aTipSwipeTakesItsDirectionAndDistance() {
        let wrong = Hand(.touchscreen, [Spec.tipTap(swipe: [.up], name: "tip-up")])
        Self.restThenLand(wrong)
        wrong.moveFinger(1, by: Point(x: 30, y: 0), over: 0.15)
        wrong.lift()
        #expect(wrong.recognized.isEmpty)
        #expect(wrong.explanations == ["tip-up: moved right, which it does not accept"])

        let short = Hand(.touchscreen, [Spec.tipTap(swipe: [], name: "tip-swipe")])
        Self.restThenLand(short)
        short.moveFinger(1, by: Point(x: 0, y: 10), over: 0.1)
        short.lift(1)
        #expect(short.recognized.isEmpty)
        #expect(short.explanations == ["tip-swipe: moved 10.0 mm, needs 20.0 mm"])
    }

    /// Thumbs stay as they are: a thumb resting in a clickpad's thumb zone is no
    /// finger, so a finger tapping beside it is a plain one-finger tap.
    @Test func aRestingThumbIsNoRestingFinger() {
        let hand = Hand(.touchpad, [Spec.tipTap(name: "tip"), Spec.tap(1)])
        hand.down(at: [Point(x: 40, y: 72)])
        hand.wait(0.3)
        hand.down(at: [Point(x: 60, y: 40)])
        hand.wait(0.08)
        hand.lift(1)
        hand.wait(0.5)
        #expect(hand.recognized == ["tap-1"])
        #expect(hand.explanations == ["tip: no finger tapped beside the resting one"])
    }
}
