import GestureEngine
import TouchModel
import Testing

@Suite struct ArbitrationTests {
    // MARK: Compete

    /// A pan and a swipe of the same fingers: the pan begins first (3 mm), so the swipe
    /// (20 mm) loses — and says so.
    @Test(arguments: TestDevice.allCases)
    func firstToBeginWins(device: TestDevice) {
        let hand = Hand(device, [Spec.swipe(3, name: "swipe"), Spec.pan(3...3, name: "pan")])
        hand.down(3)
        hand.wait(0.15)
        hand.move(by: Point(x: -30, y: 0), over: 0.2)
        hand.lift()
        #expect(hand.recognized == ["pan"])
        #expect(hand.explanations == ["swipe: lost to pan"])
    }

    /// Two that qualify on the same frame: config order decides, either way round.
    @Test(arguments: [true, false])
    func configOrderBreaksTies(swipeFirst: Bool) {
        let a = Spec.swipe(3, name: "a"), b = Spec.swipe(3, [.left], name: "b")
        let hand = Hand(.touchpad, swipeFirst ? [a, b] : [b, a])
        hand.down(3)
        hand.wait(0.15)
        hand.move(by: Point(x: -30, y: 0), over: 0.2)
        hand.lift()
        #expect(hand.recognized == [swipeFirst ? "a" : "b"])
    }

    /// Others that had begun are cancelled, not failed, when a gesture wins: the swipe
    /// that comes right after a hold wins while the hold still runs, and cancels it;
    /// a pan that would compete loses to the running hold.
    @Test(arguments: TestDevice.allCases)
    func aBegunGestureIsCancelledWhenAnotherWins(device: TestDevice) {
        var swipe = Spec.swipe(3, name: "swipe")
        swipe.after = "hold"
        let hand = Hand(device, [Spec.hold(3, name: "hold"), Spec.pan(3...3, name: "pan"), swipe])
        hand.down(3)
        hand.wait(0.6)
        #expect(hand.recognized == ["hold"])
        hand.move(by: Point(x: -30, y: 0), over: 0.2)
        hand.lift()
        #expect(hand.recognized == ["hold", "swipe"])
        #expect(hand.phases("hold").first == .began)
        #expect(hand.phases("hold").last == .cancelled)
        #expect(!hand.phases("hold").contains(.ended))
        #expect(hand.explanations.contains("pan: lost to hold"))
        #expect(hand.engine.decisions().map(\.description).contains { $0.hasSuffix("hold: changed → cancel → cancelled (lost to swipe)") })
    }

    /// Cancelled if it had begun: disabling a running pan cancels it.
    @Test func disablingARunningGestureCancelsIt() {
        let hand = Hand(.touchpad, [Spec.pan(2...2, name: "pan")])
        hand.down(2)
        hand.wait(0.15)
        hand.move(by: Point(x: 10, y: 0), over: 0.1)
        hand.engine.setEnabled(false, name: "pan")
        hand.move(by: Point(x: 10, y: 0), over: 0.1)
        hand.lift()
        #expect(hand.phases("pan").first == .began)
        #expect(hand.phases("pan").last == .cancelled)
        #expect(hand.phases("pan").filter { $0 == .cancelled }.count == 1)
    }

    // MARK: Simultaneous

    @Test(arguments: [true, false])
    func pinchAndRotateTogetherWhenDeclared(declaredOnPinch: Bool) {
        var pinch = Spec.pinch(2, name: "pinch"), rotate = Spec.rotate(2, name: "rotate")
        if declaredOnPinch { pinch.simultaneousWith = ["rotate"] } else { rotate.simultaneousWith = ["pinch"] }
        let hand = Hand(.touchscreen, [pinch, rotate, Spec.pan(2...2, name: "pan")])
        hand.down(2, spacing: 40)
        hand.wait(0.15)
        hand.pinch(to: 1.5, over: 0.2)
        hand.rotate(by: 40, over: 0.2)
        hand.lift()
        #expect(hand.recognized == ["pinch", "rotate"])
        #expect(hand.phases("pinch").last == .ended)
        #expect(hand.phases("rotate").last == .ended)
        #expect(hand.explanations == ["pan: fingers moved apart or around (a pinch or rotation), not together"])
    }

    // MARK: Require to fail

