import DesktopSession
import GestureInput
import GestureTestSupport
import Glibc
import Testing
@testable import Commands
@testable import DaemonLoop
import JSON
@testable import LiveView

extension RealDesktops {
    /// gestured on the GNOME Shells people run today: 48 (Debian 13) and 50 (Debian
    /// testing), each headless in its own Debian root (`DebianRoot`), with the extension
    /// as `make deb`'s package installs it there (its postinst links the ES-module form).
    /// Each asks GNOME itself: its active workspace, its overview, its windows, its
    /// monitors' transform, its transitions following the fingers. The same checks run
    /// on this machine's GNOME 43 (GNOMEShellTests, RotationSourceTests, GNOMEFollowTests).
    @Suite(DebianRoot.available, GNOMESession.dbusmock) struct TodaysGNOMETests {
        static let roots = [DebianRoot.trixie, DebianRoot.forky]

        /// The package's postinst linked the form this GNOME loads, and GNOME runs it:
        /// a fake touchscreen's recorded 4-finger drag down, bound to `{workspace: next}`,
        /// switches GNOME's own active workspace, and `gestured status` says the focused
        /// window's app came from GNOME.
        @Test(arguments: roots)
        func aTouchscreenDragSwitchesGNOMEsWorkspace(root: DebianRoot) throws {
            let session = try GNOMESession(enabled: [GNOMESession.harnessUUID, GNOMESession.extensionUUID], in: root)
            let form = try #require(session.extensionForm, "the package's link: \(session.log)")
            #expect(form == "/usr/share/gestured/gnome-shell-extension/45", "\(session.version ?? "?") loads the ES module")
            try session.openWindow(appID: "one")
            let recording = LiveEqualsReplayTests.restamped(try Recordings.load(RotationReplayTests.swipeDown))
            var options = Daemon.Options()
            options.focus = FocusMonitor(source: GNOMEShellTests.source(session))
            let daemon = try LiveDeviceTests.makeDaemon(session.dir, config: Self.config, options: options,
                                                        environment: ["XDG_CURRENT_DESKTOP": "GNOME", "WAYLAND_DISPLAY": "wayland-0",
                                                                      "DBUS_SESSION_BUS_ADDRESS": session.address])
            daemon.startFocus()
            #expect(CompositorFocusTests.waitForFocus(daemon, "one"), "GNOME told the focus: \(session.log)")
            let status = daemon.statusText()
            #expect(status.contains("focused app: one (foot) — from gnome (\(session.address))\n"), "\(status)")

            let active = "global.workspace_manager.get_active_workspace_index()"
            #expect(try session.eval(active) == "0")
            let screen = try FakeTouchpad(description: recording.device)
            daemon.adopt(screen.device, announce: true)
            screen.send(Array(recording.events))
            #expect(DesktopActionsCompositorTests.wait(daemon, for: "1", { (try? session.eval(active)) ?? "" }) == "1",
                    "\(session.version ?? "GNOME") switched to its second workspace: \(session.log)")
            #expect(daemon.runningCommands == 0, "no process, no key: the extension did it")
            print("TodaysGNOMETests: \(root): \(session.version ?? "?"): the drag switched workspace 0 → 1")
        }

        static let config = """
            gestures:
              - {name: next, gesture: swipe, fingers: 4, direction: down, command: {workspace: next}}
            """

        @Test(arguments: roots)
        func theFocusAsGNOMEHasItPicksTheBinding(root: DebianRoot) throws {
            try GNOMEShellTests.theFocusAsGNOMEHasItPicksTheBinding(in: root)
        }

        @Test(arguments: roots)
        func theExtensionsActionsChangeGNOMEsOwnState(root: DebianRoot) throws {
            try GNOMEShellTests.theExtensionsActionsChangeGNOMEsOwnState(in: root)
        }

        @Test(arguments: roots)
        func theOverviewFollowsTheFingersAndOnlyGestured(root: DebianRoot) throws {
            try GNOMEFollowTests.theOverviewFollowsTheFingersAndOnlyGestured(in: root)
        }

        @Test(arguments: roots)
        func theWorkspaceStripFollowsTheFingers(root: DebianRoot) throws {
            try GNOMEFollowTests.theWorkspaceStripFollowsTheFingers(in: root)
        }

        @Test(arguments: roots)
        func aTouchscreensDragUpOpensTheOverviewWithTheFingersOrSpringsBack(root: DebianRoot) throws {
            try GNOMEFollowDaemonTests.aTouchscreensDragUpOpensTheOverviewWithTheFingersOrSpringsBack(in: root)
        }

        @Test(arguments: roots)
        func aTouchscreensDragLeftMovesTheWorkspacesWithTheFingersOrSpringsBack(root: DebianRoot) throws {
            try GNOMEFollowDaemonTests.aTouchscreensDragLeftMovesTheWorkspacesWithTheFingersOrSpringsBack(in: root)
        }

        @Test(arguments: roots)
        func aShortcutPressedInGNOMERunsItsBinding(root: DebianRoot) throws {
            try GNOMEShortcutTests.aShortcutPressedInGNOMERunsItsBinding(in: root)
        }

        @Test(arguments: roots)
        func mutterTurningItsMonitorTurnsTheNextGesture(root: DebianRoot) throws {
            try RotationSourceTests.mutterTurningItsMonitorTurnsTheNextGesture(in: root)
        }
    }
}
