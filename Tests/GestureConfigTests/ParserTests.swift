import Glibc
import Testing
@testable import GestureConfig
import GestureEngine
import TouchModel

@Suite struct ParserTests {
    /// Every key of the schema, set to a non-default value, lands in the spec or binding.
    @Test func everyKeyIsRead() throws {
        let yaml = """
            settings:
              command-timeout: 2.5s
              max-children: 3
              queue-length: 5
              sequence-window: 800ms
              key-delay: 20ms
              follow-fingers: 4
              accessibility:
                timing-scale: 2
                tremor-filter: {min-cutoff: 0.8, beta: 0.01, d-cutoff: 1.5}
                hold-to-accept: 100ms
                ignore-repeats: 500ms
                tap-at: first
            gestures:
              - name: hold-4
                gesture: hold
                fingers: 4
                taps: 1
                max-movement: 4mm
                min-duration: 700ms
                device: touchpad
                device-name: "*Synaptics*"
                begin: echo hold
                end: echo released
                cancel: echo cancelled
              - name: swipe-after-hold
                gesture: swipe
                fingers: 4
                direction: [up, up-left]
                min-distance: 2cm
                min-velocity: 80mm/s
                max-angle: 25deg
                after: hold-4
                within: 1.5s
                requires-failure-of: hold-4
                enabled: false
                command: echo swiped
              - name: double-tap
                gesture: tap
                fingers: 2
                taps: 2
                max-movement: 3mm
                max-duration: 250ms
                max-interval: 0.3s
                device: touchscreen
                region: {left: 10%, top: 0.25, right: 0.9, bottom: 100%}
                command: echo tapped
              - name: zoom
                gesture: pinch
                fingers: 3
                min-scale: 1.1x
                simultaneous-with: [turn]
                every: 1.25x
                update: echo zoom
              - name: turn
                gesture: rotate
                min-rotation: 10deg
                simultaneous-with: zoom
                every: 15°
                update: echo turn
              - name: launcher
                gesture: edgepan
                edge: [left, right]
                edge-zone: 5mm
                min-distance: 15mm
                every: 10mm
                update: echo edge
              - name: scroll
                gesture: pan
                fingers: 3-4
                axis: vertical
                direction: up
                min-distance: 5mm
                every: 8mm
                hold: ctrl
                update: {scroll: down 2, reverse: up 0.5}
              - name: all
                gesture: transform
                fingers: 2-3
                min-scale: 1.2x
                min-rotation: 5deg
                command: {button: middle}
                desktop: [GNOME, KDE]
              - name: scrub
                gesture: scrub
                apps: [firefox]
                except-apps: "steam_*"
                command: {keys: [super+Page_Down, KEY_ENTER]}
              - name: knob
                gesture: circle
                fingers: 2
                direction: clockwise
                min-arc: 270deg
                every: 30deg
                update: echo knob
                shortcut: <Control><Alt>k
              - name: tip
                gesture: tip-tap
                side: [left]
                min-duration: 200ms
                command: echo tip
              - name: zed
                gesture: shape
                fingers: 3
                shape: [z, n]
                min-score: 0.7
                command: echo z
              - {name: ov, gesture: pan, fingers: 3, axis: vertical, command: {overview: follow}, distance: 60mm, reverse: true}
            grab:
              devices: [touchpad]
              device-names: "ELAN*"
              hold-back: 40ms
            """
        let (config, diagnostics) = ConfigLoader.parse(yaml, file: "every.yaml")
        // Only `check`'s notes that a gesture's own time is not scaled (AccessibilityCheckTests).
        #expect(diagnostics.map(\.description) == [
            "every.yaml:20:5: warning: min-duration: 700ms overrides settings.accessibility.timing-scale (2x would make it 1.4s)",
            "every.yaml:31:5: warning: min-velocity: 80mm/s overrides settings.accessibility.timing-scale (2x would make it 40mm/s)",
            "every.yaml:34:5: warning: within: 1.5s overrides settings.accessibility.timing-scale (2x would make it 3s)",
            "every.yaml:43:5: warning: max-duration: 250ms overrides settings.accessibility.timing-scale (2x would make it 500ms)",
            "every.yaml:44:5: warning: max-interval: 300ms overrides settings.accessibility.timing-scale (2x would make it 600ms)",
            "every.yaml:100:5: warning: min-duration: 200ms overrides settings.accessibility.timing-scale (2x would make it 400ms)",
        ])
        let c = try #require(config)
        var expectedSettings = Settings()
        expectedSettings.commandTimeout = 2.5
        expectedSettings.maxChildren = 3
        expectedSettings.queueLength = 5
        expectedSettings.sequenceWindow = 0.8
        expectedSettings.keyDelay = 0.02
        expectedSettings.followFingers = 4
        expectedSettings.accessibility.timingScale = 2
        expectedSettings.accessibility.tremorFilter = TremorFilterSettings(minCutoff: 0.8, beta: 0.01, derivativeCutoff: 1.5)
        expectedSettings.accessibility.holdToAccept = 0.1
        expectedSettings.accessibility.ignoreRepeats = 0.5
        expectedSettings.accessibility.tapAt = .first
        #expect(c.settings == expectedSettings)
        #expect(c.grab == GrabSelection(kinds: [.touchpad], nameGlobs: ["ELAN*"], holdBack: 0.04))

        #expect(c.specs[0] == GestureSpec(
            name: "hold-4", kind: .hold, fingers: 4...4, taps: 1,
            thresholds: Thresholds(maxMovementMM: 4, minDuration: 0.7),
            devices: DeviceFilter(kind: .touchpad, nameGlob: "*Synaptics*")))
        #expect(c.bindings[0] == Binding(name: "hold-4", kind: .hold, line: 15,
                                         actions: [.began: "echo hold", .ended: "echo released", .cancelled: "echo cancelled"]))
        #expect(c.specs[1] == GestureSpec(
            name: "swipe-after-hold", kind: .swipe, fingers: 4...4, directions: [.up, .upLeft],
            thresholds: Thresholds(minDistanceMM: 20, minVelocityMMPerS: 80, maxAngleDeg: 25),
            requiresFailureOf: ["hold-4"], after: "hold-4", sequenceWindow: 1.5, enabled: false))
        #expect(c.bindings[1].actions == [.recognized: "echo swiped"])
        #expect(c.specs[2] == GestureSpec(
            name: "double-tap", kind: .tap, fingers: 2...2, taps: 2,
            thresholds: Thresholds(maxMovementMM: 3, maxTapDuration: 0.25, maxTapInterval: 0.3),
            devices: DeviceFilter(kind: .touchscreen), region: Region(x: 0.1...0.9, y: 0.25...1)))
        #expect(c.specs[3] == GestureSpec(name: "zoom", kind: .pinch, fingers: 3...3,
                                          thresholds: Thresholds(minScale: 1.1), simultaneousWith: ["turn"]))
        #expect(c.bindings[3].step == .scale(factor: 1.25))
        #expect(c.specs[4] == GestureSpec(name: "turn", kind: .rotate, fingers: 2...2,
                                          thresholds: Thresholds(minRotationDeg: 10), simultaneousWith: ["zoom"]))
        #expect(c.bindings[4].step == .angle(degrees: 15))
        #expect(c.specs[5] == GestureSpec(name: "launcher", kind: .edgePan, fingers: 1...1, edges: [.left, .right],
                                          thresholds: Thresholds(minDistanceMM: 15, edgeZoneMM: 5),
                                          devices: DeviceFilter(kind: .touchscreen)))
        #expect(c.bindings[5].step == .distance(mm: 10, axis: .horizontal))
        #expect(c.specs[6] == GestureSpec(name: "scroll", kind: .pan, fingers: 3...4, directions: [.up], axis: .vertical,
                                          thresholds: Thresholds(minDistanceMM: 5)))
        #expect(c.bindings[6].step == .distance(mm: 8, axis: .vertical))
        #expect(c.bindings[6].hold == KeyChord([Key(name: "ctrl", code: 29)]))
        #expect(c.bindings[6].actions == [.changed: .scroll(Scroll(.down, clicks: 2))])
        #expect(c.bindings[6].reverse == .scroll(Scroll(.up, clicks: 0.5)))
        #expect(c.specs[7] == GestureSpec(name: "all", kind: .transform, fingers: 2...3,
                                          thresholds: Thresholds(minScale: 1.2, minRotationDeg: 5)))
        #expect(c.bindings[7].actions == [.began: .button(.middle)])
        #expect(c.bindings[7].desktops == ["GNOME", "KDE"])
        #expect(c.bindings[8].actions == [.recognized: .keys([KeyChord([Key(name: "super", code: 125), Key(name: "Page_Down", code: 109)]),
                                                               KeyChord([Key(name: "KEY_ENTER", code: 28)])])])
        var scrub = GestureSpec(name: "scrub", kind: .scrub, fingers: 1...1)
        scrub.apps = AppFilter(only: ["firefox"], except: ["steam_*"])
        #expect(c.specs[8] == scrub)
        #expect(c.bindings[9].shortcut == Shortcut(modifiers: ["Control", "Alt"], key: "k"))
        #expect(c.specs[9] == GestureSpec(name: "knob", kind: .circle, fingers: 2...2, senses: [.clockwise],
                                          thresholds: Thresholds(minArcDeg: 270)))
        var tip = GestureSpec(name: "tip", kind: .tipTap, fingers: 1...1, thresholds: Thresholds(minDuration: 0.2))
        tip.sides = [.left]
        #expect(c.specs[10] == tip)
        var zed = GestureSpec(name: "zed", kind: .shape, fingers: 3...3)
        zed.shapes = ["z", "n"]
        zed.thresholds.minScore = 0.7
        #expect(c.specs[11] == zed)
        #expect(c.bindings[12].actions[.began] == .desktop(.follow(Follow(transition: .overview, distanceMM: 60, reversed: true))))

        // The test names every key of the schema, so a new key cannot go untested (the
        // desktop actions' keys: DesktopActionConfigTests.eachDesktopActionParses, every one).
        let desktopKeys = Set(DesktopActionKey.allCases.map(\.rawValue))
        for key in Schema.topLevel + Schema.settings + Schema.accessibility + Schema.grab + Schema.gesture + Schema.region + Schema.action
            where key.key != "name" && !desktopKeys.contains(key.key) {
            #expect(yaml.contains("\(key.key):") || yaml.contains("\(key.key): "), "key \(key.key) is not exercised")
        }
    }

    /// The engine reads these thresholds beyond their headline kind; the config lets them through.
    @Test func thresholdsTheEngineSharesAcrossKinds() throws {
        let c = try #require(parse("""
            gestures:
              - {name: a, gesture: swipe, fingers: 3, edge: top, edge-zone: 8mm, command: x}
              - {name: b, gesture: pan, axis: horizontal, max-angle: 20deg, update: x}
              - {name: c, gesture: hold, taps: 2, max-duration: 200ms, max-interval: 250ms, command: x}
              - {name: d, gesture: scrub, min-distance: 12mm, max-movement: 6mm, command: x}
              - {name: e, gesture: transform, min-distance: 4mm, begin: x}
            """))
        #expect(c.specs[0].edges == [.top])
        #expect(c.specs[0].thresholds.edgeZoneMM == 8)
        #expect(c.specs[1].thresholds.maxAngleDeg == 20)
        #expect(c.specs[2].thresholds == Thresholds(maxTapDuration: 0.2, maxTapInterval: 0.25))
        #expect(c.specs[3].thresholds == Thresholds(minDistanceMM: 12, maxMovementMM: 6))
        #expect(c.specs[4].thresholds.minDistanceMM == 4)
        #expect(check("gestures:\n  - {name: a, gesture: tap, edge-zone: 8mm, command: x}\n")
                == ["config.yaml:2:29: warning: 'edge-zone' has no effect without 'edge:'"])
    }

    @Test func settingsMayFollowGesturesAndMayBeEmpty() throws {
        let c = try #require(parse("gestures:\n  - {name: a, gesture: tap, command: x}\n  - {name: b, gesture: swipe, after: a, command: y}\nsettings:\n  sequence-window: 2s\n"))
        #expect(c.specs[1].sequenceWindow == 2)
        #expect(check("settings:\ngestures:\n  - {name: a, gesture: tap, command: x}\n") == [])
    }

    @Test func defaultsFollowTheKind() throws {
        let c = try #require(parse("""
            gestures:
              - {name: a, gesture: tap, command: x}
              - {name: b, gesture: pinch, begin: x}
              - {name: c, gesture: pan, update: x}
              - {name: d, gesture: transform, begin: x}
              - {name: e, gesture: edgepan, begin: x}
              - {name: f, gesture: hold, after: a, command: x}
            """))
        #expect(c.specs.map(\.fingers) == [1...1, 2...2, 1...5, 2...5, 1...1, 1...1])
        #expect(c.specs.map(\.devices.kind) == [nil, nil, nil, nil, .touchscreen, nil])
        #expect(c.specs[5].sequenceWindow == Settings().sequenceWindow)
        #expect(c.specs.allSatisfy { $0.enabled && $0.taps == 1 })
    }

    @Test(arguments: [
        (Quantity.distance, "20mm", 20.0), (.distance, "2cm", 20), (.distance, " 7.5 mm ", 7.5), (.distance, "1e1mm", 10),
        (.duration, "0.5s", 0.5), (.duration, "300ms", 0.3), (.duration, "2S", 2),
        (.angle, "15deg", 15), (.angle, "15°", 15), (.scale, "1.25x", 1.25), (.speed, "100mm/s", 100),
    ])
    func unitsConvertToTheSpecUnits(_ q: Quantity, _ text: String, _ value: Double) throws {
        #expect(try q.parse(text).get() == value)
    }

    @Test func unitTypos() {
        func message(_ q: Quantity, _ t: String) -> String? {
            if case .failure(let e) = q.parse(t) { return e.message }
            return nil
        }
        #expect(message(.distance, "20 mn") == "unknown unit 'mn' for a distance; expected mm or cm, like 20mm; did you mean 'mm'?")
        #expect(message(.duration, "1 sec") == "unknown unit 'sec' for a duration; expected ms or s, like 300ms or 0.5s; did you mean 's'?")
        #expect(message(.angle, "inf deg") == "'inf deg' is not an angle; expected a number with a unit, like 15deg")
        #expect(message(.scale, "1.2") == "'1.2' needs a unit; expected a scale like 1.25x")
    }

    @Test func unicodeNamesCommandsAndColumnsInCharacters() throws {
        let (config, diagnostics) = ConfigLoader.parse("""
            # Gesten für den Arbeitsbereich 👋
            gestures:
              - {name: wischen-links-ü, gesture: swipe, fingers: 3, command: notify-send "Arbeitsfläche →"}
              - {name: größer, gesture: pnch, begin: x}
            """, file: "de.yaml")
        #expect(config == nil)
        // 'pnch' is the 29th character of its line; its byte offset is 31 ('ö' and 'ß' are two bytes each).
        #expect(diagnostics.map(\.description) == [
            "de.yaml:4:29: error: unknown gesture kind 'pnch', expected one of: tap, hold, pan, swipe, pinch, rotate, edgepan, transform, scrub, circle, tip-tap, tip-swipe, shape; did you mean 'pinch'?",
        ])
        let ok = try #require(parse("gestures:\n  - {name: wischen-links-ü, gesture: swipe, fingers: 3, command: notify-send \"Arbeitsfläche →\"}\n"))
        #expect(ok.specs[0].name == "wischen-links-ü")
        #expect(ok.bindings[0].actions[.recognized] == "notify-send \"Arbeitsfläche →\"")
    }

    @Test func crlfAndBOMFilesReadLikeUnixOnes() throws {
        let unix = "gestures:\n  - name: next\n    gesture: swipe\n    fingers: 3\n    command: |\n      echo a\n      echo b\n  - name: bad\n    gesture: swpie\n"
        let dos = "\u{FEFF}" + unix.replacingNewlines()
        let a = ConfigLoader.parse(unix, file: "f.yaml").1.map(\.description)
        let b = ConfigLoader.parse(dos, file: "f.yaml").1.map(\.description)
        #expect(a == b)
        #expect(a == ["f.yaml:9:14: error: unknown gesture kind 'swpie', expected one of: tap, hold, pan, swipe, pinch, rotate, edgepan, transform, scrub, circle, tip-tap, tip-swipe, shape; did you mean 'swipe'?"])
        let good = String(unix.split(separator: "\n").prefix(7).joined(separator: "\n")) + "\n"
        let c = try #require(parse("\u{FEFF}" + good.replacingNewlines()))
        #expect(c.bindings[0].actions[.recognized] == "echo a\necho b\n")
    }

    @Test func invalidUTF8IsReported() {
        var bytes = Array("gestures:\n  - {name: a, gesture: tap, command: ".utf8)
        bytes += [0xff, 0xfe, 0x41, 0x7d, 0x0a]
        let d = ConfigLoader.parse(bytes, file: "bin.yaml").1.map(\.description)
        #expect(d == ["bin.yaml:2:38: error: the file is not valid UTF-8 or UTF-16 text: invalid leading UTF-8 octet"])
    }

    @Test func theLargestConfigAllowedParses() throws {
        var yaml = "gestures:\n"
        for i in 0..<Config.maximumGestures {
            yaml += "  - name: g\(i)\n    gesture: tap\n    fingers: \(i % 5 + 1)\n    taps: \(i % 5 + 1)\n    device-name: \"dev \(i)\"\n    command: echo \(i)\n"
        }
        let (config, diagnostics) = ConfigLoader.parse(yaml, file: "huge.yaml")
        #expect(diagnostics.filter(\.isError).isEmpty)
        #expect(config?.specs.count == 1000)
        #expect(config?.bindings.last?.actions[.recognized] == "echo 999")
    }

    @Test func deepNestingIsRefusedNotACrash() {
        let yaml = "gestures: " + String(repeating: "[", count: 100_000)
        let d = check(yaml)
        #expect(d == ["config.yaml:1:74: error: nested more than 64 levels deep"])
    }

    @Test func aliasesWorkAndAliasBombsAreRefused() throws {
        let c = try #require(parse("""
            gestures:
              - {name: a, gesture: swipe, fingers: 3, direction: left, command: &cmd "echo $GESTURE_DIRECTION"}
              - {name: b, gesture: swipe, fingers: 3, direction: right, command: *cmd}
            """))
        #expect(c.bindings[1].actions[.recognized] == "echo $GESTURE_DIRECTION")

        var bomb = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
        for i in 1...9 { bomb += "a\(i): &a\(i) [" + Array(repeating: "*a\(i - 1)", count: 10).joined(separator: ", ") + "]\n" }
        #expect(check(bomb) == ["config.yaml:4:45: error: aliases expand to more than 10000 nodes; refusing a possible alias bomb"])
    }

    @Test func duplicateKeysAreErrorsAtEveryLevel() {
        #expect(check("gestures: []\ngestures: []\n") == ["config.yaml:2:1: error: duplicate key 'gestures' in the top level (first set at line 1)"])
        #expect(check("settings: {max-children: 2, max-children: 3}\n") == ["config.yaml:1:29: error: duplicate key 'max-children' in settings (first set at line 1)"])
        #expect(check("gestures:\n  - {name: a, gesture: tap, region: {left: 0.1, left: 0.2}, command: x}\n")
                == ["config.yaml:2:49: error: duplicate key 'left' in a region (first set at line 2)"])
    }
}

extension String {
    func replacingNewlines() -> String {
        split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\r\n")
    }
}

/// `direction:` for pinch (`in`, `out`) and rotate (`clockwise`, `counterclockwise`).
@Suite struct PinchRotateDirectionConfigTests {
    @Test func pinchAndRotateDirectionsAreRead() throws {
        let c = try #require(parse("""
            gestures:
              - {name: zoom-in, gesture: pinch, fingers: 2, direction: in, command: "true"}
              - {name: zoom-out, gesture: pinch, fingers: 2, direction: out, command: "true"}
              - {name: turn, gesture: rotate, fingers: 3, direction: [clockwise, counterclockwise], command: "true"}
            """))
        #expect(c.specs.map(\.senses) == [[.in], [.out], [.clockwise, .counterclockwise]])
        #expect(check("""
            gestures:
              - {name: zoom-in, gesture: pinch, direction: in, command: "true"}
              - {name: zoom-out, gesture: pinch, direction: out, command: "true"}
            """) == [], "pinch in does not hide pinch out")
    }

    /// Issue 24, item 5: `command:` alone on a pinch or rotation is decided at the lift
    /// on the net change, and runs as a recognized gesture's command; any of `begin`,
    /// `update`, `end`, `cancel`, `every` or `hold` keeps it continuous, acting as it
    /// crosses its threshold. Other kinds are untouched.
    @Test func aCommandAloneOnAPinchOrRotationIsDecidedAtTheLift() throws {
        let c = try #require(parse("""
            gestures:
              - {name: zoom-out, gesture: pinch, fingers: 4, direction: out, command: "true"}
              - {name: turn, gesture: rotate, command: "true"}
              - {name: zoom, gesture: pinch, command: "true", end: "true"}
              - {name: knob, gesture: rotate, every: 15deg, update: "true"}
              - {name: held, gesture: pinch, fingers: 3, command: "true", hold: alt}
              - {name: pan, gesture: pan, command: "true"}
            """))
        #expect(c.specs.map(\.decidesAtLift) == [true, true, false, false, false, false])
        #expect(c.bindings[0].actions[.recognized] != nil && c.bindings[0].actions[.began] == nil)
        #expect(c.bindings[2].actions[.began] != nil && c.bindings[2].actions[.recognized] == nil)
        #expect(c.bindings[5].actions[.began] != nil)
    }

    @Test(arguments: [
        ("{name: a, gesture: pinch, direction: clockwise, command: x}", "config.yaml:2:42: error: a pinch goes in or out, not 'clockwise'"),
        ("{name: a, gesture: rotate, direction: out, command: x}", "config.yaml:2:43: error: a rotate goes clockwise or counterclockwise, not 'out'"),
        ("{name: a, gesture: pinch, direction: left, command: x}", "config.yaml:2:42: error: unknown direction 'left', expected one of: in, out, clockwise, counterclockwise"),
        ("{name: a, gesture: tap, direction: in, command: x}", "config.yaml:2:29: error: 'direction' does not apply to a tap gesture; it applies to: pan, swipe, pinch, rotate, circle, tip-swipe"),
        // By decision (docs/ENGINE.md, "Transform has no direction"): pinch + rotate instead.
        ("{name: a, gesture: transform, direction: in, command: x}",
         "config.yaml:2:35: error: 'direction' does not apply to a transform gesture; it applies to: pan, swipe, pinch, rotate, circle, tip-swipe"),
    ])
    func wrongWordsAreErrors(gesture: String, message: String) {
        #expect(check("gestures:\n  - \(gesture)\n") == [message])
    }
}
