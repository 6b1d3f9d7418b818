import CFakeEvdevDevice
import CLinux
import DesktopSession
import GestureEngine
import GestureTestSupport
import Glibc
import Testing
import TouchModel
@testable import Commands
@testable import DaemonLoop
import JSON
@testable import LiveView

extension RealDesktops {
    /// gestured on the other desktops people run today, each in a Debian root of the
    /// release that ships it (`DebianRoot`, `RootSession`), headless, as a non-root user:
    /// sway 1.10 (Debian 13) and 1.12 (testing), KWin 6.3 and 6.7. Every answer is the
    /// desktop's own (swaymsg, KWin's D-Bus), never gestured's word. GNOME 48 and 50:
    /// TodaysGNOMETests. Debian 12's sway 1.7, i3 and openbox: the suites they share
    /// these checks with.
    @Suite(DebianRoot.available) struct TodaysDesktopsTests {
        static let roots = [DebianRoot.trixie, DebianRoot.forky]

        // MARK: sway

        @Test(arguments: roots, CompositorFocusTests.SwayFocus.allCases)
        func swayFocusPicksTheBinding(root: DebianRoot, through: CompositorFocusTests.SwayFocus) throws {
            try CompositorFocusTests.swayFocusPicksTheBinding(in: root, through: through)
        }

        @Test(arguments: roots)
        func swaySwitchesWorkspace(root: DebianRoot) throws {
            try DesktopActionsCompositorTests.swaySwitchesWorkspaceOverIPC(in: root)
        }

        @Test(arguments: roots)
        func swaysOutputTransformTurnsTheNextGesture(root: DebianRoot) throws {
            try RotationSourceTests.swaysOutputTransformTurnsTheNextGesture(in: root)
        }

        // MARK: KWin

        /// KWin's current desktop, as KWin says it over D-Bus (`org.kde.KWin.currentDesktop`: 1, 2…).
        static func currentDesktop(_ session: RootSession) -> String {
            let out = DesktopActionsCompositorTests.output(["call", "--address", session.env["DBUS_SESSION_BUS_ADDRESS"] ?? "",
                                                            "--dest", "org.kde.KWin", "--object-path", "/KWin",
                                                            "--method", "org.kde.KWin.currentDesktop"], executable: "/usr/bin/gdbus")
            return out.trimmingSuffix("\n")
        }

        /// Activates the window of `appID` as a click would: a KWin script, loaded and run
        /// over KWin's own D-Bus scripting interface.
        static func activate(_ appID: String, _ session: RootSession) throws {
            let bus = session.env["DBUS_SESSION_BUS_ADDRESS"] ?? ""
            let script = session.dir.write("activate-\(appID).js", """
                for (const w of workspace.windowList()) { if (w.resourceClass == "\(appID)") workspace.activeWindow = w; }
                """, mode: 0o644)
            let load = try Gestured.Process(["call", "--address", bus, "--dest", "org.kde.KWin", "--object-path", "/Scripting",
                                             "--method", "org.kde.kwin.Scripting.loadScript", script, "activate-\(appID)-\(clinux_monotonic_ns())"],
                                            executable: "/usr/bin/gdbus")
            try #require(load.wait() == 0, "loadScript: \(load.stderr)")
            let id = load.stdout.filter(\.isNumber)
            let run = try Gestured.Process(["call", "--address", bus, "--dest", "org.kde.KWin", "--object-path", "/Scripting/Script\(id)",
                                            "--method", "org.kde.kwin.Script.run"], executable: "/usr/bin/gdbus")
            #expect(run.wait() == 0, "run: \(run.stderr)")
        }

