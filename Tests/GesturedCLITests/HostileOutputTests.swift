import CLinux
import DaemonCore
import DesktopSession
import GestureActions
import GestureInput
import GestureTestSupport
import Glibc
import Testing
import TouchModel
@testable import Commands
@testable import DaemonLoop
import JSON
@testable import LiveView

/// Issue 26 item 5: names from outside — a device's, an app id, a window title (any
/// app, sandboxed ones included, sets its own) — through every output: they may not
/// clear the terminal, forge a line (`focused app: FORGED`, a `<0>` journal line) or
/// break the JSON.
@Suite(.serialized) struct HostileOutputTests {
    static let deviceName = "pad\u{1b}[2J\n<0>gestured: forged\rfocused app: FORGED\u{9b}31m"
    /// sway's JSON for the app id and title: escapes, raw control bytes are not JSON,
    /// and one byte that is not UTF-8 (0xff) in each.
    static let appJSON: [UInt8] = Array(#""app_id":"evil\n<0>x\u001b[2J"#.utf8) + [0xff] + Array(#"","name":"t\nfocused app: FORGED\u001b]0;owned\u0007"#.utf8) + [0xff] + Array(#"""#.utf8)
    static let app = "evil\n<0>x\u{1b}[2J\u{FFFD}"
    static let title = "t\nfocused app: FORGED\u{1b}]0;owned\u{7}\u{FFFD}"

    static func tree() -> [UInt8] {
        Array(#"{"type":"root","nodes":[{"type":"con","focused":true,"#.utf8) + appJSON + Array("}]}".utf8)
    }

    /// Serves SUBSCRIBE and GET_TREE with the hostile tree, once per connection.
    final class HostileSway {
        let server: FakeSocketServer
        var answered = Set<Int32>()
        init(_ path: String) { server = FakeSocketServer(path: path) }
        func serve() {
            server.pump()
            for fd in server.clients where !answered.contains(fd) && (server.received[fd]?.count ?? 0) >= 14 + 20 + 14 {
                answered.insert(fd)
                let tree = HostileOutputTests.tree()
                server.send(fd, I3IPCProtocolTests.frame(2, #"{"success":true}"#))
                var header = Array("i3-ipc".utf8)
                withUnsafeBytes(of: UInt32(tree.count)) { header += $0 }
                withUnsafeBytes(of: UInt32(4)) { header += $0 }
                server.send(fd, header + tree)
            }
        }
    }

    /// What a terminal or the journal would make of `text`: it must be plain lines.
    static func expectInert(_ text: String, lines expected: Int? = nil, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || (0x7f...0x9f).contains($0.value) },
                "\(what): a control character reached the output: \(text.debugDescription)", sourceLocation: sourceLocation)
        let lines = text.split(separator: "\n")
        #expect(!lines.contains { $0.hasPrefix("<0>") || $0.hasPrefix("focused app: FORGED") || $0.hasPrefix("gestured: forged") },
                "\(what): a forged line: \(text.debugDescription)", sourceLocation: sourceLocation)
        if let expected { #expect(lines.count == expected, "\(what): \(text.debugDescription)", sourceLocation: sourceLocation) }
    }

    @Test func statusTextAndJSONWithAHostileDeviceAppAndTitle() throws {
        let dir = TempDir()
        let sway = HostileSway(dir.path + "/sway.sock")
        var options = Daemon.Options()
        options.focus = FocusMonitor(source: I3IPCSource(name: "sway", socketPath: sway.server.path))
        let daemon = try LiveDeviceTests.makeDaemon(dir, config: """
            gestures:
              - name: next
                gesture: swipe
                fingers: 3
                direction: left
                command: "true"
            """, options: options)
        let pad = try FakeTouchpad(name: Self.deviceName)
        daemon.adopt(pad.device, announce: true)
        daemon.startFocus()
        let deadline = clinux_monotonic_ns() + 10_000_000_000
        while daemon.focus.app == nil, clinux_monotonic_ns() < deadline {
            sway.serve()
            daemon.runOnce(timeoutMS: 10)
        }
        try #require(daemon.focus.app == FocusedApp(app: Self.app, title: Self.title), "\(String(describing: daemon.focus.app))")

        let text = daemon.statusText()
        Self.expectInert(text, "status")
        #expect(text.split(separator: "\n").filter { $0.hasPrefix("focused app:") }.count == 1, "\(text)")
        #expect(text.contains(#"focused app: evil\n<0>x\u001b[2J"#), "\(text)")
        #expect(text.contains(#""pad\u001b[2J\n<0>gestured: forged\rfocused app: FORGED\u009b31m""#), "\(text)")

        let json = daemon.statusJSON()
        Self.expectInert(json, lines: 1, "status --json")
        let parsed = try #require(JSONValue.parse(Array(json.utf8)), "\(json)")
        #expect(parsed["devices"]?.array?.first?["name"]?.string == Self.deviceName)
        #expect(parsed["focus"]?["app"]?.string == Self.app)
        #expect(parsed["focus"]?["title"]?.string == Self.title)
    }

    /// `run --dry-run`: GESTURE_DEVICE is the device's name.
    @Test func dryRunLinesStayLines() {
        let inv = Invocation(gesture: "next", trigger: "command", command: "true",
                             environment: [("GESTURE_NAME", "next"), ("GESTURE_DEVICE", Self.deviceName)])
        let text = DryRunSink.describe(inv)
        Self.expectInert(text, lines: 3, "dry run")
        #expect(text.hasSuffix(#"    GESTURE_DEVICE=pad\u001b[2J\n<0>gestured: forged\rfocused app: FORGED\u009b31m"#), "\(text)")
    }

    /// `watch` and `watch --explain` print the focus as sway says it, and `replay
    /// --explain --app` the app it is given.
    @Test(arguments: [["watch"], ["watch", "--explain"]])
    func watchPrintsTheFocusEscaped(_ command: [String]) throws {
        let dir = TempDir()
        let sway = HostileSway(dir.path + "/sway.sock")
        mkdir(dir.path + "/input", 0o700)
        let config = dir.write("config.yaml", "gestures: []\n")
        let p = try Gestured.Process(command + ["--config", config, "--input-dir", dir.path + "/input"], environment: ["SWAYSOCK=\(sway.server.path)"])
        defer { kill(p.pid, SIGTERM); _ = p.wait() }
        let deadline = clinux_monotonic_ns() + 10_000_000_000
        while !p.stdout.contains("focused app:"), p.poll() == nil, clinux_monotonic_ns() < deadline {
            sway.serve()
            p.pump(ms: 10)
        }
        p.pump(ms: 50)
        #expect(p.stdout.contains(#"focused app: evil\n<0>x\u001b[2J"#), "\(p.stdout) \(p.stderr)")
        Self.expectInert(p.stdout, lines: 1, "watch")
    }

    @Test func replayExplainPrintsTheAppEscaped() throws {
        let dir = TempDir()
        let config = dir.write("config.yaml", "gestures:\n  - name: tap\n    gesture: tap\n    fingers: 1\n    apps: [foot]\n    command: \"true\"\n")
        let r = try Gestured.run(["replay", Recordings.path("touchpads_CyPS2_Cypress_Trackpad.three_finger_tap.events"),
                                  "--config", config, "--explain", "--app", Self.app])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains(#"focused app: evil\n<0>x\u001b[2J"#), "\(r.stdout)")
        Self.expectInert(r.stdout, "replay --explain")
    }

    @Test func listDevicesTextAndJSON() throws {
        let report = DeviceReport(path: "/dev/input/event3", name: Self.deviceName, status: .ignored("no touch axes"))
        Self.expectInert(ListDevicesCommand.text([report]), "list-devices")
        let json = ListDevicesCommand.json(report)
        Self.expectInert(json, lines: 1, "list-devices --json")
        #expect(JSONValue.parse(Array(json.utf8))?["name"]?.string == Self.deviceName)
    }
}
