import CLinux
import DesktopSession
import GestureTestSupport
import Glibc
import Testing
@testable import Commands
@testable import DaemonLoop
import JSON
@testable import LiveView

extension RealDesktops {
    /// Per-application gestures against real compositors: sway 1.7 headless with two
    /// foot windows, and i3 on Xvfb with two xterms. Focus is switched through the
    /// compositor's own IPC (swaymsg, i3-msg); the same swipe on the fake touchpad must
    /// then run the binding of the app that has the focus.
    ///
    /// sway refuses to run as root, so as root it runs as `nobody` (`Unprivileged`) in a
    /// runtime directory of its own. Where a program is missing the test is skipped and
    /// says which Debian package to install (`make test` installs them as root).
    @Suite struct CompositorFocusTests {
        static let config = """
            gestures:
              - name: workspace
                gesture: swipe
                fingers: 3
                direction: left
                command: echo workspace > OUT
              - name: back
                gesture: swipe
                fingers: 3
                direction: left
                apps: [one, One]
                command: echo back > OUT
            """

        /// Swipes left on the pad and waits for the binding's command to write its name.
        static func swipe(_ daemon: Daemon, _ pad: FakeTouchpad, out: String) -> String? {
            unlink(out)
            LiveDeviceTests.swipe(pad, dxMM: -40)
            _ = LiveDeviceTests.spin(daemon) { LiveDeviceTests.read(out)?.hasSuffix("\n") == true }
            return LiveDeviceTests.read(out)
        }

        static func waitForFocus(_ daemon: Daemon, _ app: String?) -> Bool {
            LiveDeviceTests.spin(daemon, seconds: 15) { daemon.focus.source?.connected == true && daemon.focus.app?.app == app }
        }

        /// The daemon, the fake pad, and the source under test, all on the daemon's loop.
        /// `beforeFocus` runs after the config is written and before the source starts.
        static func daemon(_ dir: TempDir, source: any FocusSource, onFocus: ((FocusedApp?) -> Void)? = nil,
                           beforeFocus: () -> Void = {}) throws -> (Daemon, FakeTouchpad, String) {
            let out = dir.path + "/ran"
            var options = Daemon.Options()
            options.focus = FocusMonitor(source: source)
            options.onFocus = onFocus
            let daemon = try LiveDeviceTests.makeDaemon(dir, config: config.replacingOccurrences("OUT", out), options: options)
            let pad = try FakeTouchpad()
            daemon.adopt(pad.device, announce: true)
            beforeFocus()
            daemon.startFocus()
            return (daemon, pad, out)
        }

        /// Where gestured hears sway's focus: its IPC (`SWAYSOCK`), or the wlroots window list
        /// (wlr-foreign-toplevel-management v3) on its Wayland socket, which is what labwc,
        /// wayfire and river offer.
        enum SwayFocus: String, CaseIterable, Sendable { case ipc, windowList }

        @Test(Requires.programs([("sway", "sway"), ("foot", "foot"), ("swaymsg", "sway"), ("setpriv", "util-linux")]),
              arguments: SwayFocus.allCases)
        func swayFocusSwitchedOverIPCPicksTheBinding(through: SwayFocus) throws {
            try Self.swayFocusPicksTheBinding(in: nil, through: through)
        }

        /// Each new window takes the focus, then `swaymsg … focus` moves it: the same swipe
        /// runs the binding of the app sway says has it. A window that closes hands the
        /// focus to the one left.
        static func swayFocusPicksTheBinding(in root: DebianRoot?, through: SwayFocus) throws {
            let dir = TempDir()
            let headless = try HeadlessSway(in: dir, root: root)
            defer { withExtendedLifetime(headless) {} }  // sway runs until the test ends
            let (socket, env) = (headless.socket, headless.environment)
            let display = headless.display.hasPrefix("/") ? headless.display : dir.path + "/" + headless.display
            let source: any FocusSource = through == .ipc
                ? I3IPCSource(name: "sway", socketPath: socket, retryInitial: 0.05, retryMaximum: 0.2)
                : WlrForeignToplevelSource(socket: display, compositor: "sway", retryInitial: 0.05, retryMaximum: 0.2)
            let (daemon, pad, out) = try Self.daemon(dir, source: source)
            try #require(Self.waitForFocus(daemon, nil), "sway answered through \(through) (\(headless.state)): \(source.problem ?? "")")

            var windows: [Gestured.Process] = []
            for id in ["one", "two"] {
                windows.append(try Unprivileged.spawn(["foot", "--log-level=error", "--app-id=\(id)", "sleep", "60"],
                                                      environment: ["WAYLAND_DISPLAY=\(headless.display)"] + env, ownSession: true))
                #expect(Self.waitForFocus(daemon, id), "foot --app-id=\(id) has the focus")
            }
            #expect(Self.swipe(daemon, pad, out: out) == "workspace\n", "in 'two' the global binding runs")

            for (id, expected) in [("one", "back\n"), ("two", "workspace\n"), ("one", "back\n")] {
                let r = try Gestured.Process(["-s", socket, "[app_id=\(id)] focus"], executable: "/usr/bin/swaymsg")
                #expect(r.wait() == 0)
                #expect(Self.waitForFocus(daemon, id))
                #expect(Self.swipe(daemon, pad, out: out) == expected, "focused \(id)")
            }
            let status = daemon.statusText()
            let from = through == .ipc ? "sway (\(socket))" : "wlr-foreign-toplevel (\(display))"
            #expect(status.contains("focused app: one (foot) — from \(from)\n"), "\(status)")
            #expect(status.contains("back recognized on \"Fake Touchpad\" in one: echo back > \(out)"), "\(status)")
            #expect(source.problem == nil)

            // 'one' quits, and sway focuses 'two'.
            Unprivileged.killGroup(windows[0])
            #expect(Self.waitForFocus(daemon, "two"), "the window left has the focus")
            #expect(Self.swipe(daemon, pad, out: out) == "workspace\n")
            print("swayFocusPicksTheBinding: \(root.map(\.description) ?? "here"), through \(through): \(headless.state.prefix(40))")
            windows.forEach(Unprivileged.killGroup)
        }

