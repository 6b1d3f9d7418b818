import CLinux
import DesktopSession
import GestureInput
import GestureTestSupport
import Glibc
import PlainText
import Testing
@testable import Commands
@testable import DaemonLoop
import JSON
@testable import LiveView

/// `gestured ui` as a user runs it: the real process on a real loopback port, asked as
/// the page (and a hostile page) asks.
@Suite(.serialized) struct UIProcessTests {
    static let recording = Recordings.path("touchscreens_Atmel_maXTouch_Touchscreen.4-finger-drag-down.events")

    /// A home and runtime directory of its own (no daemon of the machine's is found),
    /// and `gestured ui` started in it.
    final class UI {
        let dir = TempDir()
        let runtime: String
        var env: [String] { ["XDG_RUNTIME_DIR=\(runtime)", "XDG_CONFIG_HOME=\(dir.path)/config", "HOME=\(dir.path)"] }
        private(set) var process: Gestured.Process?
        private(set) var port: UInt16 = 0
        /// The address it printed, used once by `start` to log in.
        private(set) var url = ""
        /// `gestured_ui_PORT=SESSION`.
        private(set) var session = ""
        var cookie: (String, String) { ("Cookie", session) }
        var origin: (String, String) { ("Origin", "http://127.0.0.1:\(port)") }

        init() {
            runtime = dir.path + "/run"
            mkdir(runtime, 0o700)
            mkdir(dir.path + "/input", 0o700)
        }

        /// Starts it, reads the URL from its first line of output, and logs in with it.
        /// `open`: it opens the browser, with `xdgOpen` as xdg-open on `PATH`.
        func start(_ args: [String], xdgOpen: String? = nil) throws {
            var env = self.env
            if let xdgOpen {
                mkdir(dir.path + "/bin", 0o700)
                _ = dir.write("bin/xdg-open", xdgOpen)
                chmod(dir.path + "/bin/xdg-open", 0o700)
                env.append("PATH=\(dir.path)/bin:/usr/bin:/bin")
            }
            let p = try Gestured.Process(["ui"] + (xdgOpen == nil ? ["--no-open"] : []) + args, environment: env)
            process = p
            let deadline = clinux_monotonic_ns() + 20_000_000_000
            while !p.stdout.contains("\n") && p.poll() == nil && clinux_monotonic_ns() < deadline { p.pump(ms: 50) }
            let url = try #require(p.stdout.split(separator: "\n").first.map(String.init), "no URL; stderr: \(p.stderr)")
            let prefix = "http://127.0.0.1:"
            try #require(url.hasPrefix(prefix), "\(url)")
            let rest = url.dropFirst(prefix.count)
            port = try #require(UInt16(rest.prefix { $0.isNumber }))
            self.url = url
            session = try HTTPTestClient.logIn(url)
        }

        /// A daemon of `validConfig` with no device, then the ui in daemon mode beside it.
        func startBesideADaemon() throws -> (daemon: Gestured.Process, config: String) {
            let config = dir.write("config.yaml", DaemonLifecycleTests.validConfig)
            let daemon = try Gestured.Process(["run", "--config", config, "--input-dir", dir.path + "/input"], environment: env)
            #expect(daemon.waitForLog("started:"))
            try start(["--config", config])
            return (daemon, config)
        }

        func get(_ path: String, _ headers: [(String, String)]? = nil) throws -> HTTPTestResponse {
            try HTTPTestClient.request("GET", path, port: port, headers: headers ?? [cookie])
        }

        func post(_ path: String, _ body: String, _ headers: [(String, String)]? = nil) throws -> HTTPTestResponse {
            try HTTPTestClient.request("POST", path, port: port, headers: headers ?? [cookie, origin], body: Array(body.utf8))
        }
    }