        /// KWin's own focus, through gestured's KWin script: each new foot window, then a
        /// window activated by a KWin script, picks the binding a swipe runs.
        @Test(arguments: roots)
        func kwinFocusPicksTheBinding(root: DebianRoot) throws {
            let session = try RootSession("kwin", in: root)
            let bus = try #require(session.env["DBUS_SESSION_BUS_ADDRESS"])
            let source = KWinSource(busAddress: bus, scriptDirectory: session.dir.path, retryInitial: 0.05, retryMaximum: 0.2)
            // The script gestured writes for KWin is its user's (mode 0600), and KWin runs
            // as that user: here KWin is nobody and this process root, so the files this
            // thread writes from now on are nobody's, as they are when gestured runs as nobody.
            // (After the config is written: a config of another user is refused.)
            var fsuid: Int32 = 0
            let (daemon, pad, out) = try CompositorFocusTests.daemon(session.dir, source: source,
                                                                      beforeFocus: { fsuid = cfake_setfsuid(Unprivileged.uid) })
            defer { _ = cfake_setfsuid(UInt32(fsuid)) }
            var windows: [Gestured.Process] = []
            for id in ["one", "two"] {
                windows.append(try session.openWindow(appID: id))
                #expect(CompositorFocusTests.waitForFocus(daemon, id), "foot --app-id=\(id) has the focus in \(session.version): \(session.log)")
            }
            #expect(CompositorFocusTests.swipe(daemon, pad, out: out) == "workspace\n", "in 'two' the global binding runs")
            for (id, expected) in [("one", "back\n"), ("two", "workspace\n")] {
                try Self.activate(id, session)
                #expect(CompositorFocusTests.waitForFocus(daemon, id), "activated \(id)")
                #expect(CompositorFocusTests.swipe(daemon, pad, out: out) == expected, "focused \(id)")
            }
            let status = daemon.statusText()
            #expect(status.contains("focused app: two (foot) — from kwin (\(bus))\n"), "\(status)")
            print("TodaysDesktopsTests: \(root): \(session.version): focus one/two through the KWin script")
            windows.forEach(Unprivileged.killGroup)
        }

        /// KWin's output turned as System Settings turns it (kscreen-doctor, over KWin's
        /// output-management protocol): gestured hears it from wl_output, and the recorded
        /// 4-finger drag toward the panel's bottom edge comes out as the user sees it.
        @Test(arguments: roots)
        func kwinTurningItsOutputTurnsTheNextGesture(root: DebianRoot) throws {
            let session = try RootSession("kwin", in: root)
            let outputs = try session.run("kscreen-doctor --outputs")
            // "Output: 1 Virtual-1 enabled connected …": the name is the third word.
            let name = try #require(outputs.output.split(separator: "\n").first { $0.contains("Output:") }?
                                        .split(separator: " ").dropFirst(2).first.map(String.init),
                                    "kscreen-doctor --outputs: \(outputs.output)")
            // kscreen-doctor's left: the picture a quarter counter-clockwise (wl_output's 90).
            try Self.turnsAreFollowed(session, output: name, [("left", .quarter, .left), ("inverted", .half, .up),
                                                              ("right", .threeQuarters, .right), ("none", .normal, .down)]) {
                "kscreen-doctor output.\(name).rotation.\($0)"
            }
            print("TodaysDesktopsTests: \(root): \(session.version): output \(name) turned left, inverted, right, none")
        }

        /// The daemon, in the desktop's environment, follows `output` from wl_output as
        /// `command(turn)` (run in the root as the desktop's user) turns it through each of
        /// `turns`: the recorded 4-finger drag toward the panel's bottom edge then goes the
        /// direction given.
        static func turnsAreFollowed(_ session: RootSession, output name: String,
                                     _ turns: [(String, Orientation, Direction)], command: (String) -> String) throws {
            let rig = try RotationSourceTests.Rig(TempDir(), environment: ["WAYLAND_DISPLAY": session.env["WAYLAND_DISPLAY"] ?? "",
                                                                           "XDG_RUNTIME_DIR": session.dir.path])
            try #require(rig.waitFor(.normal, from: "wayland output \(name)"), "\(String(describing: rig.session.rotation)): \(session.log)")
            #expect(rig.swipe() == .some(.down))
            for (turn, orientation, direction) in turns {
                let turned = try session.run(command(turn))
                #expect(turned.status == 0, "\(command(turn)): \(turned.output)")
                var heard = rig.waitFor(orientation, from: "wayland output \(name)")
                if !heard {
                    // Once (a fresh-machine run: KWin 6.3.6, from left to inverted) the turn was
                    // not heard in 20 s. Asked again: a desktop that had not applied it turns
                    // now and says so; one already turned sends nothing new, so a turn that
                    // gestured missed is still missed, and fails.
                    let again = try session.run(command(turn))
                    heard = rig.waitFor(orientation, from: "wayland output \(name)")
                    print("TodaysDesktopsTests: \(session.version): \(turn) not heard in 20 s; asked again (\(again.status)): \(heard ? "heard" : "still not heard")")
                }
                #expect(heard, "\(turn) heard from wl_output (gestured has \(String(describing: rig.session.rotation)))")
                #expect(rig.swipe() == .some(direction), "after \(session.version)'s \(turn)")
            }
        }

