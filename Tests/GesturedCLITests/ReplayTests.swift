import GestureTestSupport
import Testing

/// `gestured replay --json` over every bundled recording: what a user (or a bug
/// report) learns a recording contains.
@Suite struct ReplayTests {
    static let recordings = Recordings.all

    static func replay(_ name: String, _ description: String?, _ extra: [String]) throws -> [JSONLine] {
        var args = ["replay", CommandLineTests.recordings + "/" + name, "--json"] + extra
        if let description { args += ["--description", CommandLineTests.recordings + "/" + description] }
        let r = try Gestured.run(args)
        #expect(r.status == 0, "\(r.stderr)")
        return r.stdout.split(separator: "\n").map { JSONLine(String($0)) }
    }

    /// The shipped config binds only 3-finger horizontal swipes, and no bundled
    /// recording holds one: nothing may fire (no false workspace switches).
    @Test(arguments: recordings)
    func theDefaultConfigFiresNothingOnRecordingsWithoutAThreeFingerSwipe(name: String, description: String?) throws {
        let lines = try Self.replay(name, description, ["--config", CommandLineTests.repository + "/config/default.yaml"])
        #expect(lines.isEmpty, "\(lines.map(\.text))")
    }

    /// What `--detect` finds: each recording's own gesture, by kind, fingers and direction
    /// (a continuous one's `changed` lines left out). The bcm5974's three circles are
    /// circles, the way round they went, and nothing else anywhere is one.
    @Test(arguments: [
        ("touchscreens_Atmel_maXTouch_Touchscreen.4-finger-drag-down.events", nil, ["swipe-4 recognized 4 down"]),
        ("touchpads_CyPS2_Cypress_Trackpad.three_finger_tap.events", nil, ["tap-3 recognized 3 -"]),
        ("data_bcm5974.event", nil, ["swipe-1 recognized 1 up", "circle-1 began 1 counterclockwise", "circle-1 ended 1 counterclockwise",
                                     "swipe-2 recognized 2 up-left", "circle-2 began 2 counterclockwise", "circle-2 ended 2 counterclockwise",
                                     "circle-3 began 3 clockwise", "circle-3 ended 3 clockwise",
                                     "tap-4 recognized 4 -", "tap-4 recognized 4 -"]),
        ("python_evemu_tests_data_ntrig-xt2_ntrig-xt2-2-tap.event", "python_evemu_tests_data_ntrig-xt2_ntrig-xt2.device", ["tap-2 recognized 2 -"]),
        ("tablets_Wacom_Bamboo_16FG_4x5_Finger_double-tap.events", "tablets_Wacom_Bamboo_16FG_4x5_Finger.desc", ["tap-2 recognized 2 -"]),
        ("tablets_Wacom_ISDv4_E6_Finger.2fg-tap.events", "tablets_Wacom_ISDv4_E6_Finger.desc", ["tap-2 recognized 2 -"]),
        ("tablets_Wacom_ISDv4_E6_Finger.double-center-scroll.events", "tablets_Wacom_ISDv4_E6_Finger.desc", ["swipe-2 recognized 2 down"]),
        ("touchpads_AlpsPS2_ALPS_GlidePoint.double-tap.events", nil, ["double-tap-1 recognized 1 -"]),
        ("touchscreens_Atmel_maXTouch_Touchscreen.1-finger-drag-up-down.events", nil, ["swipe-1 recognized 1 up"]),
    ] as [(String, String?, [String])])
    func detectFindsWhatTheRecordingHolds(name: String, description: String?, expected: [String]) throws {
        let lines = try Self.replay(name, description, ["--detect"]).filter { $0["phase"] != "changed" }
        #expect(lines.map(\.summary) == expected)
        for line in lines {
            #expect(line["device"] != nil && line["time"] != nil && line["kind"] != nil)
        }
    }

