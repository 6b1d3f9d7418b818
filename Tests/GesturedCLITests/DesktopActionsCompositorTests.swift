import CLinux
import GestureTestSupport
import Glibc
import Testing
@testable import Commands
@testable import DaemonLoop
import JSON
@testable import LiveView

extension RealDesktops {
    /// `{workspace: next}` and friends against real compositors, from a swipe on the fake
    /// touchpad through the daemon to the compositor's own state: sway 1.7 headless
    /// (`swaymsg -t get_workspaces`), i3 on Xvfb through its IPC and through EWMH
    /// (`i3-msg -t get_workspaces`), openbox on Xvfb through EWMH (`xprop -root`).
    @Suite struct DesktopActionsCompositorTests {
        static let config = """
            gestures:
              - {name: next, gesture: swipe, fingers: 3, direction: left, command: {workspace: next}}
              - {name: previous, gesture: swipe, fingers: 3, direction: right, command: {workspace: previous}}
            """

        static func daemon(_ dir: TempDir, environment: [String: String]) throws -> (Daemon, FakeTouchpad) {
            let daemon = try LiveDeviceTests.makeDaemon(dir, config: config, environment: environment)
            let pad = try FakeTouchpad()
            daemon.adopt(pad.device, announce: true)
            return (daemon, pad)
        }

        /// Turns the daemon's loop until `probe` (a program reading the compositor's state) says `expected`.
        /// Until `probe` says `expected`, for at most 30 s: a compositor on two busy cores
        /// (GNOME Shell in a loaded `make test`) can take more than 10 s to switch.
        static func wait(_ daemon: Daemon, for expected: String, _ probe: () -> String) -> String {
            var last = ""
            _ = LiveDeviceTests.spin(daemon, seconds: 30) {
                last = probe()
                return last == expected
            }
            return last
        }

        static func output(_ argv: [String], executable: String, environment: [String] = []) -> String {
            guard let p = try? Gestured.Process(argv, environment: environment, executable: executable) else { return "" }
            _ = p.wait()
            return p.stdout
        }

        @Test(Requires.programs([("sway", "sway"), ("foot", "foot"), ("swaymsg", "sway"), ("setpriv", "util-linux")]))
        func swaySwitchesWorkspaceOverIPC() throws {
            try Self.swaySwitchesWorkspaceOverIPC(in: nil)
        }