    /// UIKit's classic: the single tap waits for the double tap to fail.
    @Test(arguments: TestDevice.allCases, 1...3)
    func singleTapWaitsForTheDoubleTapToFail(device: TestDevice, fingers: Int) throws {
        var single = Spec.tap(fingers, name: "single")
        single.requiresFailureOf = ["double"]
        let double = Spec.tap(fingers, taps: 2, name: "double")
        let hand = Hand(device, [single, double])
        hand.down(fingers); hand.wait(0.05); hand.lift()
        let lifted = hand.now
        #expect(hand.recognized.isEmpty)
        #expect(hand.engine.recognizerStates.map(\.state) == [.waiting, .possible])
        #expect(hand.engine.nextDeadline == lifted.adding(seconds: 0.350001))
        hand.wait(1)
        #expect(hand.recognized == ["single"])
        let e = try #require(hand.events.first)
        #expect(e.time == lifted.adding(seconds: 0.350001))   // when the double tap gave up
        #expect(e.fingers == fingers)
        #expect(hand.explanations == ["double: the next tap did not come within 0.35 s"])
    }

    @Test(arguments: TestDevice.allCases, 1...3)
    func aDoubleTapIsNotAlsoASingleTap(device: TestDevice, fingers: Int) {
        var single = Spec.tap(fingers, name: "single")
        single.requiresFailureOf = ["double"]
        let hand = Hand(device, [single, Spec.tap(fingers, taps: 2, name: "double")])
        hand.down(fingers); hand.wait(0.05); hand.lift()
        hand.wait(0.1)
        hand.down(fingers); hand.wait(0.05); hand.lift()
        hand.wait(1)
        #expect(hand.recognized == ["double"])
        #expect(hand.explanations == ["single: double was recognized, and this one requires it to fail"])
    }

    /// Without the requirement both compete: the single tap wins at the first lift and
    /// the double tap fails.
    @Test func withoutTheRequirementTheSingleTapWins() {
        let hand = Hand(.touchpad, [Spec.tap(1, name: "single"), Spec.tap(1, taps: 2, name: "double")])
        hand.down(1); hand.wait(0.05); hand.lift()
        hand.wait(0.1)
        hand.down(1); hand.wait(0.05); hand.lift()
        #expect(hand.recognized == ["single", "single"])
    }

    /// A swipe that waits for the hold: a quick swipe recognizes once the hold fails
    /// (as soon as the fingers move); a hold keeps the swipe from firing.
    @Test func swipeWaitsForHoldToFail() {
        var swipe = Spec.swipe(3, name: "swipe")
        swipe.requiresFailureOf = ["hold"]
        let hand = Hand(.touchpad, [swipe, Spec.hold(3, name: "hold")])
        hand.down(3)
        hand.wait(0.15)
        hand.move(by: Point(x: -30, y: 0), over: 0.2)
        hand.lift()
        #expect(hand.recognized == ["swipe"])

        hand.clearEvents()
        hand.down(3)
        hand.wait(0.6)
        hand.move(by: Point(x: -30, y: 0), over: 0.2)
        hand.lift()
        #expect(hand.recognized == ["hold"])
        #expect(hand.explanations.contains("swipe: hold was recognized, and this one requires it to fail"))
    }

    /// A continuous gesture waiting for another begins when it fails, with current values.
    @Test func aWaitingPanBeginsWhenTheSwipeFails() {
        var pan = Spec.pan(2...2, name: "pan")
        pan.requiresFailureOf = ["swipe"]
        let hand = Hand(.touchpad, [pan, Spec.swipe(2, name: "swipe")])
        hand.down(2)
        hand.wait(0.15)
        hand.move(by: Point(x: 0, y: 30), over: 1.0)    // slow: the swipe fails at 20 mm
        hand.lift()
        #expect(hand.recognized == ["pan"])
        #expect(hand.explanations.first?.hasPrefix("swipe: moved at") == true)
        let began = hand.events.first!
        #expect(began.translation.y >= 20 && began.translation.y < 21)
    }

    /// Waiting on a gesture it may also run with: when that one wins, the waiter
    /// fails rather than waiting forever.
    @Test func aWaiterFailsWhenItsRequirementWinsEvenIfTheyMayRunTogether() {
        var single = Spec.tap(1, name: "single")
        single.requiresFailureOf = ["double"]
        single.simultaneousWith = ["double"]
        let hand = Hand(.touchpad, [single, Spec.tap(1, taps: 2, name: "double")])
        hand.down(1); hand.wait(0.05); hand.lift()
        hand.wait(0.1)
        hand.down(1); hand.wait(0.05); hand.lift()
        hand.wait(1)
        #expect(hand.recognized == ["double"])
        #expect(hand.engine.recognizerStates.map(\.state) == [.possible, .possible])
        #expect(hand.engine.nextDeadline == nil)
    }

