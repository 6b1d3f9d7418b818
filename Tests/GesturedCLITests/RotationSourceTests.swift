import CLinux
import DesktopSession
import GestureEngine
import GestureInput
import GestureTestSupport
import Glibc
import Testing
import TouchModel
@testable import Commands
@testable import DaemonLoop
import JSON
@testable import LiveView

extension RealDesktops {
    /// The screen's rotation from real sources while the daemon runs: a real headless
    /// sway whose output is turned with `swaymsg`, and iio-sensor-proxy as python3-dbusmock
    /// fakes it on a private system bus. After each change the next swipe, the recorded
    /// 4-finger drag toward the panel's bottom edge, comes out as the user would see it.
    @Suite struct RotationSourceTests {
        static let config = "gestures:\n  - {name: four, gesture: swipe, fingers: 4, command: \"true\"}\n"

        /// The daemon with the recorded touchscreen adopted, and what it recognizes.
        final class Rig {
            let daemon: Daemon
            let device: FakeTouchpad
            let recording: Recording
            var swipes: [Direction?] = []

            init(_ dir: TempDir, config: String = RotationSourceTests.config, environment: [String: String]) throws {
                recording = try Recordings.load(RotationReplayTests.swipeDown)
                var options = Daemon.Options()
                options.runCommands = false
                options.focus = FocusMonitor(environment: [:])
                var seen: [Direction?] = []
                options.onGesture = { _, e in if e.phase == .recognized { seen.append(e.direction) } }
                daemon = try LiveDeviceTests.makeDaemon(dir, config: config, options: options, environment: environment)
                device = try FakeTouchpad(description: recording.device)
                daemon.adopt(device.device, announce: false)
                daemon.startFocus()
                collect = { seen }
            }

            private var collect: () -> [Direction?] = { [] }

            var session: DeviceSession { daemon.sessions.values.first! }

            /// Waits (bounded) until the device follows `orientation` from a source named so.
            func waitFor(_ orientation: Orientation, from source: String) -> Bool {
                LiveDeviceTests.spin(daemon, seconds: 20) {
                    session.rotation?.orientation == orientation && session.rotation?.source.hasPrefix(source) == true
                }
            }

            /// The recorded swipe, stamped as just made; the direction it was recognized in.
            func swipe() -> Direction?? {
                var events = Array(recording.events)
                let shift = clinux_monotonic_ns() / 1000 - 100_000 - (events.last?.time.microseconds ?? 0)
                for i in events.indices { events[i].time.microseconds += shift }
                let before = collect().count
                device.send(events)
                guard LiveDeviceTests.spin(daemon, seconds: 10, until: { collect().count > before }) else { return nil }
                return collect().last
            }
        }

        @Test(Requires.programs([("sway", "sway"), ("swaymsg", "sway"), ("setpriv", "util-linux")]))
        func swaysOutputTransformTurnsTheNextGesture() throws {
            try Self.swaysOutputTransformTurnsTheNextGesture(in: nil)
        }

        static func swaysOutputTransformTurnsTheNextGesture(in root: DebianRoot?) throws {
            let dir = TempDir()
            let headless = try HeadlessSway(in: dir, root: root)
            defer { withExtendedLifetime(headless) {} }  // sway runs until the test ends
            let socket = headless.socket
            // As a session's service gets it: the Wayland display, the runtime directory, sway's socket.
            let rig = try Rig(dir, environment: ["WAYLAND_DISPLAY": headless.display, "XDG_RUNTIME_DIR": dir.path, "SWAYSOCK": socket])
            try #require(rig.waitFor(.normal, from: "wayland output HEADLESS-1"),
                         "sway's wl_output answered (\(headless.state)); \(String(describing: rig.session.rotation))")
            #expect(rig.swipe() == .some(.down))

            // sway's `transform 90` turns the picture a quarter clockwise: the user has turned the
            // device a quarter counter-clockwise, and the panel's bottom edge is on their right.
            for (transform, orientation, direction) in [("90", Orientation.threeQuarters, Direction.right), ("180", .half, .up),
                                                        ("270", .quarter, .left), ("normal", .normal, .down), ("90", .threeQuarters, .right)] {
                let r = try Gestured.Process(["-s", socket, "output HEADLESS-1 transform \(transform)"], executable: "/usr/bin/swaymsg")
                #expect(r.wait() == 0)
                #expect(rig.waitFor(orientation, from: "wayland output HEADLESS-1"), "transform \(transform) heard from wl_output")
                #expect(rig.swipe() == .some(direction), "after transform \(transform)")
            }
            let status = rig.daemon.statusText()
            #expect(status.contains("screen rotation: wayland (HEADLESS-1 270)"), "\(status)")
            #expect(status.contains("screen 270 from wayland output HEADLESS-1"), "\(status)")

            // sway's own IPC, where only SWAYSOCK is in the environment: the turn at connect
            // (sway 1.7 sends no event when it changes; 1.8 sends `output`).
            let ipc = try Rig(TempDir(), environment: ["SWAYSOCK": socket])
            #expect(ipc.waitFor(.threeQuarters, from: "sway output HEADLESS-1"), "\(String(describing: ipc.session.rotation))")
            #expect(ipc.swipe() == .some(.right))
        }

