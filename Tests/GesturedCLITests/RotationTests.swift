import CLinux
import DesktopSession
import GestureConfig
import GestureEngine
import GestureInput
import GestureTestSupport
import Testing
import TouchModel
@testable import Commands
@testable import DaemonLoop
import JSON
@testable import LiveView

/// Screen rotation as the user sees it (issue 23): a real recording replayed with each
/// orientation comes out in the direction the user saw, from the edge the user saw,
/// and the daemon's live path gives what replay gives.
@Suite struct RotationReplayTests {
    static let swipeDown = "touchscreens_Atmel_maXTouch_Touchscreen.4-finger-drag-down.events"
    /// A drag up that starts 34 mm from the panel's bottom edge (and back down).
    static let dragUp = "touchscreens_Atmel_maXTouch_Touchscreen.1-finger-drag-up-down.events"
    static let edges = """
    gestures:
      - {name: from-top, gesture: edgepan, edge: top, edge-zone: 40mm, command: "true"}
      - {name: from-bottom, gesture: edgepan, edge: bottom, edge-zone: 40mm, command: "true"}
      - {name: from-left, gesture: edgepan, edge: left, edge-zone: 40mm, command: "true"}
      - {name: from-right, gesture: edgepan, edge: right, edge-zone: 40mm, command: "true"}
    """

    @Test(arguments: [("normal", "down"), ("90", "left"), ("180", "up"), ("270", "right")])
    func aRecordedSwipeDownComesOutAsTheUserSawIt(orientation: String, direction: String) throws {
        let lines = try ReplayTests.replay(Self.swipeDown, nil, ["--detect", "--orientation", orientation])
        #expect(lines.map(\.summary) == ["swipe-4 recognized 4 \(direction)"])
    }

    /// The panel's bottom edge is, turned, the screen's left, top and right edge; the
    /// drag away from it goes right, down and left.
    @Test(arguments: [("normal", "from-bottom", "up"), ("90", "from-left", "right"),
                      ("180", "from-top", "down"), ("270", "from-right", "left")])
    func anEdgePanStartsFromTheEdgeTheUserSaw(orientation: String, gesture: String, direction: String) throws {
        let dir = TempDir()
        let lines = try ReplayTests.replay(Self.dragUp, nil, ["--config", dir.write("config.yaml", Self.edges), "--orientation", orientation])
        let began = lines.filter { $0["phase"] == "began" }
        #expect(began.map(\.summary) == ["\(gesture) began 1 \(direction)"])
    }

    /// `--calibration` stands in for udev's property: a panel mounted a quarter turned.
    @Test func theCalibrationOptionTurnsAMountedPanel() throws {
        let lines = try ReplayTests.replay(Self.swipeDown, nil, ["--detect", "--calibration", "0 -1 1 1 0 0"])
        #expect(lines.map(\.summary) == ["swipe-4 recognized 4 left"])
        // …and the screen's own rotation comes after it: mounted a quarter, turned back.
        let back = try ReplayTests.replay(Self.swipeDown, nil, ["--detect", "--calibration", "0 -1 1 1 0 0", "--orientation", "270"])
        #expect(back.map(\.summary) == ["swipe-4 recognized 4 down"])
    }

    /// Touchpads do not follow the screen unless the config's `rotation:` says so: the
    /// bcm5974 touchpad's recorded 1-finger swipe up.
    @Test func aTouchpadIsTurnedOnlyWhenTheConfigAsks() throws {
        let dir = TempDir()
        let swipe = "gestures:\n  - {name: one, gesture: swipe, fingers: 1, command: \"true\"}\n"
        let plain = try ReplayTests.replay("data_bcm5974.event", nil, ["--config", dir.write("a.yaml", swipe), "--orientation", "90"])
        #expect(plain.map(\.summary) == ["one recognized 1 up"])
        let asked = try ReplayTests.replay("data_bcm5974.event", nil, ["--config", dir.write("b.yaml", "rotation:\n  devices: [touchpad]\n" + swipe),
                                                                     "--orientation", "90"])
        #expect(asked.map(\.summary) == ["one recognized 1 right"])
    }

    @Test(arguments: [(["--orientation", "45"], "--orientation must be one of normal, 90, 180, 270"),
                      (["--calibration", "1 0 0"], "--calibration needs six numbers")])
    func aBadOptionIsAUsageError(extra: [String], message: String) throws {
        let r = try Gestured.run(["replay", CommandLineTests.recordings + "/" + Self.swipeDown, "--detect"] + extra)
        #expect(r.status != 0)
        #expect(r.stderr.contains(message), "\(r.stderr)")
    }
}

/// Which output a touchscreen follows, and sway's words for a turn.
@Suite struct RotationOutputTests {
    static let external = OutputRotation(output: "DP-2", degrees: 0)
    static let panel = OutputRotation(output: "eDP-1", degrees: 90)