    /// Two gestures that each require the other to fail would wait forever: the one
    /// earlier in the config keeps its requirement.
    @Test func aRequirementCycleIsBrokenByConfigOrder() {
        var a = Spec.tap(1, name: "a"), b = Spec.tap(1, name: "b")
        a.requiresFailureOf = ["b"]
        b.requiresFailureOf = ["a"]
        let hand = Hand(.touchpad, [a, b])
        hand.down(1); hand.wait(0.05); hand.lift()
        hand.wait(1)
        #expect(hand.recognized == ["b"])
        #expect(hand.engine.recognizerStates.map(\.state) == [.possible, .possible])
    }

    /// Issue 10, finding 6: each requirement was checked for a cycle on its own, so
    /// 700 gestures each waiting for all earlier ones took 274 s to set up (quartic).
    /// Without a cycle one pass keeps every requirement: the first tap wins.
    @Test func manyRequirementsWithoutACycleAreAllKept() {
        let specs = (0..<400).map { i in
            var s = Spec.tap(1, name: "t\(i)")
            s.requiresFailureOf = (0..<i).map { "t\($0)" }
            return s
        }
        let hand = Hand(.touchpad, specs)
        hand.down(1); hand.wait(0.05); hand.lift()
        hand.wait(1)
        #expect(hand.recognized == ["t0"])
    }

    /// The arena keeps its members in bit sets of 64 (issue 15): gestures past the 64th
    /// on a device — gated ones, ones with deadlines, ones waiting on another — behave
    /// exactly as they do at the front of the config.
    @Test func gesturesPastTheSixtyFourthBehaveTheSame() {
        var single = Spec.tap(1, name: "single")
        single.requiresFailureOf = ["double"]
        let wanted = [Spec.swipe(3, [.left], name: "left"), single, Spec.tap(1, taps: 2, name: "double"),
                      Spec.hold(2, name: "hold"), Spec.pinch(2, name: "pinch")]
        let fillers = (0..<70).map { Spec.swipe(5, name: "filler-\($0)") }  // gated out: never 5 fingers here
        var runs: [[String]] = []
        for specs in [wanted, fillers + wanted] {
            let hand = Hand(.touchpad, specs)
            hand.down(3); hand.move(by: Point(x: -40, y: 0), over: 0.2); hand.lift(); hand.wait(1)
            hand.down(1); hand.wait(0.05); hand.lift(); hand.wait(1)           // single, after double's timeout
            hand.down(1); hand.wait(0.05); hand.lift(); hand.wait(0.1)
            hand.down(1); hand.wait(0.05); hand.lift(); hand.wait(1)           // double
            hand.down(2); hand.wait(0.8); hand.lift(); hand.wait(1)            // hold, by its deadline
            #expect(hand.engine.refusedTransitions == 0)
            #expect(hand.engine.nextDeadline == nil)
            #expect(hand.engine.failures.filter { $0.name.hasPrefix("filler") }.count == (specs.count > 64 ? 70 : 0))
            runs.append(hand.log)
        }
        #expect(runs[0] == ["left recognized", "single recognized", "double recognized", "hold began", "hold ended"])
        #expect(runs[1] == runs[0])
    }

    // MARK: Touch filtering

    @Test(arguments: TestDevice.allCases)
    func deviceKindFilter(device: TestDevice) {
        var screenOnly = Spec.tap(1, name: "screen-tap")
        screenOnly.devices = DeviceFilter(kind: .touchscreen)
        var padOnly = Spec.tap(1, name: "pad-tap")
        padOnly.devices = DeviceFilter(kind: .touchpad)
        let hand = Hand(device, [screenOnly, padOnly])
        hand.down(1); hand.wait(0.05); hand.lift()
        #expect(hand.recognized == [device == .touchpad ? "pad-tap" : "screen-tap"])
        #expect(hand.engine.recognizerStates.count == 1)
        #expect(hand.events.first?.index == (device == .touchpad ? 1 : 0))   // the spec's index, not the member's
    }

    @Test(arguments: [("*Touchscreen", true), ("Test T*", true), ("*[Ss]creen", true), ("ELAN*", false),
                      ("Test ?ouchscreen", true), ("Test [!T]ouchscreen", false)])
    func deviceNameGlob(glob: String, matches: Bool) {
        var spec = Spec.tap(1, name: "tap")
        spec.devices = DeviceFilter(nameGlob: glob)
        let hand = Hand(.touchscreen, [spec])
        hand.down(1); hand.wait(0.05); hand.lift()
        #expect(hand.recognized == (matches ? ["tap"] : []))
    }