        /// X11: Xvfb's RandR. Xvfb cannot turn its one CRTC (it offers only RR_Rotate_0, and
        /// refuses `xrandr --output screen --rotate left`), so this proves the event path:
        /// the output put out and lit again with `xrandr` is heard from RRNotify, never
        /// polled, and the next swipe follows: the config's 180 while no output is on, the
        /// output's normal after; and after the X server restarts. The rotation bits are
        /// read in RotationOutputTests.
        @Test(Requires.programs([("Xvfb", "xvfb"), ("xrandr", "x11-xserver-utils")]))
        func randrOutputChangesTurnTheNextGesture() throws {
            var (xvfb, display) = try CompositorFocusTests.xvfb(nil)
            defer { withExtendedLifetime(xvfb) {} }  // Xvfb runs until the test ends
            let rig = try Rig(TempDir(), config: "rotation:\n  orientation: 180\n" + Self.config, environment: ["DISPLAY": display])
            try #require(rig.waitFor(.normal, from: "randr output screen"), "\(String(describing: rig.session.rotation))")
            #expect(rig.swipe() == .some(.down))
            #expect(rig.daemon.statusText().contains("screen rotation: randr (screen normal); else 180"), "\(rig.daemon.statusText())")

            func xrandr(_ args: String...) throws {
                let r = try Gestured.Process(["-display", display] + args, executable: "/usr/bin/xrandr")
                #expect(r.wait() == 0, "xrandr \(args): \(r.stderr)")
            }
            try xrandr("--output", "screen", "--off", "--fb", "800x600")
            #expect(rig.waitFor(.half, from: "config (randr: no output is on)"), "\(String(describing: rig.session.rotation))")
            #expect(rig.swipe() == .some(.up))
            #expect(rig.daemon.statusText().contains("screen rotation: randr (no output is on); else 180"), "\(rig.daemon.statusText())")
            try xrandr("--output", "screen", "--mode", "800x600")
            #expect(rig.waitFor(.normal, from: "randr output screen"), "lit again: heard")
            #expect(rig.swipe() == .some(.down))

            // The X server restarts on the same display, its output lit: the source finds it again.
            try xrandr("--output", "screen", "--off", "--fb", "800x600")
            #expect(rig.waitFor(.half, from: "config (randr: no output is on)"))
            kill(xvfb.pid, SIGTERM)
            _ = xvfb.wait()
            (xvfb, _) = try CompositorFocusTests.xvfb(display)
            #expect(rig.waitFor(.normal, from: "randr output screen"), "reconnected: \(String(describing: rig.session.rotation))")
        }

        /// GNOME: a real headless GNOME Shell 43 whose virtual monitor is turned through
        /// Mutter's `org.gnome.Mutter.DisplayConfig` (GetCurrentState, then
        /// ApplyMonitorsConfig, method 1: temporary), as GNOME's display settings and its
        /// own auto-rotation do. Two daemons hear it: one in GNOME's environment, from
        /// DisplayConfig's MonitorsChanged (the connector named, `Meta-0`), and one whose
        /// session bus has no Mutter, from wl_output's `geometry` and `done` (Mutter 43's
        /// wl_output has no `name`: the output is known by its global's number, and as the
        /// only one it is the touchscreen's).
        @Test(GNOMESession.programs, GNOMESession.dbusmock)
        func mutterTurningItsMonitorTurnsTheNextGesture() throws {
            try Self.mutterTurningItsMonitorTurnsTheNextGesture(in: nil)
        }

        static func mutterTurningItsMonitorTurnsTheNextGesture(in root: DebianRoot?) throws {
            let session = try GNOMESession(enabled: [], in: root)
            let wayland = ["WAYLAND_DISPLAY": "wayland-0", "XDG_RUNTIME_DIR": session.dir.path]
            let rigs = [("mutter output Meta-0", try Rig(TempDir(), environment: wayland.merging(["XDG_CURRENT_DESKTOP": "GNOME",
                                                                                                  "DBUS_SESSION_BUS_ADDRESS": session.address]) { $1 })),
                        // GNOME's environment, but a bus without Mutter: its wl_output stands in.
                        // (Mutter 43's wl_output has no name; later ones name it as DisplayConfig does.)
                        (root == nil ? "wayland output wl_output-" : "wayland output Meta-0", try Rig(TempDir(), environment: wayland.merging(["XDG_CURRENT_DESKTOP": "GNOME",
                                                                                                       "DBUS_SESSION_BUS_ADDRESS": "unix:path=\(session.dir.path)/none"]) { $1 }))]
            for (source, rig) in rigs {
                try #require(rig.waitFor(.normal, from: source), "\(String(describing: rig.session.rotation)): \(session.log)")
                #expect(rig.swipe() == .some(.down))
            }

            for (transform, orientation, direction) in [(1, Orientation.quarter, Direction.left), (2, .half, .up),
                                                        (3, .threeQuarters, .right), (0, .normal, .down)] {
                try session.turnMonitors([transform])
                for (source, rig) in rigs {
                    #expect(rig.waitFor(orientation, from: source), "transform \(transform) heard from \(source)")
                    #expect(rig.swipe() == .some(direction), "after Mutter's transform \(transform), from \(source)")
                }
            }
            let status = rigs[0].1.daemon.statusText()
            #expect(status.contains("screen rotation: mutter (Meta-0 normal)"), "\(status)")
        }

