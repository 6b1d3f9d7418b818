import CSystemd
@testable import DesktopSession
import Glibc
import Testing
@testable import Commands
@testable import DaemonLoop
import JSON
@testable import LiveView

/// The GNOME source's bookkeeping of who owns org.gnome.Shell, against a fake GNOME Shell
/// on a private `dbus-daemon --session` that answers and signals as the extension does
/// (docs/GNOME.md): a shell that restarts is asked again, and one that lost the name
/// to another is no longer believed. GNOMEShellTests runs the real one.
@Suite(.serialized) struct GNOMEShellProtocolTests {
    final class FakeShell {
        private(set) var bus: OpaquePointer?
        var focus = ("org.gnome.Nautilus", "Home")
        /// Off: the object is not there, as when the extension is disabled.
        var extensionEnabled = true
        /// The one unique name GetFocus answers, as the real extension answers only the
        /// owner of io.github.gestured.Focus; nil: anyone (an older extension).
        var focusReader: String?
        /// GetFocus calls answered, with the focus or with AccessDenied.
        private(set) var answered = 0

        /// `flags`: SD_BUS_NAME_REPLACE_EXISTING (1), SD_BUS_NAME_ALLOW_REPLACEMENT (2).
        init(address: String, flags: UInt64 = 0) {
            let b = TestBus.client(address)
            bus = b
            sd_bus_add_object(b, nil, "/io/github/gestured/Shell", { m, ud, _ in
                Unmanaged<FakeShell>.fromOpaque(ud!).takeUnretainedValue().call(m!)
            }, Unmanaged.passUnretained(self).toOpaque())
            sd_bus_request_name(b, "org.gnome.Shell", flags)
        }

        deinit { quit() }

        func quit() {
            if let bus { sd_bus_close_unref(bus) }
            bus = nil
        }

        func pump() { while let b = bus, sd_bus_process(b, nil) > 0 {} }

        private func call(_ m: OpaquePointer) -> Int32 {
            guard extensionEnabled, sd_bus_message_is_method_call(m, "io.github.gestured.Shell", "GetFocus") > 0 else { return 0 }
            answered += 1
            if let focusReader, sd_bus_message_get_sender(m).map({ String(cString: $0) }) != focusReader {
                return gestured_bus_reply_error(m, "org.freedesktop.DBus.Error.AccessDenied",
                                                "only gestured (the owner of io.github.gestured or io.github.gestured.Focus) may call this")
            }
            return gestured_bus_reply_focus(m, focus.0, focus.1)
        }

        func emit(_ app: String, _ title: String, to destination: String? = nil) {
            guard let bus else { return }
            // As the extension: GetFocus answers what was last signalled.
            focus = (app, title)
            _ = gestured_bus_emit_focus(bus, destination, app, title)
            pump()
        }

        func disable() {
            extensionEnabled = false
            guard let bus else { return }
            var m: OpaquePointer?
            sd_bus_message_new_signal(bus, &m, "/io/github/gestured/Shell", "io.github.gestured.Shell", "Disabled")
            sd_bus_send(bus, m, nil)
            sd_bus_message_unref(m)
            pump()
        }
    }

