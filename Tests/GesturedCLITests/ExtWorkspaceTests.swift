import CLinux
import DaemonCore
import DesktopActions
@testable import DesktopSession
import GestureActions
import GestureConfig
import Glibc
import Testing
@testable import Commands
@testable import DaemonLoop
import JSON
@testable import LiveView

/// Desktop actions through ext-workspace-v1 on a Wayland compositor with no IPC of its
/// own (labwc offers it), against a fake compositor speaking the wire protocol to the real
/// libwayland-client: no compositor on this host offers the protocol (sway 1.7's wlroots
/// predates it), so this is tested against the protocol as its XML defines it.
@Suite(.serialized) struct ExtWorkspaceTests {
    static let manager = "ext_workspace_manager_v1"
    static let others: [(name: UInt32, interface: String, version: UInt32)] = [(1, "wl_compositor", 4), (2, "wl_output", 4)]

    /// Desktop actions through the sink, on a loop of their own; what the sink logged about them.
    final class Rig {
        let loop: EventLoop
        private(set) var sink: DesktopActions!
        private(set) var lines: [String] = []

        init(socket: String) throws {
            loop = try EventLoop()
            sink = DesktopActions(detected: .desktop(.extWorkspace(socket: socket, compositor: "labwc")), loop: loop,
                                  log: { [unowned self] in lines.append($1) })
        }

        /// What was said about the actions (not the connection's news).
        var log: [String] { lines.filter { $0.hasPrefix("[g]") } }

        func submit(_ a: DesktopAction) {
            sink.submit(Invocation(gesture: "g", trigger: "command", action: .desktop(a), environment: []))
        }

        func spin(_ fake: FakeWaylandCompositor, until done: () -> Bool) -> Bool { Self.spin(loop, fake, until: done) }

        /// Turns the loop and the fake until `done`, for at most 10 s.
        static func spin(_ loop: EventLoop, _ fake: FakeWaylandCompositor, until done: () -> Bool) -> Bool {
            let deadline = clinux_monotonic_ns() + 10_000_000_000
            while clinux_monotonic_ns() < deadline {
                fake.serve()
                if done() { return true }
                loop.runOnce(timeoutMS: 5)
            }
            return done()
        }
    }

    @Test func workspacesAreActivatedInTheirOrderAndCommitted() throws {
        let dir = TempDir()
        let fake = FakeWaylandCompositor(path: dir.path + "/wayland-0", globals: Self.others + [(7, Self.manager, 1)])
        var ids: [String: UInt32] = [:]
        var managerID: UInt32 = 0
        // Entered out of order: their coordinates say the order.
        fake.onBind = { fd, interface, manager in
            guard interface == Self.manager else { return }
            managerID = manager
            let group = fake.workspaceGroup(fd, manager: manager)
            for n in [3, 1, 4, 2] {
                ids["\(n)"] = fake.workspace(fd, manager: manager, group: group, name: "\(n)", coordinates: [UInt32(n)], active: n == 1)
            }
            fake.workspacesDone(fd, manager: manager)
        }
        let loop = try EventLoop()
        let client = ExtWorkspaceClient(socket: fake.server.path, compositor: "labwc", loop: loop)
        var problems: [String?] = []
        /// An action, then what the compositor saw: the workspace activated (by name), then a commit.
        func expectActivation(_ target: ExtWorkspaceClient.Target, _ name: String, _ comment: Comment) {
            let before = fake.requests.count
            client.switchWorkspace(target) { problems.append($0) }
            #expect(Rig.spin(loop, fake) { fake.requests.count >= before + 2 }, "\(target): \(problems)")
            let sent = fake.requests.dropFirst(before).map { "\($0.object):\($0.opcode)" }
            #expect(sent == ["\(ids[name] ?? 0):1", "\(managerID):0"], comment)
            // The compositor switches, as labwc would; the client hears it.
            let fd = fake.server.clients[0]
            if let old = client.activeName.flatMap({ ids[$0] }) { fake.workspaceState(fd, workspace: old, active: false) }
            fake.workspaceState(fd, workspace: ids[name]!, active: true)
            fake.workspacesDone(fd, manager: managerID)
            #expect(Rig.spin(loop, fake) { client.activeName == name })
        }
        expectActivation(.relative(1), "2", "next after 1, by coordinates")
        expectActivation(.relative(-1), "1", "previous")
        expectActivation(.absolute(3), "4", "the fourth")
        expectActivation(.relative(1), "1", "next after the last wraps around")
        #expect(problems == [nil, nil, nil, nil])

        client.switchWorkspace(.absolute(6)) { problems.append($0) }
        #expect(problems.last == "labwc has 4 workspaces here, not 7")
    }

