import GestureEngine
import TouchModel
import Testing

/// What `--explain` and `watch` print.
@Suite struct ExplainWatchTests {
    @Test func everyLoserSaysWhyInUserTerms() {
        let hand = Hand(.touchpad, [Spec.swipe(3, [.left], name: "swipe-left"), Spec.tap(3), Spec.hold(3),
                                    Spec.pinch(3), Spec.swipe(4, name: "swipe-4"), Spec.pan(3...3, axis: .vertical, name: "volume")])
        hand.down(3)
        hand.wait(0.12)
        hand.move(by: Point(x: -12.3, y: 0), over: 0.1)
        hand.lift()
        #expect(hand.recognized.isEmpty)
        #expect(Set(hand.explanations) == [
            "tap-3: moved 3.7 mm, allows 3.0 mm",
            "hold-3: moved 3.7 mm, allows 3.0 mm",
            "pinch-3: fingers moved together (a swipe or pan), not apart",
            "volume: moved 90.0° off its axis, allows 30.0°",
            "swipe-left: moved 12.3 mm, needs 20.0 mm",
            "swipe-4: 3 fingers, needs 4",
        ])
    }

    @Test func decisionsPrintOldToNew() {
        let hand = Hand(.touchpad, [Spec.swipe(3, name: "swipe"), Spec.tap(3)])
        hand.down(3)
        hand.wait(0.12)
        hand.move(by: Point(x: 30, y: 0), over: 0.2)
        hand.lift()
        let lines = hand.engine.decisions().map(\.description)
        #expect(lines.count == 2)
        #expect(lines[0].hasSuffix("tap-3: possible → fail → failed (moved 3.0 mm, allows 3.0 mm)")
                || lines[0].contains("tap-3: possible → fail → failed (moved"))
        #expect(lines[1].hasSuffix("swipe: possible → recognize → recognized"))
        // Only new ones since a count.
        let count = hand.engine.decisionCount
        hand.down(3); hand.wait(0.05); hand.lift()
        let new = hand.engine.decisions(since: count).map(\.description)
        #expect(new.count == 2)
        #expect(new.contains { $0.hasSuffix("tap-3: possible → recognize → recognized") })
        #expect(new.contains { $0.hasSuffix("swipe: possible → fail → failed (moved 0.0 mm, needs 20.0 mm)") })
    }

    @Test func theLogKeepsTheLatest() {
        let hand = Hand(.touchpad, [Spec.tap(1)])
        for _ in 0..<200 { hand.down(1); hand.wait(0.05); hand.lift(); hand.wait(0.5) }
        #expect(hand.engine.decisionCount == 200)
        #expect(hand.engine.decisions().count == 128)
        #expect(hand.engine.decisions(since: 190).count == 10)
    }

    @Test func watchSeesStatesAndTouches() {
        var single = Spec.tap(2, name: "single")
        single.requiresFailureOf = ["double"]
        let hand = Hand(.touchscreen, [single, Spec.tap(2, taps: 2, name: "double"), Spec.pinch(2)])
        hand.down(2, spacing: 30)
        hand.wait(0.12)
        let t = hand.engine.touches
        #expect(t.fingers == 2 && t.isSettled && t.motion == .undecided)
        #expect((t.location - hand.centre).length < 1e-9)
        hand.lift()
        #expect(hand.engine.recognizerStates.map(\.description) == [
            "single [tap]: waiting", "double [tap]: possible", "pinch-2 [pinch]: possible",
        ])
        hand.engine.setEnabled(false, name: "pinch-2")
        #expect(hand.engine.recognizerStates[2].description == "pinch-2 [pinch]: possible (disabled)")
    }

    @Test func failuresAsValues() {
        let hand = Hand(.touchpad, [Spec.tap(3)])
        hand.down(4); hand.lift()
        #expect(hand.engine.failures.map(\.reason) == [.fingers(have: 4, need: 3...3)])
        #expect(hand.engine.failures.map(\.description) == ["tap-3: 4 fingers, needs 3"])
    }
}
