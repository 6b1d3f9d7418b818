import GestureEngine
import TouchModel
import Testing

/// The engine never reads a clock: it says when it must be woken, and time moves
/// only when the caller says so.
@Suite struct DeadlineTests {
    static let everyKind: [GestureSpec] = [Spec.tap(1), Spec.hold(2), Spec.pan(1...1), Spec.swipe(3), Spec.pinch(2),
                                           Spec.rotate(2), Spec.edgePan(1), Spec.transform(4...5), Spec.scrub()]

    @Test(arguments: TestDevice.allCases)
    func idleMeansNoDeadline(device: TestDevice) {
        let hand = Hand(device, Self.everyKind)
        #expect(hand.engine.nextDeadline == nil)
        hand.down(2); hand.wait(0.05); hand.lift()
        hand.wait(2)
        #expect(hand.engine.nextDeadline == nil)
    }

    /// Hold fires at 0.5 s from `timerFired(at:)` alone.
    @Test func holdFiresFromTheTimerWithNoFrame() throws {
        let engine = GestureEngine(device: TestDevice.touchpad.info, specs: [Spec.hold(2, name: "hold")])
        var events: [GestureEvent] = []
        let t0 = Timestamp(seconds: 50)
        let frame = TouchFrame(time: t0, contacts: ContactList([Contact(id: 1, position: Point(x: 40, y: 30)),
                                                                Contact(id: 2, position: Point(x: 60, y: 30))]))
        engine.process(frame, into: &events)
        #expect(events.isEmpty)
        // No settle window (nothing bound takes more than two fingers): the press.
        #expect(engine.nextDeadline == t0.adding(seconds: 0.5))
        engine.timerFired(at: t0.adding(seconds: 0.499), into: &events)
        #expect(events.isEmpty)
        engine.timerFired(at: t0.adding(seconds: 0.5), into: &events)
        let e = try #require(events.first)
        #expect(e.name == "hold" && e.phase == .began && e.time == t0.adding(seconds: 0.5))
        #expect(engine.nextDeadline == nil)
    }

    /// Late wakeups are fine: a hold whose timer fired late begins when it was due,
    /// as it would have with a punctual timer (and as `replay` says).
    @Test func aLateTimerFiresAtTheDeadline() {
        let engine = GestureEngine(device: TestDevice.touchscreen.info, specs: [Spec.hold(1, name: "hold")])
        var events: [GestureEvent] = []
        let t0 = Timestamp(seconds: 1)
        engine.process(TouchFrame(time: t0, contacts: ContactList([Contact(id: 7, position: Point(x: 10, y: 10))])), into: &events)
        engine.timerFired(at: t0.adding(seconds: 2), into: &events)
        #expect(events.map(\.phase) == [.began])
        #expect(events.first?.time == t0.adding(seconds: 0.5))
        #expect(events.first?.duration == 0.5)
    }

    /// Deadlines are always in the future: a caller that arms a timer for each one
    /// never spins.
    @Test(arguments: TestDevice.allCases)
    func deadlinesMoveOn(device: TestDevice) {
        let hand = Hand(device, [Spec.tap(1, taps: 2, name: "double"), Spec.hold(1, name: "hold"), Spec.swipe(1)])
        hand.down(1)
        var last = hand.now
        var wakeups: [Double] = []
        while let d = hand.engine.nextDeadline {
            #expect(d > last)
            wakeups.append(d.seconds(since: hand.frames[0].time))
            last = d
            hand.wait(d.seconds(since: hand.now))
            if wakeups.count > 10 { Issue.record("too many wakeups"); break }
        }
        // Settled as it landed (nothing bound takes more than one finger), the tap gave
        // up at 0.3 s, the hold began at 0.5 s; then quiet.
        #expect(wakeups.map { ($0 * 1000).rounded() } == [300, 500])
        #expect(hand.recognized == ["hold"])
    }

    /// The settle window is a deadline of its own: a count that settles with no new
    /// frame lets a swipe that already qualified recognize at that instant.
    @Test func settlingIsADeadline() {
        // A 3-finger tap bound: more fingers may land, so the count of two must settle.
        let hand = Hand(.touchpad, [Spec.swipe(2, name: "swipe"), Spec.tap(3)])
        hand.down(2)
        let landed = hand.now
        #expect(hand.engine.nextDeadline == landed.adding(seconds: 0.1))
    }

    @Test func tapIntervalIsADeadline() {
        let hand = Hand(.touchpad, [Spec.tap(1, taps: 2, name: "double")])
        hand.down(1); hand.wait(0.05); hand.lift()
        #expect(hand.engine.nextDeadline == hand.now.adding(seconds: 0.350001))
    }
}
