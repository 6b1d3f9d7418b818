import Testing
@testable import GestureConfig

/// What `gestured check` prints, snapshotted line by line as the user sees it.
@Suite struct DiagnosticsTests {
    @Test func brokenConfigReportsEveryProblemWithLineColumnAndSuggestion() {
        let broken = """
            settings:
              command-timout: 5s
              max-children: 100
            gestures:
              - name: next
                gesture: swpie
                fingers: 3
                direction: lfet
                command: swaymsg workspace next
              - name: prev
                gesture: swipe
                fingers: 2-4
                direction: [right, up-rigth]
                min-distance: 20
                max-angle: 30 degs
                command: swaymsg workspace prev
              - name: zoom
                gesture: pinch
                fingers: 2
                every: 10mm
                begin: echo zoom
              - name: tap3
                gesture: tap
                fingers: 3
                update: echo nope
                requires-failure-of: doubel-tap3
                simultaneous-with: zom
              - name: next
                gesture: hold
                fingers: 4
                min-duration: 500
                command: a
                command: b
              - gesture: pan
                fingerz: 3
                axis: diagonal
                every: 5mm
                update: x
              - name: vol
                gesture: pan
                fingers: 3
                every: 5mm
                update: x
                region: {left: 0.5, right: 0.2}
                device: touchpda
            """
        let (config, diagnostics) = ConfigLoader.parse(broken, file: "broken.yaml")
        #expect(config == nil)
        #expect(diagnostics.map(\.description) == [
            "broken.yaml:2:3: error: unknown key 'command-timout' in settings; did you mean 'command-timeout'?",
            "broken.yaml:3:17: error: 'max-children' must be from 1 to 64, found 100",
            "broken.yaml:6:14: error: unknown gesture kind 'swpie', expected one of: tap, hold, pan, swipe, pinch, rotate, edgepan, transform, scrub, circle, tip-tap, tip-swipe, shape; did you mean 'swipe'?",
            "broken.yaml:8:16: error: unknown direction 'lfet', expected one of: up, down, left, right, up-left, up-right, down-left, down-right; did you mean 'left'?",
            "broken.yaml:12:14: error: a swipe takes one finger count, found the range '2-4'; ranges are for pan and transform",
            "broken.yaml:13:24: error: unknown direction 'up-rigth', expected one of: up, down, left, right, up-left, up-right, down-left, down-right; did you mean 'up-right'?",
            "broken.yaml:14:19: error: 'min-distance': '20' needs a unit; expected a distance like 20mm",
            "broken.yaml:15:16: error: 'max-angle': unknown unit 'degs' for an angle; expected deg or °, like 15deg; did you mean 'deg'?",
            "broken.yaml:20:5: error: 'every:' steps the 'update:' command, and this gesture has none",
            "broken.yaml:20:5: error: a distance step does not fit a pinch gesture; expected a scale like 1.25x",
            "broken.yaml:25:5: error: 'update' does not apply to a tap gesture; it applies to: hold, pan, pinch, rotate, edgepan, transform, circle; a tap is discrete: use 'command:'",
            "broken.yaml:26:26: error: 'requires-failure-of' names no gesture: 'doubel-tap3'",
            "broken.yaml:27:24: error: 'simultaneous-with' names no gesture: 'zom'; did you mean 'zoom'?",
            "broken.yaml:28:5: error: duplicate gesture name 'next' (first used at line 5); names must be unique",
            "broken.yaml:31:19: error: 'min-duration': '500' needs a unit; expected a duration like 300ms or 0.5s",
            "broken.yaml:33:5: error: duplicate key 'command' in a gesture (first set at line 32)",
            "broken.yaml:34:5: error: this gesture has no 'name:'; every gesture needs a unique name",
            "broken.yaml:35:5: error: unknown key 'fingerz' in a gesture; did you mean 'fingers'?",
            "broken.yaml:36:11: error: unknown axis 'diagonal', expected one of: horizontal, vertical",
            "broken.yaml:42:5: error: a distance step needs an axis to measure along; add 'axis: vertical' or 'axis: horizontal', or a direction on one axis",
            "broken.yaml:44:13: error: the region is empty: 'left' must be less than 'right' and 'top' less than 'bottom'",
            "broken.yaml:45:13: error: unknown device kind 'touchpda', expected one of: touchpad, touchscreen, any; did you mean 'touchpad'?",
        ])
    }

    @Test(arguments: [
        ("gestures: [", "config.yaml:2:1: error: YAML syntax: did not find expected node content (while parsing a flow node at line 2)"),
        ("gestures:\n  - name: a\n   gesture: tap\n", "config.yaml:3:4: error: YAML syntax: did not find expected '-' indicator (while parsing a block collection at line 2)"),
        ("- a\n- b\n", "config.yaml:1:1: error: expected a mapping of keys for the top level, found a list"),
        ("gestures: {name: a}\n", "config.yaml:1:11: error: 'gestures' must be a list of gestures (each starting with '- name:'), found a mapping"),
        ("gestures:\n  - swipe\n", "config.yaml:2:5: error: expected a mapping of keys for a gesture, found 'swipe'"),
        ("gesture:\n  - name: a\n", "config.yaml:1:1: error: unknown key 'gesture' in the top level; did you mean 'gestures'?"),
        ("gestures: []\n---\ngestures: []\n", "config.yaml:2:1: error: a second YAML document ('---'); a config file holds one document"),
        ("gestures: *nothing\n", "config.yaml:1:11: error: unknown alias '*nothing'; an alias must follow its '&nothing' anchor"),
        ("settings: {max-children: many}\n", "config.yaml:1:26: error: 'max-children' takes a whole number from 1 to 64, found 'many'"),
        ("settings: {command-timeout: 0s}\n", "config.yaml:1:29: error: 'command-timeout' must be more than zero, found '0s'"),
        ("settings: {command-timeout: 5mm}\n", "config.yaml:1:29: error: 'command-timeout': '5mm' is a distance, not a duration; expected a duration like 300ms or 0.5s"),
        ("gestures:\n  - {name: a, gesture: tap, enabled: yes, command: x}\n", "config.yaml:2:38: error: 'enabled' takes true or false, found 'yes'"),
        ("gestures:\n  - {name: a b, gesture: tap, command: x}\n", "config.yaml:2:12: error: 'a b' is not a usable name; expected letters, digits, '-', '_' or '.'"),
        ("gestures:\n  - {name: a, gesture: tap, fingers: 7, command: x}\n", "config.yaml:2:38: error: 'fingers' must be from 1 to 5, found '7'"),
        ("gestures:\n  - {name: a, gesture: pan, fingers: 4-2, update: x}\n", "config.yaml:2:38: error: 'fingers' must be from 1 to 5, the smaller first, found '4-2'"),
        ("gestures:\n  - {name: a, gesture: pinch, fingers: 1, begin: x}\n", "config.yaml:2:40: error: a pinch needs at least 2 fingers, found '1'"),
        ("gestures:\n  - {name: a, gesture: swipe, max-angle: 120deg, command: x}\n", "config.yaml:2:42: error: 'max-angle' must be at most 90deg, found '120deg'"),
        ("gestures:\n  - {name: a, gesture: pinch, min-scale: 0.9x, begin: x}\n", "config.yaml:2:42: error: 'min-scale' must be more than 1x (1x is no change), like 1.25x, found '0.9x'"),
        ("gestures:\n  - {name: a, gesture: pinch, every: 0.8x, update: x}\n", "config.yaml:2:38: error: 'every' must be more than 1x (1x is no change), like 1.25x, found '0.8x'"),
        ("gestures:\n  - {name: a, gesture: rotate, every: 2x, update: x}\n", "config.yaml:2:32: error: a scale step does not fit a rotate gesture; expected an angle like 15deg"),
        ("gestures:\n  - {name: a, gesture: circle, direction: left, begin: x}\n", "config.yaml:2:43: error: unknown direction 'left', expected one of: in, out, clockwise, counterclockwise"),
        ("gestures:\n  - {name: a, gesture: circle, min-arc: 2000deg, begin: x}\n", "config.yaml:2:41: error: 'min-arc' must be at most 1080deg, found '2000deg'"),
        ("gestures:\n  - {name: a, gesture: swipe, min-arc: 90deg, command: x}\n", "config.yaml:2:31: error: 'min-arc' does not apply to a swipe gesture; it applies to: circle"),
        ("gestures:\n  - {name: a, gesture: circle, every: 10mm, update: x}\n", "config.yaml:2:32: error: a distance step does not fit a circle gesture; expected an angle like 15deg"),
        ("gestures:\n  - {name: a, gesture: shape, shape: [z, zz], command: x}\n", "config.yaml:2:42: error: unknown shape 'zz': the built-in shapes are z, n, s, l, check, caret, triangle, w, and there is no shapes/zz.shape (record it with 'gestured record-shape zz'); did you mean 'z'?"),
        ("gestures:\n  - {name: a, gesture: shape, min-score: 1.5, command: x}\n", "config.yaml:2:42: error: 'min-score' takes a fraction from 0 to 1 (or 0% to 100%), found '1.5'"),
        ("gestures:\n  - {name: a, gesture: swipe, shape: z, command: x}\n", "config.yaml:2:31: error: 'shape' does not apply to a swipe gesture; it applies to: shape"),
        ("settings: {command-timeout: 1e30s}\n", "config.yaml:1:29: error: 'command-timeout' must be at most 86400s, found '1e30s'"),
        ("gestures:\n  - {name: a, gesture: pan, axis: vertical, every: 20m, update: x}\n", "config.yaml:2:52: error: 'every' takes a step like 10mm, 15deg or 1.25x, found '20m'"),
        ("gestures:\n  - {name: a, gesture: pan, axis: vertical, every: 1e9mm, update: x}\n", "config.yaml:2:52: error: 'every' must be at most 10000mm, found '1e9mm'"),
        ("gestures:\n  - {name: a, gesture: edgepan, device: any, begin: x}\n", "config.yaml:2:33: error: an edge pan starts at a screen edge: it needs 'device: touchscreen'"),
        ("gestures:\n  - {name: a, gesture: pan, every: lots, update: x}\n", "config.yaml:2:36: error: 'every' takes a step like 10mm, 15deg or 1.25x, found 'lots'"),
        ("gestures:\n  - {name: a, gesture: pan, axis: vertical, direction: left, update: x}\n", "config.yaml:2:45: error: a direction is off the pan's vertical axis; it could never be seen"),
        ("gestures:\n  - {name: a, gesture: edgepan, device: touchpad, begin: x}\n", "config.yaml:2:33: error: an edge pan starts at a screen edge: it needs 'device: touchscreen'"),
        ("gestures:\n  - {name: a, gesture: tap, device: touchpad, region: {left: 0.5}, command: x}\n", "config.yaml:2:47: error: 'region:' is a part of a touchscreen; it does not apply with 'device: touchpad'"),
        ("gestures:\n  - {name: a, gesture: tap, region: {left: 150%}, command: x}\n", "config.yaml:2:44: error: 'left' takes a fraction from 0 to 1 (or 0% to 100%), found '150%'"),
        ("gestures:\n  - {name: a, gesture: tap, region: {centre: 1}, command: x}\n", "config.yaml:2:38: error: unknown key 'centre' in a region; expected one of: left, top, right, bottom"),
        ("gestures:\n  - {name: a, gesture: tap, within: 1s, command: x}\n", "config.yaml:2:29: error: 'within:' needs 'after:' (the gesture this one must follow)"),
        ("gestures:\n  - {name: a, gesture: tap, after: a, command: x}\n", "config.yaml:2:36: error: 'after' names the gesture itself ('a')"),
        ("gestures:\n  - {name: a, gesture: hold, command: x, begin: y}\n", "config.yaml:2:49: error: 'command:' and 'begin:' both run when a hold begins; keep one"),
        ("gestures:\n  - {name: a, gesture: tap, command: ''}\n", "config.yaml:2:38: error: a command is empty"),
        ("gestures:\n  - {name: a, gesture: tap, command: [x]}\n", "config.yaml:2:38: error: expected a command, or a built-in action like {keys: super+Page_Down}, found a list"),
        ("gestures:\n  - {name: a, command: x}\n", "config.yaml:2:5: error: this gesture has no 'gesture:' key (the recognizer: tap, hold, pan, swipe, pinch, rotate, edgepan, transform, scrub, circle, tip-tap, tip-swipe, shape)"),
        ("gestures:\n  - {name: a, gesture: swipe, wibble: 1, command: x}\n", "config.yaml:2:31: error: unknown key 'wibble' in a gesture; expected one of: name, gesture, fingers, direction, axis, edge, taps, side, device, device-name, region, min-distance, min-velocity, max-angle, max-movement, max-duration, max-interval, min-duration, edge-zone, min-scale, min-rotation, min-arc, shape, min-score, simultaneous-with, requires-failure-of, after, within, enabled, apps, except-apps, command, begin, update, end, cancel, every, hold, desktop, distance, reverse, shortcut"),
        ("gestures:\n  - {name: a, gesture: swipe, min-distance: 3 furlongs, command: x}\n", "config.yaml:2:45: error: 'min-distance': unknown unit 'furlongs' for a distance; expected mm or cm, like 20mm"),
        ("gestures:\n  - {name: a, gesture: swipe, min-distance: far, command: x}\n", "config.yaml:2:45: error: 'min-distance': 'far' is not a distance; expected a number with a unit, like 20mm"),
    ])
    func eachErrorMessage(_ yaml: String, _ expected: String) {
        let lines = check(yaml)
        #expect(lines.first { $0.contains(": error: ") } == expected, "all: \(lines)")
    }

    @Test func requiresFailureCyclesAreErrors() {
        let lines = check("""
            gestures:
              - {name: a, gesture: tap, requires-failure-of: b, command: x}
              - {name: b, gesture: tap, taps: 2, requires-failure-of: c, command: x}
              - {name: c, gesture: hold, requires-failure-of: [a], command: x}
            """)
        #expect(lines == ["config.yaml:4:30: error: 'requires-failure-of' forms a cycle: a → b → c → a; each would wait for the other forever"])
    }

    @Test func longRequiresFailureChainIsNoProblem() {
        var yaml = "gestures:\n"
        for i in 0..<999 { yaml += "  - {name: g\(i), gesture: tap, device-name: d\(i), requires-failure-of: g\(i + 1), command: x}\n" }
        yaml += "  - {name: g999, gesture: tap, requires-failure-of: g0, command: x}\n"
        let lines = check(yaml)
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("config.yaml:1001:") == true)
        #expect(lines.first?.hasSuffix("forms a cycle: g0 → g1 → g2 → … 994 more → g997 → g998 → g999 → g0; each would wait for the other forever") == true, "\(lines)")
    }

    @Test func warningsForSuspiciousButValidSettings() {
        let (config, diagnostics) = ConfigLoader.parse("""
            gestures:
              - {name: a, gesture: swipe, fingers: 3, command: x}
              - {name: b, gesture: swipe, fingers: 3, direction: left, command: y}
              - {name: c, gesture: pan, fingers: 2, device: touchpad, update: z}
              - {name: d, gesture: tap, max-interval: 200ms, max-duration: 20ms, command: t}
              - {name: e, gesture: swipe, fingers: 4, min-distance: 30cm, command: s}
              - {name: f, gesture: hold, min-duration: 30s, command: h}
              - {name: g, gesture: pan, axis: vertical, every: 0.5mm, update: u}
              - {name: h, gesture: tap, taps: 2}
              - {name: i, gesture: tap, taps: 3, requires-failure-of: j, command: x}
              - {name: j, gesture: tap, taps: 4}
            """, file: "config.yaml")
        #expect(config != nil)
        #expect(diagnostics.map(\.description) == [
            "config.yaml:3:5: warning: gesture 'b' can never fire: 'a' (line 2) is the same swipe and comes first; add 'simultaneous-with' or change one of them",
            "config.yaml:4:29: warning: 2-finger motion on a touchpad also moves the pointer or scrolls; 3 or more fingers avoid the clash",
            "config.yaml:5:29: warning: 'max-interval' has no effect with 'taps: 1'; set 'taps:' to 2 or more",
            "config.yaml:5:50: warning: max-duration 20ms is shorter than a human tap (about 100ms)",
            "config.yaml:6:43: warning: min-distance 300mm is larger than most touchpads (about 100-160mm wide); this gesture may never fire there",
            "config.yaml:7:30: warning: min-duration 30s is a very long hold; did you mean milliseconds ('ms')?",
            "config.yaml:8:45: warning: a step of 0.5mm is below touch sensor noise; each tremor would run 'update'",
            "config.yaml:9:5: warning: gesture 'h' runs no command; add 'command:' (or 'begin:'/'update:'/'end:')",
        ])
    }

    @Test func emptyFilesWarnButLoad() {
        for text in ["", "\n\n", "# only a comment\n", "   "] {
            let (config, diagnostics) = ConfigLoader.parse(text, file: "config.yaml")
            #expect(config?.specs == [])
            #expect(diagnostics.map(\.description) == ["config.yaml:1:1: warning: the file is empty; no gestures are configured"])
        }
    }

    @Test func didYouMeanPicksTheClosePlausibleWord() {
        #expect(DidYouMean.suggestion(for: "fingrs", among: ["fingers", "taps"]) == "fingers")
        #expect(DidYouMean.suggestion(for: "dierction", among: ["direction", "device"]) == "direction")  // transposition
        #expect(DidYouMean.suggestion(for: "SWIPE", among: ["swipe"]) == "swipe")
        #expect(DidYouMean.suggestion(for: "xyz", among: ["swipe", "tap"]) == nil)
        #expect(DidYouMean.suggestion(for: "", among: ["tap"]) == nil)
        #expect(DidYouMean.distance(Array("kitten".unicodeScalars), Array("sitting".unicodeScalars)) == 3)
    }
}
