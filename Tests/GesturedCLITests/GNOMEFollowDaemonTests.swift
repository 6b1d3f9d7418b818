import CLinux
import GestureTestSupport
import Testing
import TouchTimeline
@testable import DaemonLoop

extension RealDesktops {
    /// A follow end to end: the real daemon, a touchscreen's 4-finger drag up 49 mm
    /// played as a device (TimelineTouchSource), `{overview: follow}` or `{workspace:
    /// follow}`, gestured's extension on a real GNOME Shell, and GNOME's own state read
    /// back (Eval: a recorder of the overview's state adjustment, the workspace strip's
    /// tracker). Here GNOME 43; TodaysGNOMETests runs it on 48 and 50 from the package.
    @Suite struct GNOMEFollowDaemonTests {
        /// Four fingers landing low on the screen, up 49 mm in 0.6 s (82 mm/s: under
        /// GNOME's fling threshold for either distance), still, lifted. The Atmel screen
        /// reports no resolution: gestured takes it for 294 × 165.5 mm, so 49 mm is 29.6 %
        /// of its height.
        static let dragUp = "device " + Recordings.path("touchscreens_Atmel_maXTouch_Touchscreen.4-finger-drag-down.events") + """

            create
            touch 4 at 50% 80% spread 6%
            move to 50% 50.4% over 600ms
            wait 100ms
            lift
            wait 300ms
            """

        /// Four fingers landing on the right of the screen, left 49 mm (16.7 % of its
        /// 294 mm) in 0.6 s, still, lifted.
        static let dragLeft = "device " + Recordings.path("touchscreens_Atmel_maXTouch_Touchscreen.4-finger-drag-down.events") + """

            create
            touch 4 at 70% 50% spread 6%
            move to 53.3% 50% over 600ms
            wait 100ms
            lift
            wait 300ms
            """

        static func config(_ action: String, distance: Int) -> String {
            let axis = action == "overview" ? "vertical" : "horizontal"
            return "gestures:\n  - {name: follow, gesture: pan, fingers: 4, axis: \(axis), command: {\(action): follow}, distance: \(distance)mm}\n"
        }

        @Test(GNOMESession.programs, GNOMESession.dbusmock)
        func aTouchscreensDragLeftMovesTheWorkspacesWithTheFingersOrSpringsBack() throws {
            try Self.aTouchscreensDragLeftMovesTheWorkspacesWithTheFingersOrSpringsBack(in: nil)
        }

        /// With `distance: 60mm` the 49 mm drag takes the workspace strip part-way, frame
        /// by frame, and GNOME activates the next workspace at the lift; with `distance:
        /// 200mm` it springs back to the first.
        static func aTouchscreensDragLeftMovesTheWorkspacesWithTheFingersOrSpringsBack(in root: DebianRoot?) throws {
            let session = try GNOMESession(enabled: [GNOMESession.harnessUUID, GNOMESession.extensionUUID], in: root)
            let reader = try FollowClient(address: session.address, owning: nil)
            #expect(reader.wait("Main.overview._shownState", for: #""HIDDEN""#, seconds: 30) == #""HIDDEN""#, "\(session.log)")
            let fixed = "(s => { s('org.gnome.mutter').set_boolean('dynamic-workspaces', false); "
                + "s('org.gnome.desktop.wm.preferences').set_int('num-workspaces', 4); return true; })(imports.gi.Gio.Settings.new)"
            #expect(reader.eval(fixed) == "true")
            #expect(reader.wait("global.workspace_manager.n_workspaces", for: "4") == "4")
            let strip = "[global.workspace_manager.get_active_workspace_index(), Main.wm._workspaceAnimation._switchData === null]"
            for (distance, settled) in [(200, "[0,true]"), (60, "[1,true]")] {
                let values = try followed(reader, overview: false, Self.dragLeft, config("workspace", distance: distance), session.address)
                #expect(Set(values.filter { $0 > 0 && $0 < 1 }).count >= 3, "distance \(distance) mm: the strip's position while the fingers moved: \(values)")
                #expect(reader.wait(strip, for: settled, seconds: 15) == settled, "distance \(distance) mm: \(session.log)")
            }
        }

        @Test(GNOMESession.programs, GNOMESession.dbusmock)
        func aTouchscreensDragUpOpensTheOverviewWithTheFingersOrSpringsBack() throws {
            try Self.aTouchscreensDragUpOpensTheOverviewWithTheFingersOrSpringsBack(in: nil)
        }

        /// With `distance: 60mm` the 49 mm drag takes the overview part-way, frame by
        /// frame, and GNOME opens it at the lift; with `distance: 200mm` it springs back.
        static func aTouchscreensDragUpOpensTheOverviewWithTheFingersOrSpringsBack(in root: DebianRoot?) throws {
            let session = try GNOMESession(enabled: [GNOMESession.harnessUUID, GNOMESession.extensionUUID], in: root)
            let reader = try FollowClient(address: session.address, owning: nil)
            let overview = "(o => [o._shownState, o._overview._controls._stateAdjustment.value, o.animationInProgress])(Main.overview)"
            let hidden = #"["HIDDEN",0,false]"#, shown = #"["SHOWN",1,false]"#
            #expect(reader.wait(overview, for: hidden, seconds: 30) == hidden, "the harness left the overview: \(session.log)")
            for (distance, settled) in [(60, shown), (200, hidden)] {
                let values = try followed(reader, overview: true, Self.dragUp, config("overview", distance: distance), session.address)
                #expect(Set(values.filter { $0 > 0 && $0 < 1 }).count >= 3, "distance \(distance) mm: the overview's state while the fingers moved: \(values)")
                #expect(reader.wait(overview, for: settled, seconds: 15) == settled, "distance \(distance) mm: \(session.log)")
                if settled == shown { try GNOMEFollowTests.hide(reader) }
            }
        }

        /// What GNOME's overview state (or workspace strip) took while the daemon with
        /// `config` followed `timeline` (Eval's recorder, installed before, removed after).
        static func followed(_ reader: FollowClient, overview: Bool, _ timeline: String, _ config: String, _ address: String) throws -> [Double] {
            #expect(reader.eval(GNOMEFollowTests.record(overview: overview)) == "true")
            try play(timeline, config: config, address: address)
            let values = GNOMEFollowTests.numbers(reader.eval("globalThis.gesturedRecord.values"))
            #expect(reader.eval(GNOMEFollowTests.stopRecording) == "true")
            return values
        }

        /// The daemon with `config`, on GNOME's session bus, reading `timeline` as a touchscreen until it is gone.
        static func play(_ timeline: String, config: String, address: String) throws {
            let dir = TempDir()
            let daemon = try LiveDeviceTests.makeDaemon(dir, config: config,
                                                        environment: ["XDG_CURRENT_DESKTOP": "GNOME", "DBUS_SESSION_BUS_ADDRESS": address])
            let source = try TimelineTouchSource(timeline: try Timeline.parse(timeline, path: "drag.timeline", baseDirectory: "/"))
            daemon.adopt(source, announce: false)
            try #require(daemon.sessions[source.path] != nil)
            #expect(LiveDeviceTests.spin(daemon, seconds: 30) { daemon.sessions[source.path] == nil }, "the drag played to its end")
            // What the lift asked of GNOME goes out before the daemon does.
            _ = LiveDeviceTests.spin(daemon, seconds: 0.3) { false }
        }
    }
}
