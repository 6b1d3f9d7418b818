import CLinux
import CSystemd
@testable import DesktopSession
import Glibc
import Testing
@testable import DaemonLoop

/// Another client of the session bus pretends to be the bus daemon (a `NameOwnerChanged`
/// saying it now owns the service) or the service itself (its focus or monitor signal,
/// KWin's `Activated` call), sending to gestured directly, which passes every match rule.
/// On a private `dbus-daemon --session`: what gestured believes stays what the real owner
/// said (docs/FOCUS.md, "Who may say the focus").
@Suite(.serialized) struct ForgedBusSignalTests {
    /// A client with nothing to its name but its own unique one.
    final class Forger {
        let bus: OpaquePointer?
        let uniqueName: String
        /// The error name of the last call's answer, "" for a method return; nil until answered.
        var answer: String?

        init(_ address: String) {
            bus = TestBus.client(address)
            var u: UnsafePointer<CChar>?
            sd_bus_get_unique_name(bus, &u)
            uniqueName = u.map { String(cString: $0) } ?? ""
        }

        deinit { sd_bus_close_unref(bus) }

        func pump() { while let b = bus, sd_bus_process(b, nil) > 0 {} }

        /// `NameOwnerChanged(name, old, self)`, as from org.freedesktop.DBus, to `victim` alone.
        func claim(_ name: String, from old: String, to victim: String) {
            gestured_bus_emit_sss(bus, victim, "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameOwnerChanged", name, old, uniqueName)
            pump()
        }

        func callActivated(_ destination: String, _ cls: String, _ caption: String) {
            answer = nil
            gestured_bus_call_ss(bus, nil, destination, "/io/github/gestured/Focus", "io.github.gestured.Focus", "Activated", { m, ud, _ in
                let me = Unmanaged<Forger>.fromOpaque(ud!).takeUnretainedValue()
                me.answer = sd_bus_message_get_error(m)?.pointee.name.map { String(cString: $0) } ?? ""
                return 0
            }, Unmanaged.passUnretained(self).toOpaque(), cls, caption)
            pump()
        }
    }

    @Test(Requires.programs([("dbus-daemon", "dbus-daemon")]))
    func gnomeShellsFocusStaysWhatTheRealShellSaid() throws {
        let dir = TempDir()
        let (daemon, address) = try KWinFocusTests.privateBus(dir)
        let shell = GNOMEShellProtocolTests.FakeShell(address: address)
        let source = GNOMEShellSource(busAddress: address)
        let h = try SourceHarness(source)
        #expect(h.spin(serve: shell.pump) { h.changes == [FocusedApp(app: "org.gnome.Nautilus", title: "Home")] }, "\(h.log)")
        let real = try #require(source.owner), gestured = try #require(source.uniqueName)

        let forger = Forger(address)
        let both = { shell.pump(); forger.pump() }
        forger.claim("org.gnome.Shell", from: real, to: gestured)
        _ = gestured_bus_emit_focus(forger.bus, gestured, "evil-app", "forged")
        forger.pump()
        // The shell "left": were that believed, the focus would be forgotten.
        gestured_bus_emit_sss(forger.bus, gestured, "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameOwnerChanged",
                              "org.gnome.Shell", real, "")
        forger.pump()
        h.spin(seconds: 10, serve: both) { source.ignoredSignals >= 3 || h.changes.count > 1 }
        #expect(source.ignoredSignals == 3, "\(h.log)")
        #expect(source.owner == real)
        #expect(h.changes == [FocusedApp(app: "org.gnome.Nautilus", title: "Home")], "\(h.log)")
        #expect(source.problem == nil)

        // The real shell is still the one believed.
        shell.emit("org.gnome.Console", "~")
        #expect(h.spin(serve: both) { h.changes.last == FocusedApp(app: "org.gnome.Console", title: "~") })
        #expect(!h.changes.contains { $0?.app == "evil-app" }, "\(h.changes)")
        _ = daemon
    }