    @Test func replayShowsTheRecordingsContactsFrameByFrame() throws {
        let ui = UI()
        try ui.start(["--replay", Self.recording])
        let r = try ui.get("/api/recording")
        #expect(r.status == 200)
        let timeline = try #require(JSONValue.parse(Array(r.body.utf8)), "\(r.body.prefix(300))")
        #expect(timeline["name"]?.string == "touchscreens_Atmel_maXTouch_Touchscreen.4-finger-drag-down.events")
        #expect(timeline["device"]?["kind"]?.string == "touchscreen")
        let frames = try #require(timeline["frames"]?.array)
        // The same frames the decoder makes of the file: each frame's contacts, in order.
        let recording = try Recording.load(path: Self.recording)
        let pipeline = try ReplayPipeline(recording: recording, specs: [])
        var expected: [Int] = []
        pipeline.run(onFrame: { expected.append($0.contacts.count) }, onEvents: { _ in })
        #expect(frames.count == expected.count)
        #expect(frames.map { $0["contacts"]?.array?.count ?? -1 } == expected)
        #expect(expected.max() == 4, "four fingers at the height of the drag")
        let middle = frames[frames.count / 2]
        #expect(middle["contacts"]?.array?.count == 4)
        #expect(StreamReading.number(middle["fingers"]) == 4)
        // No config: every kind as `replay --detect`, each with its state at each frame.
        #expect(middle["states"]?["swipe-4"] != nil)
        let last = try #require(frames.last?["states"]?["swipe-4"]?["state"]?.string)
        #expect(["recognized", "failed"].contains(last))
        let events = try #require(timeline["events"]?.array)
        #expect(events.contains { $0["type"]?.string == "gesture" }, "what the recording contains")
        #expect(events.contains { $0["type"]?.string == "state" && $0["to"]?.string == "failed" && $0["reason"]?.string != nil })
    }

    @Test func tryOnTheRecordingSaysWhatWouldFireAndRun() throws {
        let ui = UI()
        try ui.start(["--replay", Self.recording])
        let config = "gestures:\n  - name: four-down\n    gesture: swipe\n    fingers: 4\n    direction: down\n    command: echo \"$GESTURE_NAME\" down\n"
        let v = try #require(JSONValue.parse(Array(try ui.post("/api/try", config).body.utf8)))
        #expect(v["ok"] == .bool(true))
        let fired = try #require(v["fired"]?.array, "\(v)")
        let line = try #require(fired.first)
        #expect(line["type"] == .string("gesture") && line["gesture"] == .string("four-down") && line["phase"] == .string("recognized"))
        #expect(line["commands"] == .array([.string("echo \"$GESTURE_NAME\" down")]), "the command's text, untouched")
        let none = try #require(JSONValue.parse(Array(try ui.post("/api/try", config.replacingOccurrences("down\n    command", "up\n    command")).body.utf8)))
        #expect(none["fired"] == .array([]), "a swipe up does not fire on a drag down")
    }

    @Test func aRecordingSentByThePageGetsItsTimeline() throws {
        let ui = UI()
        try ui.start(["--replay", Self.recording])
        let bytes = try #require(UIProcessTests.read(Self.recording))
        let r = try ui.post("/api/recording", bytes)
        #expect(r.status == 200)
        let v = try #require(JSONValue.parse(Array(r.body.utf8)))
        #expect(v["device"]?["name"]?.string == "Atmel maXTouch Touchscreen")
        #expect((v["frames"]?.array?.count ?? 0) > 10)
        let bad = try ui.post("/api/recording", "not a recording\n")
        #expect(bad.status == 422 && bad.body.contains("not a recording"))
    }

    /// Recordings are kept by id (issue 38, item 2): Try runs on the one asked for, not
    /// on the last one sent, and answers with its whole timeline.
    @Test func tryRunsOnTheRecordingOfTheIdAskedFor() throws {
        let ui = UI()
        try ui.start(["--replay", Self.recording])
        let config = "gestures:\n  - name: four-down\n    gesture: swipe\n    fingers: 4\n    direction: down\n    command: echo down\n"
        let tap = try #require(UIProcessTests.read(Recordings.path("touchpads_AlpsPS2_ALPS_GlidePoint.2-finger-tap.events")))
        let sent = try #require(JSONValue.parse(Array(try ui.post("/api/recording?name=tap.events", tap).body.utf8)))
        #expect(sent["id"] == .number(2) && sent["name"] == .string("tap.events"), "\(sent)")
        func tried(_ id: Int) throws -> JSONValue {
            try #require(JSONValue.parse(Array(try ui.post("/api/try?recording=\(id)", config).body.utf8)))
        }
        let onSwipe = try tried(1)
        #expect(onSwipe["fired"]?.array?.first?["gesture"] == .string("four-down"), "the swipe, not the tap sent last")
        #expect(onSwipe["timeline"]?["id"] == .number(1))
        let gestures = onSwipe["timeline"]?["events"]?.array?.filter { $0["type"] == .string("gesture") && $0["phase"] == .string("recognized") }
        #expect(gestures?.first?["commands"] == .array([.string("echo down")]), "the timeline says what would run")
        #expect(try tried(2)["fired"] == .array([]))
        let gone = try ui.post("/api/try?recording=9", config)
        #expect(gone.status == 404 && gone.body.contains("open it again"), "\(gone.body)")
    }

