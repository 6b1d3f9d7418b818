import CLinux
import CSystemd
import DaemonCore
import DesktopActions
import DesktopSession
import GestureActions
import GestureConfig
import GestureTestSupport
import Glibc
import Testing
import TouchModel
@testable import Commands
@testable import DaemonLoop
import JSON
@testable import LiveView

/// Desktop actions: which desktop the environment names, what each action becomes
/// there, and the requests as each desktop's documented protocol carries them
/// (Hyprland's request socket and an i3-ipc peer served by hand, kglobalaccel on a
/// private session bus). The real compositors are in DesktopActionsCompositorTests.
@Suite(.serialized) struct DesktopActionsTests {
    @Test func theEnvironmentNamesTheDesktop() {
        #expect(Desktop.detect(["SWAYSOCK": "/run/s.sock", "I3SOCK": "/run/i"]) == .desktop(.i3IPC(name: "sway", socket: "/run/s.sock")))
        #expect(Desktop.detect(["I3SOCK": "/run/i", "DISPLAY": ":0"]) == .desktop(.i3IPC(name: "i3", socket: "/run/i")))
        #expect(Desktop.detect(["HYPRLAND_INSTANCE_SIGNATURE": "abc", "XDG_RUNTIME_DIR": "/nonexistent"])
                == .desktop(.hyprland(socket: "/nonexistent/hypr/abc/.socket.sock")))
        #expect(Desktop.detect(["XDG_CURRENT_DESKTOP": "KDE", "DBUS_SESSION_BUS_ADDRESS": "unix:path=/b"]) == .desktop(.kde(bus: "unix:path=/b")))
        #expect(Desktop.detect(["XDG_CURRENT_DESKTOP": "ubuntu:GNOME", "XDG_RUNTIME_DIR": "/run/user/7"]) == .desktop(.gnome(bus: "unix:path=/run/user/7/bus")))
        #expect(Desktop.detect(["DISPLAY": ":1"]) == .desktop(.x11(display: ":1")))
        #expect(Desktop.detect(["NIRI_SOCKET": "/run/n.sock", "WAYLAND_DISPLAY": "wayland-0"]) == .desktop(.niri(socket: "/run/n.sock")))
        // Another Wayland compositor is reached on its socket (ext-workspace-v1); with no socket, nothing.
        guard case .none(let why) = Desktop.detect(["WAYLAND_DISPLAY": "wayland-0", "XDG_CURRENT_DESKTOP": "river"]) else {
            Issue.record("a Wayland compositor with no socket to reach it at has no desktop actions")
            return
        }
        #expect(why.contains("river"))
    }

    /// The table, desktop by desktop: what a user would see in the compositor's own log.
    @Test func eachDesktopsRequest() {
        let sway = Desktop.i3IPC(name: "sway", socket: "s")
        #expect(sway.request(.workspace(.next)) == .i3Command("workspace next_on_output"))
        #expect(sway.request(.workspace(.previous)) == .i3Command("workspace prev_on_output"))
        #expect(sway.request(.workspace(.number(3))) == .i3Command("workspace number 3"))
        #expect(sway.request(.moveWindow(.next)) == .i3Command("move container to workspace next_on_output; workspace next_on_output"))
        #expect(sway.cannot(.overview(.toggle)) == "sway has no overview")
        let hypr = Desktop.hyprland(socket: "h")
        #expect(hypr.request(.workspace(.next)) == .hyprland("dispatch workspace e+1"))
        #expect(hypr.request(.workspace(.previous)) == .hyprland("dispatch workspace e-1"))
        #expect(hypr.request(.moveWindow(.number(4))) == .hyprland("dispatch movetoworkspace 4"))
        #expect(hypr.cannot(.showDesktop(.toggle)) != nil)
        let kde = Desktop.kde(bus: "b")
        func shortcut(_ name: String) -> Desktop.Request {
            .bus(destination: "org.kde.kglobalaccel", path: "/component/kwin", interface: "org.kde.kglobalaccel.Component",
                 member: "invokeShortcut", argument: name)
        }
        #expect(kde.request(.workspace(.next)) == shortcut("Switch One Desktop to the Right"))
        #expect(kde.request(.workspace(.number(2))) == shortcut("Switch to Desktop 2"))
        #expect(kde.request(.moveWindow(.previous)) == shortcut("Window One Desktop to the Left"))
        #expect(kde.request(.overview(.toggle)) == shortcut("Overview"))
        #expect(kde.request(.showDesktop(.toggle)) == shortcut("Show Desktop"))
        #expect(kde.cannot(.overview(.on))?.contains("KDE Plasma") == true)
        #expect(kde.cannot(.workspace(.number(21)))?.contains("1 to 20") == true)
        let gnome = Desktop.gnome(bus: "b")
        #expect(gnome.request(.workspace(.previous)) == .bus(destination: "org.gnome.Shell", path: "/io/github/gestured/Shell",
                                                             interface: "io.github.gestured.Shell", member: "SwitchWorkspace", argument: "previous"))
        for a: DesktopAction in [.workspace(.number(2)), .moveWindow(.next), .overview(.off), .showDesktop(.toggle)] {
            #expect(gnome.cannot(a) == nil, "GNOME does \(a)")
        }
        // The extension off: the bus's error, and the command that turns it on.
        #expect(gnome.explain("org.freedesktop.DBus.Error.UnknownObject: no such object")
                == "org.freedesktop.DBus.Error.UnknownObject: no such object; the gestured GNOME Shell extension is not running: enable it with: gnome-extensions enable gestured@gestured.github.io")
        #expect(kde.explain("org.kde.kglobalaccel.NoSuchShortcut: x") == "org.kde.kglobalaccel.NoSuchShortcut: x")
        let x11 = Desktop.x11(display: ":0")
        #expect(x11.request(.workspace(.number(2))) == .ewmh(.switchDesktop(.absolute(1))))
        #expect(x11.request(.moveWindow(.previous)) == .ewmh(.moveActiveWindow(.relative(-1))))
        #expect(x11.request(.showDesktop(.toggle)) == .ewmh(.toggleShowingDesktop))
        #expect(x11.cannot(.overview(.toggle)) == "EWMH has no overview")
    }

    /// `check`'s and the start's warnings: per gesture, with the desktop's name.
    @Test func problemsNameTheGestureAndTheDesktop() throws {
        let (c, _) = ConfigLoader.parse("""
            gestures:
              - {name: ov, gesture: pinch, fingers: 4, command: {overview: toggle}}
              - {name: ws, gesture: swipe, fingers: 3, command: {workspace: next}}
              - {name: sd, gesture: swipe, fingers: 4, command: {show-desktop: toggle}}
            """, file: "c.yaml")
        let config = try #require(c)
        #expect(Desktop.i3IPC(name: "sway", socket: "s").problems(in: config) == [
            "gesture 'ov': overview toggle: sway has no overview",
            "gesture 'sd': show-desktop toggle: sway has no \"show desktop\"",
        ])
        #expect(Desktop.gnome(bus: "b").problems(in: config) == [])
    }

    /// Never silently nothing: an action the desktop cannot do is a warning naming it, once,
    /// then info (a stepped update must not flood the journal).
    @Test func anUnsupportedActionIsLoggedNotSent() throws {
        var lines: [(LogPriority, String)] = []
        let loop = try EventLoop()
        let sink = DesktopActions(detected: .desktop(.i3IPC(name: "sway", socket: "/nonexistent")), loop: loop, log: { lines.append(($0, $1)) })
        for _ in 0..<3 { sink.submit(Invocation(gesture: "ov", trigger: "update", action: .desktop(.overview(.toggle)), environment: [])) }
        #expect(lines.map(\.1) == Array(repeating: "[ov] update: overview toggle: not done: sway has no overview", count: 3))
        #expect(lines.map(\.0) == [.warning, .info, .info])
        let none = DesktopActions(detected: .none("no desktop session in the environment"), loop: loop, log: { lines.append(($0, $1)) })
        none.submit(Invocation(gesture: "ws", trigger: "command", action: .desktop(.workspace(.next)), environment: []))
        #expect(lines.last?.1 == "[ws] command: workspace next: not done: no desktop session in the environment")
    }

    /// Hyprland's request socket as hyprctl uses it: one request per connection, `ok` or an error, then close.
    @Test func hyprlandGetsTheDispatchOnItsRequestSocket() throws {
        let dir = TempDir()
        let server = FakeSocketServer(path: dir.path + "/.socket.sock")
        var lines: [String] = []
        let loop = try EventLoop()
        let sink = DesktopActions(detected: .desktop(.hyprland(socket: server.path)), loop: loop, log: { lines.append($1) })
        // One connection per request, each a new client.
        func serve(_ reply: String) -> String? {
            let deadline = clinux_monotonic_ns() + 30_000_000_000
            while clinux_monotonic_ns() < deadline {
                server.pump()
                if let fd = server.clients.last, let got = server.received[fd], !got.isEmpty {
                    server.send(fd, reply)
                    server.hangUp(fd)
                    for _ in 0..<20 { loop.runOnce(timeoutMS: 5) }
                    return String(decoding: got, as: UTF8.self)
                }
                loop.runOnce(timeoutMS: 5)
            }
            return nil
        }
        sink.submit(Invocation(gesture: "next", trigger: "command", action: .desktop(.workspace(.next)), environment: []))
        #expect(serve("ok") == "dispatch workspace e+1")
        sink.submit(Invocation(gesture: "win", trigger: "command", action: .desktop(.moveWindow(.number(3))), environment: []))
        #expect(serve("ok") == "dispatch movetoworkspace 3")
        #expect(lines.isEmpty, "ok is not a problem: \(lines)")
        sink.submit(Invocation(gesture: "next", trigger: "command", action: .desktop(.workspace(.previous)), environment: []))
        #expect(serve("Invalid dispatcher") == "dispatch workspace e-1")
        #expect(lines == ["[next] command: workspace previous: Hyprland refused it: Invalid dispatcher"])
        // Hyprland gone: said, not silent.
        server.shutDown()
        sink.submit(Invocation(gesture: "next", trigger: "command", action: .desktop(.workspace(.next)), environment: []))
        #expect(lines.last == "[next] command: workspace next: Hyprland refused it: no reply on \(server.path)")
    }

    /// An i3-ipc peer that answers RUN_COMMAND as sway does, with a failure in the reply.
    @Test func swaysCommandErrorIsLogged() throws {
        let dir = TempDir()
        let server = FakeSocketServer(path: dir.path + "/sway.sock")
        var lines: [String] = []
        let loop = try EventLoop()
        let sink = DesktopActions(detected: .desktop(.i3IPC(name: "sway", socket: server.path)), loop: loop, log: { lines.append($1) })
        sink.submit(Invocation(gesture: "w", trigger: "command", action: .desktop(.workspace(.number(2))), environment: []))
        let deadline = clinux_monotonic_ns() + 30_000_000_000
        var request: [UInt8] = []
        while clinux_monotonic_ns() < deadline, request.count < 14 {
            server.pump()
            request = server.clients.last.flatMap { server.received[$0] } ?? []
            loop.runOnce(timeoutMS: 5)
        }
        #expect(Array(request.prefix(6)) == Array("i3-ipc".utf8))
        #expect(request[10..<14].elementsEqual([0, 0, 0, 0]), "RUN_COMMAND is type 0")
        #expect(String(decoding: request.dropFirst(14), as: UTF8.self) == "workspace number 2")
        let payload = Array(#"[{"success":false,"parse_error":true,"error":"Unknown/invalid command"}]"#.utf8)
        var reply = Array("i3-ipc".utf8)
        withUnsafeBytes(of: UInt32(payload.count)) { reply += $0 }
        withUnsafeBytes(of: UInt32(0)) { reply += $0 }
        server.send(server.clients.last!, reply + payload)
        while clinux_monotonic_ns() < deadline, lines.isEmpty { loop.runOnce(timeoutMS: 5) }
        #expect(lines == ["[w] command: workspace 2: sway refused it: Unknown/invalid command"])
    }

    /// A follow on a desktop that animates no transition is its one step, once, as the
    /// pan begins: fingers left is the next workspace, right the previous, `reverse:`
    /// flips it; the updates and the end send nothing more.
    @Test func aFollowOnSwayIsOneStepAsThePanBegins() throws {
        let dir = TempDir()
        let server = FakeSocketServer(path: dir.path + "/sway.sock")
        var lines: [String] = []
        let loop = try EventLoop()
        let sink = DesktopActions(detected: .desktop(.i3IPC(name: "sway", socket: server.path)), loop: loop, log: { lines.append($1) })
        func pan(_ dx: Double, _ follow: Follow) {
            for (k, phase) in [FollowMotion.Phase.begin, .update, .update, .end].enumerated() {
                var inv = Invocation(gesture: "ws", trigger: "begin", action: .desktop(.follow(follow)), environment: [])
                inv.motion = FollowMotion(phase: phase, time: Timestamp(seconds: Double(k) * 0.01), translation: Point(x: dx * Double(k + 1), y: 0.5),
                                          velocity: Point(x: dx * 100, y: 0), device: .touchscreen, surface: Size(width: 300, height: 190), fingers: 4)
                sink.submit(inv)
            }
        }
        func commands() -> [String] {
            let deadline = clinux_monotonic_ns() + 30_000_000_000
            var seen: [String] = []
            while clinux_monotonic_ns() < deadline {
                server.pump()
                seen = server.clients.compactMap { server.received[$0] }.filter { $0.count > 14 }.map { String(decoding: $0.dropFirst(14), as: UTF8.self) }
                if seen.count == server.clients.count, !seen.isEmpty { break }
                loop.runOnce(timeoutMS: 5)
            }
            return seen
        }
        pan(-8, Follow(transition: .workspace))
        #expect(commands() == ["workspace next_on_output"])
        pan(8, Follow(transition: .workspace))
        #expect(commands() == ["workspace next_on_output", "workspace prev_on_output"])
        pan(8, Follow(transition: .workspace, reversed: true))
        #expect(commands() == ["workspace next_on_output", "workspace prev_on_output", "workspace next_on_output"])
        #expect(sink.lastFollowProgress == nil, "an end gives the desktop nothing more")
        #expect(Desktop.i3IPC(name: "sway", socket: server.path).followNote(in: try #require(ConfigLoader.parse(
            "gestures:\n  - {name: ws, gesture: pan, fingers: 4, command: {workspace: follow}}\n", file: "c.yaml").0))
            == "sway animates no transition: a follow is one step (the next or previous workspace, the overview shown or hidden) when the pan begins")
    }

    /// kglobalaccel as KDE Plasma runs it: `org.kde.kglobalaccel` `/component/kwin`
    /// `org.kde.kglobalaccel.Component.invokeShortcut(s)`; an unknown name is an error reply.
    final class FakeKGlobalAccel {
        private(set) var bus: OpaquePointer?
        private(set) var invoked: [String] = []
        static let known = ["Switch One Desktop to the Right", "Switch One Desktop to the Left", "Overview", "Show Desktop",
                            "Window One Desktop to the Right", "Switch to Desktop 2"]

        init(address: String) {
            let b = TestBus.client(address)
            bus = b
            sd_bus_add_object(b, nil, "/component/kwin", { m, ud, _ in
                Unmanaged<FakeKGlobalAccel>.fromOpaque(ud!).takeUnretainedValue().call(m!)
            }, Unmanaged.passUnretained(self).toOpaque())
            sd_bus_request_name(b, "org.kde.kglobalaccel", 0)
        }
        deinit { if let bus { sd_bus_close_unref(bus) } }

        func pump() { while let b = bus, sd_bus_process(b, nil) > 0 {} }

        private func call(_ m: OpaquePointer) -> Int32 {
            guard sd_bus_message_is_method_call(m, "org.kde.kglobalaccel.Component", "invokeShortcut") > 0 else { return 0 }
            let name = KWinSourceTestSupport.string(m)
            invoked.append(name)
            if Self.known.contains(name) { return gestured_bus_reply(m) }
            return gestured_bus_reply_error(m, "org.kde.kglobalaccel.NoSuchShortcut", "no shortcut \(name)")
        }
    }

    @Test(Requires.programs([("dbus-daemon", "dbus-daemon")]))
    func kdeInvokesKWinsShortcutsOverKGlobalAccel() throws {
        let dir = TempDir()
        let (daemon, address) = try KWinFocusTests.privateBus(dir)
        defer { kill(daemon.pid, SIGTERM); _ = daemon.wait() }
        let kglobalaccel = FakeKGlobalAccel(address: address)
        kglobalaccel.pump()
        var lines: [String] = []
        let loop = try EventLoop()
        let sink = DesktopActions(detected: .desktop(.kde(bus: address)), loop: loop, log: { lines.append($1) })
        let actions: [DesktopAction] = [.workspace(.next), .workspace(.previous), .workspace(.number(2)), .moveWindow(.next),
                                        .overview(.toggle), .showDesktop(.toggle), .moveWindow(.number(7))]
        for a in actions { sink.submit(Invocation(gesture: "g", trigger: "command", action: .desktop(a), environment: [])) }
        let deadline = clinux_monotonic_ns() + 10_000_000_000
        while clinux_monotonic_ns() < deadline, kglobalaccel.invoked.count < actions.count || lines.isEmpty {
            kglobalaccel.pump()
            loop.runOnce(timeoutMS: 5)
        }
        #expect(kglobalaccel.invoked == ["Switch One Desktop to the Right", "Switch One Desktop to the Left", "Switch to Desktop 2",
                                         "Window One Desktop to the Right", "Overview", "Show Desktop", "Window to Desktop 7"])
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("[g] command: move-window 7: KDE Plasma refused it: org.kde.kglobalaccel.NoSuchShortcut") == true, "\(lines)")
    }
}
