import JSON
@testable import DesktopSession
import Testing

@Suite struct FocusDetectionTests {
    @Test(arguments: [
        (["SWAYSOCK": "/run/user/1000/sway-ipc.sock", "I3SOCK": "/run/user/1000/sway-ipc.sock", "WAYLAND_DISPLAY": "wayland-1"], "sway"),
        (["I3SOCK": "/run/user/1000/i3/ipc-socket.1", "DISPLAY": ":0"], "i3"),
        (["HYPRLAND_INSTANCE_SIGNATURE": "abc", "XDG_RUNTIME_DIR": "/run/user/1000", "WAYLAND_DISPLAY": "wayland-1"], "hyprland"),
        (["DISPLAY": ":0", "XDG_CURRENT_DESKTOP": "XFCE"], "x11"),
        (["XDG_CURRENT_DESKTOP": "KDE", "WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":1", "XDG_RUNTIME_DIR": "/run/user/1000"], "kwin"),
        (["XDG_CURRENT_DESKTOP": "ubuntu:GNOME", "WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0",
          "DBUS_SESSION_BUS_ADDRESS": "unix:path=/run/user/1000/bus"], "gnome"),
        (["XDG_CURRENT_DESKTOP": "GNOME", "XDG_SESSION_TYPE": "wayland", "XDG_RUNTIME_DIR": "/run/user/1000"], "gnome"),
        // GNOME on X11: EWMH tells the focus without the extension.
        (["XDG_CURRENT_DESKTOP": "GNOME", "XDG_SESSION_TYPE": "x11", "DISPLAY": ":0", "XDG_RUNTIME_DIR": "/run/user/1000"], "x11"),
        // Any other Wayland compositor: the wlroots window list, even with Xwayland's DISPLAY.
        (["XDG_CURRENT_DESKTOP": "labwc:wlroots", "WAYLAND_DISPLAY": "wayland-0", "XDG_RUNTIME_DIR": "/run/user/1000", "DISPLAY": ":0"],
         "wlr-foreign-toplevel"),
    ])
    func eachDesktopIsFoundFromItsEnvironment(env: [String: String], expected: String) {
        guard case .source(let s) = FocusDetection.detect(env) else { Issue.record("no source"); return }
        #expect(s.name == expected)
    }

    @Test func anotherWaylandCompositorIsAskedForItsWindowListOnItsSocket() throws {
        let env = ["XDG_CURRENT_DESKTOP": "labwc:wlroots", "WAYLAND_DISPLAY": "wayland-0", "XDG_RUNTIME_DIR": "/run/user/1000"]
        guard case .source(let s) = FocusDetection.detect(env) else { Issue.record("no source"); return }
        let source = try #require(s as? WlrForeignToplevelSource)
        #expect(source.endpoint == "/run/user/1000/wayland-0")
        #expect(source.noManager == "this compositor (labwc:wlroots) offers no wlr-foreign-toplevel-management; per-application gestures are off")
        guard case .source(let absolute) = FocusDetection.detect(["WAYLAND_DISPLAY": "/tmp/w/wayland-1"]) else { Issue.record("no source"); return }
        #expect(absolute.endpoint == "/tmp/w/wayland-1")
        guard case .none(let why) = FocusDetection.detect(["XDG_SESSION_TYPE": "wayland"]) else { Issue.record("a source with no socket"); return }
        #expect(why.hasPrefix("a Wayland session, but no WAYLAND_DISPLAY and XDG_RUNTIME_DIR"))
    }

    @Test func gnomeOnWaylandWithNoSessionBusSaysPlainlyThatThereIsNoSource() {
        guard case .none(let why) = FocusDetection.detect(["XDG_CURRENT_DESKTOP": "ubuntu:GNOME", "WAYLAND_DISPLAY": "wayland-0"]) else {
            Issue.record("a source on GNOME with no session bus")
            return
        }
        #expect(why.hasPrefix("GNOME on Wayland, but no session bus in the environment"))
        #expect(why.contains("per-application gestures are off"))
    }
}

@Suite struct JSONTests {
    @Test func readsWhatCompositorsSend() {
        let j = JSONValue.parse(Array(#" {"a": [1, -2.5e1, true, false, null], "s": "t\"\\\/\n\u00e9\ud83d\ude00", "o": {}} "#.utf8))
        #expect(j?["a"] == .array([.number(1), .number(-25), .bool(true), .bool(false), .null]))
        #expect(j?["s"]?.string == "t\"\\/\né😀")
        #expect(j?["o"] == .object([:]))
    }

    @Test(arguments: ["", "{", "[1,]", "{\"a\" 1}", "\"unterminated", "tru", "[1] x", "\"\u{01}\"", "{\"a\":\"\\x\"}"])
    func malformedIsNil(text: String) {
        #expect(JSONValue.parse(Array(text.utf8)) == nil)
    }

    @Test func deepNestingIsRefusedNotAStackOverflow() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(JSONValue.parse(Array(deep.utf8)) == nil)
        let ok = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
        #expect(JSONValue.parse(Array(ok.utf8)) != nil)
    }
}
