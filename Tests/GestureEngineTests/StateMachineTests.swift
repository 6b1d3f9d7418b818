import GestureEngine
import GestureTestSupport
import TouchModel
import Testing

/// UIKit's machine, and a randomized check that no touch timeline can drive a
/// recognizer out of it.
@Suite struct StateMachineTests {
    /// Every legal edge, written out by hand from UIKit's documentation.
    static let legal: Set<String> = [
        "possible-begin-began", "possible-recognize-recognized", "possible-fail-failed", "possible-wait-waiting",
        "waiting-begin-began", "waiting-recognize-recognized", "waiting-fail-failed", "waiting-wait-waiting",
        "began-change-changed", "changed-change-changed", "began-end-ended", "changed-end-ended",
        "began-cancel-cancelled", "changed-cancel-cancelled",
        "ended-reset-possible", "cancelled-reset-possible", "recognized-reset-possible", "failed-reset-possible",
        "possible-reset-possible", "waiting-reset-possible",
    ]

    @Test(arguments: RecognizerState.allCases)
    func transitionTableIsUIKits(state: RecognizerState) {
        for t in Transition.allCases {
            let key = state.after(t).map { "\(state)-\(t)-\($0)" }
            if let key { #expect(Self.legal.contains(key), "\(key) is not a UIKit edge") }
            else { #expect(!Self.legal.contains { $0.hasPrefix("\(state)-\(t)-") }, "\(state) --\(t)--> missing") }
        }
    }

    @Test func terminalStatesOnlyReset() {
        for s in RecognizerState.allCases where s.isTerminal {
            #expect(Transition.allCases.filter { s.after($0) != nil } == [.reset])
        }
    }

    // MARK: Randomized timelines

    /// Every kind, tangled up in every arbitration rule.
    static var specs: [GestureSpec] {
        var single = Spec.tap(1, name: "single"); single.requiresFailureOf = ["double"]
        var pinch = Spec.pinch(2, name: "pinch"); pinch.simultaneousWith = ["rotate"]
        var swipeAfterHold = Spec.swipe(3, name: "swipe-after-hold"); swipeAfterHold.after = "hold-3"
        var pan2 = Spec.pan(2...2, name: "pan-2"); pan2.requiresFailureOf = ["swipe-2"]
        var edgeLeft = Spec.edgePan(1, [.left], name: "edge-left"); edgeLeft.devices = DeviceFilter(kind: .touchscreen)
        var region = Spec.tap(2, name: "tap-2-right"); region.region = Region(x: 0.5...1, y: 0...1)
        // Odd but legal configs: a requirement cycle, and waiting on a gesture it may run with.
        var rotate = Spec.rotate(2, name: "rotate"); rotate.requiresFailureOf = ["pinch"]
        var scrub = Spec.scrub(); scrub.requiresFailureOf = ["pan-v"]; scrub.simultaneousWith = ["pan-v"]
        var panV = Spec.pan(1...1, axis: .vertical, name: "pan-v"); panV.requiresFailureOf = ["scrub"]
        pinch.requiresFailureOf = ["rotate"]
        return [single, Spec.tap(1, taps: 2, name: "double"), region, Spec.tap(3), Spec.hold(3, name: "hold-3"),
                Spec.hold(1, taps: 2, name: "tap-hold"), swipeAfterHold, Spec.swipe(2, name: "swipe-2"),
                Spec.swipe(4, [.left], name: "swipe-4-left"), pan2, panV,
                pinch, rotate, Spec.pinch(3), edgeLeft, Spec.transform(4...5), scrub,
                Spec.tipTap(name: "tip-tap"), Spec.tipTap(2, swipe: [], name: "tip-swipe-2")]
    }

    /// One random hand doing random things, `steps` times.
    static func randomTimeline(_ hand: Hand, seed: UInt64, steps: Int) {
        var rng = SplitMix64(seed: seed)
        let size = hand.device.size
        func point() -> Point {
            Point(x: Double.random(in: 0...size.width, using: &rng), y: Double.random(in: 0...size.height, using: &rng))
        }
        for _ in 0..<steps {
            switch Int.random(in: 0..<14, using: &rng) {
            case 0, 1:
                let n = Int.random(in: 1...max(1, 6 - hand.fingers.count), using: &rng)
                if hand.fingers.count + n <= 10 {
                    hand.down(at: (0..<n).map { _ in point() }, apart: [0, 0.005, 0.03].randomElement(using: &rng)!)
                }
            case 2, 3, 4:
                if !hand.fingers.isEmpty {
                    hand.move(by: Point(x: .random(in: -50...50, using: &rng), y: .random(in: -50...50, using: &rng)),
                              over: .random(in: 0.02...0.5, using: &rng))
                }
            case 5:
                if hand.fingers.count >= 2 { hand.pinch(to: .random(in: 0.3...2.5, using: &rng), over: .random(in: 0.05...0.4, using: &rng)) }
            case 6:
                if hand.fingers.count >= 2 { hand.rotate(by: .random(in: -120...120, using: &rng), over: .random(in: 0.05...0.4, using: &rng)) }
            case 7:
                if !hand.fingers.isEmpty { hand.moveFinger(Int.random(in: 0..<hand.fingers.count, using: &rng),
                                                           by: point() - hand.centre, over: .random(in: 0.02...0.3, using: &rng)) }
            case 8:
                if !hand.fingers.isEmpty { hand.lift(Int.random(in: 1...hand.fingers.count, using: &rng), apart: [0, 0.008].randomElement(using: &rng)!) }
            case 9:
                hand.lift(apart: [0, 0.003].randomElement(using: &rng)!)
            case 10, 11:
                hand.wait(.random(in: 0.001...0.8, using: &rng))
            case 12:
                switch Int.random(in: 0..<20, using: &rng) {
                case 0: hand.resync()
                case 1: hand.cancelAll()
                case 7: if !hand.fingers.isEmpty || hand.buttonDown { hand.buttonDown.toggle() }
                case 2...6: hand.engine.setEnabled(Bool.random(using: &rng), name: specs.randomElement(using: &rng)!.name)
                default: break
                }
            default:
                for i in 0..<hand.fingers.count where Bool.random(using: &rng) {
                    hand.moveFinger(i, by: Point(x: .random(in: -3...3, using: &rng), y: .random(in: -3...3, using: &rng)), over: 0.02)
                }
            }
        }
        for spec in specs { hand.engine.setEnabled(true, name: spec.name) }
        if hand.buttonDown { hand.buttonDown = false }
        hand.lift()
        hand.wait(3)
    }

    static let seeds: [UInt64] = Array(1...100)

    @Test(arguments: TestDevice.allCases, seeds)
    func noTimelineBreaksTheMachine(device: TestDevice, seed: UInt64) {
        Self.checkRandomTimeline(Hand(device, Self.specs), seed: seed)
    }

    /// The same with the accessibility profile's touch settings on: touches that must
    /// rest before they count (accepted at deadlines of their own), taps at their
    /// landing point.
    @Test(arguments: TestDevice.allCases, Array(seeds.prefix(40)))
    func noTimelineBreaksTheMachineWithTheProfile(device: TestDevice, seed: UInt64) {
        var profile = AccessibilityProfile()
        profile.holdToAccept = [0.05, 0.15, 0.4][Int(seed % 3)]
        profile.tapAt = .first
        Self.checkRandomTimeline(Hand(device, Self.specs, profile: profile), seed: seed)
    }

    static func checkRandomTimeline(_ hand: Hand, seed: UInt64) {
        hand.trackedSlots = seed % 7 == 0 ? 2 : nil
        Self.randomTimeline(hand, seed: seed, steps: 60)
        let engine = hand.engine

        // No recognizer proposed a transition UIKit's machine lacks.
        #expect(engine.refusedTransitions == 0, "\(engine.decisions().filter(\.refused))")
        #expect(!engine.decisions().contains { $0.refused })

        // Per gesture, the events follow the grammar.
        for spec in Self.specs {
            var open = false
            for e in hand.events(spec.name) {
                switch (spec.kind.isDiscrete, e.phase, open) {
                case (true, .recognized, false): break
                case (false, .began, false): open = true
                case (false, .changed, true): break
                case (false, .ended, true), (false, .cancelled, true): open = false
                default: Issue.record("\(spec.name): \(e.phase) with open=\(open) — seed \(seed)")
                }
                #expect(e.translation.x.isFinite && e.translation.y.isFinite && e.scale.isFinite && e.rotation.isFinite
                        && e.velocity.x.isFinite && e.scaleVelocity.isFinite && e.rotationVelocity.isFinite)
                #expect(e.fingers >= 0 && e.fingers <= 10)
            }
            #expect(!open, "\(spec.name) began and never ended — seed \(seed)")
        }

        // Competing gestures never ran at once.
        var running: Set<String> = []
        let mayOverlap: Set<Set<String>> = [["pinch", "rotate"], ["hold-3", "swipe-after-hold"], ["scrub", "pan-v"]]
        for e in hand.events {
            switch e.phase {
            case .began:
                for other in running { #expect(mayOverlap.contains([other, e.name]), "\(other) and \(e.name) overlapped — seed \(seed)") }
                running.insert(e.name)
            case .ended, .cancelled: running.remove(e.name)
            case .recognized:
                for other in running { #expect(mayOverlap.contains([other, e.name]), "\(other) running when \(e.name) — seed \(seed)") }
            case .changed: break
            }
        }

        // At rest: every recognizer possible, no wakeup pending (zero idle wakeups).
        #expect(engine.recognizerStates.allSatisfy { $0.state == .possible }, "\(engine.recognizerStates) — seed \(seed)")
        #expect(engine.nextDeadline == nil)
        // Everything printable.
        #expect(engine.decisions().allSatisfy { !$0.description.isEmpty })
        #expect(engine.explanations.allSatisfy { $0.contains(": ") })
    }

    /// The same timeline twice gives the same events: the engine has no hidden clock.
    @Test(arguments: [UInt64(7), 21, 33])
    func deterministic(seed: UInt64) {
        let a = Hand(.touchpad, Self.specs), b = Hand(.touchpad, Self.specs)
        Self.randomTimeline(a, seed: seed, steps: 30)
        Self.randomTimeline(b, seed: seed, steps: 30)
        #expect(a.events == b.events)
    }
}