    @Test func theBuiltInPanelUnlessTheConfigNamesAnother() {
        #expect(ScreenRotation.output([Self.external, Self.panel], named: nil) == Self.panel)
        #expect(ScreenRotation.output([Self.external, Self.panel], named: "DP-2") == Self.external)
        #expect(ScreenRotation.output([Self.external], named: nil) == Self.external, "the only output")
        #expect(ScreenRotation.output([Self.external, OutputRotation(output: "HDMI-A-1", degrees: 0)], named: nil) == nil,
                "two external outputs: not known which")
        #expect(ScreenRotation.output([Self.panel], named: "DP-9") == nil)
    }

    /// With no output of its own, the touchscreen takes the fallback, and the log and
    /// status say why and what to write.
    @Test func whyNoOutputWasChosenIsSaid() {
        let hdmi = OutputRotation(output: "HDMI-A-1", degrees: 0)
        #expect(ScreenRotation.unmapped([Self.external, hdmi], named: nil) == "DP-2, HDMI-A-1, none built in: name the touchscreen's in rotation: output:")
        #expect(ScreenRotation.unmapped([Self.panel], named: "DP-9") == "no output DP-9 (it has eDP-1)")
        #expect(ScreenRotation.unmapped([], named: nil) == "no output is on")
    }

    /// Which sources each session gets, in the order they are believed.
    @Test(arguments: [
        (["XDG_CURRENT_DESKTOP": "ubuntu:GNOME", "WAYLAND_DISPLAY": "wayland-0", "XDG_RUNTIME_DIR": "/run/user/1000"], ["mutter", "wayland"]),
        (["XDG_CURRENT_DESKTOP": "GNOME", "DISPLAY": ":0", "DBUS_SESSION_BUS_ADDRESS": "unix:path=/run/user/1000/bus"], ["mutter", "randr"]),
        (["WAYLAND_DISPLAY": "wayland-1", "XDG_RUNTIME_DIR": "/run/user/1000", "SWAYSOCK": "/run/s", "DISPLAY": ":0"], ["wayland"]),
        (["SWAYSOCK": "/run/s"], ["sway"]),
        (["DISPLAY": ":0", "XDG_CURRENT_DESKTOP": "XFCE"], ["randr"]),
        (["DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0"], []),  // Xwayland's RandR is not the compositor's
        ([:], []),
    ] as [([String: String], [String])])
    func eachSessionHasItsSources(environment: [String: String], names: [String]) {
        switch RotationDetection.detect(environment) {
        case .sources(let s): #expect(s.map(\.name) == names)
        case .none(let why): #expect(names.isEmpty, "\(why)")
        }
    }

    /// RandR's rotation bits: RR_Rotate_90 (`xrandr --rotate left`) is wl_output's 90; a
    /// reflection beside a turn counts as the turn.
    @Test(arguments: [(1, 0), (2, 90), (4, 180), (8, 270), (2 | 16, 90), (1 | 32, 0), (0, 0)] as [(UInt16, Int)])
    func randrRotationsReadInWaylandsSense(bits: UInt16, degrees: Int) {
        #expect(RandROutputSource.degrees(ofRandRRotation: bits) == degrees)
    }

    /// sway turns the picture clockwise: its `90` is wl_output's (and gestured's) 270.
    @Test func swaysOutputsReadInWaylandsSense() throws {
        let json = try #require(JSONValue.parse(Array(#"[{"name":"eDP-1","active":true,"transform":"90"},{"name":"DP-2","active":false,"transform":"180"},{"name":"DP-3","transform":"flipped-270"},{"name":"DP-4","transform":"sideways"}]"#.utf8)))
        #expect(SwayOutputSource.rotations(json) == [OutputRotation(output: "eDP-1", degrees: 270),
                                                      OutputRotation(output: "DP-3", degrees: 90),
                                                      OutputRotation(output: "DP-4", degrees: 0)])
    }
}

/// The `rotation:` section.
@Suite struct RotationConfigTests {
    static func parse(_ text: String) -> (Config?, [Diagnostic]) { ConfigLoader.parse(text, file: "config.yaml") }

    @Test func theDefaultIsTouchscreensFollowingTheCompositor() throws {
        let c = try #require(Self.parse("gestures: []\n").0)
        #expect(c.rotation == RotationSettings())
        #expect(c.rotation.kinds == [.touchscreen] && !c.rotation.sensor && c.rotation.orientation == .normal && c.rotation.output == nil)
    }

