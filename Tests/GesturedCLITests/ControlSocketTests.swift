import CLinux
import DesktopSession
import Glibc
import LinuxSystem
import Testing
@testable import Commands
@testable import DaemonLoop
import JSON
@testable import LiveView

/// The control socket with the real daemon and the real CLI: every command, a
/// client of another user, a stale socket, a second daemon, garbage requests.
@Suite(.serialized) struct ControlSocketTests {
    static let config = DaemonLifecycleTests.validConfig + """

          - name: back
            gesture: swipe
            fingers: 3
            direction: left
            apps: [firefox]
            command: echo back
        """

    /// A runtime directory of its own, a config, and `gestured run` on them.
    final class Session {
        let dir = TempDir()
        let runtime: String
        let config: String
        var env: [String] { ["XDG_RUNTIME_DIR=\(runtime)"] }
        var socket: String { runtime + "/gestured.sock" }

        init() {
            runtime = dir.path + "/run"
            mkdir(runtime, 0o700)
            mkdir(dir.path + "/input", 0o700)
            config = dir.write("config.yaml", ControlSocketTests.config)
        }

        func daemon() throws -> Gestured.Process {
            try Gestured.Process(["run", "--config", config, "--input-dir", dir.path + "/input"], environment: env)
        }

        func cli(_ args: [String]) throws -> Gestured.Result { try Gestured.run(args, environment: env) }

        /// A raw request, as a misbehaving client would send it.
        func raw(_ bytes: [UInt8]) -> String {
            guard let client = try? StreamSocket.connect(to: socket) else { return "cannot connect" }
            try? client.sendAll(bytes)
            client.shutdownWrite()
            var reply: [UInt8] = []
            while (try? Poll.ready([client.descriptor], timeoutMS: 30_000))?.first == true,
                  case .drained = client.readAvailable(into: &reply, limit: 1 << 20) {}
            return String(decoding: reply, as: UTF8.self)
        }
    }

