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

/// niri's documented IPC (the niri-ipc crate: a JSON request line, a `{"Ok":…}` or
/// `{"Err":"…"}` reply line, then after `"EventStream"` one event per line), served by a
/// fake: niri is not packaged for Debian 12, so this is tested against the protocol as
/// documented, not against niri itself.
@Suite(.serialized) struct NiriFocusTests {
    final class FakeNiri {
        let server: FakeSocketServer
        /// The reply to "EventStream"; then the state up front.
        var reply = #"{"Ok":"Handled"}"#
        var windows = [window(12, "foot", "~/src", focused: true), window(13, "firefox", "Mozilla Firefox")]
        /// The reply to any other request (an action).
        var actionReply = #"{"Ok":"Handled"}"#
        /// The action requests received, one line each.
        private(set) var actions: [String] = []
        private var answered: Set<Int32> = []

        init(_ path: String) { server = FakeSocketServer(path: path) }

        static func window(_ id: Int, _ app: String?, _ title: String, focused: Bool = false) -> String {
            let appID = app.map { "\"\($0)\"" } ?? "null"
            return #"{"id":\#(id),"title":"\#(title)","app_id":\#(appID),"pid":4242,"workspace_id":1,"is_focused":\#(focused),"#
                + #""is_floating":false,"is_urgent":false,"layout":{"pos_in_scrolling_layout":[1,1],"tile_size":[800.0,600.0],"#
                + #""window_size":[800,600],"tile_pos_in_workspace_view":null,"window_offset_in_tile":[0.0,0.0]},"#
                + #""focus_timestamp":{"secs":1733466000,"nanos":5}}"#
        }