    /// Propose (issue 38, item 6): the binding of a gesture the recording fired, with the
    /// config the page sent or the saved one; what is not there is a clear error and the
    /// ui goes on.
    @Test func proposeAnswersForAFiredGestureAndSaysWhatIsWrongOtherwise() throws {
        let ui = UI()
        try ui.start(["--replay", Self.recording])
        let config = "gestures:\n  - name: four-down\n    gesture: swipe\n    fingers: 4\n    command: echo down\n"
        let r = try ui.post("/api/propose?recording=1&gesture=four-down", config)
        let v = try #require(JSONValue.parse(Array(r.body.utf8)), "\(r.status) \(r.body)")
        #expect(v["fingers"] == .number(4) && v["direction"] == .string("down") && v["margin"] == .number(0.8), "\(v)")
        #expect(v["yaml"]?.string?.contains("min-distance: ") == true, "\(v)")
        let missing = try ui.post("/api/propose?recording=1", "")
        #expect(missing.status == 400 && missing.body.contains("gesture=NAME"), "\(missing.body)")
        let gone = try ui.post("/api/propose?recording=9&gesture=four-down", config)
        #expect(gone.status == 404 && gone.body.contains("open it again"), "\(gone.body)")
        let never = try ui.post("/api/propose?recording=1&gesture=four-up%0A", config)
        #expect(never.status == 404 && never.body.contains("four-up\\n is not recognized"), "\(never.body)")
        let broken = try ui.post("/api/propose?recording=1&gesture=four-down", "gestures: [")
        #expect(broken.status == 422 && broken.body.contains("errors"), "\(broken.body)")
        #expect(try ui.post("/api/propose?recording=1&gesture=four-down", config).status == 200, "the ui goes on")
    }

    /// After Save, `--replay`'s timeline is the saved config's (it was built once, at start).
    @Test func theRecordingsTimelineFollowsTheSavedConfig() throws {
        let ui = UI()
        let swipe = "gestures:\n  - name: four-down\n    gesture: swipe\n    fingers: 4\n    direction: down\n    command: echo down\n"
        let config = ui.dir.write("config.yaml", swipe)
        try ui.start(["--replay", Self.recording, "--config", config])
        func lastSaid() throws -> String? {
            let t = try #require(JSONValue.parse(Array(try ui.get("/api/recording?id=1").body.utf8)))
            return t["frames"]?.array?.last?["states"]?["four-down"]?["reason"]?.string ?? t["frames"]?.array?.last?["states"]?["four-down"]?["state"]?.string
        }
        #expect(try lastSaid() == "recognized")
        let far = swipe.replacing("direction: down\n", with: "direction: down\n    min-distance: 100mm\n")
        #expect(JSONValue.parse(Array(try ui.post("/api/save", saveBody(far, force: false)).body.utf8))?["saved"] == .bool(true))
        #expect(try lastSaid() == "moved 59.6 mm, needs 100.0 mm")
    }

