import GestureEngine
import TouchModel
import Testing

/// What real hands and real devices do, that a naive recognizer gets wrong.
@Suite struct TouchRealityTests {
    // MARK: Fingers land at different times

    /// Three fingers landing 5–40 ms apart make one three-finger gesture; the one- and
    /// two-finger gestures configured alongside never see a chance.
    @Test(arguments: TestDevice.allCases, [0.005, 0.02, 0.04])
    func staggeredLandingIsOneGesture(device: TestDevice, apart: Double) {
        let hand = Hand(device, [Spec.pan(1...1), Spec.pan(2...2), Spec.swipe(1), Spec.swipe(2), Spec.swipe(3, [.left])])
        hand.down(3, apart: apart)
        hand.move(by: Point(x: -40, y: 0), over: 0.2)
        hand.lift()
        #expect(hand.recognized == ["swipe-3-left"])
    }

    /// A sloppy hand: the first finger is already moving when the others land.
    @Test(arguments: TestDevice.allCases)
    func firstFingerMovesBeforeTheOthersLand(device: TestDevice) {
        let hand = Hand(device, [Spec.pan(1...1), Spec.swipe(3, [.left])])
        hand.down(1)
        hand.move(by: Point(x: -6, y: 0), over: 0.04)
        let p = hand.fingers[0].position
        hand.down(at: [p + Point(x: 15, y: 0), p + Point(x: 30, y: 0)], apart: 0.005)
        hand.move(by: Point(x: -40, y: 0), over: 0.2)
        hand.lift()
        #expect(hand.recognized == ["swipe-3-left"])
        #expect(hand.explanations == ["pan-1: lost to swipe-3-left"])
    }

    /// A flick: three fingers land 5 ms apart and are gone 90 ms later, before their
    /// count could settle. Still a three-finger swipe.
    @Test(arguments: TestDevice.allCases, Direction.allCases)
    func aQuickFlickCountsEveryFinger(device: TestDevice, direction: Direction) {
        let hand = Hand(device, [Spec.swipe(1, name: "swipe-1"), Spec.swipe(2, name: "swipe-2"), Spec.swipe(3, name: "swipe-3")])
        hand.down(3, apart: 0.005)
        hand.move(by: direction.times(30), over: 0.08)
        hand.lift()
        #expect(hand.recognized == ["swipe-3"])
        #expect(hand.events.first?.fingers == 3)
    }

    // MARK: Fingers lift at different times

    /// The swipe crosses its distance after one finger has already lifted: still a
    /// three-finger swipe, never a two-finger one.
    @Test(arguments: TestDevice.allCases, Direction.allCases)
    func oneFingerLiftsEarlyDuringTheSwipe(device: TestDevice, direction: Direction) {
        let hand = Hand(device, [Spec.swipe(2, name: "swipe-2"), Spec.swipe(3, name: "swipe-3")])
        hand.down(3, apart: 0.005)
        hand.wait(0.12)
        hand.move(by: direction.times(15), over: 0.1)
        hand.lift(1)
        hand.move(by: direction.times(10), over: 0.05)
        hand.lift()
        #expect(hand.recognized == ["swipe-3"])
        #expect(hand.events.first?.fingers == 3)
        #expect(hand.events.first?.direction == direction)
    }

    /// A three-finger pan whose fingers lift 8 ms apart ends as a three-finger pan:
    /// ended, not cancelled, and no two-finger pan starts on the way out.
    @Test(arguments: TestDevice.allCases)
    func panEndsCleanlyWhenFingersLiftApart(device: TestDevice) {
        let hand = Hand(device, [Spec.pan(2...2, name: "pan-2"), Spec.pan(3...3, name: "pan-3")])
        hand.down(3)
        hand.wait(0.12)
        hand.move(by: Point(x: 0, y: 30), over: 0.2)
        hand.lift(earlyBy: 0.008)
        #expect(hand.recognized == ["pan-3"])
        #expect(hand.phases("pan-3").last == .ended)
        #expect(hand.last("pan-3")?.fingers == 3)
    }