    /// The bcm5974's real circles (1, 2 and 3 fingers) bound as knobs: each begins after
    /// three quarters of a turn with its way round, reports the arc, and steps every 30° of it.
    @Test func theRecordedCirclesTurnKnobs() throws {
        let dir = TempDir()
        let config = dir.write("config.yaml", """
        gestures:
          - {name: knob-1, gesture: circle, fingers: 1, direction: counterclockwise, update: "true", every: 30deg}
          - {name: knob-2, gesture: circle, fingers: 2, direction: counterclockwise, command: "true"}
          - {name: knob-3, gesture: circle, fingers: 3, direction: clockwise, command: "true"}
        """)
        let lines = try Self.replay("data_bcm5974.event", nil, ["--config", config]).filter { $0["phase"] != "changed" }
        #expect(lines.map(\.summary) == ["knob-1 began 1 counterclockwise", "knob-1 ended 1 counterclockwise",
                                         "knob-2 began 2 counterclockwise", "knob-2 ended 2 counterclockwise",
                                         "knob-3 began 3 clockwise", "knob-3 ended 3 clockwise"])
        let ends = lines.filter { $0["phase"] == "ended" }.compactMap { $0["rotation_deg"].flatMap(Double.init) }
        #expect(ends.count == 3 && ends[0] < -720 && ends[1] < -720 && ends[2] > 720, "\(ends)")
        #expect(lines.allSatisfy { $0["kind"] == "circle" })
        let stepped = try Gestured.run(["replay", CommandLineTests.recordings + "/data_bcm5974.event", "--config", config])
        // 803° round, counterclockwise: 26 whole steps of 30°, each -1.
        let steps = stepped.stdout.split(separator: "\n").filter { $0.contains("GESTURE_STEP=") }
        #expect(steps.count == 26 && steps.allSatisfy { $0.hasSuffix("GESTURE_STEP=-1") }, "\(steps.count) steps")
    }

    /// Tip-taps and tip-swipes bound for one and two fingers, beside the plain taps,
    /// swipes and scrolls the recordings hold: no recording holds a tip-tap, and none
    /// fires (0 spurious), while the plain two-finger taps they hold still fire.
    @Test(arguments: recordings)
    func tipTapsBoundFireNothingOnTheRecordingsAndStealNoPlainTap(name: String, description: String?) throws {
        let dir = TempDir()
        let config = dir.write("config.yaml", """
        gestures:
          - {name: tip-1, gesture: tip-tap, command: "true"}
          - {name: tip-2, gesture: tip-tap, fingers: 2, command: "true"}
          - {name: tip-swipe-1, gesture: tip-swipe, command: "true"}
          - {name: tip-swipe-2, gesture: tip-swipe, fingers: 2, command: "true"}
        """)
        let lines = try Self.replay(name, description, ["--config", config])
        #expect(lines.isEmpty, "\(lines.map(\.text))")
        let plain = dir.write("plain.yaml", """
        gestures:
          - {name: tip-1, gesture: tip-tap, command: "true"}
          - {name: tip-swipe-1, gesture: tip-swipe, command: "true"}
          - {name: tap-2, gesture: tap, fingers: 2, command: "true"}
        """)
        let taps = try Self.replay(name, description, ["--config", plain])
        #expect(taps.allSatisfy { $0["gesture"] == "tap-2" }, "\(taps.map(\.text))")
        let detected = try Self.replay(name, description, ["--detect"]).filter { $0["gesture"] == "tap-2" }
        #expect(taps.count == detected.count)
    }

    /// `replay --json` names a tip-tap's kind and side: the Atmel touchscreen's own
    /// header, and events written here (no recording holds a tip-tap): a finger rests
    /// 300 ms, a second taps 80 ms to its right (or left), the first stays 320 ms more.
    @Test(arguments: [(400, "right"), (200, "left")])
    func aTipTapsJSONHasItsKindAndSide(x: Int, side: String) throws {
        let atmel = CommandLineTests.recordings + "/touchscreens_Atmel_maXTouch_Touchscreen.1-finger-fast-taps.events"
        let header = HostileDeviceTests.readAll(atmel).split(separator: "\n").filter { !$0.hasPrefix("E:") }
        func frame(_ t: String, _ events: [(String, String, Int)]) -> [String] {
            (events + [("0000", "0000", 0)]).map { "E: \(t) \($0.0) \($0.1) \($0.2)" }
        }
        let events = frame("1.000000", [("0003", "002f", 0), ("0003", "0039", 1), ("0003", "0035", 300), ("0003", "0036", 240), ("0001", "014a", 1)])
            + frame("1.300000", [("0003", "002f", 1), ("0003", "0039", 2), ("0003", "0035", x), ("0003", "0036", 240)])
            + frame("1.380000", [("0003", "0039", -1)])
            + frame("1.700000", [("0003", "002f", 0), ("0003", "0039", -1), ("0001", "014a", 0)])
        let dir = TempDir()
        let recording = dir.write("tip-tap.events", (header.map(String.init) + events).joined(separator: "\n") + "\n")
        let config = dir.write("config.yaml", "gestures:\n  - {name: tip, gesture: tip-tap, command: \"true\"}\n  - {name: tap-2, gesture: tap, fingers: 2, command: \"true\"}\n")
        let r = try Gestured.run(["replay", recording, "--json", "--config", config])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n").map { JSONLine(String($0)) }
        #expect(lines.map(\.text).count == 1, "\(r.stdout)")
        #expect(lines.first?["kind"] == "tip-tap" && lines.first?["side"] == side && lines.first?["phase"] == "recognized")
        // Recognized 100 ms after the tap lifted (1.380 s), the resting finger still down.
        #expect(lines.first?["time"].flatMap(Double.init).map { abs($0 - 0.480) < 0.002 } == true, "\(lines.first?.text ?? "")")
    }

    @Test func nineFastTapsReadAsDoubleTapsAndATap() throws {
        let lines = try Self.replay("touchscreens_Atmel_maXTouch_Touchscreen.1-finger-fast-taps.events", nil, ["--detect"])
        #expect(lines.map(\.summary) == Array(repeating: "double-tap-1 recognized 1 -", count: 4) + ["tap-1 recognized 1 -"])
    }

    @Test func aBindingForTheRecordedGestureRunsItsCommandWithTheGestureInItsEnvironment() throws {
        let dir = TempDir()
        let config = dir.write("config.yaml", """
        gestures:
          - name: four-down
            gesture: swipe
            fingers: 4
            direction: down
            command: notify-send "four fingers"
        """)
        let r = try Gestured.run(["replay", CommandLineTests.recordings + "/touchscreens_Atmel_maXTouch_Touchscreen.4-finger-drag-down.events",
                                  "--config", config])
        #expect(r.status == 0)
        #expect(r.stdout.contains("four-down  swipe recognized  4 fingers  down"))
        #expect(r.stdout.contains("would run: [four-down] command: notify-send \"four fingers\""))
        #expect(r.stdout.contains("GESTURE_DIRECTION=down"))
        #expect(r.stdout.contains("GESTURE_FINGERS=4"))
    }

    /// A semi-MT pad: its two contacts are a bounding box's corners, which jump 4.6 mm
    /// during the tap; the fingers themselves hardly moved.
    @Test func aSemiMTTwoFingerTapIsATap() throws {
        let lines = try Self.replay("touchpads_AlpsPS2_ALPS_GlidePoint.2-finger-tap.events", nil, ["--detect"])
        #expect(lines.map(\.summary) == ["tap-2 recognized 2 -"])
    }
}

