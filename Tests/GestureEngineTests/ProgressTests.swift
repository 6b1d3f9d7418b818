import GestureEngine
import TouchModel
import Testing

/// `GestureEngine.forEachProgress`: how far each gesture still possible is toward its
/// own threshold, what the event stream's `progress` lines carry.
@Suite struct ProgressTests {
    static func progress(_ hand: Hand, _ name: String) -> Double? {
        var found: Double?
        hand.engine.forEachProgress { i, p in if hand.engine.specs[i].name == name { found = p } }
        return found
    }

    /// Half way to each default threshold reads about 0.5; past it the gesture began and
    /// reports no progress; after the lift it starts over at 0.
    @Test func halfWayToEachThreshold() throws {
        let pan = Hand(.touchpad, [Spec.pan(2...2, name: "pan")])
        pan.down(2)
        pan.wait(0.15)
        pan.move(by: Point(x: 1.5, y: 0), over: 0.1)  // of 3 mm
        #expect(abs(try #require(Self.progress(pan, "pan")) - 0.5) < 0.05)
        pan.move(by: Point(x: 5, y: 0), over: 0.1)
        #expect(Self.progress(pan, "pan") == nil, "began: its gesture lines carry it now")
        pan.lift()
        #expect(Self.progress(pan, "pan") == 0)

        let swipe = Hand(.touchpad, [Spec.swipe(3, name: "swipe")])
        swipe.down(3)
        swipe.wait(0.15)
        swipe.move(by: Point(x: -5, y: 0), over: 0.05)  // of 15 mm: nothing else bound needs 20 (sooner)
        #expect(abs(try #require(Self.progress(swipe, "swipe")) - 1.0 / 3) < 0.05)

        let rotate = Hand(.touchscreen, [Spec.rotate(2, name: "rotate")])
        rotate.down(2, spacing: 30)
        rotate.wait(0.15)
        rotate.rotate(by: 8, over: 0.2)  // of 10°
        #expect(abs(try #require(Self.progress(rotate, "rotate")) - 0.8) < 0.05, "\(Self.progress(rotate, "rotate") ?? -1)")

        let pinch = Hand(.touchscreen, [Spec.pinch(2, name: "pinch")])
        // 60 mm apart: 8 % is 4.8 mm, enough for the motion to be told a pinch (until
        // then the pinch waits at its gate and its progress stays 0).
        pinch.down(2, spacing: 60)
        pinch.wait(0.15)
        pinch.pinch(to: 1.08, over: 0.2)  // of 1.1
        #expect(abs(try #require(Self.progress(pinch, "pinch")) - 0.8) < 0.05, "\(Self.progress(pinch, "pinch") ?? -1)")
    }
}