        static func swaySwitchesWorkspaceOverIPC(in root: DebianRoot?) throws {
            let dir = TempDir()
            let headless = try HeadlessSway(in: dir, root: root)
            defer { withExtendedLifetime(headless) {} }  // sway runs until the test ends
            let (socket, env) = (headless.socket, headless.environment)
            func msg(_ args: [String]) -> String { Self.output(["-s", socket] + args, executable: "/usr/bin/swaymsg") }
            func focused() -> String {
                // `swaymsg -t get_workspaces` as a person reads it: the line of the focused one.
                msg(["-p", "-t", "get_workspaces"]).split(separator: "\n").first { $0.contains("(focused)") }.map(String.init) ?? ""
            }
            let (daemon, pad) = try Self.daemon(dir, environment: ["SWAYSOCK": socket])
            #expect(Self.wait(daemon, for: "Workspace 1 (focused)", focused) == "Workspace 1 (focused)", "sway answers")
            // Two workspaces with a window each (an empty one goes when left).
            let display = ["WAYLAND_DISPLAY=\(headless.display)"] + env
            func mapped(_ id: String) -> String { msg(["-t", "get_tree"]).contains(#""app_id": "\#(id)""#) ? id : "" }
            var windows = [try Unprivileged.spawn(["foot", "--log-level=error", "--app-id=one", "sleep", "60"], environment: display)]
            #expect(Self.wait(daemon, for: "one", { mapped("one") }) == "one")
            _ = msg(["workspace", "2"])
            windows.append(try Unprivileged.spawn(["foot", "--log-level=error", "--app-id=two", "sleep", "60"], environment: display))
            #expect(Self.wait(daemon, for: "two", { mapped("two") }) == "two")
            _ = msg(["workspace", "1"])
            #expect(Self.wait(daemon, for: "Workspace 1 (focused)", focused) == "Workspace 1 (focused)")

            LiveDeviceTests.swipe(pad, dxMM: -40)
            #expect(Self.wait(daemon, for: "Workspace 2 (focused)", focused) == "Workspace 2 (focused)", "{workspace: next} on a left swipe")
            LiveDeviceTests.swipe(pad, dxMM: 40)
            #expect(Self.wait(daemon, for: "Workspace 1 (focused)", focused) == "Workspace 1 (focused)", "{workspace: previous} on a right swipe")
            #expect(daemon.runningCommands == 0, "no process was started")
            _ = windows
        }

        /// i3 on Xvfb, both ways gestured may reach it: its IPC (`I3SOCK`) and EWMH (only
        /// `DISPLAY`: i3 keeps `_NET_CURRENT_DESKTOP` and obeys its client message).
        @Test(Requires.programs([("Xvfb", "xvfb"), ("i3", "i3-wm"), ("i3-msg", "i3-wm"), ("xterm", "xterm")]),
              arguments: ["i3-ipc", "ewmh"])
        func i3SwitchesWorkspace(via: String) throws {
            let dir = TempDir()
            let socket = dir.path + "/i3.sock"
            let i3Config = dir.write("i3.conf", "ipc-socket \(socket)\nfont pango:monospace 8\n")
            let (xvfb, display) = try CompositorFocusTests.xvfb(nil)
            defer { kill(xvfb.pid, SIGTERM); _ = xvfb.wait() }
            let env = ["DISPLAY=\(display)"]
            let i3 = try Gestured.Process(["-c", i3Config], environment: env, executable: "/usr/bin/i3")
            func msg(_ args: [String]) -> String { Self.output(["-s", socket] + args, executable: "/usr/bin/i3-msg") }
            func focused() -> String {
                // i3-msg's JSON, one object per workspace: the name of the focused one.
                let json = msg(["-t", "get_workspaces"])
                guard let at = json.firstRange(of: #""focused":true"#) else { return "" }
                let before = json[..<at.lowerBound]
                guard let name = before.ranges(of: #""name":""#).last else { return "" }
                return String(json[name.upperBound...].prefix { $0 != "\"" })
            }
            let (daemon, pad) = try Self.daemon(dir, environment: via == "ewmh" ? ["DISPLAY": display] : ["I3SOCK": socket, "DISPLAY": display])
            try #require(Self.wait(daemon, for: "1", focused) == "1", "i3 answers (\(i3.poll().map { "exited \($0)" } ?? "running"))")
            var windows = [try Gestured.Process(["-class", "One", "-e", "sleep", "60"], environment: env, executable: "/usr/bin/xterm")]
            #expect(Self.wait(daemon, for: "1") { msg(["-t", "get_tree"]).contains(#""class":"One""#) ? "1" : "" } == "1")
            _ = msg(["workspace", "2"])
            windows.append(try Gestured.Process(["-class", "Two", "-e", "sleep", "60"], environment: env, executable: "/usr/bin/xterm"))
            #expect(Self.wait(daemon, for: "1") { msg(["-t", "get_tree"]).contains(#""class":"Two""#) ? "1" : "" } == "1")
            _ = msg(["workspace", "1"])
            #expect(Self.wait(daemon, for: "1", focused) == "1")

            LiveDeviceTests.swipe(pad, dxMM: -40)
            #expect(Self.wait(daemon, for: "2", focused) == "2", "{workspace: next} via \(via)")
            LiveDeviceTests.swipe(pad, dxMM: 40)
            #expect(Self.wait(daemon, for: "1", focused) == "1", "{workspace: previous} via \(via)")
            #expect(daemon.runningCommands == 0, "no process was started")
            _ = windows
        }

        @Test(Requires.programs([("Xvfb", "xvfb"), ("openbox", "openbox"), ("xprop", "x11-utils")]))
        func openboxSwitchesDesktopThroughEWMH() throws {
            let dir = TempDir()
            let (xvfb, display) = try CompositorFocusTests.xvfb(nil)
            defer { kill(xvfb.pid, SIGTERM); _ = xvfb.wait() }
            let env = ["DISPLAY=\(display)", "HOME=\(dir.path)"]
            func root(_ property: String) -> String {
                Self.output(["-display", display, "-root", property], executable: "/usr/bin/xprop").split(separator: "\n").first.map(String.init) ?? ""
            }
            // openbox now and then exits 1 at start on two busy cores, before it has set
            // its desktops, saying nothing: it is started again (at most three times),
            // and the test goes on only once it runs with its 4 desktops.
            var openbox = try Gestured.Process([], environment: env, executable: "/usr/bin/openbox")
            var starts = 1
            defer { kill(openbox.pid, SIGTERM); _ = openbox.wait() }
            let (daemon, pad) = try Self.daemon(dir, environment: ["DISPLAY": display])
            let count = Self.wait(daemon, for: "_NET_NUMBER_OF_DESKTOPS(CARDINAL) = 4") {
                openbox.pump(ms: 0)
                if openbox.poll() != nil, starts < 3, let again = try? Gestured.Process([], environment: env, executable: "/usr/bin/openbox") {
                    openbox = again
                    starts += 1
                }
                return root("_NET_NUMBER_OF_DESKTOPS")
            }
            try #require(count == "_NET_NUMBER_OF_DESKTOPS(CARDINAL) = 4",
                         "openbox runs with its 4 desktops (started \(starts) times; \(openbox.poll().map { "exited \($0)" } ?? "running"): \(openbox.stderr))")
            #expect(root("_NET_CURRENT_DESKTOP") == "_NET_CURRENT_DESKTOP(CARDINAL) = 0")

            LiveDeviceTests.swipe(pad, dxMM: -40)
            #expect(Self.wait(daemon, for: "_NET_CURRENT_DESKTOP(CARDINAL) = 1") { root("_NET_CURRENT_DESKTOP") } == "_NET_CURRENT_DESKTOP(CARDINAL) = 1")
            LiveDeviceTests.swipe(pad, dxMM: 40)
            #expect(Self.wait(daemon, for: "_NET_CURRENT_DESKTOP(CARDINAL) = 0") { root("_NET_CURRENT_DESKTOP") } == "_NET_CURRENT_DESKTOP(CARDINAL) = 0")
            // Previous from the first wraps to the last, as pagers do.
            LiveDeviceTests.swipe(pad, dxMM: 40)
            #expect(Self.wait(daemon, for: "_NET_CURRENT_DESKTOP(CARDINAL) = 3") { root("_NET_CURRENT_DESKTOP") } == "_NET_CURRENT_DESKTOP(CARDINAL) = 3")
            #expect(daemon.runningCommands == 0, "no process was started")
        }
    }
}
