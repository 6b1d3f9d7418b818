import CLinux
@testable import DesktopSession
import GestureTestSupport
import Glibc
import Testing
@testable import Commands
@testable import DaemonLoop
import JSON
@testable import LiveView

extension RealDesktops {
    /// gestured on a real GNOME Shell (Debian's 43, headless: `GNOMESession`) with its
    /// extension (gnome-extension/) and two foot windows of different app ids: the focus
    /// as GNOME has it picks the binding a swipe on the fake touchpad runs; a forged signal
    /// changes nothing; turning the extension off and on is seen without a restart; and the
    /// extension's actions change GNOME's own workspace state.
    @Suite struct GNOMEShellTests {
        static func source(_ session: GNOMESession) -> GNOMEShellSource {
            GNOMEShellSource(busAddress: session.address, retryInitial: 0.05, retryMaximum: 0.2)
        }

        @Test(GNOMESession.programs, GNOMESession.dbusmock)
        func theFocusAsGNOMEHasItPicksTheBindingAndNothingElseCanSayIt() throws {
            try Self.theFocusAsGNOMEHasItPicksTheBinding(in: nil)
        }

        static func theFocusAsGNOMEHasItPicksTheBinding(in root: DebianRoot?) throws {
            // The extension is installed but off until the user enables it.
            let session = try GNOMESession(enabled: [GNOMESession.harnessUUID], in: root)
            let source = Self.source(session)
            var heard: [FocusedApp?] = []
            let (daemon, pad, out) = try CompositorFocusTests.daemon(session.dir, source: source, onFocus: { heard.append($0) })
            #expect(LiveDeviceTests.spin(daemon, seconds: 15) { source.problem != nil }, "the missing extension is noticed: \(session.log)")
            let alone = try SourceHarness(Self.source(session))
            #expect(alone.spin(seconds: 15) { alone.log.contains { $0.contains("enable it with: gnome-extensions enable gestured@") } },
                    "said in the log at start-up: \(alone.log)")
            var status = daemon.statusText()
            #expect(status.contains("focused app: not known yet — from gnome (\(session.address)), not connected: "
                                    + "the gestured GNOME Shell extension is not running (not enabled, or the screen is locked)"), "\(status)")
            #expect(status.contains("enable it with: gnome-extensions enable gestured@gestured.github.io"), "\(status)")

            try session.extensions("enable")
            #expect(CompositorFocusTests.waitForFocus(daemon, nil), "picked up with no restart: \(source.problem ?? "")")
            #expect(source.problem == nil)

            for id in ["one", "two"] {
                try session.openWindow(appID: id)
                #expect(CompositorFocusTests.waitForFocus(daemon, id), "foot --app-id=\(id) has the focus: \(session.log)")
            }
            #expect(CompositorFocusTests.swipe(daemon, pad, out: out) == "workspace\n", "in 'two' the global binding runs")
            for (id, expected) in [("one", "back\n"), ("two", "workspace\n"), ("one", "back\n")] {
                try session.focus(appID: id)
                #expect(CompositorFocusTests.waitForFocus(daemon, id))
                #expect(CompositorFocusTests.swipe(daemon, pad, out: out) == expected, "focused \(id)")
            }
            status = daemon.statusText()
            #expect(status.contains("focused app: one (foot) — from gnome (\(session.address))\n"), "\(status)")

            // Another client says 'two' has the focus: broadcast (the bus does not route it to
            // us: the match names org.gnome.Shell) and sent to us directly (which arrives).
            let forged = ["--object-path", "/io/github/gestured/Shell", "--signal", "io.github.gestured.Shell.FocusChanged",
                          "two", "forged", "wayland", "two", "two", "", ""]
            try session.gdbus(["emit"] + forged)
            try session.gdbus(["emit", "--dest", try #require(source.uniqueName)] + forged)
            #expect(LiveDeviceTests.spin(daemon) { source.ignoredSignals >= 1 }, "the forged signal reached the source")
            #expect(daemon.focus.app == FocusedApp(app: "one", title: "foot"), "still 'one'")
            #expect(CompositorFocusTests.swipe(daemon, pad, out: out) == "back\n")
            #expect(!heard.contains { $0?.title == "forged" }, "\(heard)")

            try session.extensions("disable")
            #expect(LiveDeviceTests.spin(daemon, seconds: 15) { source.problem != nil && daemon.focus.app == nil }, "disabling is seen")
            status = daemon.statusText()
            #expect(status.contains("enable it with: gnome-extensions enable gestured@gestured.github.io"), "\(status)")
            #expect(CompositorFocusTests.swipe(daemon, pad, out: out) == "workspace\n", "no app known: only the global binding")

            try session.extensions("enable")
            #expect(CompositorFocusTests.waitForFocus(daemon, "one"), "enabled again: picked up")
            #expect(source.problem == nil)
            #expect(CompositorFocusTests.swipe(daemon, pad, out: out) == "back\n")
        }

        /// Before GNOME Shell is on the bus (a session bus with no org.gnome.Shell), the
        /// source says so and waits, connected to the bus, for it to appear.
        @Test(Requires.programs([("dbus-daemon", "dbus-daemon")]))
        func noGNOMEShellYetIsSaidOnce() throws {
            let dir = TempDir()
            let (bus, address) = try KWinFocusTests.privateBus(dir)
            let source = GNOMEShellSource(busAddress: address)
            let h = try SourceHarness(source)
            #expect(h.spin { source.problem != nil })
            #expect(source.problem?.hasPrefix("GNOME Shell is not on the session bus (nothing owns org.gnome.Shell)") == true)
            #expect(h.log.filter { $0.contains("GNOME Shell is not on the session bus") }.count == 1, "\(h.log)")
            #expect(h.changes.isEmpty)
            _ = bus
        }

        /// Both forms are the one file of logic with their own head, tail and GNOME versions,
        /// so neither can drift from the other (the 43 form runs on this host's GNOME 43;
        /// the 45 form on GNOME 48 and 50 in TodaysGNOMETests).
        @Test(arguments: [("43", ["const {Gio, GLib, Meta, Shell} = imports.gi;", "const Main = imports.ui.main;", "function init() {"],
                           "\"shell-version\": [\"43\", \"44\"]", "import "),
                          ("45", ["import Gio from 'gi://Gio';", "import * as Main from 'resource:///org/gnome/shell/ui/main.js';",
                                  "export default class extends Extension {", "        this._logic = new GesturedShell();"],
                           "\"shell-version\": [\"45\", \"46\", \"47\", \"48\", \"49\", \"50\"]", "imports.")])
        func bothFormsAreBuiltFromTheOneSource(series: String, forms: [String], versions: String, foreign: String) throws {
            let dir = TempDir()
            let build = try Gestured.Process([series, dir.path + "/ext"], executable: GNOMESession.root + "/gnome-extension/build")
            #expect(build.wait() == 0, "\(build.stderr)")
            let js = HostileDeviceTests.readAll(dir.path + "/ext/extension.js")
            #expect(js.contains(HostileDeviceTests.readAll(GNOMESession.root + "/gnome-extension/gestured.js")))
            for line in forms { #expect(js.contains("\n" + line + "\n"), "\(line)") }
            #expect(!js.split(separator: "\n").contains { $0.hasPrefix(foreign) }, "no line of the other form")
            let metadata = HostileDeviceTests.readAll(dir.path + "/ext/metadata.json")
            #expect(metadata.contains(versions))
            #expect(metadata.contains("\"uuid\": \"gestured@gestured.github.io\""))
        }

        /// The form each GNOME loads, as `make install`, `build auto` and the package's
        /// postinst (again at every gnome-shell upgrade, by its trigger) ask for it.
        @Test(arguments: [("43.9", "43"), ("44", "43"), ("45.0", "45"), ("48.7", "45"), ("50.5", "45"), ("51.alpha", "45"),
                          ("GNOME", "45")])
        func eachGNOMEGetsTheFormItLoads(version: String, series: String) throws {
            let p = try Gestured.Process([version], executable: GNOMESession.root + "/gnome-extension/series")
            #expect(p.wait() == 0)
            #expect(p.stdout == series + "\n", "GNOME Shell \(version)")
        }

        /// `{workspace: next}` and `{workspace: previous}` from a swipe on the fake touchpad,
        /// through the daemon's desktop sink and the extension, as GNOME itself reports it.
        @Test(GNOMESession.programs, GNOMESession.dbusmock)
        func swipesSwitchGNOMEsWorkspaceThroughTheExtension() throws {
            let session = try GNOMESession(enabled: [GNOMESession.harnessUUID, GNOMESession.extensionUUID])
            let h = try SourceHarness(Self.source(session))
            try session.openWindow(appID: "one")
            try #require(h.spin(seconds: 30) { h.changes.last == FocusedApp(app: "one", title: "foot") }, "focused: \(session.log)")
            let daemon = try LiveDeviceTests.makeDaemon(session.dir, config: DesktopActionsCompositorTests.config,
                                                        environment: ["XDG_CURRENT_DESKTOP": "GNOME", "WAYLAND_DISPLAY": "wayland-0",
                                                                      "DBUS_SESSION_BUS_ADDRESS": session.address])
            let pad = try FakeTouchpad()
            daemon.adopt(pad.device, announce: true)
            let active = "global.workspace_manager.get_active_workspace_index()"
            func activeWorkspace() -> String { (try? session.eval(active)) ?? "" }
            // GNOME's dynamic workspaces: the window's, and an empty one after it.
            #expect(try session.eval("global.workspace_manager.get_n_workspaces()") == "2")
            #expect(activeWorkspace() == "0")
            LiveDeviceTests.swipe(pad, dxMM: -40)
            #expect(DesktopActionsCompositorTests.wait(daemon, for: "1", activeWorkspace) == "1", "{workspace: next}: \(session.log)")
            LiveDeviceTests.swipe(pad, dxMM: 40)
            #expect(DesktopActionsCompositorTests.wait(daemon, for: "0", activeWorkspace) == "0", "{workspace: previous}")
            #expect(daemon.runningCommands == 0, "no process, no key: the extension did it")
        }

        @Test(GNOMESession.programs, GNOMESession.dbusmock)
        func theExtensionsActionsChangeGNOMEsOwnState() throws {
            try Self.theExtensionsActionsChangeGNOMEsOwnState(in: nil)
        }

        static func theExtensionsActionsChangeGNOMEsOwnState(in root: DebianRoot?) throws {
            let session = try GNOMESession(enabled: [GNOMESession.harnessUUID, GNOMESession.extensionUUID], in: root)
            // Another program on the session bus, listening to every FocusChanged there is.
            let other = try FollowClient(address: session.address, owning: nil)
            // The extension's own signal says when each window is shown and focused.
            let h = try SourceHarness(Self.source(session))
            for id in ["one", "two"] {
                try session.openWindow(appID: id)
                try #require(h.spin(seconds: 30) { h.changes.last == FocusedApp(app: id, title: "foot") }, "focused: \(session.log)")
            }
            // The source (the owner of io.github.gestured.Focus) was told each focus and its
            // title; the other program, answered by GNOME after every signal sent before, none.
            #expect(other.eval("global.display.focus_window.get_wm_class()") == "\"two\"")
            other.pump(untilNS: clinux_monotonic_ns())
            #expect(other.focusTitles == [], "a non-owner hears no focus, no title")
            var refusal = #expect(throws: FollowClient.BusError.self) { _ = try other.getFocus() }
            #expect(refusal?.name == "org.freedesktop.DBus.Error.AccessDenied", "\(String(describing: refusal))")
            // gestured's desktop actions: the owner of io.github.gestured.
            let gestured = try FollowClient(address: session.address)
            let focus = try gestured.getFocus()
            #expect(focus.app == "two" && focus.title == "foot", "\(focus)")
            let active = "global.workspace_manager.get_active_workspace_index()"
            let windowAt = "global.display.focus_window.get_workspace().index()"

            // GNOME's dynamic workspaces: the windows', and an empty one after it.
            #expect(try session.eval("global.workspace_manager.get_n_workspaces()") == "2")
            #expect(try gestured.call("SwitchWorkspace", "next") == "(uint32 2,)")
            #expect(try session.eval(active) == "1")
            #expect(try gestured.call("SwitchWorkspace", "next") == "(uint32 2,)", "the last: GNOME does not wrap around")
            #expect(try gestured.call("SwitchWorkspace", "previous") == "(uint32 1,)")
            #expect(try session.eval(active) == "0")
            #expect(try gestured.call("SwitchWorkspace", "2") == "(uint32 2,)")
            #expect(try session.eval(active) == "1")
            #expect(try gestured.call("SwitchWorkspace", "1") == "(uint32 1,)")

            #expect(try gestured.call("MoveWindowToWorkspace", "next") == "(uint32 2,)")
            #expect(try session.eval(windowAt) == "1", "'two' moved; 'one' keeps the first workspace from being removed")
            #expect(try session.eval(active) == "1", "and the view followed it, as GNOME's Shift+Super+Page_Down does")
            #expect(gestured.wait("global.workspace_manager.get_n_workspaces()", for: "3") == "3", "GNOME added an empty one after it (later)")

            #expect(try gestured.call("Overview", "on") == "(true,)")
            #expect(try session.eval("Main.overview.visibleTarget") == "true")
            #expect(try gestured.call("AppGrid", "toggle") == "(true,)")
            #expect(try session.eval("Main.overview.dash.showAppsButton.checked") == "true", "the app grid")
            #expect(try gestured.call("AppGrid", "off") == "(false,)")
            #expect(try session.eval("Main.overview.visibleTarget") == "false")

            // Only the active workspace's windows: 'two', not 'one'.
            let minimized = "global.get_window_actors().map(a => a.meta_window.get_wm_class() + '=' + a.meta_window.minimized).join(',')"
            #expect(try gestured.call("ShowDesktop", "toggle") == "(true,)")
            #expect(try session.eval(minimized) == "\"one=false,two=true\"")
            #expect(try gestured.call("ShowDesktop", "toggle") == "(false,)")
            #expect(try session.eval(minimized) == "\"one=false,two=false\"")
            #expect(try session.eval("global.display.focus_window.get_wm_class()") == "\"two\"", "and focused again")

            // A target the extension does not know is refused, and nothing moves.
            refusal = #expect(throws: FollowClient.BusError.self) { _ = try gestured.call("SwitchWorkspace", "sideways") }
            #expect(refusal?.description == "org.freedesktop.DBus.Error.InvalidArgs: target must be next, previous or a workspace number from 1, "
                    + "not 'sideways'")
            #expect(try session.eval(active) == "1")

            // Any other program is refused every method, and nothing moves: gdbus, and a
            // client of its own, while gestured owns the name and after it has left.
            for method in ["SwitchWorkspace next", "MoveWindowToWorkspace next", "Overview on", "AppGrid on", "ShowDesktop on"] {
                let words = method.split(separator: " ").map(String.init)
                let p = try Gestured.Process(["call", "--address", session.address, "--dest", "org.gnome.Shell",
                                              "--object-path", "/io/github/gestured/Shell",
                                              "--method", "io.github.gestured.Shell." + words[0], words[1]], executable: "/usr/bin/gdbus")
                #expect(p.wait() != 0)
                #expect(p.stderr.contains("org.freedesktop.DBus.Error.AccessDenied: only gestured (the owner of io.github.gestured) may call this"),
                        "\(method): \(p.stderr)")
            }
            gestured.close()
            refusal = #expect(throws: FollowClient.BusError.self) { _ = try other.call("SwitchWorkspace", "previous") }
            #expect(refusal?.name == "org.freedesktop.DBus.Error.AccessDenied")
            #expect(try session.eval(active) == "1", "the workspace did not change")
            #expect(try session.eval("Main.overview.visibleTarget") == "false")
            #expect(try session.eval(minimized) == "\"one=false,two=false\"")
            // What anyone may read: the interface's version (README's check that it runs).
            #expect(try session.gdbus(["call", "--dest", "org.gnome.Shell", "--object-path", "/io/github/gestured/Shell", "--method",
                                       "org.freedesktop.DBus.Properties.Get", "io.github.gestured.Shell", "Version"]) == "(<uint32 1>,)")
        }
    }
}
