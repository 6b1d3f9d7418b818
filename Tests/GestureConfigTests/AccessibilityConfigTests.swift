import GestureConfig
import GestureEngine
import Testing

/// `settings: accessibility:` (docs/ACCESSIBILITY.md): what each key reads as, and
/// the errors a user sees for a value it cannot take.
@Suite struct AccessibilityConfigTests {
    @Test func noSectionIsTheProfileThatChangesNothing() throws {
        let config = try #require(parse("gestures: []\n"))
        #expect(config.settings.accessibility == AccessibilityProfile())
        #expect(config.settings.accessibility.isOff)
    }

    @Test func everyKeyIsRead() throws {
        let config = try #require(parse("""
            settings:
              accessibility:
                timing-scale: 2.5
                tremor-filter: true
                hold-to-accept: 150ms
                ignore-repeats: 1s
                tap-at: first
            gestures: []
            """))
        let p = config.settings.accessibility
        #expect(p.timingScale == 2.5)
        #expect(p.tremorFilter == TremorFilterSettings())
        #expect(p.holdToAccept == 0.15)
        #expect(p.ignoreRepeats == 1)
        #expect(p.tapAt == .first)
        #expect(!p.isOff)
    }

    @Test func theTremorFilterTakesItsParameters() throws {
        let config = try #require(parse("""
            settings:
              accessibility:
                tremor-filter: {min-cutoff: 0.5, beta: 0.02, d-cutoff: 2}
            gestures: []
            """))
        #expect(config.settings.accessibility.tremorFilter == TremorFilterSettings(minCutoff: 0.5, beta: 0.02, derivativeCutoff: 2))
        #expect(parse("settings:\n  accessibility:\n    tremor-filter: false\ngestures: []\n")?.settings.accessibility.tremorFilter == nil)
    }

    @Test func badValuesAreErrorsAtTheirPlace() {
        #expect(check("settings:\n  accessibility:\n    timing-scale: 0.5\ngestures: []\n")
                == ["config.yaml:3:19: error: 'timing-scale' must be from 1 to 5, found '0.5'"])
        #expect(check("settings:\n  accessibility:\n    timing-scale: slow\ngestures: []\n")
                == ["config.yaml:3:19: error: 'timing-scale' takes a number like 2.5, found 'slow'"])
        #expect(check("settings:\n  accessibility:\n    hold-to-accept: 9s\ngestures: []\n")
                == ["config.yaml:3:21: error: 'hold-to-accept' must be from 0ms to 5s, found '9s'"])
        #expect(check("settings:\n  accessibility:\n    tap-at: middle\ngestures: []\n").first?.hasPrefix("config.yaml:3:13: error:") == true)
        #expect(check("settings:\n  accessibility:\n    tremor-filter: {beta: -1}\ngestures: []\n").first?.hasPrefix("config.yaml:3:27: error: 'beta' must be from 0 to 10") == true)
        #expect(check("settings:\n  accessibility:\n    timing-scal: 2\ngestures: []\n").first?.contains("timing-scale") == true)
    }

    /// A sequence's window is scaled as the engine's defaults are, unless the gesture
    /// sets its own `within:`.
    @Test func theTimingScaleStretchesTheSequenceWindowAGestureDoesNotSet() throws {
        let config = try #require(parse("""
            settings:
              sequence-window: 800ms
              accessibility:
                timing-scale: 2.5
            gestures:
              - {name: first, gesture: hold, fingers: 3, command: echo}
              - {name: then, gesture: swipe, fingers: 3, direction: up, after: first, command: echo}
              - {name: own, gesture: swipe, fingers: 3, direction: down, after: first, within: 1s, command: echo}
            """))
        #expect(config.specs[1].sequenceWindow == 2)
        #expect(config.specs[2].sequenceWindow == 1)
    }
}