        /// Two monitors, neither built in (Mutter's virtual ones), turned differently: a
        /// touchscreen the config maps to Meta-1 follows Meta-1's turn, not Meta-0's; one
        /// not mapped keeps the config's orientation and says why.
        @Test(GNOMESession.programs, GNOMESession.dbusmock)
        func withTwoMonitorsTheTouchscreenFollowsItsOwn() throws {
            let session = try GNOMESession(enabled: [], monitors: ["1280x800", "1024x768"])
            let env = ["WAYLAND_DISPLAY": "wayland-0", "XDG_RUNTIME_DIR": session.dir.path, "XDG_CURRENT_DESKTOP": "GNOME",
                       "DBUS_SESSION_BUS_ADDRESS": session.address]
            let unmapped = try Rig(TempDir(), environment: env)
            // The recording's device is "Atmel maXTouch Touchscreen".
            let mapped = try Rig(TempDir(), config: "rotation:\n  output: {'Atmel*': Meta-1}\n" + Self.config, environment: env)
            try #require(mapped.waitFor(.normal, from: "mutter output Meta-1"), "\(String(describing: mapped.session.rotation)): \(session.log)")
            try #require(unmapped.waitFor(.normal, from: "config (mutter: Meta-0, Meta-1, none built in"),
                         "\(String(describing: unmapped.session.rotation))")

            try session.turnMonitors([2, 1])
            #expect(mapped.waitFor(.quarter, from: "mutter output Meta-1"), "\(String(describing: mapped.session.rotation))")
            #expect(mapped.swipe() == .some(.left))
            #expect(LiveDeviceTests.spin(unmapped.daemon, seconds: 20) { unmapped.daemon.statusText().contains("screen rotation: mutter (Meta-0 180, Meta-1 90)") },
                    "\(unmapped.daemon.statusText())")
            #expect(unmapped.swipe() == .some(.down))
        }

        static let dbusmock = ConditionTrait.disabled(if: access("/usr/lib/python3/dist-packages/dbusmock/templates/iio-sensors-proxy.py", R_OK) != 0,
                                                      "missing python3-dbusmock (apt-get install python3-dbusmock)")

        @Test(Requires.programs([("dbus-daemon", "dbus-daemon"), ("dbus-send", "dbus-daemon")]), dbusmock)
        func theAccelerometerTurnsTheNextGesture() throws {
            let dir = TempDir()
            let (bus, address) = try KWinFocusTests.privateBus(dir)
            let mock = try Gestured.Process(["-m", "dbusmock", "--system", "--template", "iio-sensors-proxy",
                                             "-p", #"{"has_accelerometer": true, "accelerometer_orientation": "normal"}"#],
                                            environment: ["DBUS_SYSTEM_BUS_ADDRESS=\(address)"], executable: "/usr/bin/python3")
            let config = "rotation:\n  sensor: true\n  orientation: 180\n" + Self.config
            // No compositor that says: the sensor answers first, the config's 180 is the fallback.
            let rig = try Rig(dir, config: config, environment: ["DBUS_SYSTEM_BUS_ADDRESS": address, "XDG_CURRENT_DESKTOP": "test"])
            try #require(rig.waitFor(.normal, from: "iio-sensor-proxy"),
                         "the fake proxy answered (\(mock.poll().map { "dbusmock exited \($0): \(mock.stderr)" } ?? "running")); \(String(describing: rig.session.rotation))")
            #expect(rig.swipe() == .some(.down))

            for (word, orientation, direction) in [("left-up", Orientation.quarter, Direction.left), ("bottom-up", .half, .up),
                                                   ("right-up", .threeQuarters, .right)] {
                let r = try Gestured.Process(["--bus=\(address)", "--print-reply", "--dest=net.hadess.SensorProxy", "/net/hadess/SensorProxy",
                                              "org.freedesktop.DBus.Mock.SetInternalProperty", "string:net.hadess.SensorProxy",
                                              "string:AccelerometerOrientation", "variant:string:\(word)"], executable: "/usr/bin/dbus-send")
                #expect(r.wait() == 0)
                #expect(rig.waitFor(orientation, from: "iio-sensor-proxy"), "\(word) heard from PropertiesChanged")
                #expect(rig.swipe() == .some(direction), "turned \(word)")
            }
            #expect(rig.daemon.statusText().contains("iio-sensor-proxy (270)"), "\(rig.daemon.statusText())")
            _ = bus
        }
    }
}
