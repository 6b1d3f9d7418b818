import CLinux
import DaemonCore
import GestureTestSupport
import Glibc
import Testing
@testable import Commands
@testable import DaemonLoop
import JSON
@testable import LiveView

/// `gestured trigger NAME`: a binding run without its gesture, through the daemon's
/// own sinks: a command that really runs, keys on the (fake) virtual device, a desktop
/// action on a (fake) Hyprland; in dry run, none of them; and the CLI's answers.
@Suite(.serialized) struct TriggerTests {
    static func config(_ out: String) -> String {
        """
        gestures:
          - name: note
            gesture: swipe
            fingers: 3
            direction: up
            command: echo "$GESTURE_NAME $GESTURE_TRIGGER $GESTURE_FINGERS $GESTURE_DIRECTION" >> \(out)
          - {name: note-kitty, gesture: swipe, fingers: 3, direction: up, apps: [kitty], command: echo kitty >> \(out)}
          - {name: zoom, gesture: pinch, fingers: 2, begin: echo begin >> \(out), end: echo end >> \(out)}
          - {name: copy, gesture: tap, fingers: 3, command: {keys: ctrl+c}}
          - {name: next, gesture: swipe, fingers: 4, direction: left, command: {workspace: next}, shortcut: <Super><Alt>w}
        """
    }

    /// A daemon on `config`, its virtual device writing into a fake /dev/uinput and its
    /// desktop a fake Hyprland's request socket.
    final class Setup {
        let dir = TempDir()
        let out: String
        let uinput = FakeUinput()
        let hyprland: FakeSocketServer
        let daemon: Daemon

        init(dryRun: Bool) throws {
            out = dir.path + "/out"
            mkdir(dir.path + "/hypr", 0o700)
            mkdir(dir.path + "/hypr/sig", 0o700)
            hyprland = FakeSocketServer(path: dir.path + "/hypr/sig/.socket.sock")
            var options = Daemon.Options()
            options.dryRun = dryRun
            options.openUinput = uinput.open
            daemon = try LiveDeviceTests.makeDaemon(dir, config: TriggerTests.config(out), options: options,
                                                    environment: ["HYPRLAND_INSTANCE_SIGNATURE": "sig", "XDG_RUNTIME_DIR": dir.path])
        }

        /// The control socket's answer to `request`, as a client gets it.
        func ask(_ request: String) throws -> ControlReply {
            daemon.answer(try ControlRequest.parse(request).get())
        }

        /// Runs the loop until `done`, serving Hyprland (`ok` to each request).
        func spin(until done: () -> Bool) -> Bool {
            LiveDeviceTests.spin(daemon) {
                hyprland.pump()
                for fd in hyprland.clients where !(hyprland.received[fd] ?? []).isEmpty {
                    requests.append(String(decoding: hyprland.received[fd]!, as: UTF8.self))
                    hyprland.send(fd, "ok")
                    hyprland.hangUp(fd)
                }
                keys += uinput.events().filter { $0.type == 1 }.map { "\($0.value == 1 ? "+" : "-")\($0.code)" }
                return done()
            }
        }

        var requests: [String] = []
        var keys: [String] = []
        var output: String { LiveDeviceTests.read(out) ?? "" }
    }

    @Test func aCommandRunsWithGestureTriggerManual() throws {
        let s = try Setup(dryRun: false)
        let reply = try s.ask("trigger note")
        #expect(reply == .ok("note: ran (manual trigger):\n  command: echo \"$GESTURE_NAME $GESTURE_TRIGGER $GESTURE_FINGERS $GESTURE_DIRECTION\" >> \(s.out)\n"))
        #expect(s.spin { s.output == "note manual 3 up\n" }, "\(s.output)")
    }

    @Test func theAppChoosesTheVariant() throws {
        let s = try Setup(dryRun: false)
        #expect(try s.ask("trigger note app=kitty").ok)
        #expect(s.spin { s.output == "kitty\n" }, "\(s.output)")
    }

    @Test func aContinuousGestureRunsBeginThenEnd() throws {
        let s = try Setup(dryRun: false)
        #expect(try s.ask("trigger zoom").body == "zoom: ran (manual trigger):\n  begin: echo begin >> \(s.out)\n  end: echo end >> \(s.out)\n")
        #expect(s.spin { s.output == "begin\nend\n" }, "\(s.output)")
    }

