import GestureTestSupport
import Testing

/// `replay --explain` with `settings: accessibility: timing-scale:` (issue 36): the
/// thresholds it prints are the scaled ones, marked as the profile's (`run --explain`,
/// `watch` and the live view print the same reasons).
@Suite struct TimingScaleReplayTests {
    @Test func explainShowsTheScaledThresholdMarked() throws {
        let dir = TempDir()
        let config = dir.write("config.yaml", """
        settings:
          accessibility:
            timing-scale: 2.5
        gestures:
          - {name: hold-2, gesture: hold, fingers: 2, command: "true"}
        """)
        let recording = CommandLineTests.recordings + "/touchscreens_Atmel_maXTouch_Touchscreen.2-fingers-touch-release.events"
        let r = try Gestured.run(["replay", recording, "--config", config, "--explain"])
        #expect(r.status == 0, "\(r.stderr)")
        // The 824 ms press is a hold without the profile; with it, one needs 1.25 s.
        #expect(r.stdout.contains("hold-2 failed: lifted after"), "\(r.stdout)")
        #expect(r.stdout.contains("needs 1.25 s (scaled 2.5× by timing-scale)"), "\(r.stdout)")
        let plain = dir.write("plain.yaml", "gestures:\n  - {name: hold-2, gesture: hold, fingers: 2, command: \"true\"}\n")
        let without = try Gestured.run(["replay", recording, "--config", plain, "--explain"])
        #expect(without.stdout.contains("hold-2  hold began"), "\(without.stdout)")
        #expect(!without.stdout.contains("timing-scale"))
    }
}