    @Test(Requires.programs([("dbus-daemon", "dbus-daemon")]))
    func onlyKWinSaysTheFocusAndOnlyTheBusSaysKWinRestarted() throws {
        let dir = TempDir()
        let (daemon, address) = try KWinFocusTests.privateBus(dir)
        let kwin = KWinFocusTests.FakeKWin(address: address)
        let source = KWinSource(busAddress: address, scriptDirectory: dir.path)
        let h = try SourceHarness(source)
        #expect(h.spin(serve: kwin.pump) { h.changes == [FocusedApp(app: "org.kde.dolphin", title: "Home — Dolphin")] }, "\(h.log)")

        let forger = Forger(address)
        let both = { kwin.pump(); forger.pump() }
        forger.callActivated(source.serviceName, "evil-app", "forged")
        forger.claim("org.kde.KWin", from: "", to: try #require(source.uniqueName))
        h.spin(seconds: 10, serve: both) { (forger.answer != nil && source.ignored >= 2) || h.changes.count > 1 || kwin.loads.count > 1 }
        #expect(forger.answer == "org.freedesktop.DBus.Error.AccessDenied")
        #expect(h.changes == [FocusedApp(app: "org.kde.dolphin", title: "Home — Dolphin")], "\(h.log)")
        #expect(kwin.loads.count == 1, "no script loaded again for a KWin that did not restart")

        kwin.activate("konsole", "~")
        #expect(h.spin(serve: both) { h.changes.last == FocusedApp(app: "konsole", title: "~") })
        _ = daemon
    }

    /// A fake Mutter DisplayConfig that counts the questions it is asked (and answers none
    /// of them well: the count is what is checked).
    final class FakeDisplayConfig {
        let bus: OpaquePointer?
        private(set) var asked = 0

        init(address: String) {
            bus = TestBus.client(address)
            sd_bus_add_object(bus, nil, "/org/gnome/Mutter/DisplayConfig", { m, ud, _ in
                let me = Unmanaged<FakeDisplayConfig>.fromOpaque(ud!).takeUnretainedValue()
                guard sd_bus_message_is_method_call(m, "org.gnome.Mutter.DisplayConfig", "GetCurrentState") > 0 else { return 0 }
                me.asked += 1
                return gestured_bus_reply_error(m, "org.freedesktop.DBus.Error.Failed", "a fake")
            }, Unmanaged.passUnretained(self).toOpaque())
            sd_bus_request_name(bus, "org.gnome.Mutter.DisplayConfig", 0)
        }

        deinit { sd_bus_close_unref(bus) }

        func pump() { while let b = bus, sd_bus_process(b, nil) > 0 {} }

        func monitorsChanged(from bus: OpaquePointer?, to destination: String? = nil) {
            gestured_bus_emit_empty(bus, destination, "/org/gnome/Mutter/DisplayConfig", "org.gnome.Mutter.DisplayConfig", "MonitorsChanged")
        }
    }

    @Test(Requires.programs([("dbus-daemon", "dbus-daemon")]))
    func mutterIsAskedOnlyWhenMutterOrTheBusSaysSo() throws {
        let dir = TempDir()
        let (daemon, address) = try KWinFocusTests.privateBus(dir)
        let mutter = FakeDisplayConfig(address: address)
        let source = MutterDisplayConfigSource(busAddress: address)
        let loop = try EventLoop()
        source.start(on: loop, onChange: { _ in }, log: { _ in })
        defer { source.stop() }
        let forger = Forger(address)
        func spin(_ done: () -> Bool) -> Bool {
            let deadline = clinux_monotonic_ns() + 10_000_000_000
            while clinux_monotonic_ns() < deadline && !done() {
                mutter.pump()
                forger.pump()
                loop.runOnce(timeoutMS: 10)
            }
            return done()
        }
        #expect(spin { mutter.asked == 1 && source.serviceOwner.owner != nil })
        let gestured = try #require(source.uniqueName)
        // Another client's MonitorsChanged, and its NameOwnerChanged saying Mutter restarted:
        // neither is a reason to ask.
        mutter.monitorsChanged(from: forger.bus, to: gestured)
        forger.claim("org.gnome.Mutter.DisplayConfig", from: source.serviceOwner.owner ?? "", to: gestured)
        _ = spin { source.ignoredSignals >= 2 || mutter.asked > 1 }
        #expect(source.ignoredSignals == 2)
        #expect(mutter.asked == 1)
        // Mutter's own is.
        mutter.monitorsChanged(from: mutter.bus)
        #expect(spin { mutter.asked == 2 })
        _ = daemon
    }
}