    /// A finger that lifts and stays up for good does change the gesture: once the
    /// count settles at two, the three-finger pan ends.
    @Test func aFingerLiftedForGoodEndsTheGesture() {
        let hand = Hand(.touchpad, [Spec.pan(3...3, name: "pan-3")])
        hand.down(3)
        hand.wait(0.12)
        hand.move(by: Point(x: 0, y: 20), over: 0.1)
        hand.lift(1)
        hand.move(by: Point(x: 0, y: 20), over: 0.2)
        #expect(hand.phases("pan-3").last == .ended)
        hand.lift()
        #expect(hand.phases("pan-3").filter { $0 == .ended }.count == 1)
    }

    /// A fourth finger added mid-pan cancels it (libinput cancels a swipe that gains a finger).
    @Test func anAddedFingerCancelsTheGesture() {
        let hand = Hand(.touchscreen, [Spec.pan(3...3, name: "pan-3")])
        hand.down(3)
        hand.wait(0.12)
        hand.move(by: Point(x: 0, y: 20), over: 0.1)
        hand.down(at: [Point(x: 200, y: 150)])
        hand.move(by: Point(x: 0, y: 20), over: 0.2)
        hand.lift()
        #expect(hand.phases("pan-3").last == .cancelled)
    }

    // MARK: A resting thumb

    static let thumb = Point(x: 30, y: 72)   // 3 mm from a 75 mm clickpad's bottom edge

    @Test(arguments: [true, false], Direction.allCases)
    func aRestingThumbIsNotAFourthFinger(thumbFirst: Bool, direction: Direction) {
        let hand = Hand(.touchpad, [Spec.swipe(3, name: "swipe-3"), Spec.swipe(4, name: "swipe-4")])
        if thumbFirst { hand.down(at: [Self.thumb]); hand.wait(0.5) }
        hand.down(3, at: Point(x: 55, y: 30), apart: 0.005)
        if !thumbFirst { hand.down(at: [Self.thumb]) }
        hand.wait(0.12)
        // The three fingers move; the thumb (the last finger when it came last) rests.
        hand.moveFingers(thumbFirst ? [1, 2, 3] : [0, 1, 2], by: direction.times(30), over: 0.2)
        hand.lift()
        #expect(hand.recognized == ["swipe-3"])
    }

    /// A touchscreen has no resting thumb: four fingers are four.
    @Test func touchscreensCountEveryFinger() {
        let hand = Hand(.touchscreen, [Spec.swipe(3, name: "swipe-3"), Spec.swipe(4, name: "swipe-4")])
        hand.down(3, apart: 0.005)
        hand.down(at: [Point(x: 150, y: 187)])
        hand.wait(0.12)
        hand.move(by: Point(x: -30, y: 0), over: 0.2)
        hand.lift()
        #expect(hand.recognized == ["swipe-4"])
    }

    /// A finger low on the pad that moves with the others is a finger, not a thumb.
    @Test func aMovingLowFingerCounts() {
        let hand = Hand(.touchpad, [Spec.swipe(3, name: "swipe-3"), Spec.swipe(4, name: "swipe-4")])
        hand.down(at: [Point(x: 30, y: 50), Point(x: 45, y: 50), Point(x: 60, y: 50), Point(x: 75, y: 70)], apart: 0.005)
        hand.wait(0.12)
        hand.move(by: Point(x: 0, y: -40), over: 0.3)
        hand.lift()
        #expect(hand.recognized == ["swipe-4"])
    }

    /// A thumb that rested before a two-finger tap or hold does not make the tap
    /// "too long" or the hold start early: it is not part of the gesture at all.
    @Test func aThumbRestingFirstDoesNotSpoilTapsOrHolds() {
        let hand = Hand(.touchpad, [Spec.tap(2), Spec.hold(1), Spec.hold(3)])
        hand.down(at: [Self.thumb])
        hand.wait(1)
        #expect(hand.recognized.isEmpty)             // a resting thumb is no 1-finger hold
        hand.down(2, at: Point(x: 55, y: 30))
        hand.wait(0.05)
        hand.lift(2)
        #expect(hand.recognized == ["tap-2"])
        hand.down(3, at: Point(x: 55, y: 30))
        hand.wait(0.6)
        #expect(hand.recognized == ["tap-2", "hold-3"])
    }