    @Test(Requires.programs([("dbus-daemon", "dbus-daemon")]))
    func aRestartedShellIsAskedAgainAndAReplacedOneIsNotBelieved() throws {
        let dir = TempDir()
        let (daemon, address) = try KWinFocusTests.privateBus(dir)
        let first = FakeShell(address: address, flags: 2)
        let source = GNOMEShellSource(busAddress: address)
        let h = try SourceHarness(source)
        #expect(h.spin(serve: first.pump) { h.changes == [FocusedApp(app: "org.gnome.Nautilus", title: "Home")] }, "\(h.log)")
        first.emit("firefox", "Mozilla Firefox")
        #expect(h.spin(serve: first.pump) { h.changes.last == FocusedApp(app: "firefox", title: "Mozilla Firefox") })

        // Another connection takes org.gnome.Shell over (GNOME Shell --replace): asked at once.
        let second = FakeShell(address: address, flags: 1)
        second.focus = ("org.gnome.Console", "~")
        let pumpBoth = { first.pump(); second.pump() }
        #expect(h.spin(serve: pumpBoth) { h.changes.last == FocusedApp(app: "org.gnome.Console", title: "~") }, "\(h.log)")
        #expect(h.log.contains { $0.contains("GNOME Shell (re)started") })

        // The old one is still on the bus but no longer owns the name: not believed,
        // neither broadcast (the bus does not route it to us) nor sent to us directly.
        let ignored = source.ignoredSignals
        first.emit("evil", "broadcast")
        first.emit("evil", "direct", to: try #require(source.uniqueName))
        #expect(h.spin(serve: pumpBoth) { source.ignoredSignals > ignored })
        second.emit("org.gnome.TextEditor", "notes")
        #expect(h.spin(serve: pumpBoth) { h.changes.last == FocusedApp(app: "org.gnome.TextEditor", title: "notes") })
        #expect(!h.changes.contains { $0?.app == "evil" }, "\(h.changes)")

        // The extension is disabled, then GNOME Shell quits: both are said, the focus forgotten.
        second.disable()
        #expect(h.spin(serve: pumpBoth) { source.problem?.contains("gnome-extensions enable gestured@gestured.github.io") == true })
        #expect(h.changes.last == .some(nil))
        first.quit()
        second.quit()
        #expect(h.spin { source.problem?.hasPrefix("GNOME Shell is not on the session bus") == true }, "\(h.log)")
        _ = daemon
    }

    @Test(Requires.programs([("dbus-daemon", "dbus-daemon")]))
    func aShellWithoutTheExtensionIsSaidPlainlyAndItsFirstSignalPicksItUp() throws {
        let dir = TempDir()
        let (daemon, address) = try KWinFocusTests.privateBus(dir)
        let shell = FakeShell(address: address)
        shell.extensionEnabled = false
        let source = GNOMEShellSource(busAddress: address)
        let h = try SourceHarness(source)
        #expect(h.spin(serve: shell.pump) { source.problem != nil }, "\(h.log)")
        #expect(source.problem == GNOMEShellSource.extensionOff)
        #expect(!source.connected)
        // Enabled: the extension's first FocusChanged is the news; nothing is polled.
        shell.extensionEnabled = true
        shell.emit("org.gnome.Calculator", "Calculator")
        #expect(h.spin(serve: shell.pump) { h.changes == [FocusedApp(app: "org.gnome.Calculator", title: "Calculator")] })
        #expect(source.problem == nil && source.connected)
        #expect(h.log.contains { $0.contains("reports the focus") })
        _ = daemon
    }

    /// A second gestured on the session: another program owns io.github.gestured.Focus,
    /// so the extension tells this one nothing. It says why (not "the extension is off"),
    /// and is told the focus once the name is its own.
    @Test(Requires.programs([("dbus-daemon", "dbus-daemon")]))
    func aSecondGesturedSaysWhyItHearsNoFocus() throws {
        let dir = TempDir()
        let (daemon, address) = try KWinFocusTests.privateBus(dir)
        let shell = FakeShell(address: address)
        let first = TestBus.client(address)
        #expect(sd_bus_request_name(first, GNOMEShellSource.focusName, 0) >= 0)
        var unique: UnsafePointer<CChar>?
        sd_bus_get_unique_name(first, &unique)
        shell.focusReader = unique.map { String(cString: $0) }
        let source = GNOMEShellSource(busAddress: address)
        let h = try SourceHarness(source)
        // Both answers in: RequestName's (queued) and GetFocus's (AccessDenied), so neither
        // arrives after the focus below.
        #expect(h.spin(serve: shell.pump) { source.problem == GNOMEShellSource.notOwner && shell.answered == 1 }, "\(h.log)")
        #expect(h.log.contains { $0.contains("another program owns io.github.gestured.Focus on the session bus (another gestured?)") })
        #expect(h.changes.isEmpty)

        // The first leaves: the name passes to the one queued, which the extension tells.
        sd_bus_close_unref(first)
        shell.focusReader = source.uniqueName
        shell.emit("org.gnome.Console", "~", to: try #require(source.uniqueName))
        #expect(h.spin(serve: shell.pump) { h.changes.last == FocusedApp(app: "org.gnome.Console", title: "~") && source.problem == nil })
        _ = daemon
    }

    /// Any window sets its own title: one with a newline stays on the status's focus line.
    @Test(Requires.programs([("dbus-daemon", "dbus-daemon")]))
    func aTitleCannotForgeAStatusLine() throws {
        let dir = TempDir()
        let (bus, address) = try KWinFocusTests.privateBus(dir)
        let shell = FakeShell(address: address)
        shell.focus = ("firefox", "page\nfocused app: forged\u{1b}[2J")
        let (daemon, _, _) = try RealDesktops.CompositorFocusTests.daemon(dir, source: GNOMEShellSource(busAddress: address))
        #expect(LiveDeviceTests.spin(daemon) { shell.pump(); return daemon.focus.app?.app == "firefox" })
        let status = daemon.statusText()
        #expect(status.contains("focused app: firefox (page\\nfocused app: forged\\u001b[2J) — from gnome"), "\(status)")
        #expect(status.split(separator: "\n").filter { $0.hasPrefix("focused app:") }.count == 1)
        _ = bus
    }
}
