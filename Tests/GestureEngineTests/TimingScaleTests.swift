import GestureEngine
import Testing
import TouchModel

/// `settings: accessibility: timing-scale:` (issue 36): every time threshold a gesture
/// does not set itself is scaled, speed floors divided, and what `--explain`, `watch`
/// and the live view say marks the scaled ones.
@Suite struct TimingScaleTests {
    static func profile(_ scale: Double) -> AccessibilityProfile {
        var p = AccessibilityProfile()
        p.timingScale = scale
        return p
    }

    @Test func aSlowTapIsATapAtTwoAndAHalf() {
        for (scale, recognized) in [(1.0, false), (2.5, true)] {
            let hand = Hand(.touchpad, [Spec.tap(1)], profile: Self.profile(scale))
            hand.down(1)
            hand.wait(0.6)
            hand.lift()
            #expect(hand.recognized == (recognized ? ["tap-1"] : []), "scale \(scale)")
        }
    }

    @Test func aSlowDoubleTapIsADoubleTapAtTwoAndAHalf() {
        for (scale, recognized) in [(1.0, false), (2.5, true)] {
            let hand = Hand(.touchpad, [Spec.tap(1, taps: 2)], profile: Self.profile(scale))
            hand.down(1); hand.wait(0.2); hand.lift()
            hand.wait(0.7)
            hand.down(1); hand.wait(0.2); hand.lift()
            hand.wait(2)
            #expect(hand.recognized == (recognized ? ["tap-1x2"] : []), "scale \(scale)")
        }
    }

    /// UIKit's 0.5 s press becomes 1.25 s.
    @Test func aHoldWaitsTheScaledPress() {
        let hand = Hand(.touchpad, [Spec.hold(1)], profile: Self.profile(2.5))
        hand.down(1)
        hand.wait(1.2)
        #expect(hand.phases("hold-1").isEmpty)
        hand.wait(0.1)
        #expect(hand.phases("hold-1") == [.began])
    }

    /// The finger count's settle window (100 ms) is a deadline of its own: 250 ms.
    @Test func theSettleWindowIsScaled() {
        for (scale, ms) in [(1.0, 100.0), (2.5, 250.0)] {
            let hand = Hand(.touchpad, [Spec.tap(1), Spec.tap(2)], profile: Self.profile(scale))
            hand.down(1)
            let due = hand.engine.nextDeadline.map { $0.seconds(since: hand.now) * 1000 }
            #expect(due.map { abs($0 - ms) < 0.01 } == true, "scale \(scale): \(String(describing: due))")
        }
    }

    /// A threshold the gesture sets itself is the user's: taken as written.
    @Test func aGesturesOwnThresholdIsTakenAsWritten() {
        var own = Spec.tap(1)
        own.thresholds.maxTapDuration = 0.4
        let hand = Hand(.touchpad, [own], profile: Self.profile(2.5))
        hand.down(1)
        hand.wait(0.6)
        hand.lift()
        #expect(hand.recognized.isEmpty)
        #expect(hand.explanations == ["tap-1: still down after 0.40 s, too long for a tap"])
    }

    /// What `--explain`, `watch` and the live view say: the scaled figure, marked.
    @Test func explanationsShowTheScaledThresholdsMarked() {
        let hold = Hand(.touchpad, [Spec.hold(1)], profile: Self.profile(2.5))
        hold.down(1)
        hold.wait(0.3)
        hold.lift()
        #expect(hold.explanations == ["hold-1: lifted after 0.30 s, needs 1.25 s (scaled 2.5× by timing-scale)"])
        let tap = Hand(.touchpad, [Spec.tap(1)], profile: Self.profile(2.5))
        tap.down(1)
        tap.wait(1.0)
        tap.lift()
        #expect(tap.explanations == ["tap-1: still down after 0.75 s, too long for a tap (scaled 2.5× by timing-scale)"])
        let slow = Hand(.touchpad, [Spec.swipe(3)], profile: Self.profile(2.5))
        slow.down(3)
        slow.wait(0.3)
        slow.move(by: Point(x: 25, y: 0), over: 2.5)
        slow.lift()
        #expect(slow.explanations == ["swipe-3: moved at 10.0 mm/s, needs 20.0 mm/s (divided by timing-scale 2.5)"])
        // Without the profile, nothing is marked.
        let plain = Hand(.touchpad, [Spec.hold(1)])
        plain.down(1); plain.wait(0.3); plain.lift()
        #expect(plain.explanations == ["hold-1: lifted after 0.30 s, needs 0.50 s"])
    }
}