    /// What the sink says: a number past the last workspace, an action ext-workspace cannot do.
    @Test func theSinkSaysWhatItCannotDo() throws {
        let dir = TempDir()
        let fake = FakeWaylandCompositor(path: dir.path + "/wayland-0", globals: Self.others + [(7, Self.manager, 1)])
        fake.onBind = { fd, _, manager in
            let group = fake.workspaceGroup(fd, manager: manager)
            _ = fake.workspace(fd, manager: manager, group: group, name: "main", coordinates: [], active: true)
            fake.workspacesDone(fd, manager: manager)
        }
        let rig = try Rig(socket: fake.server.path)
        rig.submit(.workspace(.number(2)))
        #expect(rig.spin(fake) { !rig.log.isEmpty })
        #expect(rig.log == ["[g] command: workspace 2: labwc refused it: labwc has 1 workspace here, not 2"])
        rig.submit(.workspace(.next))
        #expect(rig.spin(fake) { fake.requests.count == 2 }, "next from the only one is itself: \(fake.requests)")
        rig.submit(.moveWindow(.next))
        #expect(rig.log.last == "[g] command: move-window next: not done: labwc is reached through ext-workspace-v1, which cannot move a window")
    }

    @Test func aCompositorWithoutTheProtocolIsSaidToBeOne() throws {
        let dir = TempDir()
        let fake = FakeWaylandCompositor(path: dir.path + "/wayland-0", globals: Self.others)
        let rig = try Rig(socket: fake.server.path)
        rig.submit(.workspace(.next))
        #expect(rig.spin(fake) { !rig.log.isEmpty })
        #expect(rig.log == ["[g] command: workspace next: labwc refused it: this compositor (labwc) offers no ext-workspace-v1"])
        rig.submit(.workspace(.previous))
        #expect(rig.log.last == "[g] command: workspace previous: labwc refused it: this compositor (labwc) offers no ext-workspace-v1")
        #expect(fake.requests.isEmpty, "nothing bound, nothing asked")
    }

    @Test func noCompositorAtTheSocket() throws {
        let dir = TempDir()
        let rig = try Rig(socket: dir.path + "/wayland-9")
        rig.submit(.workspace(.next))
        #expect(rig.log.first?.hasPrefix("[g] command: workspace next: labwc refused it: not connected to labwc at \(dir.path)/wayland-9") == true,
                "\(rig.log)")
    }

    @Test func theEnvironmentNamesIt() {
        #expect(Desktop.detect(["WAYLAND_DISPLAY": "wayland-0", "XDG_RUNTIME_DIR": "/run/user/1000", "XDG_CURRENT_DESKTOP": "labwc:wlroots"])
                == .desktop(.extWorkspace(socket: "/run/user/1000/wayland-0", compositor: "labwc:wlroots")))
        guard case .none(let why) = Desktop.detect(["XDG_SESSION_TYPE": "wayland", "XDG_CURRENT_DESKTOP": "weston"]) else {
            Issue.record("a desktop with no socket")
            return
        }
        #expect(why == "a Wayland session (weston), but no WAYLAND_DISPLAY and XDG_RUNTIME_DIR in the environment to reach the compositor at")
    }
}