        /// `{workspace: next|previous}` through KWin's own shortcuts (kglobalaccel, which
        /// KWin 6 serves itself), as KWin reports its current desktop.
        @Test(arguments: roots)
        func kwinSwitchesDesktop(root: DebianRoot) throws {
            let session = try RootSession("kwin", in: root)
            let environment = ["XDG_CURRENT_DESKTOP": "KDE", "WAYLAND_DISPLAY": session.env["WAYLAND_DISPLAY"] ?? "",
                               "DBUS_SESSION_BUS_ADDRESS": session.env["DBUS_SESSION_BUS_ADDRESS"] ?? ""]
            let (daemon, pad) = try DesktopActionsCompositorTests.daemon(session.dir, environment: environment)
            #expect(Self.currentDesktop(session) == "(1,)", "KWin starts on its first desktop")
            LiveDeviceTests.swipe(pad, dxMM: -40)
            #expect(DesktopActionsCompositorTests.wait(daemon, for: "(2,)", { Self.currentDesktop(session) }) == "(2,)",
                    "{workspace: next} in \(session.version): \(session.log)")
            LiveDeviceTests.swipe(pad, dxMM: 40)
            #expect(DesktopActionsCompositorTests.wait(daemon, for: "(1,)", { Self.currentDesktop(session) }) == "(1,)", "{workspace: previous}")
            #expect(daemon.runningCommands == 0, "no process was started")
            print("TodaysDesktopsTests: \(root): \(session.version): desktop 1 → 2 → 1")
        }
    }
}

extension RealDesktops.TodaysDesktopsTests {
    typealias CompositorFocusTests = RealDesktops.CompositorFocusTests
    typealias DesktopActionsCompositorTests = RealDesktops.DesktopActionsCompositorTests
    // MARK: labwc (wlroots, no IPC of its own)

    /// labwc's environment, as its session exports it to the user's services.
    static func labwcEnvironment(_ session: RootSession) -> [String: String] {
        ["WAYLAND_DISPLAY": session.env["WAYLAND_DISPLAY"] ?? "", "XDG_RUNTIME_DIR": session.dir.path,
         "XDG_CURRENT_DESKTOP": "labwc:wlroots", "XDG_SESSION_TYPE": "wayland"]
    }

    /// labwc has no IPC: the focus comes from the window list it offers every client
    /// (wlr-foreign-toplevel-management), which FocusDetection picks for a Wayland
    /// session no other source knows. Each new window has the focus; when it closes,
    /// labwc gives the focus back to the other, and the binding follows.
    @Test(arguments: roots)
    func labwcFocusFromItsWindowListPicksTheBinding(root: DebianRoot) throws {
        let session = try RootSession("labwc", in: root)
        guard case .source(let source) = FocusDetection.detect(Self.labwcEnvironment(session)) else {
            Issue.record("no focus source detected for labwc")
            return
        }
        #expect(source.name == "wlr-foreign-toplevel")
        let (daemon, pad, out) = try CompositorFocusTests.daemon(session.dir, source: source)
        #expect(CompositorFocusTests.waitForFocus(daemon, nil), "labwc's window list answered: \(session.log)")
        var windows: [String: Gestured.Process] = [:]
        for id in ["one", "two"] {
            windows[id] = try session.openWindow(appID: id)
            #expect(CompositorFocusTests.waitForFocus(daemon, id), "foot --app-id=\(id) has the focus in \(session.version): \(session.log)")
        }
        #expect(CompositorFocusTests.swipe(daemon, pad, out: out) == "workspace\n", "in 'two' the global binding runs")
        Unprivileged.killGroup(windows.removeValue(forKey: "two")!)
        #expect(CompositorFocusTests.waitForFocus(daemon, "one"), "'two' closed: labwc focused 'one'")
        #expect(CompositorFocusTests.swipe(daemon, pad, out: out) == "back\n", "in 'one' its own binding runs")
        let status = daemon.statusText()
        #expect(status.contains("focused app: one (foot) — from wlr-foreign-toplevel"), "\(status)")
        print("TodaysDesktopsTests: \(root): \(session.version): focus from wlr-foreign-toplevel-management")
        windows.values.forEach(Unprivileged.killGroup)
    }

