import DesktopSession
import Glibc
import Testing

/// Hyprland's documented protocol, served by a fake: `.socket.sock` answers one
/// request (`j/activewindow` → the window's JSON) and closes; `.socket2.sock` streams
/// `EVENT>>DATA` lines.
@Suite(.serialized) struct HyprlandFocusTests {
    final class FakeHyprland {
        let requests: FakeSocketServer
        let events: FakeSocketServer
        var active = #"{"address":"0x55d0","class":"firefox","title":"Mozilla Firefox"}"#

        init(_ dir: String) {
            requests = FakeSocketServer(path: dir + "/.socket.sock")
            events = FakeSocketServer(path: dir + "/.socket2.sock")
        }

        /// Answers each request, as Hyprland does, then closes that connection.
        func serve() {
            events.pump()
            requests.pump()
            for fd in requests.clients where requests.received[fd] == Array("j/activewindow".utf8) {
                requests.send(fd, active)
                requests.hangUp(fd)
            }
        }

        func event(_ line: String) {
            for fd in events.clients { events.send(fd, line) }
        }
    }

    @Test func theFocusAtStartThenEachActiveWindowEvent() throws {
        let dir = TempDir()
        let hypr = FakeHyprland(dir.path)
        let h = try SourceHarness(HyprlandSource(directory: dir.path))
        #expect(h.spin(serve: hypr.serve) { h.changes == [FocusedApp(app: "firefox", title: "Mozilla Firefox")] })
        // Events that other windows' titles carry commas, and lines split across reads.
        hypr.event("workspace>>2\nactivewindow>>foot,~/src, and more\nactivewin")
        #expect(h.spin(serve: hypr.serve) { h.changes.last == FocusedApp(app: "foot", title: "~/src, and more") })
        hypr.event("dow>>,\n")
        #expect(h.spin(serve: hypr.serve) { h.changes.count == 3 && h.changes.last == .some(nil) }, "\(h.changes)")
    }

    @Test func aRestartedHyprlandIsFoundAgain() throws {
        let dir = TempDir()
        let hypr = FakeHyprland(dir.path)
        let h = try SourceHarness(HyprlandSource(directory: dir.path, retryInitial: 0.02, retryMaximum: 0.1))
        #expect(h.spin(serve: hypr.serve) { h.changes.count == 1 })
        hypr.requests.shutDown()
        hypr.events.shutDown()
        #expect(h.spin { h.log.contains { $0.contains("lost") } }, "\(h.log)")
        hypr.active = #"{"class":"org.kde.dolphin","title":"Home"}"#
        hypr.requests.listen()
        hypr.events.listen()
        #expect(h.spin(serve: hypr.serve) { h.changes.last == FocusedApp(app: "org.kde.dolphin", title: "Home") }, "\(h.log)")
        hypr.event("activewindow>>firefox,Mozilla Firefox\n")
        #expect(h.spin(serve: hypr.serve) { h.changes.last == FocusedApp(app: "firefox", title: "Mozilla Firefox") })
    }

    @Test func noWindowAtStart() throws {
        let dir = TempDir()
        let hypr = FakeHyprland(dir.path)
        hypr.active = "{}"
        let h = try SourceHarness(HyprlandSource(directory: dir.path))
        #expect(h.spin(serve: hypr.serve) { h.changes == [nil] }, "\(h.log) \(hypr.requests.received)")
    }
}