    @Test func everyCommand() throws {
        let s = Session()
        let d = try s.daemon()
        #expect(d.waitForLog("started:"))
        var st = stat()
        #expect(stat(s.socket, &st) == 0 && st.st_mode & 0o777 == 0o600, "the socket is the user's alone")

        let status = try s.cli(["status"])
        #expect(status.status == 0)
        #expect(status.stdout.contains("config: \(s.config) (2 gestures)"))
        #expect(status.stdout.contains("focused app: none known — no desktop session in the environment"), "\(status.stdout)")
        #expect(status.stdout.contains("  left  swipe  enabled\n"))
        #expect(status.stdout.contains("  back  swipe  enabled  apps: firefox\n"))
        #expect(status.stdout.contains("last gestures: none yet"))

        #expect(try s.cli(["disable", "left"]).stdout == "left: disabled\n")
        #expect(try s.cli(["status"]).stdout.contains("  left  swipe  disabled (at run time)\n"))
        let json = try #require(JSONValue.parse(Array(try s.cli(["status", "--json"]).stdout.utf8)))
        #expect(json["gestures"]?.array?.first?["enabled"] == .bool(false))
        #expect(json["gestures"]?.array?.last?["apps"] == .array([.string("firefox")]))
        #expect(json["focus"]?["source"] == .null)
        #expect(try s.cli(["enable", "left"]).stdout == "left: enabled\n")
        #expect(d.waitForLog("gesture left disabled (gestured disable)"))

        let unknown = try s.cli(["disable", "lefft"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr == "gestured: no gesture named 'lefft'; did you mean 'left'? (gestured status lists them)\n")

        let reloaded = try s.cli(["reload"])
        #expect(reloaded.stdout == "reloaded \(s.config): 2 gestures\n")
        s.dir.write("config.yaml", "gestures:\n  - name: broken\n    gesture: swipe\n    fingers: three\n")
        let refused = try s.cli(["reload"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("the config has errors; still running the previous one"))
        #expect(try s.cli(["status"]).stdout.contains("(2 gestures)"), "the old config still runs")
        kill(d.pid, SIGTERM)
        #expect(d.wait() == 0)
        #expect(access(s.socket, F_OK) != 0, "a clean exit removes the socket")
        #expect(try s.cli(["status"]).stderr.contains("no gestured is running for this user (no control socket at \(s.socket))"))
    }

    @Test(Requires.root, Requires.programs([("setpriv", "util-linux")]))
    func anotherUserIsRefused() throws {
        let s = Session()
        let d = try s.daemon()
        #expect(d.waitForLog("started:"))
        let asNobody = ["--reuid=65534", "--regid=65534", "--clear-groups", Gestured.path, "status"]
        // The file mode stops them first …
        let p = try Gestured.Process(asNobody, environment: s.env, executable: "/usr/bin/setpriv")
        #expect(p.wait() == 1)
        #expect(p.stderr.hasPrefix("gestured: permission denied: \(s.socket) belongs to"), "\(p.stderr)")
        // … and with the modes loosened by mistake, the daemon's own check (SO_PEERCRED).
        chmod(s.dir.path, 0o755)
        chmod(s.runtime, 0o755)
        chmod(s.socket, 0o666)
        // (The client sees first that the daemon is not its own, and sends nothing.)
        let q = try Gestured.Process(asNobody, environment: s.env, executable: "/usr/bin/setpriv")
        #expect(q.wait() == 1)
        #expect(q.stderr.hasPrefix("gestured: refusing to talk to \(s.socket): it is served by uid 0 (pid \(d.pid)), not by you (uid 65534)"), "\(q.stderr)")
        #expect(d.waitForLog("control: refused a client of uid 65534"))
        let raw = try Gestured.Process(["--reuid=65534", "--regid=65534", "--clear-groups", "/bin/sh", "-c", "printf 'status\\n' | socat - UNIX-CONNECT:\(s.socket)"],
                                       environment: s.env, executable: "/usr/bin/setpriv")
        #expect(raw.wait() == 0)
        #expect(raw.stdout == "error: permission denied: this gestured belongs to uid 0, and the control socket answers only its own user (you are uid 65534)\n", "\(raw.stdout) \(raw.stderr)")
        #expect(try s.cli(["status"]).status == 0, "its own user still gets answers")
        kill(d.pid, SIGTERM)
        #expect(d.wait() == 0)
    }

    /// Issue 26 item 6: in a runtime directory others may write, another user can
    /// listen on gestured.sock first. The daemon refuses such a directory, and says why.
    @Test func theDaemonRefusesARuntimeDirectoryThatIsNotTheUsersAlone() throws {
        let s = Session()
        chmod(s.runtime, 0o1777)
        let d = try s.daemon()
        #expect(d.wait() == 1)
        #expect(d.stderr.contains("refusing to make the control socket: XDG_RUNTIME_DIR \(s.runtime) is yours with mode 01777; it must be yours (uid \(getuid())) with mode 0700"), "\(d.stderr)")
        #expect(access(s.socket, F_OK) != 0)
    }

    @Test(Requires.root)
    func theDaemonRefusesARuntimeDirectoryOfAnotherUser() throws {
        let s = Session()
        chown(s.runtime, 65534, 65534)
        let d = try s.daemon()
        #expect(d.wait() == 1)
        #expect(d.stderr.contains("XDG_RUNTIME_DIR \(s.runtime) is owned by uid 65534 with mode 0700; it must be yours (uid 0)"), "\(d.stderr)")
    }

    /// Issue 26 item 6, the client's side: `status` talked to an impostor, printed its
    /// text and exited 0. Here the impostor is a real gestured of another user (nobody),
    /// in a runtime directory that is its own: the client refuses before sending a byte.
    @Test(Requires.root, Requires.programs([("setpriv", "util-linux")]))
    func theClientRefusesAServerOfAnotherUser() throws {
        let s = Session()
        chmod(s.dir.path, 0o755)
        chmod(s.dir.path + "/input", 0o755)
        chmod(s.config, 0o644)
        chown(s.runtime, 65534, 65534)
        let impostor = try Gestured.Process(["--reuid=65534", "--regid=65534", "--clear-groups", Gestured.path,
                                             "run", "--config", s.config, "--input-dir", s.dir.path + "/input"],
                                            environment: s.env, executable: "/usr/bin/setpriv")
        defer { kill(impostor.pid, SIGTERM); _ = impostor.wait() }
        try #require(impostor.waitForLog("started:"), "\(impostor.stderr)")
        let status = try s.cli(["status"])
        #expect(status.status == 1)
        #expect(status.stdout.isEmpty, "nothing of the impostor's is printed")
        #expect(status.stderr.hasPrefix("gestured: refusing to talk to \(s.socket): it is served by uid 65534"), "\(status.stderr)")
        #expect(try s.cli(["disable", "left"]).status == 1)
        #expect(!impostor.stderr.contains("gesture left disabled"), "the request never reached it")
    }

    @Test func aStaleSocketIsNamedAndReplaced() throws {
        let s = Session()
        // What a crashed daemon leaves: a socket file nobody listens on.
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        _ = try withUnixSocketAddress(s.socket) { address, length throws(Errno) in bind(fd, address, length) }
        close(fd)
        let stale = try s.cli(["status"])
        #expect(stale.status == 1)
        #expect(stale.stderr.contains("\(s.socket) is a stale socket left by a daemon that did not exit cleanly"))
        let d = try s.daemon()
        #expect(d.waitForLog("removed a stale control socket \(s.socket)"))
        #expect(d.waitForLog("started:"))
        #expect(try s.cli(["status"]).status == 0)
        kill(d.pid, SIGTERM)
        #expect(d.wait() == 0)
    }

    @Test func aSecondDaemonForTheSameUserSaysWhichIsRunning() throws {
        let s = Session()
        let first = try s.daemon()
        #expect(first.waitForLog("started:"))
        let second = try s.daemon()
        #expect(second.wait() == 1)
        #expect(second.stderr.contains("another gestured (pid \(first.pid)) is already running for this user (its control socket is \(s.socket))"), "\(second.stderr)")
        #expect(try s.cli(["status"]).stdout.contains("pid \(first.pid)"), "the first one still answers")
        kill(first.pid, SIGTERM)
        #expect(first.wait() == 0)
    }

    @Test func garbageHugeAndIdleClientsGetAnswersAndNeverStallTheDaemon() throws {
        let s = Session()
        let d = try s.daemon()
        #expect(d.waitForLog("started:"))
        // A client that connects and says nothing holds one connection, not the loop.
        guard let idle = try? StreamSocket.connect(to: s.socket) else { Issue.record("cannot connect"); return }
        defer { _ = idle.descriptor }
        #expect(s.raw([0x01, 0xff, 0x41, 0x0a]) == "error: unknown request '?\u{FFFD}A'; \(ControlRequest.usage)\n")
        #expect(s.raw(Array(repeating: 0x61, count: 100_000)).hasPrefix("error: request too long: more than 4096 bytes without a newline"))
        #expect(s.raw(Array("enable\n".utf8)) == "error: 'enable' takes one gesture name\n")
        #expect(s.raw(Array("status".utf8)).hasPrefix("ok\ngestured "), "a request ended by end of stream, without newline")
        #expect(try s.cli(["status"]).status == 0)
        #expect(d.poll() == nil, "the daemon is still running")
        kill(d.pid, SIGTERM)
        #expect(d.wait() == 0)
    }
}

@Suite struct CheckAppsTests {
    /// `check` in a session with no focused-app source says the per-app gestures will not fire.
    @Test func checkSaysWhenPerAppGesturesCannotFireHere() throws {
        let dir = TempDir()
        let config = dir.write("config.yaml", ControlSocketTests.config)
        let gnome = try Gestured.run(["check", config], environment: ["XDG_CURRENT_DESKTOP=GNOME", "WAYLAND_DISPLAY=wayland-0"])
        #expect(gnome.status == 0)
        #expect(gnome.stdout.contains("note: gestures with 'apps:' will not fire in this session: GNOME on Wayland, but no session bus"), "\(gnome.stdout)")
        let sway = try Gestured.run(["check", config], environment: ["SWAYSOCK=/run/user/1000/sway-ipc.sock"])
        #expect(!sway.stdout.contains("note:"))
        // Another Wayland compositor: the window list it may or may not offer.
        let labwc = try Gestured.run(["check", config], environment: ["XDG_CURRENT_DESKTOP=labwc:wlroots", "WAYLAND_DISPLAY=wayland-0",
                                                                      "XDG_RUNTIME_DIR=/run/user/1000"])
        #expect(labwc.stdout.contains("note: gestures with 'apps:' need this compositor (labwc:wlroots) to offer wlr-foreign-toplevel-management "
                                      + "(labwc, wayfire, river and sway do); `gestured status` says whether it does"), "\(labwc.stdout)")
        let actions = dir.write("actions.yaml", "gestures:\n  - {name: ws, gesture: swipe, fingers: 3, command: {workspace: next}}\n"
                                + "  - {name: ov, gesture: pinch, fingers: 4, command: {overview: toggle}}\n")
        let labwcActions = try Gestured.run(["check", actions], environment: ["XDG_CURRENT_DESKTOP=labwc", "WAYLAND_DISPLAY=wayland-0",
                                                                             "XDG_RUNTIME_DIR=/run/user/1000"])
        #expect(labwcActions.stdout.contains("warning: gesture 'ov': overview toggle: labwc is reached through ext-workspace-v1, which has no overview"),
                "\(labwcActions.stdout)")
        #expect(labwcActions.stdout.contains("note: workspace actions go through ext-workspace-v1, if this compositor (labwc) offers it (labwc does); "
                                             + "the daemon's log says when it does not"), "\(labwcActions.stdout)")
    }
}