    /// Touchscreen regions: only touches that begin inside count (the right third here).
    @Test(arguments: [(0.9, true), (0.5, false), (0.67, true)])
    func regionFilter(x: Double, inside: Bool) {
        var spec = Spec.tap(1, name: "tap")
        spec.region = Region(x: 0.66...1, y: 0...1)
        let hand = Hand(.touchscreen, [spec])
        hand.down(at: [Point(x: 300 * x, y: 90)]); hand.wait(0.05); hand.lift()
        #expect(hand.recognized == (inside ? ["tap"] : []))
        if !inside { #expect(hand.explanations == ["tap: started outside its region"]) }
    }

    /// Regions describe the screen: on a touchpad they do not filter.
    @Test func regionsDoNotFilterTouchpads() {
        var spec = Spec.tap(1, name: "tap")
        spec.region = Region(x: 0.9...1, y: 0...1)
        let hand = Hand(.touchpad, [spec])
        hand.down(1); hand.wait(0.05); hand.lift()
        #expect(hand.recognized == ["tap"])
    }

    @Test func edgeFilterOnASwipe() {
        var spec = Spec.swipe(1, name: "swipe-from-right")
        spec.edges = [.right]
        let hand = Hand(.touchscreen, [spec])
        hand.down(at: [Point(x: 297, y: 90)])
        hand.wait(0.12)
        hand.move(by: Point(x: -40, y: 0), over: 0.2)
        hand.lift()
        hand.down(at: [Point(x: 200, y: 90)])
        hand.wait(0.12)
        hand.move(by: Point(x: -40, y: 0), over: 0.2)
        hand.lift()
        #expect(hand.recognized == ["swipe-from-right"])
        #expect(hand.explanations == ["swipe-from-right: did not start at an edge it listens to"])
    }

    // MARK: Sequencing

    /// Hold, then swipe: the swipe only counts right after the hold.
    @Test func sequencedAfterAHold() {
        var swipe = Spec.swipe(3, name: "swipe")
        swipe.after = "hold"
        let hand = Hand(.touchpad, [Spec.hold(3, name: "hold"), swipe])
        // Without the hold first: nothing.
        hand.down(3)
        hand.wait(0.15)
        hand.move(by: Point(x: -30, y: 0), over: 0.2)
        hand.lift()
        #expect(hand.recognized.isEmpty)
        #expect(hand.explanations.contains("swipe: only counts right after hold"))
        // Hold, lift, swipe within the window: yes.
        hand.wait(2)
        hand.down(3); hand.wait(0.6); hand.lift()
        hand.wait(0.3)
        hand.down(3)
        hand.wait(0.15)
        hand.move(by: Point(x: -30, y: 0), over: 0.2)
        hand.lift()
        #expect(hand.recognized == ["hold", "swipe"])
        // Hold, lift, wait past the window (1 s), swipe: no.
        hand.clearEvents()
        hand.down(3); hand.wait(0.6); hand.lift()
        hand.wait(1.5)
        hand.down(3)
        hand.wait(0.15)
        hand.move(by: Point(x: -30, y: 0), over: 0.2)
        hand.lift()
        #expect(hand.recognized == ["hold"])
    }

    // MARK: Enable / disable

    @Test func disabledGesturesDoNotFireAndComeBack() {
        let hand = Hand(.touchpad, [Spec.tap(2)])
        hand.engine.setEnabled(false, name: "tap-2")
        hand.down(2); hand.wait(0.05); hand.lift()
        #expect(hand.recognized.isEmpty)
        #expect(hand.explanations == ["tap-2: disabled"])
        hand.engine.setEnabled(true, name: "tap-2")
        hand.down(2); hand.wait(0.05); hand.lift()
        #expect(hand.recognized == ["tap-2"])
    }

    @Test func startsDisabledFromTheSpec() {
        var spec = Spec.tap(1)
        spec.enabled = false
        let hand = Hand(.touchpad, [spec])
        hand.down(1); hand.wait(0.05); hand.lift()
        #expect(hand.recognized.isEmpty)
    }

    /// A gesture that requires a disabled one to fail need not wait for it.
    @Test func aDisabledRequirementCountsAsFailed() {
        var single = Spec.tap(1, name: "single")
        single.requiresFailureOf = ["double"]
        let hand = Hand(.touchpad, [single, Spec.tap(1, taps: 2, name: "double")])
        hand.engine.setEnabled(false, name: "double")
        hand.down(1); hand.wait(0.05); hand.lift()
        #expect(hand.recognized == ["single"])
    }
}