    /// labwc's output turned with wlr-randr (wlr-output-management, as kanshi or a
    /// display tool turns it): gestured hears it from wl_output, and the recorded
    /// 4-finger drag toward the panel's bottom edge comes out as the user sees it.
    @Test(arguments: roots)
    func labwcTurningItsOutputTurnsTheNextGesture(root: DebianRoot) throws {
        let session = try RootSession("labwc", in: root)
        let outputs = try session.run("wlr-randr")
        // "HEADLESS-1 "Headless output 1"": the name is the first word of the first line.
        let name = try #require(outputs.output.split(separator: "\n").first { !$0.hasPrefix(" ") && !$0.isEmpty }?
                                    .split(separator: " ").first.map(String.init), "wlr-randr: \(outputs.output)")
        // wlr-randr's 90 is wl_output's: the picture a quarter counter-clockwise.
        try Self.turnsAreFollowed(session, output: name, [("90", .quarter, .left), ("180", .half, .up),
                                                          ("270", .threeQuarters, .right), ("normal", .normal, .down)]) {
            "wlr-randr --output \(name) --transform \($0)"
        }
        print("TodaysDesktopsTests: \(root): \(session.version): output \(name) turned 90, 180, 270, normal")
    }

    /// labwc's active workspace, as labwc tells any client over ext-workspace-v1
    /// (Tests/roots/ext-workspace, a separate wire-protocol client): its name.
    static func labwcWorkspace(_ session: RootSession) -> String {
        let out = DesktopActionsCompositorTests.output([GNOMESession.root + "/Tests/roots/ext-workspace"], executable: "/usr/bin/python3",
                                                       environment: ["WAYLAND_DISPLAY=\(session.env["WAYLAND_DISPLAY"] ?? "")"])
        guard let at = out.firstRange(of: #""active": [""#) else { return out }
        return String(out[at.upperBound...].prefix { $0 != "\"" })
    }

    /// `{workspace: next|previous}` through ext-workspace-v1, as labwc reports its active workspace.
    @Test(arguments: roots)
    func labwcSwitchesWorkspaceThroughExtWorkspace(root: DebianRoot) throws {
        let session = try RootSession("labwc", in: root)
        let (daemon, pad) = try DesktopActionsCompositorTests.daemon(session.dir, environment: Self.labwcEnvironment(session))
        #expect(Self.labwcWorkspace(session) == "Workspace 1")
        LiveDeviceTests.swipe(pad, dxMM: -40)
        #expect(DesktopActionsCompositorTests.wait(daemon, for: "Workspace 2", { Self.labwcWorkspace(session) }) == "Workspace 2",
                "{workspace: next} in \(session.version): \(session.log)")
        LiveDeviceTests.swipe(pad, dxMM: 40)
        #expect(DesktopActionsCompositorTests.wait(daemon, for: "Workspace 1", { Self.labwcWorkspace(session) }) == "Workspace 1",
                "{workspace: previous}")
        #expect(daemon.runningCommands == 0, "no process was started")
        print("TodaysDesktopsTests: \(root): \(session.version): Workspace 1 → 2 → 1 over ext-workspace-v1")
    }
}
