import CLinux
import GestureTestSupport
import Glibc
import Testing
import JSON

/// `gestured ui` in local mode, its private daemon supervised (issue 35 item 10): with
/// a broken or missing config the daemon exits at start; the page is told why, the
/// daemon is started again, and a good Save makes the page live.
@Suite(.serialized) struct UILocalDaemonTests {
    enum Start: String, CaseIterable { case broken, missing }

    @Test(arguments: Start.allCases)
    func aGoodSaveBringsThePrivateDaemonBackAndThePageGoesLive(_ start: Start) throws {
        let ui = UIProcessTests.UI()
        let config = ui.dir.path + "/config.yaml"
        if start == .broken { ui.dir.write("config.yaml", "gestures:\n  - name: x\n    gesture: swipee\n") }
        try ui.start(["--config", config])
        let p = try #require(ui.process)
        let session = try #require(JSONValue.parse(Array(try ui.get("/api/session").body.utf8)))
        #expect(session["mode"]?.string == "local")

        // The page is told why there is no engine, with the config's errors.
        let page = try HTTPTestConnection(port: ui.port)
        try page.send(Array("GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:\(ui.port)\r\nCookie: \(ui.session)\r\n\r\n".utf8))
        let why = start == .broken ? "\(config) has 1 error: \(config):3:14: error: unknown gesture kind 'swipee'"
                                   : "\(config) has 1 error: \(config): error: cannot open the config file: ENOENT"
        #expect(page.read { String(decoding: $0, as: UTF8.self).contains(why) }, "\(page.text.suffix(600)) \(p.stderr)")
        let line = try #require(page.text.split(separator: "\n").first { $0.contains(why) }?.drop { $0 != "{" })
        let stopped = try #require(JSONValue.parse(Array(line.utf8)), "\(line)")
        #expect(stopped["type"] == .string("reload") && stopped["source"] == .string("ui") && stopped["ok"] == .bool(false))
        let message = try #require(stopped["message"]?.string)
        #expect(message.hasPrefix("the private daemon (pid ") && message.contains("exited with status 3"), "\(message)")
        let diagnostic = try #require(stopped["diagnostics"]?.array?.first, "\(line)")
        if start == .broken { #expect(diagnostic["line"] == .number(3) && diagnostic["column"] == .number(14), "\(diagnostic)") }
        // … and it is started again, with a longer wait each time.
        #expect(p.waitForLog("It starts again in 2 s"), "\(p.stderr)")
        #expect(!page.text.contains("\"dry_run\":true"), "no engine yet")

        let good = DaemonLifecycleTests.validConfig
        let saved = try #require(JSONValue.parse(Array(try ui.post("/api/save", "{\"text\":\(JSON.string(good)),\"force\":false}").body.utf8)))
        #expect(saved["saved"] == .bool(true))
        #expect(saved["reload"]?.string == "the private daemon was not running; started it again, on the saved file", "\(saved)")
        #expect(page.read { String(decoding: $0, as: UTF8.self).contains("\"dry_run\":true") }, "the page goes live: \(page.text.suffix(600)) \(p.stderr)")
        #expect(page.text.contains("\"config\":\(JSON.string(config))") && page.text.contains("\"name\":\"left\""))
        kill(p.pid, SIGTERM)
        #expect(p.wait() == 0)
    }

    /// A fresh account (no ~/.config): the private daemon runs the built-in default and
    /// cannot watch for the user's file; Save makes it (and its directories), and the
    /// private daemon starts over on it.
    @Test func onAFreshAccountTheSavedConfigIsWhatThePrivateDaemonRuns() throws {
        let ui = UIProcessTests.UI()
        try ui.start([])
        let p = try #require(ui.process)
        let page = try HTTPTestConnection(port: ui.port)
        try page.send(Array("GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:\(ui.port)\r\nCookie: \(ui.session)\r\n\r\n".utf8))
        #expect(page.read { String(decoding: $0, as: UTF8.self).contains("\"dry_run\":true") }, "\(page.text.suffix(300)) \(p.stderr)")
        #expect(page.text.contains("\"config\":\"<built-in default>\""))
        let file = ui.dir.path + "/config/gestured/config.yaml"
        let session = try #require(JSONValue.parse(Array(try ui.get("/api/session").body.utf8)))
        #expect(session["config"]?["path"]?.string == file && session["config"]?["in_use"] == .bool(false))

        let body = "{\"text\":\(JSON.string(DaemonLifecycleTests.validConfig)),\"force\":false}"
        let saved = try #require(JSONValue.parse(Array(try ui.post("/api/save", body).body.utf8)))
        #expect(saved["saved"] == .bool(true), "\(saved)")
        #expect(saved["reload"]?.string == "the private daemon starts again, on the saved file", "\(saved)")
        #expect(page.read { String(decoding: $0, as: UTF8.self).contains("\"config\":\(JSON.string(file))") }, "\(page.text.suffix(600)) \(p.stderr)")
        #expect(!page.text.contains("\"source\": \"ui\""), "it never stopped for long: \(p.stderr)")
        kill(p.pid, SIGTERM)
        #expect(p.wait() == 0)
    }
}