        /// i3 on Xvfb, with the focus read two ways: i3's IPC, and EWMH (libxcb), which
        /// any X11 window manager gives. EWMH also sees the X server restart.
        @Test(Requires.programs([("Xvfb", "xvfb"), ("i3", "i3-wm"), ("i3-msg", "i3-wm"), ("xterm", "xterm")]),
              arguments: ["i3-ipc", "ewmh"])
        func i3OnXvfbFocusSwitchedOverIPCPicksTheBinding(via: String) throws {
            let dir = TempDir()
            let socket = dir.path + "/i3.sock"
            let i3Config = dir.write("i3.conf", "ipc-socket \(socket)\nfont pango:monospace 8\n")
            var (xvfb, display) = try Self.xvfb(nil)
            let env = ["DISPLAY=\(display)"]
            var i3 = try Gestured.Process(["-c", i3Config], environment: env, executable: "/usr/bin/i3")
            let source: any FocusSource = via == "ewmh"
                ? X11Source(display: display, retryInitial: 0.05, retryMaximum: 0.2)
                : I3IPCSource(name: "i3", socketPath: socket, retryInitial: 0.05, retryMaximum: 0.2)
            let (daemon, pad, out) = try Self.daemon(dir, source: source)
            try #require(Self.waitForFocus(daemon, nil), "the focus source answered (\(i3.poll().map { "i3 exited \($0)" } ?? "i3 running"))")
            var windows: [Gestured.Process] = []
            for cls in ["One", "Two"] {
                windows.append(try Gestured.Process(["-class", cls, "-e", "sleep", "60"], environment: env, executable: "/usr/bin/xterm"))
                #expect(Self.waitForFocus(daemon, cls), "xterm -class \(cls) has the focus")
            }
            #expect(Self.swipe(daemon, pad, out: out) == "workspace\n")
            for (cls, expected) in [("One", "back\n"), ("Two", "workspace\n")] {
                let r = try Gestured.Process(["-s", socket, "[class=\"\(cls)\"] focus"], executable: "/usr/bin/i3-msg")
                #expect(r.wait() == 0)
                #expect(Self.waitForFocus(daemon, cls))
                #expect(Self.swipe(daemon, pad, out: out) == expected, "focused \(cls)")
            }
            guard via == "ewmh" else { return }
            // The X server restarts on the same display: the source finds it again.
            windows.removeAll()
            kill(i3.pid, SIGTERM)
            _ = i3.wait()
            kill(xvfb.pid, SIGTERM)
            _ = xvfb.wait()
            #expect(LiveDeviceTests.spin(daemon) { !source.connected }, "the source saw the X server go")
            (xvfb, _) = try Self.xvfb(display)
            i3 = try Gestured.Process(["-c", i3Config], environment: env, executable: "/usr/bin/i3")
            windows.append(try Gestured.Process(["-class", "One", "-e", "sleep", "60"], environment: env, executable: "/usr/bin/xterm"))
            #expect(Self.waitForFocus(daemon, "One"), "found again after the restart")
            #expect(Self.swipe(daemon, pad, out: out) == "back\n")
        }

        /// Xvfb on `display`, or on a free one it picks (-displayfd writes its number when ready).
        static func xvfb(_ display: String?) throws -> (Gestured.Process, String) {
            let args = (display.map { [$0] } ?? []) + ["-displayfd", "1", "-nolisten", "tcp", "-screen", "0", "800x600x24"]
            let xvfb = try Gestured.Process(args, executable: "/usr/bin/Xvfb")
            let deadline = clinux_monotonic_ns() + 10_000_000_000
            while !xvfb.stdout.hasSuffix("\n") && xvfb.poll() == nil && clinux_monotonic_ns() < deadline { xvfb.pump(ms: 100) }
            try #require(xvfb.stdout.hasSuffix("\n"), "Xvfb is ready: \(xvfb.stderr)")
            return (xvfb, ":" + xvfb.stdout.filter(\.isNumber))
        }
    }
}

extension String {
    func replacingOccurrences(_ a: String, _ b: String) -> String {
        split(separator: a, omittingEmptySubsequences: false).joined(separator: b)
    }
}