    /// A finger that lands low and then travels is a finger from then on.
    @Test func aLowFingerThatTravelsIsAFinger() {
        let hand = Hand(.touchpad, [Spec.swipe(1, name: "swipe")])
        hand.down(at: [Self.thumb])
        hand.move(by: Point(x: 0, y: -40), over: 0.2)
        hand.lift()
        #expect(hand.recognized == ["swipe"])
    }

    // MARK: Pads that count more fingers than they track

    /// Two slots, three fingers (BTN_TOOL_TRIPLETAP): the three-finger swipe comes from
    /// the two tracked contacts' motion.
    @Test(arguments: Direction.allCases, [3, 4, 5])
    func semiMTMultiFingerSwipe(direction: Direction, fingers: Int) {
        let hand = Hand(.touchpad, [Spec.swipe(2, name: "swipe-2"), Spec.swipe(fingers, name: "swipe-n"), Spec.pinch(fingers)])
        hand.trackedSlots = 2
        hand.down(fingers, apart: 0.005)
        hand.wait(0.12)
        hand.move(by: direction.times(30), over: 0.2)
        hand.lift()
        #expect(hand.recognized == ["swipe-n"])
        #expect(hand.events.first?.direction == direction)
        #expect(hand.events.first?.fingers == fingers)
    }

    // MARK: Swipe or pinch

    /// Fingers moving the same way but not quite parallel are still a swipe.
    @Test(arguments: TestDevice.allCases, [2, 3, 4])
    func aWobblySwipeIsASwipe(device: TestDevice, fingers: Int) {
        let hand = Hand(device, [Spec.pinch(fingers), Spec.rotate(fingers), Spec.swipe(fingers, name: "swipe")])
        hand.down(fingers, apart: 0.005)
        hand.wait(0.12)
        hand.moveFingers(Array(0..<fingers), by: Point(x: 30, y: 0), over: 0.2, spreadBy: 6)
        hand.lift()
        #expect(hand.recognized == ["swipe"])
    }

    /// A three-finger pinch (thumb against two fingers) is a pinch, decided from the
    /// outermost touches.
    @Test(arguments: TestDevice.allCases)
    func aThreeFingerPinchIsAPinch(device: TestDevice) {
        let hand = Hand(device, [Spec.swipe(3), Spec.pan(3...3), Spec.pinch(3, name: "pinch")])
        hand.down(at: [Point(x: 40, y: 30), Point(x: 55, y: 28), Point(x: 50, y: 55)], apart: 0.005)
        hand.wait(0.12)
        hand.pinch(to: 0.5, over: 0.25)
        hand.lift()
        #expect(hand.recognized == ["pinch"])
    }

    // MARK: SYN_DROPPED and vanishing devices

    /// A resync cancels the pan in flight; the fingers still down are ignored until
    /// they lift; the next gesture works.
    @Test(arguments: TestDevice.allCases)
    func resyncCancelsEverythingInFlight(device: TestDevice) {
        let hand = Hand(device, [Spec.pan(3...3, name: "pan"), Spec.swipe(3, name: "swipe")])
        hand.down(3)
        hand.wait(0.12)
        hand.move(by: Point(x: 10, y: 0), over: 0.1)
        #expect(hand.phases("pan").first == .began)
        hand.resync()
        #expect(hand.phases("pan").last == .cancelled)
        let count = hand.events.count
        hand.move(by: Point(x: 40, y: 0), over: 0.2)
        hand.wait(1)
        hand.lift()
        #expect(hand.events.count == count)          // nothing from the partial sequence
        #expect(hand.engine.nextDeadline == nil)
        hand.down(3)
        hand.wait(0.12)
        hand.move(by: Point(x: 10, y: 0), over: 0.1)
        hand.lift()
        #expect(hand.phases("pan").suffix(2) == [.changed, .ended])
    }