        /// Answers each request line as niri does; an event stream is kept open.
        func serve() {
            server.pump()
            for fd in server.clients where !answered.contains(fd) {
                guard let got = server.received[fd], got.last == UInt8(ascii: "\n") else { continue }
                answered.insert(fd)
                let line = String(decoding: got.dropLast(), as: UTF8.self)
                guard line == "\"EventStream\"" else {
                    actions.append(line)
                    server.send(fd, actionReply + "\n")
                    continue
                }
                server.send(fd, reply + "\n")
                guard reply.hasPrefix(#"{"Ok""#) else { continue }
                server.send(fd, #"{"WorkspacesChanged":{"workspaces":[{"id":1,"idx":1,"name":null,"output":"HEADLESS-1","is_urgent":false,"#
                            + #""is_active":true,"is_focused":true,"active_window_id":12}]}}"# + "\n"
                            + #"{"WindowsChanged":{"windows":[\#(windows.joined(separator: ","))]}}"# + "\n"
                            + #"{"KeyboardLayoutsChanged":{"keyboard_layouts":{"names":["English (US)"],"current_idx":0}}}"# + "\n")
            }
        }

        /// An event line (or part of one) to every event stream.
        func event(_ text: String) {
            for fd in answered where server.clients.contains(fd) { server.send(fd, text) }
        }

        func restart() {
            server.shutDown()
            answered.removeAll()
            server.listen()
        }
    }

    @Test func theStateUpFrontThenEachChange() throws {
        let dir = TempDir()
        let niri = FakeNiri(dir.path + "/niri.sock")
        let source = NiriSource(socketPath: niri.server.path)
        let h = try SourceHarness(source)
        #expect(h.spin(serve: niri.serve) { h.changes == [FocusedApp(app: "foot", title: "~/src")] }, "\(h.log)")
        #expect(source.connected)
        // Events split across reads, and events that change nothing here.
        niri.event(#"{"WorkspaceActivated":{"id":1,"focused":true}}"# + "\n" + #"{"WindowFocusChan"#)
        h.loop.runOnce(timeoutMS: 1_000)  // the first part read on its own: the socket is readable already, so this returns at once
        niri.event(#"ged":{"id":13}}"# + "\n")
        #expect(h.spin(serve: niri.serve) { h.changes.last == FocusedApp(app: "firefox", title: "Mozilla Firefox") }, "\(h.changes)")
        // A new window that has the focus; a title change of one that has not.
        niri.event(#"{"WindowOpenedOrChanged":{"window":\#(FakeNiri.window(14, "org.gnome.Nautilus", "Home", focused: true))}}"# + "\n"
                   + #"{"WindowOpenedOrChanged":{"window":\#(FakeNiri.window(12, "foot", "vim"))}}"# + "\n")
        #expect(h.spin(serve: niri.serve) { h.changes.last == FocusedApp(app: "org.gnome.Nautilus", title: "Home") })
        niri.event(#"{"WindowFocusChanged":{"id":12}}"# + "\n")
        #expect(h.spin(serve: niri.serve) { h.changes.last == FocusedApp(app: "foot", title: "vim") }, "the title it changed to")
        // The focused window closes; then a layer surface has the focus (null).
        niri.event(#"{"WindowClosed":{"id":12}}"# + "\n" + #"{"WindowFocusChanged":{"id":null}}"# + "\n")
        #expect(h.spin(serve: niri.serve) { h.changes.count == 5 }, "\(h.changes)")
        #expect(h.changes.last == .some(nil))
        // A window with no app id has no app.
        niri.event(#"{"WindowOpenedOrChanged":{"window":\#(FakeNiri.window(15, nil, "splash", focused: true))}}"# + "\n"
                   + #"{"WindowFocusChanged":{"id":13}}"# + "\n" + #"{"WindowFocusChanged":{"id":15}}"# + "\n")
        #expect(h.spin(serve: niri.serve) { h.changes.count == 7 }, "\(h.changes)")
        #expect(h.changes.suffix(2) == [FocusedApp(app: "firefox", title: "Mozilla Firefox"), nil])
    }

    @Test func aRefusalIsSaidAndARestartedNiriIsFoundAgain() throws {
        let dir = TempDir()
        let niri = FakeNiri(dir.path + "/niri.sock")
        niri.reply = #"{"Err":"event stream is off"}"#
        let h = try SourceHarness(NiriSource(socketPath: niri.server.path, retryInitial: 0.02, retryMaximum: 0.1))
        #expect(h.spin(serve: niri.serve) { h.log.contains { $0.contains("niri refused the event stream: event stream is off") } }, "\(h.log)")
        #expect(h.changes.isEmpty && !h.source.connected)
        niri.reply = #"{"Ok":"Handled"}"#
        niri.restart()
        #expect(h.spin(serve: niri.serve) { h.changes == [FocusedApp(app: "foot", title: "~/src")] }, "\(h.log)")
        niri.server.shutDown()
        #expect(h.spin { !h.source.connected })
        niri.windows = [FakeNiri.window(3, "org.kde.dolphin", "Home", focused: true)]
        niri.restart()
        #expect(h.spin(serve: niri.serve) { h.changes.last == FocusedApp(app: "org.kde.dolphin", title: "Home") }, "\(h.log)")
    }

    /// A hostile peer: a line longer than the limit drops the connection (and the buffer
    /// with it); a line that is not JSON too; windows past the limit are not kept.
    @Test func whatAPeerSendsIsBounded() throws {
        let dir = TempDir()
        let niri = FakeNiri(dir.path + "/niri.sock")
        let limit = 64 << 10
        let source = NiriSource(socketPath: niri.server.path, maxLine: limit, retryInitial: 0.02, retryMaximum: 0.1)
        let h = try SourceHarness(source)
        #expect(h.spin(serve: niri.serve) { h.changes.count == 1 })
        niri.event(#"{"WindowOpenedOrChanged":{"window":{"id":1,"title":""# + String(repeating: "x", count: limit) + "\n")
        #expect(h.spin(serve: niri.serve) { h.log.contains { $0.contains("a message larger than \(limit) bytes") } }, "\(h.log)")
        niri.restart()
        #expect(h.spin(serve: niri.serve) { source.connected }, "\(h.log)")
        niri.event("{\"WindowClosed\":\n")
        #expect(h.spin(serve: niri.serve) { h.log.contains { $0.contains("a line that is not JSON") } }, "\(h.log)")

        niri.windows = (0..<(NiriWindows.maxWindows + 100)).map { #"{"id":\#($0),"app_id":"a\#($0)","is_focused":\#($0 == 7)}"# }
        let roomy = NiriSource(socketPath: niri.server.path)
        let h2 = try SourceHarness(roomy)
        niri.restart()
        #expect(h2.spin(serve: niri.serve) { h2.changes == [FocusedApp(app: "a7")] }, "\(h2.log)")
        #expect(roomy.windowCount == NiriWindows.maxWindows)
    }

    @Test func nirisSocketIsFoundFromTheEnvironment() {
        let env = ["NIRI_SOCKET": "/run/user/1000/niri.wayland-1.2.sock", "WAYLAND_DISPLAY": "wayland-1", "XDG_CURRENT_DESKTOP": "niri",
                   "XDG_RUNTIME_DIR": "/run/user/1000"]
        guard case .source(let s) = FocusDetection.detect(env) else { Issue.record("no source"); return }
        #expect(s.name == "niri" && s.endpoint == "/run/user/1000/niri.wayland-1.2.sock")
        #expect(Desktop.detect(env) == .desktop(.niri(socket: "/run/user/1000/niri.wayland-1.2.sock")))
    }

    /// Desktop actions as `niri msg action` sends them: one request line each, on a
    /// connection of its own; an `Err` reply is logged with niri's text.
    @Test func desktopActionsAreNirisActions() throws {
        let dir = TempDir()
        let niri = FakeNiri(dir.path + "/niri.sock")
        var lines: [String] = []
        let loop = try EventLoop()
        let sink = DesktopActions(detected: .desktop(.niri(socket: niri.server.path)), loop: loop, log: { lines.append($1) })
        let actions: [DesktopAction] = [.workspace(.next), .workspace(.previous), .workspace(.number(3)), .moveWindow(.next),
                                        .moveWindow(.previous), .moveWindow(.number(2)), .overview(.toggle), .overview(.on), .overview(.off)]
        for a in actions {
            sink.submit(Invocation(gesture: "g", trigger: "command", action: .desktop(a), environment: []))
            let before = niri.actions.count
            #expect(spin(loop, serve: niri.serve) { niri.actions.count > before }, "\(a) sent")
        }
        #expect(niri.actions == [
            #"{"Action":{"FocusWorkspaceDown":{}}}"#,
            #"{"Action":{"FocusWorkspaceUp":{}}}"#,
            #"{"Action":{"FocusWorkspace":{"reference":{"Index":3}}}}"#,
            #"{"Action":{"MoveWindowToWorkspaceDown":{"focus":true}}}"#,
            #"{"Action":{"MoveWindowToWorkspaceUp":{"focus":true}}}"#,
            #"{"Action":{"MoveWindowToWorkspace":{"window_id":null,"reference":{"Index":2},"focus":true}}}"#,
            #"{"Action":{"ToggleOverview":{}}}"#,
            #"{"Action":{"OpenOverview":{}}}"#,
            #"{"Action":{"CloseOverview":{}}}"#,
        ])
        #expect(lines.isEmpty, "Ok is not a problem: \(lines)")
        niri.actionReply = #"{"Err":"error parsing request: unknown variant `OpenOverview`"}"#
        sink.submit(Invocation(gesture: "ov", trigger: "command", action: .desktop(.overview(.on)), environment: []))
        #expect(spin(loop, serve: niri.serve) { !lines.isEmpty })
        #expect(lines == ["[ov] command: overview on: niri refused it: error parsing request: unknown variant `OpenOverview`"])
        sink.submit(Invocation(gesture: "sd", trigger: "command", action: .desktop(.showDesktop(.toggle)), environment: []))
        #expect(lines.last == "[sd] command: show-desktop toggle: not done: niri has no \"show desktop\"")
        #expect(Desktop.niri(socket: "n").cannot(.workspace(.number(256))) == "niri numbers workspaces 1 to 255 only")
    }

    private func spin(_ loop: EventLoop, serve: () -> Void, until done: () -> Bool) -> Bool {
        let deadline = clinux_monotonic_ns() + 10_000_000_000
        while clinux_monotonic_ns() < deadline {
            serve()
            if done() { return true }
            loop.runOnce(timeoutMS: 5)
        }
        return done()
    }
}