    @Test func keysGoToTheVirtualDevice() throws {
        let s = try Setup(dryRun: false)
        #expect(try s.ask("trigger copy").body == "copy: ran (manual trigger):\n  command: keys ctrl+c\n")
        #expect(s.spin { s.keys.count == 4 }, "\(s.keys)")
        #expect(s.keys == ["+29", "+46", "-46", "-29"], "ctrl down, c down, c up, ctrl up")
    }

    @Test func aDesktopActionGoesToTheDesktop() throws {
        let s = try Setup(dryRun: false)
        #expect(try s.ask("trigger next").body == "next: ran (manual trigger):\n  command: workspace next\n")
        #expect(s.spin { s.requests == ["dispatch workspace e+1"] }, "\(s.requests)")
    }

    /// A daemon in dry run answers what would run, and nothing reaches a sink.
    @Test(arguments: ["note", "zoom", "copy", "next"])
    func aDryRunSaysWhatWouldRunAndRunsNothing(_ name: String) throws {
        let s = try Setup(dryRun: true)
        let reply = try s.ask("trigger \(name)")
        #expect(reply.ok && reply.body.hasPrefix("\(name): would run (dry run, nothing ran):\n"), "\(reply)")
        // A dry run has no runner, virtual device nor desktop to send anything to.
        #expect(s.daemon.virtualInput == nil && s.daemon.desktopActions == nil)
        for _ in 0..<20 { _ = s.daemon.runOnce(timeoutMS: 5); s.hyprland.pump() }
        #expect(s.output.isEmpty && s.uinput.events().isEmpty && s.hyprland.clients.isEmpty)
    }

    /// The runner's caps apply to a trigger as to a gesture, and the answer says what
    /// they kept from running.
    @Test func theCommandLimitsApplyAndTheAnswerSaysWhatWasDropped() throws {
        let dir = TempDir()
        let run = dir.path + "/run"
        mkdir(run, 0o700)
        var options = Daemon.Options()
        options.controlSocket = run + "/gestured.sock"
        let daemon = try LiveDeviceTests.makeDaemon(dir, config: """
            settings: {max-children: 1}
            gestures:
              - {name: slow, gesture: tap, fingers: 3, command: sleep 30}
              - {name: quick, gesture: tap, fingers: 4, command: echo quick}
            """, options: options)
        try #require(daemon.startControl())
        defer { daemon.shutdown() }
        #expect(daemon.answer(.trigger("slow")).body == "slow: ran (manual trigger):\n  command: sleep 30\n")
        #expect(daemon.runningCommands == 1)
        let reply = daemon.answer(.trigger("quick"))
        #expect(reply.ok)
        #expect(reply.body.hasSuffix("\n  not run: echo quick: dropped, too many commands running or waiting (max-children, queue-length; the log says which)\n"), "\(reply.body)")
        #expect(daemon.runningCommands == 1)
    }

    @Test func anUnknownNameIsRefusedWithASuggestion() throws {
        let s = try Setup(dryRun: false)
        #expect(try s.ask("trigger nte") == .error("no gesture named 'nte'; did you mean 'note'? (gestured status lists them)"))
    }

