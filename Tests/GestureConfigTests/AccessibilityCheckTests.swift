import GestureConfig
import Testing

/// What `gestured check` says about `settings: accessibility:` against the gestures:
/// a gesture's own time threshold overrides `timing-scale`, and a `hold-to-accept`
/// that leaves a gesture no time to fire.
@Suite struct AccessibilityCheckTests {
    static let gestures = """
        gestures:
          - name: slow-tap
            gesture: tap
            fingers: 2
            max-duration: 200ms
            command: echo tap
          - name: quick-swipe
            gesture: swipe
            fingers: 3
            min-velocity: 80mm/s
            command: echo swipe
          - name: double
            gesture: tap
            fingers: 1
            taps: 2
            command: echo double
          - name: then
            gesture: swipe
            fingers: 3
            direction: up
            after: quick-swipe
            within: 400ms
            command: echo then

        """

    @Test func aGesturesOwnTimeOverridesTheTimingScaleAtItsKey() {
        #expect(check("settings:\n  accessibility:\n    timing-scale: 2.5\n" + Self.gestures) == [
            "config.yaml:8:5: warning: max-duration: 200ms overrides settings.accessibility.timing-scale (2.5x would make it 500ms)",
            "config.yaml:13:5: warning: min-velocity: 80mm/s overrides settings.accessibility.timing-scale (2.5x would make it 32mm/s)",
            "config.yaml:25:5: warning: within: 400ms overrides settings.accessibility.timing-scale (2.5x would make it 1s)",
        ])
    }

    @Test func withoutTheProfileNothingIsSaid() {
        #expect(check(Self.gestures).isEmpty)
        #expect(check("settings:\n  accessibility:\n    timing-scale: 1\n    hold-to-accept: 100ms\n" + Self.gestures).isEmpty)
    }

    /// The next tap of a double tap is accepted only after it rested: longer than the
    /// interval it must start within (350 ms, or the scaled one), and it never fires.
    @Test func aRestLongerThanTheGapAGestureMustCrossIsSaid() {
        #expect(check("settings:\n  accessibility:\n    hold-to-accept: 500ms\n" + Self.gestures) == [
            "config.yaml:18:5: warning: gesture 'double' can never fire: settings.accessibility.hold-to-accept (500ms) is longer than the 350ms its next tap may start after the last (max-interval), and a tap counts only once it has rested",
            "config.yaml:25:5: warning: gesture 'then' can follow 'quick-swipe' only while that one still runs: settings.accessibility.hold-to-accept (500ms) is longer than its 400ms sequence window, and its touch counts only once it has rested",
        ])
        // With the timing scale the default interval is 875 ms: time enough.
        let scaled = check("settings:\n  accessibility:\n    timing-scale: 2.5\n    hold-to-accept: 500ms\n" + Self.gestures)
        #expect(!scaled.contains { $0.contains("'double' can never fire") })
    }
}