    @Test func everyKeyIsRead() throws {
        let c = try #require(Self.parse("""
        rotation:
          devices: [touchscreen, touchpad]
          device-names: ['ELAN*']
          sensor: true
          orientation: 270
          output: eDP-1
        gestures: []
        """).0)
        #expect(c.rotation.kinds == [.touchscreen, .touchpad])
        #expect(c.rotation.nameGlobs == ["ELAN*"])
        #expect(c.rotation.sensor)
        #expect(c.rotation.orientation == .threeQuarters)
        #expect(c.rotation.output == "eDP-1")
        #expect(try #require(Self.parse("rotation:\n  devices: []\ngestures: []\n").0).rotation.kinds.isEmpty)
    }

    /// `output:` per device: a second touchscreen on an external monitor.
    @Test func eachDeviceMayNameItsOutput() throws {
        let c = try #require(Self.parse("""
        rotation:
          output:
            'ELAN*': eDP-1
            'Wacom*': DP-2
        gestures: []
        """).0)
        let size = Size(width: 300, height: 200)
        #expect(c.rotation.output(for: DeviceInfo(name: "ELAN9008:00 04F3:2C82", kind: .touchscreen, size: size)) == "eDP-1")
        #expect(c.rotation.output(for: DeviceInfo(name: "Wacom Cintiq 16 Touch", kind: .touchscreen, size: size)) == "DP-2")
        #expect(c.rotation.output(for: DeviceInfo(name: "Goodix Capacitive TouchScreen", kind: .touchscreen, size: size)) == nil,
                "no glob matches: the built-in panel")
        #expect(try #require(Self.parse("rotation:\n  output: HDMI-A-1\ngestures: []\n").0).rotation
            .output(for: DeviceInfo(name: "any", kind: .touchscreen, size: size)) == "HDMI-A-1")
        let (bad, d) = Self.parse("rotation:\n  output:\n    'ELAN*': [eDP-1]\ngestures: []\n")
        #expect(bad == nil)
        #expect(d.contains { $0.description.contains("config.yaml:3:14: error: expected text for the output of 'ELAN*'") }, "\(d.map(\.description))")
    }

    @Test(arguments: [("rotation:\n  orientation: sideways\n", "config.yaml:2:16: error: unknown orientation 'sideways', expected one of: normal, 90, 180, 270"),
                      ("rotation:\n  sensor: yes\n", "config.yaml:2:11: error: 'sensor' takes true or false"),
                      ("rotation:\n  orientaton: 90\n", "did you mean 'orientation'?")])
    func mistakesAreDiagnosed(text: String, message: String) {
        let (c, d) = Self.parse(text)
        #expect(c == nil)
        #expect(d.contains { $0.description.contains(message) }, "\(d.map(\.description))")
    }
}

/// `replay` promises to be what the daemon does, turned too: the daemon with a fixed
/// `rotation: orientation: 90` reads the fake device of a recording as replay does
/// with `--orientation 90`.
@Suite(.serialized) struct RotationLiveEqualsReplayTests {
    @Test(arguments: [RotationReplayTests.swipeDown, RotationReplayTests.dragUp])
    func theDaemonTurnedReportsWhatReplayTurnedReports(name: String) throws {
        let loaded = try Recordings.load(name)
        let recording = LiveEqualsReplayTests.restamped(loaded)
        let events = Array(recording.events)
        let dir = TempDir()
        var options = Daemon.Options()
        options.runCommands = false
        options.staleFrameAge = nil
        var live: [GestureEvent] = []
        options.onGesture = { _, e in live.append(e) }
        let config = "rotation:\n  orientation: 90\n" + LiveEqualsReplayTests.config
        let daemon = try LiveDeviceTests.makeDaemon(dir, config: config, options: options)
        daemon.startFocus()
        var replayed: [GestureEvent] = []
        try ReplayPipeline(recording: recording, specs: daemon.config.specs, orientation: .quarter).run { replayed += $0 }

        let device = try FakeTouchpad(description: recording.device)
        daemon.adopt(device.device, announce: false)
        let session = try #require(daemon.sessions.values.first)
        #expect(session.rotation == ScreenRotation.Choice(orientation: .quarter, source: "config"))
        #expect(session.info.size == Size(width: 165, height: 294))
        device.send(events)
        _ = LiveDeviceTests.spin(daemon, seconds: 10) {
            live.count >= replayed.count && daemon.sessions.values.allSatisfy { $0.engine.nextDeadline == nil }
        }
        #expect(!replayed.isEmpty)
        LiveEqualsReplayTests.expectSame(live, replayed)
        // Turned, the swipe down is a swipe to the left.
        if name == RotationReplayTests.swipeDown {
            #expect(live.contains { $0.name == "swipe-4" && $0.direction == .left })
        }
    }
}

/// The event stream (the live view) says how a device is turned, and only then.
@Suite struct RotationStreamTests {
    static func line(_ orientation: String?) -> String {
        var d = StreamLine.Device(path: "/dev/input/event5", info: DeviceInfo(name: "Touchscreen", kind: .touchscreen, size: Size(width: 165, height: 294)))
        d.orientation = orientation
        var e = StreamEncoder()
        e.device(.added, d)
        return String(decoding: e.bytes, as: UTF8.self)
    }

    @Test func aTurnedDeviceSaysSo() {
        #expect(Self.line("90").contains(#""grabbed":false,"orientation":"90"}"#), "\(Self.line("90"))")
        #expect(!Self.line(nil).contains("orientation"))
    }
}