    /// An evemu events file without a header opens with its description (issue 38,
    /// item 5); alone, the error names the user's file, never the ui's copy of it.
    @Test func anEventsFileOpensWithItsDescriptionAndAloneSaysSo() throws {
        let ui = UI()
        try ui.start(["--replay", Self.recording])
        let events = try #require(UIProcessTests.read(Recordings.path("tablets_Wacom_ISDv4_E6_Finger.2fg-tap.events")))
        let description = try #require(UIProcessTests.read(Recordings.path("tablets_Wacom_ISDv4_E6_Finger.desc")))
        let alone = try ui.post("/api/recording?name=wacom.events", events)
        #expect(alone.status == 422)
        #expect(alone.body.contains("wacom.events: no device description") && alone.body.contains(".desc file together with it"), "\(alone.body)")
        #expect(!alone.body.contains(ui.runtime) && !alone.body.contains("gestured-ui-"), "\(alone.body)")
        let n = description.utf8.count
        let pair = try ui.post("/api/recording?name=wacom.events&description=wacom.desc&description_length=\(n)", description + events)
        let v = try #require(JSONValue.parse(Array(pair.body.utf8)), "\(pair.body)")
        #expect(v["device"]?["name"]?.string == "Wacom ISDv4 E6 Finger")
        let junk = "N: x\nA: junk\n"
        let broken = try ui.post("/api/recording?name=wacom.events&description=wacom.desc&description_length=\(junk.utf8.count)", junk + events)
        #expect(broken.status == 422 && broken.body.contains("wacom.desc:2: A: needs an axis code") && !broken.body.contains("gestured-ui-"),
                "\(broken.body)")
        #expect(FileSystemProbe.names(in: ui.runtime).allSatisfy { name in
            FileSystemProbe.names(in: ui.runtime + "/" + name).allSatisfy { !$0.hasPrefix("recording") }
        }, "no copy kept")
    }

    /// `gestured ui --replay FILE --description FILE`, which the error of a headerless
    /// recording asks for.
    @Test func replayTakesADescription() throws {
        let ui = UI()
        try ui.start(["--replay", Recordings.path("tablets_Wacom_ISDv4_E6_Finger.2fg-tap.events"),
                      "--description", Recordings.path("tablets_Wacom_ISDv4_E6_Finger.desc")])
        let t = try #require(JSONValue.parse(Array(try ui.get("/api/recording").body.utf8)))
        #expect(t["device"]?["name"]?.string == "Wacom ISDv4 E6 Finger")
        let without = try Gestured.run(["ui", "--no-open", "--replay", Recordings.path("tablets_Wacom_ISDv4_E6_Finger.2fg-tap.events")],
                                       environment: ui.env)
        #expect(without.status != 0 && without.stderr.contains("--description FILE"), "\(without.stderr)")
    }

    @Test func checkPutsEachDiagnosticAtItsLineAndColumn() throws {
        let ui = UI()
        try ui.start(["--replay", Self.recording])
        let text = "gestures:\n  - name: left\n    gesture: swipe\n    fingers: 3\n    directoin: left\n    command: echo left\n"
        let r = try ui.post("/api/check", text)
        #expect(r.status == 200)
        let v = try #require(JSONValue.parse(Array(r.body.utf8)), "\(r.body)")
        #expect(v["ok"] == .bool(false))
        let d = try #require(v["diagnostics"]?.array?.first)
        #expect(StreamReading.number(d["line"]) == 5 && StreamReading.number(d["column"]) == 5, "\(r.body)")
        #expect(d["severity"]?.string == "error")
        // The very message `gestured check` prints for the file.
        let file = ui.dir.write("typo.yaml", text)
        let check = try Gestured.run(["check", file])
        #expect(check.stdout.contains("\(file):5:5: error: \(d["message"]?.string ?? "?")"))
        let good = try ui.post("/api/check", DaemonLifecycleTests.validConfig)
        #expect(JSONValue.parse(Array(good.body.utf8))?["ok"] == .bool(true))
    }

    @Test func saveIsAtomicKeepsABackupAndReloadsTheDaemon() throws {
        let ui = UI()
        let (daemon, config) = try ui.startBesideADaemon()
        defer { withExtendedLifetime(daemon) {} }  // it runs until the test ends
        let session = try #require(JSONValue.parse(Array(try ui.get("/api/session").body.utf8)))
        #expect(session["mode"]?.string == "daemon")
        #expect(session["config"]?["path"]?.string == config)
        #expect(session["config"]?["text"]?.string == DaemonLifecycleTests.validConfig)

        // A config with an error is not written without a confirmation.
        let broken = "gestures:\n  - name: x\n    gesture: swipee\n"
        let refused = try #require(JSONValue.parse(Array(try ui.post("/api/save", saveBody(broken, force: false)).body.utf8)))
        #expect(refused["saved"] == .bool(false) && refused["needs_confirm"] == .bool(true))
        #expect(Self.read(config) == DaemonLifecycleTests.validConfig)

        let r = try ui.post("/api/save", saveBody(DaemonLifecycleTests.otherValidConfig, force: false))
        let v = try #require(JSONValue.parse(Array(r.body.utf8)), "\(r.body)")
        #expect(v["saved"] == .bool(true), "\(r.body)")
        #expect(v["backup"]?.string == config + ".bak")
        #expect(Self.read(config) == DaemonLifecycleTests.otherValidConfig)
        #expect(Self.read(config + ".bak") == DaemonLifecycleTests.validConfig)
        #expect(v["reload"]?.string == "reloaded \(config): 2 gestures", "\(r.body)")
        var st = stat()
        #expect(stat(config, &st) == 0 && st.st_mode & 0o777 == 0o600 && st.st_uid == getuid(), "mode and owner kept")
        #expect(FileSystemProbe.names(in: ui.dir.path).allSatisfy { !$0.hasSuffix(".tmp") }, "no temporary file left")
        let status = try Gestured.run(["status"], environment: ui.env)
        #expect(status.stdout.contains("right") && status.stdout.contains("pinch"), "\(status.stdout)")

        // Enable and disable go to the daemon, and its answer comes back.
        let off = try #require(JSONValue.parse(Array(try ui.post("/api/disable", "right").body.utf8)))
        #expect(off["ok"] == .bool(true) && off["message"] == .string("right: disabled"), "\(off)")
        let typo = try #require(JSONValue.parse(Array(try ui.post("/api/enable", "rihgt").body.utf8)))
        #expect(typo["ok"] == .bool(false) && typo["message"]?.string?.contains("did you mean 'right'") == true, "\(typo)")
        let hostile = try #require(JSONValue.parse(Array(try ui.post("/api/enable", "right\nreload").body.utf8)))
        #expect(hostile["ok"] == .bool(false))
    }

    /// libmicrohttpd (and the gnutls it pulls in, about 3 MB resident) is loaded by the
    /// ui when it starts, never by the daemon: linked, every gestured process mapped it.
    @Test func onlyTheUIMapsLibmicrohttpd() throws {
        let ui = UI()
        let (daemon, _) = try ui.startBesideADaemon()
        let mapped = { (pid: pid_t) in Self.read("/proc/\(pid)/maps") ?? "" }
        let uiMaps = mapped(try #require(ui.process).pid)
        #expect(uiMaps.contains("libmicrohttpd.so"), "the ui serves the page with it")
        let daemonMaps = mapped(daemon.pid)
        #expect(daemonMaps.contains("libevdev.so"), "the daemon's maps were read")
        #expect(!daemonMaps.contains("libmicrohttpd") && !daemonMaps.contains("libgnutls"))
    }

    @Test func theRealProcessRefusesWhatIsNotItsPage() throws {
        let ui = UI()
        try ui.start(["--replay", Self.recording])
        #expect(try ui.get("/api/session", []).status == 403)
        #expect(try ui.get("/api/session", [ui.cookie, ("Host", "evil.example:\(ui.port)")]).status == 403)
        #expect(try ui.post("/api/check", "x", [ui.cookie, ("Origin", "http://evil.example")]).status == 403)
        #expect(try ui.post("/api/check", "x", [ui.cookie]).status == 403)
        let used = try ui.get(String(ui.url.dropFirst("http://127.0.0.1:\(ui.port)".count)), [])
        #expect(used.status == 403 && used.header("Set-Cookie") == nil, "the printed address works once: \(used)")
        #expect(used.header("Content-Security-Policy") != nil && used.header("Access-Control-Allow-Origin") == nil)
    }

    @Test func itExitsByItselfOnceNoPageIsOpen() throws {
        let ui = UI()
        try ui.start(["--replay", Self.recording, "--idle-exit", "1"])
        let p = try #require(ui.process)
        do {
            // An open page keeps it running: its stream gets the hello, then heartbeats.
            let page = try HTTPTestConnection(port: ui.port)
            try page.send(Array("GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:\(ui.port)\r\nCookie: \(ui.session)\r\n\r\n".utf8))
            #expect(page.read { String(decoding: $0, as: UTF8.self).contains("\"type\":\"hello\"") })
            #expect(page.read { String(decoding: $0, as: UTF8.self).components(": keepalive").count > 4 },
                    "heartbeats for more than the idle time")
            #expect(p.poll() == nil, "still running with a page open")
        }
        #expect(p.wait() == 0, "exited: \(p.stderr)")
        #expect(p.stderr.contains("no page open for 1 s; exiting"))
    }

    @Test func withNoDaemonItRunsAPrivateOneInDryRunAndStopsIt() throws {
        let ui = UI()
        try ui.start([])
        let session = try #require(JSONValue.parse(Array(try ui.get("/api/session").body.utf8)))
        #expect(session["mode"]?.string == "local")
        let page = try HTTPTestConnection(port: ui.port)
        try page.send(Array("GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:\(ui.port)\r\nCookie: \(ui.session)\r\n\r\n".utf8))
        #expect(page.read { String(decoding: $0, as: UTF8.self).contains("\"dry_run\":true") }, "\(page.text.suffix(300))")
        let privateDirs = FileSystemProbe.names(in: ui.runtime).filter { $0.hasPrefix("gestured-ui-") }
        #expect(privateDirs.count == 1, "its control socket is in a directory of its own, not $XDG_RUNTIME_DIR/gestured.sock")
        #expect(!FileSystemProbe.names(in: ui.runtime).contains("gestured.sock"))
        let p = try #require(ui.process)
        kill(p.pid, SIGTERM)
        #expect(p.wait() == 0)
        #expect(FileSystemProbe.names(in: ui.runtime).filter { $0.hasPrefix("gestured-ui-") }.isEmpty, "the private daemon stopped and cleaned up")
    }

    /// SIGKILL gives the ui no chance to stop its private daemon: the daemon sees its
    /// parent go (`--ui-parent`, a pidfd) and stops, and its directory goes with it.
    @Test func aKilledUIsPrivateDaemonStopsToo() throws {
        let ui = UI()
        try ui.start([])
        let p = try #require(ui.process)
        let announced = "started a private one in dry run (pid "
        #expect(p.waitForLog(announced))
        let pid = try #require(p.stderr.components(announced).last.flatMap { pid_t($0.prefix { $0.isNumber }) })
        let daemon = clinux_pidfd_open(pid)
        try #require(daemon >= 0, "the private daemon (pid \(pid)) runs")
        defer { close(daemon) }
        let deadline = clinux_monotonic_ns() + 15_000_000_000
        while !FileSystemProbe.names(in: ui.runtime).contains(where: { $0.hasPrefix("gestured-ui-") }) && clinux_monotonic_ns() < deadline { p.pump(ms: 50) }
        kill(p.pid, SIGKILL)
        var exited = pollfd(fd: daemon, events: Int16(POLLIN), revents: 0)
        while poll(&exited, 1, 50) == 0 && clinux_monotonic_ns() < deadline { p.pump(ms: 0) }
        #expect(exited.revents & Int16(POLLIN) != 0, "the private daemon exited within 15 s of the ui")
        #expect(FileSystemProbe.names(in: ui.runtime).filter { $0.hasPrefix("gestured-ui-") }.isEmpty, "its directory was removed")
    }

    /// Another local user can read every process's command line (/proc/PID/cmdline):
    /// xdg-open's and the browser's carry only the name of a file of ours (0600, in a
    /// 0700 directory), which leads to a login address of its own. Each address works
    /// once, for a session whose cookie is not its token; the file goes at exit.
    @Test func theBrowserIsOpenedWithNoSecretOnAnyCommandLine() throws {
        let ui = UI()
        // What a browser started by xdg-open would be given, and what any process can read of it.
        try ui.start(["--replay", Self.recording], xdgOpen: """
            #!/bin/sh
            tr '\\0' '\\n' < /proc/$$/cmdline > "\(ui.dir.path)/cmdline.tmp"
            mv "\(ui.dir.path)/cmdline.tmp" "\(ui.dir.path)/cmdline"

            """)
        let p = try #require(ui.process)
        let deadline = clinux_monotonic_ns() + 20_000_000_000
        while UIProcessTests.read(ui.dir.path + "/cmdline") == nil && clinux_monotonic_ns() < deadline { p.pump(ms: 20) }
        let cmdline = try #require(UIProcessTests.read(ui.dir.path + "/cmdline"), "xdg-open ran; stderr: \(p.stderr)")
        let argument = try #require(cmdline.split(separator: "\n").last.map(String.init))
        #expect(argument.hasPrefix("file://\(ui.runtime)/gestured-open-") && argument.hasSuffix("/open.html"), "\(cmdline)")
        #expect(!cmdline.contains("token") && !cmdline.contains(ui.session.split(separator: "=")[1]), "\(cmdline)")
        #expect(cmdline.split(whereSeparator: { !$0.isHexDigit }).allSatisfy { $0.count < 32 }, "no 128-bit secret: \(cmdline)")
        let file = String(argument.dropFirst("file://".count))
        var st = stat()
        #expect(stat(file, &st) == 0 && st.st_mode & 0o777 == 0o600)
        #expect(stat(String(file.dropLast("/open.html".count)), &st) == 0 && st.st_mode & 0o777 == 0o700)
        let page = try #require(UIProcessTests.read(file))
        let start = try #require(page.firstRange(of: "url=http://127.0.0.1:\(ui.port)/?token="))
        let url = String(page[page.index(start.lowerBound, offsetBy: 4)...].prefix { $0 != "\"" })
        #expect(url != ui.url, "the file's address is not the printed one")
        let session = try HTTPTestClient.logIn(url)
        #expect(session != ui.session && !url.contains(session.split(separator: "=")[1]), "a session of its own, not the token")
        let target = String(url.dropFirst("http://127.0.0.1:\(ui.port)".count))
        #expect(try ui.get(target, []).status == 403, "the file's address works once")
        #expect(try ui.get("/api/session", [("Cookie", session)]).status == 200)
        #expect(try ui.get("/api/session").status == 200, "the printed address's session still works")
        kill(p.pid, SIGTERM)
        #expect(p.wait() == 0)
        #expect(UIProcessTests.read(file) == nil, "the file is removed at exit")
    }

    /// `--config FIFO` would block the ui's only thread in open(2) at the page's first
    /// request, deaf to SIGTERM: refused at start, naming the file.
    @Test func aConfigThatIsNotARegularFileIsRefusedAtStart() throws {
        let ui = UI()
        let fifo = ui.dir.path + "/config.yaml"
        try #require(mkfifo(fifo, 0o600) == 0)
        let p = try Gestured.Process(["ui", "--no-open", "--replay", Self.recording, "--config", fifo], environment: ui.env)
        #expect(p.wait(timeoutMS: 20_000) == 1, "exits; stdout: \(p.stdout)")
        #expect(p.stderr.contains("\(fifo): refusing a FIFO (named pipe): a config must be a regular file"), "\(p.stderr)")
    }

    /// A config replaced by a FIFO while the ui runs: the page still gets its session
    /// (the built-in text), Save refuses to back it up, and SIGTERM still ends the ui.
    @Test func aConfigSwappedForAFIFOBlocksNeitherThePageNorSIGTERM() throws {
        let ui = UI()
        let config = ui.dir.write("config.yaml", "gestures: []\n")
        try ui.start(["--replay", Self.recording, "--config", config])
        unlink(config)
        try #require(mkfifo(config, 0o600) == 0)
        let session = try ui.get("/api/session")
        #expect(session.status == 200, "\(session)")
        let save = try #require(JSONValue.parse(Array(try ui.post("/api/save", saveBody("gestures: []\n", force: false)).body.utf8)))
        #expect(save["saved"] == .bool(false))
        #expect(save["message"]?.string?.contains("\(config): refusing a FIFO") == true, "\(save)")
        let p = try #require(ui.process)
        kill(p.pid, SIGTERM)
        #expect(p.wait(timeoutMS: 20_000) == 0)
    }

    @Test func itExitsOnSIGTERM() throws {
        let ui = UI()
        try ui.start(["--replay", Self.recording])
        let p = try #require(ui.process)
        kill(p.pid, SIGTERM)
        #expect(p.wait() == 0)
    }

    func saveBody(_ text: String, force: Bool) -> String { "{\"text\":\(text.quoted),\"force\":\(force)}" }

    static func read(_ path: String) -> String? {
        guard let f = fopen(path, "r") else { return nil }
        defer { fclose(f) }
        var out: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 4096)
        while case let n = fread(&buf, 1, buf.count, f), n > 0 { out += buf[0..<n] }
        return String(decoding: out, as: UTF8.self)
    }
}

enum FileSystemProbe {
    static func names(in dir: String) -> [String] {
        guard let d = opendir(dir) else { return [] }
        defer { closedir(d) }
        var out: [String] = []
        while let e = readdir(d) { out.append(withUnsafeBytes(of: e.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }) }
        return out
    }
}