    @Test func theRequestReadsBackAsWritten() throws {
        let requests: [ControlRequest] = [.trigger("note"), .trigger("note", app: "org.kde.dolphin"), .trigger("x", origin: .shortcut),
                                          .trigger("x", app: "kitty", origin: .shortcut)]
        for r in requests { #expect(try ControlRequest.parse(r.line).get() == r, "\(r.line)") }
        #expect(try ControlRequest.parse("trigger note from=manual app=kitty").get() == .trigger("note", app: "kitty"))
        for bad in ["trigger", "trigger a b", "trigger a app=x app=y", "trigger a from=gesture", "trigger a app="] {
            guard case .failure(let e) = ControlRequest.parse(bad) else { Issue.record("\(bad) parsed"); continue }
            #expect(e.description.contains("'trigger' takes one gesture name"), "\(bad): \(e)")
        }
    }

    /// The CLI against a real `gestured run --dry-run`: what it prints, and its exit
    /// codes for each way nothing runs.
    @Test func theCommandLine() throws {
        let s = ControlSocketTests.Session()
        let d = try Gestured.Process(["run", "--dry-run", "--config", s.dir.write("trigger.yaml", Self.config(s.dir.path + "/out")),
                                      "--input-dir", s.dir.path + "/input"], environment: s.env)
        defer { kill(d.pid, SIGTERM); _ = d.wait() }
        try #require(d.waitForLog("started:"), "\(d.stderr)")
        let ran = try s.cli(["trigger", "note", "--app", "kitty"])
        #expect(ran.status == 0)
        #expect(ran.stdout == "note-kitty (what note's gesture runs in kitty): would run (dry run, nothing ran):\n  command: echo kitty >> \(s.dir.path)/out\n")
        #expect(d.waitForLog("[note-kitty] run by gestured trigger, not by a gesture, for app kitty: command: echo kitty"))
        // Every binding by name, for a screen reader's or a launcher's list.
        let json = try #require(JSONValue.parse(Array(try s.cli(["status", "--json"]).stdout.utf8)))
        let gestures = try #require(json["gestures"]?.array)
        #expect(gestures.map { $0["name"]?.string ?? "" } == ["note", "note-kitty", "zoom", "copy", "next"])
        let kitty = gestures[1]
        #expect(kitty["kind"] == .string("swipe") && kitty["fingers"] == .number(3) && kitty["fingers_max"] == .number(3))
        #expect(kitty["directions"] == .array([.string("up")]) && kitty["enabled"] == .bool(true))
        #expect(kitty["apps"] == .array([.string("kitty")]) && kitty["variants"] == .array([.string("note")]))
        #expect(kitty["does"] == .string("echo kitty >> \(s.dir.path)/out"))
        #expect(gestures[2]["does"] == .string("begin: echo begin >> \(s.dir.path)/out; end: echo end >> \(s.dir.path)/out"))
        #expect(gestures[3]["does"] == .string("keys ctrl+c") && gestures[4]["does"] == .string("workspace next"))
        #expect(gestures[4]["desktops"] == .array([]) && gestures[4]["this_desktop"] == .bool(true))
        #expect(gestures[4]["shortcut"] == .string("<Super><Alt>w") && gestures[3]["shortcut"] == .null)
        let unknown = try s.cli(["trigger", "nte"])
        #expect(unknown.status == 1 && unknown.stdout.isEmpty)
        #expect(unknown.stderr == "gestured: no gesture named 'nte'; did you mean 'note'? (gestured status lists them)\n")
        let spaced = try s.cli(["trigger", "a b"])
        #expect(spaced.status == 2 && spaced.stderr.contains("a gesture name has no spaces or control characters"))
        kill(d.pid, SIGTERM)
        _ = d.wait()
        let none = try s.cli(["trigger", "note"])
        #expect(none.status == 1 && none.stderr.contains("no gestured is running for this user"), "\(none.stderr)")
    }

    @Test(Requires.root, Requires.programs([("setpriv", "util-linux")]))
    func anotherUserCannotTrigger() throws {
        let s = ControlSocketTests.Session()
        let out = s.dir.path + "/out"
        let d = try Gestured.Process(["run", "--config", s.dir.write("trigger.yaml", Self.config(out)),
                                      "--input-dir", s.dir.path + "/input"], environment: s.env)
        defer { kill(d.pid, SIGTERM); _ = d.wait() }
        try #require(d.waitForLog("started:"), "\(d.stderr)")
        // With every mode loosened by mistake, the daemon's own check (SO_PEERCRED) still refuses.
        chmod(s.dir.path, 0o755)
        chmod(s.runtime, 0o755)
        chmod(s.socket, 0o666)
        let raw = try Gestured.Process(["--reuid=65534", "--regid=65534", "--clear-groups", "/bin/sh", "-c", "printf 'trigger note\\n' | socat - UNIX-CONNECT:\(s.socket)"],
                                       environment: s.env, executable: "/usr/bin/setpriv")
        #expect(raw.wait() == 0)
        #expect(raw.stdout.hasPrefix("error: permission denied: this gestured belongs to uid 0"), "\(raw.stdout) \(raw.stderr)")
        let cli = try Gestured.Process(["--reuid=65534", "--regid=65534", "--clear-groups", Gestured.path, "trigger", "note"],
                                       environment: s.env, executable: "/usr/bin/setpriv")
        #expect(cli.wait() == 1)
        #expect(cli.stderr.hasPrefix("gestured: refusing to talk to \(s.socket)"), "\(cli.stderr)")
        // Its own user's trigger runs, after the refused ones: they left nothing behind.
        #expect(try s.cli(["trigger", "note"]).status == 0)
        let deadline = clinux_monotonic_ns() + 30_000_000_000
        while LiveDeviceTests.read(out)?.hasSuffix("\n") != true && clinux_monotonic_ns() < deadline { usleep(10_000) }
        #expect(LiveDeviceTests.read(out) == "note manual 3 up\n")
    }
}