/// One line of `--json`: a flat object, read without a JSON library.
struct JSONLine {
    let text: String
    init(_ text: String) { self.text = text }

    subscript(key: String) -> String? {
        guard let r = text.firstRange(of: "\"\(key)\": ") else { return nil }
        let rest = text[r.upperBound...]
        if rest.hasPrefix("\"") {
            let body = rest.dropFirst()
            return String(body.prefix { $0 != "\"" })
        }
        return String(rest.prefix { $0 != "," && $0 != "}" })
    }

    /// "swipe-4 recognized 4 down" ("-" for no direction).
    var summary: String {
        let d = self["direction"] ?? "null"
        return "\(self["gesture"] ?? "?") \(self["phase"] ?? "?") \(self["fingers"] ?? "?") \(d == "null" ? "-" : d)"
    }
}

/// `replay --app`: the same recording runs the binding of the app given as focused.
@Suite struct ReplayAppTests {
    static let config = """
        gestures:
          - name: global
            gesture: swipe
            fingers: 4
            direction: down
            command: echo global
          - name: in-browser
            gesture: swipe
            fingers: 4
            direction: down
            apps: "*firefox"
            command: echo browser
        """

    @Test(arguments: [(["--app", "org.mozilla.firefox"], "in-browser"), (["--app", "foot"], "global"), ([], "global")])
    func theFocusedAppPicksTheBinding(app: [String], expected: String) throws {
        let dir = TempDir()
        let config = dir.write("config.yaml", Self.config)
        let r = try Gestured.run(["replay", CommandLineTests.recordings + "/touchscreens_Atmel_maXTouch_Touchscreen.4-finger-drag-down.events",
                                  "--config", config, "--explain"] + app)
        #expect(r.status == 0)
        #expect(r.stdout.hasPrefix("focused app: \(app.last ?? "none (give one with --app)")\n"))
        #expect(r.stdout.contains("  \(expected)  swipe recognized"), "\(r.stdout)")
        let loser = expected == "global" ? "in-browser" : "global"
        #expect(r.stdout.contains(loser + " failed: " + (app.isEmpty ? "only for some apps, and no focused app is known"
            : expected == "global" ? "not for the focused app 'foot'" : "in-browser overrides it in 'org.mozilla.firefox'")), "\(r.stdout)")
    }
}
