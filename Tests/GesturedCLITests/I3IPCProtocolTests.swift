import CLinux
@testable import Commands
@testable import DaemonLoop
import JSON
@testable import LiveView
import DesktopSession
import Glibc
import Testing

/// The i3/sway IPC framing against a fake server: what the real sway and i3 tests
/// cannot provoke — a malformed or oversized frame, a compositor that restarts.
@Suite(.serialized) struct I3IPCProtocolTests {
    static func frame(_ type: UInt32, _ json: String) -> [UInt8] {
        var out = Array("i3-ipc".utf8)
        withUnsafeBytes(of: UInt32(json.utf8.count)) { out += $0 }
        withUnsafeBytes(of: type) { out += $0 }
        return out + Array(json.utf8)
    }

    static let tree = #"{"type":"root","nodes":[{"type":"output","nodes":[{"type":"workspace","nodes":[{"type":"con","app_id":null,"window_properties":{"class":"XTerm"},"name":"xterm","focused":true}]}]}]}"#

    /// Answers SUBSCRIBE and GET_TREE as sway does, once per connection.
    final class FakeSway {
        let server: FakeSocketServer
        var answered = Set<Int32>()
        var tree = I3IPCProtocolTests.tree
        init(_ path: String) { server = FakeSocketServer(path: path) }
        func serve() {
            server.pump()
            for fd in server.clients where !answered.contains(fd) && (server.received[fd]?.count ?? 0) >= 14 + 20 + 14 {
                answered.insert(fd)
                server.send(fd, frame(2, #"{"success":true}"#) + frame(4, tree))
            }
        }
    }

    @Test func treeThenEventsAndAWindowClassForXWayland() throws {
        let dir = TempDir()
        let sway = FakeSway(dir.path + "/sway.sock")
        let h = try SourceHarness(I3IPCSource(name: "sway", socketPath: sway.server.path))
        #expect(h.spin(serve: sway.serve) { h.changes == [FocusedApp(app: "XTerm", title: "xterm")] })
        // Split mid-header: the reader waits for the rest.
        let event = Self.frame(0x8000_0003, #"{"change":"focus","container":{"app_id":"foot","name":"~"}}"#)
        sway.server.send(sway.server.clients[0], Array(event[0..<9]))
        h.spin(seconds: 0.05, serve: sway.serve) { false }
        sway.server.send(sway.server.clients[0], Array(event[9...]))
        #expect(h.spin(serve: sway.serve) { h.changes.last == FocusedApp(app: "foot", title: "~") })
        // While the focus does not change, nothing wakes the loop.
        #expect(!h.loop.runOnce(timeoutMS: 200), "a wakeup with no focus change")
    }

    @Test(arguments: ["not-i3-ipc-at-all-garbage", "huge"])
    func aBadFrameDropsTheConnectionAndItReconnects(what: String) throws {
        let dir = TempDir()
        let sway = FakeSway(dir.path + "/sway.sock")
        let h = try SourceHarness(I3IPCSource(name: "sway", socketPath: sway.server.path, retryInitial: 0.02, retryMaximum: 0.1))
        #expect(h.spin(serve: sway.serve) { h.changes.count == 1 })
        var bad = Array(what.utf8)
        if what == "huge" { bad = Array("i3-ipc".utf8) + [0xff, 0xff, 0xff, 0x7f, 3, 0, 0, 0x80] }
        sway.server.send(sway.server.clients[0], bad)
        sway.tree = sway.tree.replacingOccurrences("XTerm", "Firefox")
        #expect(h.spin(serve: sway.serve) { h.changes.last == FocusedApp(app: "Firefox", title: "xterm") }, "\(h.log)")
        #expect(h.log.contains { $0.contains(what == "huge" ? "a message of 2147483647 bytes" : "not an i3-ipc message") }, "\(h.log)")
    }

    @Test func aCompositorThatRestartsIsFoundAgainAndOneThatIsGoneCostsNoBusyLoop() throws {
        let dir = TempDir()
        let sway = FakeSway(dir.path + "/sway.sock")
        let h = try SourceHarness(I3IPCSource(name: "sway", socketPath: sway.server.path, retryInitial: 0.02, retryMaximum: 0.1))
        #expect(h.spin(serve: sway.serve) { h.changes.count == 1 })
        sway.server.shutDown()
        // Gone for 0.3 s: reconnect attempts back off (0.02, 0.04, 0.08, 0.1 s …), not spin.
        var wakeups = 0
        let deadline = clinux_monotonic_ns() + 300_000_000
        while clinux_monotonic_ns() < deadline { if h.loop.runOnce(timeoutMS: 20) { wakeups += 1 } }
        #expect(wakeups <= 8, "\(wakeups) wakeups in 0.3 s with the compositor gone")
        sway.answered.removeAll()
        sway.server.listen()
        sway.tree = sway.tree.replacingOccurrences("XTerm", "Alacritty")
        #expect(h.spin(serve: sway.serve) { h.changes.last == FocusedApp(app: "Alacritty", title: "xterm") }, "\(h.log)")
    }
}
