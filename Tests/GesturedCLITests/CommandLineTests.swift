import GestureTestSupport
import Glibc
import Testing

/// The command line as a user meets it: help, errors, exit codes.
@Suite struct CommandLineTests {
    @Test func topLevelHelpListsEveryCommandAndTheExitCodes() throws {
        let r = try Gestured.run(["--help"])
        #expect(r.status == 0)
        #expect(r.stdout == """
        gestured 0.1.0: multi-finger gestures on touchpads and touchscreens → commands

        usage: gestured <command> [options]

        commands:
          run           run the daemon in the foreground
          check         validate a config file
          import        turn a libinput-gestures, fusuma or touchegg config into a gestured config
          watch         live view of every recognizer on the real devices (no commands)
          list-devices  show touchpads and touchscreens, and why other devices are not used
          replay        feed a recording through the pipeline
          record        record a device's events to a file for a bug report
          record-shape  record samples of a drawn shape for 'gesture: shape'
          status        what the running daemon is doing: config, devices, gestures, focused app
          enable        enable a gesture in the running daemon
          disable       disable a gesture in the running daemon
          trigger       run a gesture's action without the gesture (a key, a launcher, a screen reader)
          reload        make the running daemon read its config again
          events        print the running daemon's event stream: touches, states, gestures, actions
          ui            the live view and playground in the browser (devices, recognizers, config)

        gestured <command> --help shows a command's options.

        exit codes: 0 success, 1 failure (file, device or system error), 2 usage error,
                    3 invalid config

        """)
    }

    @Test func noArgumentsIsAUsageError() throws {
        let r = try Gestured.run([])
        #expect(r.status == 2)
        #expect(r.stderr.contains("usage: gestured <command>"))
    }

    @Test func versionPrintsTheVersion() throws {
        let r = try Gestured.run(["--version"])
        #expect(r.status == 0)
        #expect(r.stdout == "gestured 0.1.0\n")
    }

    @Test(arguments: ["run", "check", "import", "watch", "list-devices", "replay", "record", "events", "ui", "trigger"])
    func everyCommandHasHelp(command: String) throws {
        let r = try Gestured.run([command, "--help"])
        #expect(r.status == 0)
        #expect(r.stdout.hasPrefix("usage: gestured \(command)"))
    }

    @Test func aMisspeltCommandGetsADidYouMean() throws {
        let r = try Gestured.run(["reply", "x.events"])
        #expect(r.status == 2)
        #expect(r.stderr == "gestured: unknown command 'reply'; did you mean 'replay'?\n(gestured --help lists the commands)\n")
    }

    @Test func aMisspeltOptionGetsADidYouMean() throws {
        let r = try Gestured.run(["run", "--dryrun"])
        #expect(r.status == 2)
        #expect(r.stderr == "gestured run: unknown option '--dryrun'; did you mean '--dry-run'?\n(gestured run --help shows the options)\n")
    }

    @Test func anOptionWithoutItsValueIsAUsageError() throws {
        let r = try Gestured.run(["check", "--config"])
        #expect(r.status == 2)
        #expect(r.stderr.hasPrefix("gestured check: --config needs a value"))
    }

    @Test func listDevicesWithNoDevicesExitsZeroAndSaysWhatToDo() throws {
        let empty = TempDir()
        let r = try Gestured.run(["list-devices", "--input-dir", empty.path])
        #expect(r.status == 0)
        #expect(r.stdout.contains("No touchpad or touchscreen is available to gestured."))
        #expect(r.stdout.contains("sudo usermod -aG input $USER"))
        #expect(r.stdout.contains("gestured replay"))
    }

    @Test func listDevicesNamesAnUnreadableNodeAndTheFix() throws {
        let dir = TempDir()
        // Not a device at all: what matters is that the node is named with the reason.
        dir.write("event3", "not a device", mode: 0o600)
        let r = try Gestured.run(["list-devices", "--input-dir", dir.path])
        #expect(r.status == 0)
        #expect(r.stdout.contains("\(dir.path)/event3"))
    }

    @Test func checkAcceptsTheShippedDefault() throws {
        let r = try Gestured.run(["check", Self.repository + "/config/default.yaml"])
        #expect(r.status == 0, "\(r.stdout)")
        #expect(r.stdout.contains("config/default.yaml: ok, 2 gestures\n"))
        // The default presses no keys: it needs no uinput.
        #expect(!r.stdout.contains("cannot be delivered"), "\(r.stdout)")
    }

    /// `check` names what this session's desktop cannot do, by the desktop's name.
    @Test func checkSaysWhatTheDesktopCannotDo() throws {
        let dir = TempDir()
        let path = dir.write("c.yaml", "gestures:\n  - {name: ov, gesture: pinch, fingers: 4, command: {overview: toggle}}\n  - {name: ws, gesture: swipe, command: {workspace: next}}\n")
        let sway = try Gestured.run(["check", path], environment: ["SWAYSOCK=/nonexistent/sway.sock"])
        #expect(sway.status == 0)
        #expect(sway.stdout == "\(path): ok, 2 gestures\n\(path): warning: gesture 'ov': overview toggle: sway has no overview\n")
        let none = try Gestured.run(["check", path], environment: [])
        #expect(none.stdout.contains("note: desktop actions ({workspace: next} and the like) will do nothing in this session: no desktop session"), "\(none.stdout)")
    }

    /// `shortcut:` is bound by gestured only on GNOME: elsewhere `check` says so, and
    /// how to bind `gestured trigger NAME` in that desktop's own shortcuts.
    @Test(arguments: [
        (["SWAYSOCK=/nonexistent/sway.sock"], "not in sway: bind `gestured trigger NAME` in the desktop's own shortcuts instead, "
            + "e.g. for 'ws' (<Super><Alt>w): `bindsym Mod4+Mod1+w exec gestured trigger ws` in its config\n"),
        (["HYPRLAND_INSTANCE_SIGNATURE=x", "XDG_RUNTIME_DIR=/nonexistent"], "e.g. for 'ws' (<Super><Alt>w): `bind = SUPER ALT, w, exec, gestured trigger ws` in hyprland.conf\n"),
        (["XDG_CURRENT_DESKTOP=KDE", "DBUS_SESSION_BUS_ADDRESS=unix:path=/nonexistent"],
         "System Settings → Keyboard → Shortcuts → Add New → Command or Script: `gestured trigger ws`, then the keys Meta+Alt+w\n"),
        ([], "not in this session: bind `gestured trigger NAME` in the desktop's own shortcuts instead, e.g. for 'ws' (<Super><Alt>w): "
            + "in the desktop's keyboard shortcut settings, the command `gestured trigger ws`\n"),
    ])
    func checkSaysHowToBindAShortcutOffGNOME(environment: [String], says: String) throws {
        let dir = TempDir()
        let path = dir.write("c.yaml", "gestures:\n  - {name: ws, gesture: swipe, command: echo, shortcut: <Super><Alt>w}\n")
        let r = try Gestured.run(["check", path], environment: environment)
        #expect(r.status == 0)
        #expect(r.stdout.contains("note: 'shortcut:' keys are bound only on GNOME (through gestured's extension)"), "\(r.stdout)")
        #expect(r.stdout.hasSuffix(says), "\(r.stdout)")
        let gnome = try Gestured.run(["check", path], environment: ["XDG_CURRENT_DESKTOP=GNOME", "DBUS_SESSION_BUS_ADDRESS=unix:path=/nonexistent"])
        #expect(gnome.stdout == "\(path): ok, 1 gesture\n", "on GNOME the extension binds it: no note")
    }

    @Test func checkPrintsEveryErrorWithFileLineColumnAndExits3() throws {
        let dir = TempDir()
        let path = dir.write("config.yaml", """
        gestures:
          - name: one
            gesture: swip
            fingers: 3
            command: echo one
          - name: two
            gesture: pinch
            fingrs: 2
            update: echo two
        """)
        let r = try Gestured.run(["check", path])
        #expect(r.status == 3)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("\(path):3:") && $0.contains("error") && $0.contains("did you mean 'swipe'") }, "\(r.stdout)")
        #expect(lines.contains { $0.hasPrefix("\(path):8:") && $0.contains("error") && $0.contains("did you mean 'fingers'") }, "\(r.stdout)")
        #expect(lines.last?.hasPrefix("\(path): ") == true && lines.last?.contains("error") == true)
    }

    @Test func replayOfAMissingFileNamesIt() throws {
        let r = try Gestured.run(["replay", "/nonexistent/x.events"])
        #expect(r.status == 1)
        #expect(r.stderr == "gestured replay: /nonexistent/x.events: ENOENT (No such file or directory)\n")
    }

    @Test func replayFramesOfTheCypressThreeFingerTapShowsThreeFingers() throws {
        let r = try Gestured.run(["replay", Self.recordings + "/touchpads_CyPS2_Cypress_Trackpad.three_finger_tap.events",
                                  "--frames", "--detect"])
        #expect(r.status == 0)
        let frames = r.stdout.split(separator: "\n").filter { $0.hasPrefix("0.") && $0.contains("finger") }
        #expect(frames.first == "0.000000  3 fingers  #0 (40.1, 16.8)")
        #expect(frames.filter { $0.contains("  3 fingers  #") }.count == 5)
        #expect(r.stdout.contains("tap-3  tap recognized  3 fingers"))
    }

    static let repository = Recordings.repository
    static let recordings = repository + "/Tests/Recordings"
}
