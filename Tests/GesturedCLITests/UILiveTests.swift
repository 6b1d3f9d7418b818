import CLinux
import DesktopSession
import GestureConfig
import GestureInput
import GestureTestSupport
import Glibc
import Testing
@testable import Commands
@testable import DaemonLoop
import JSON
@testable import LiveView

/// `gestured ui` in daemon mode, in this process beside the real daemon (its control
/// socket, the fake touchpad read by the real libevdev), the page a real HTTP client:
/// the daemon's stream reaches the page, Try runs the edited config on the daemon's
/// frames, Record proposes the binding for the gesture made.
@Suite(.serialized) struct UILiveTests {
    @Test func thePageSeesTheDaemonTriesTheEditAndRecordsTheGesture() throws {
        let s = try EventStreamTests.Session()
        var options = UIProcess.Options()
        options.environment = ["XDG_RUNTIME_DIR": s.dir.path, "HOME": s.dir.path]
        options.configPath = s.dir.path + "/config.yaml"
        options.open = false
        let ui = try UIProcess(options: options, logger: Logger(threshold: .warning, environment: [:]))
        #expect(ui.mode == .daemon)
        ui.feed?.connect()
        let pump = {
            s.daemon.runOnce(timeoutMS: 0)
            ui.loop.runOnce(timeoutMS: 1)
        }
        let port = ui.server.http.port
        let session = try HTTPTestClient.logIn(try ui.server.newLoginURL(), pump: pump)
        let headers = [("Cookie", session), ("Origin", "http://127.0.0.1:\(port)")]
        func post(_ path: String, _ body: String) throws -> JSONValue {
            let r = try HTTPTestClient.request("POST", path, port: port, headers: headers, body: Array(body.utf8), pump: pump)
            #expect(r.status == 200, "\(path): \(r)")
            return try #require(JSONValue.parse(Array(r.body.utf8)), "\(r.body)")
        }

        let page = try HTTPTestConnection(port: port, pump: pump)
        try page.send(Array("GET /api/events HTTP/1.1\r\nHost: localhost:\(port)\r\nCookie: \(session)\r\n\r\n".utf8))
        #expect(page.read { String(decoding: $0, as: UTF8.self).contains("\"type\":\"hello\"") }, "the daemon's hello: \(page.text.prefix(300))")
        #expect(page.text.contains("\"name\":\"left\"") && page.text.contains("\"name\":\"right\""))

        let tried = "gestures:\n  - name: tried-left\n    gesture: swipe\n    fingers: 3\n    direction: left\n    command: echo tried\n"
        let answer = try post("/api/try", tried)
        #expect(answer["ok"] == .bool(true) && answer["trying"] == .bool(true))
        #expect(try post("/api/record/start", "")["recording"] == .bool(true))
        // The rate goes up for the engines here: a new subscription, a new hello.
        #expect(page.read { String(decoding: $0, as: UTF8.self).components("\"type\":\"hello\"").count >= 3 })

        let pad = try FakeTouchpad()
        s.daemon.adopt(pad.device, announce: true)
        #expect(page.read { String(decoding: $0, as: UTF8.self).contains("\"type\":\"device\"") })
        LiveDeviceTests.swipe(pad, dxMM: -40)
        // The daemon's own gesture, and the tried config's beside it, with what it would run.
        #expect(page.read { t in
            let text = String(decoding: t, as: UTF8.self)
            return text.contains("\"gesture\":\"left\",\"kind\":\"swipe\",\"phase\":\"recognized\"")
                && text.contains("\"gesture\":\"tried-left\",\"kind\":\"swipe\",\"phase\":\"recognized\"")
                && text.contains("\"command\":\"echo tried\"")
        }, "\(page.text.suffix(2000))")
        let triedLines = page.text.split(separator: "\n").filter { $0.contains("tried-left") }
        #expect(!triedLines.isEmpty && triedLines.allSatisfy { $0.contains("\"source\":\"try\"") })
        #expect(page.text.contains("\"outcome\":\"dry-run\""))
        // The tried swipe's way to its threshold, as the daemon's own gestures have it.
        let triedRecognized = try #require(triedLines.firstIndex { $0.contains("\"phase\":\"recognized\"") })
        #expect(triedLines[..<triedRecognized].contains { $0.contains("\"type\":\"progress\"") }, "\(triedLines.prefix(8))")
        #expect(page.text.contains("\"type\":\"frame\""))

        let recorded = try post("/api/record/stop", "")
        let best = try #require(recorded["detected"]?.array?.first, "\(recorded)")
        #expect(best["kind"] == .string("swipe") && best["fingers"] == .number(3) && best["direction"] == .string("left"))
        let yaml = try #require(recorded["yaml"]?.string)
        #expect(yaml.contains("gesture: swipe") && yaml.contains("fingers: 3") && yaml.contains("direction: left"))
        let indented = yaml.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n")
        let (config, diagnostics) = ConfigLoader.parse("gestures:\n" + indented + "\n", file: "proposed.yaml")
        #expect(config?.specs.count == 1, "the proposed binding is a valid config: \(diagnostics)")

        // Enable and disable go to the daemon without the ui waiting for it: in this one
        // thread, a ui that waited for the answer would wait for ever.
        let off = try post("/api/disable", "left")
        #expect(off["ok"] == .bool(true) && off["message"] == .string("left: disabled"), "\(off)")
        let unknown = try post("/api/enable", "lfet")
        #expect(unknown["ok"] == .bool(false) && unknown["message"]?.string?.contains("did you mean 'left'") == true, "\(unknown)")
        #expect(try post("/api/try", "")["trying"] == .bool(false))
    }
}