    /// A swipe that would complete after the resync never fires, nor a hold.
    @Test func nothingFiresFromAPartialState() {
        let hand = Hand(.touchpad, [Spec.swipe(3, name: "swipe"), Spec.hold(3, name: "hold"), Spec.tap(3)])
        hand.down(3)
        hand.wait(0.12)
        hand.move(by: Point(x: 12, y: 0), over: 0.1)  // short of the 15 mm it may act at
        hand.resync()
        hand.move(by: Point(x: 15, y: 0), over: 0.05)
        hand.wait(1)
        hand.lift()
        #expect(hand.events.isEmpty)
        #expect(hand.explanations.contains("swipe: the device dropped events (SYN_DROPPED); cancelled"))
    }

    /// A clickpad click is a pointer action: a two-finger click is not a two-finger
    /// tap, and clicking mid-swipe cancels the swipe's pan.
    @Test func aClickIsNotAGesture() {
        let hand = Hand(.touchpad, [Spec.tap(2), Spec.pan(3...3, name: "pan")])
        hand.down(2)
        hand.buttonDown = true
        hand.buttonDown = false
        hand.lift()
        #expect(hand.recognized.isEmpty)
        #expect(hand.explanations == ["tap-2: the pad was clicked; a click is not a gesture",
                                      "pan: the pad was clicked; a click is not a gesture"])
        hand.down(3)
        hand.wait(0.12)
        hand.move(by: Point(x: 10, y: 0), over: 0.1)
        hand.buttonDown = true
        hand.move(by: Point(x: 10, y: 0), over: 0.1)
        hand.buttonDown = false
        hand.move(by: Point(x: 10, y: 0), over: 0.1)
        hand.lift()
        #expect(hand.phases("pan") .first == .began)
        #expect(hand.phases("pan").last == .cancelled)
        // The next touch works again.
        hand.down(2); hand.wait(0.05); hand.lift()
        #expect(hand.recognized == ["pan", "tap-2"])
    }

    /// A resync with no finger down changes nothing for the next gesture.
    @Test func resyncWithNoFingersIsHarmless() {
        let hand = Hand(.touchpad, [Spec.tap(2)])
        hand.resync()
        hand.down(2); hand.wait(0.05); hand.lift()
        #expect(hand.recognized == ["tap-2"])
    }

    /// A gesture cancelled in flight reports where it had got to: the touches as the
    /// last frame left them, at the instant of the cancel (the engine asks its tracker
    /// then; it kept no copy of every frame's snapshot for it).
    @Test func aCancelledGestureReportsWhereItHadGot() {
        let hand = Hand(.touchpad, [Spec.pan(3...3, name: "pan")])
        hand.down(3)
        hand.wait(0.12)
        hand.move(by: Point(x: 10, y: 0), over: 0.1)
        let last = hand.events("pan").last!
        #expect(last.phase == .changed && last.translation.x > 5)
        hand.wait(0.05)
        hand.buttonDown = true
        let cancelled = hand.events("pan").last!
        #expect(cancelled.phase == .cancelled)
        #expect(cancelled.time == hand.now)
        #expect(cancelled.translation == last.translation)
        #expect(cancelled.location == last.location)
        #expect(cancelled.fingers == 3)
        hand.buttonDown = false
        hand.lift()

        let pinching = Hand(.touchscreen, [Spec.pinch(2, name: "pinch")])
        pinching.down(2, spacing: 40)
        pinching.wait(0.12)
        pinching.pinch(to: 1.5, over: 0.1)
        let pinched = pinching.events("pinch").last!
        pinching.cancelAll()
        let gone = pinching.events("pinch").last!
        #expect(gone.phase == .cancelled)
        #expect(gone.scale == pinched.scale && abs(gone.scale - 1.5) < 0.1)
        #expect(gone.time == pinching.now)
    }

    @Test func deviceGoneMidGestureCancels() {
        let hand = Hand(.touchscreen, [Spec.pinch(2, name: "pinch")])
        hand.down(2, spacing: 40)
        hand.wait(0.12)
        hand.pinch(to: 1.5, over: 0.1)
        hand.cancelAll()
        #expect(hand.phases("pinch") .first == .began)
        #expect(hand.phases("pinch").last == .cancelled)
        #expect(hand.engine.nextDeadline == nil)
        #expect(hand.engine.recognizerStates.map(\.state) == [.possible])
    }
}
