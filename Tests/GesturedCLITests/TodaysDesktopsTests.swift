import CFakeEvdevDevice
import CLinux
import FocusSources
import GestureTestSupport
import Glibc
import Testing
@testable import GesturedCLI

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

        @Test(arguments: roots)
        func swayFocusPicksTheBinding(root: DebianRoot) throws {
            try CompositorFocusTests.swayFocusSwitchedOverIPCPicksTheBinding(in: root)
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
