import CLinux
import CSystemd
import DesktopSession
import Glibc
import Testing

/// The KWin exchange on a private `dbus-daemon --session`, with a fake KWin that
/// does what KWin's documented Scripting interface does: loadScript(path, name) → id,
/// unloadScript(name) → bool, start() runs the loaded scripts — here, by reading the
/// script file for the name it calls back and calling `Activated` as the script would.
@Suite(.serialized) struct KWinFocusTests {
    final class FakeKWin {
        private(set) var bus: OpaquePointer?
        private(set) var loads: [(path: String, plugin: String)] = []
        private(set) var unloads: [String] = []
        private(set) var script = ""
        private(set) var target: String?
        var initialWindow = ("org.kde.dolphin", "Home — Dolphin")

        init(address: String) { connect(address) }
        deinit { if let bus { sd_bus_close_unref(bus) } }

        func connect(_ address: String) {
            let b = TestBus.client(address)
            bus = b
            let me = Unmanaged.passUnretained(self).toOpaque()
            sd_bus_add_object(b, nil, "/Scripting", { m, ud, _ in
                Unmanaged<FakeKWin>.fromOpaque(ud!).takeUnretainedValue().call(m!)
            }, me)
            sd_bus_request_name(b, "org.kde.KWin", 0)  // owned before the source starts
        }

        /// KWin quits and comes back: a new connection owns org.kde.KWin.
        func restart(_ address: String) {
            if let bus { sd_bus_close_unref(bus) }
            bus = nil
            target = nil
            connect(address)
        }

        func pump() { while let b = bus, sd_bus_process(b, nil) > 0 {} }

        private func call(_ m: OpaquePointer) -> Int32 {
            guard sd_bus_message_get_interface(m).map({ String(cString: $0) }) == "org.kde.kwin.Scripting" else { return 0 }
            switch sd_bus_message_get_member(m).map({ String(cString: $0) }) {
            case "loadScript":
                let path = KWinSourceTestSupport.string(m), plugin = KWinSourceTestSupport.string(m)
                loads.append((path, plugin))
                return gestured_bus_reply_i(m, Int32(loads.count))
            case "unloadScript":
                unloads.append(KWinSourceTestSupport.string(m))
                return gestured_bus_reply_b(m, 0)
            case "start":
                gestured_bus_reply(m)
                run()
                return 1
            default:
                return 0
            }
        }

        /// What KWin does with the script: it calls back the name written in it.
        private func run() {
            guard let path = loads.last?.path, let text = LiveDeviceTests.read(path) else { return }
            script = text
            let marker = "callDBus(\""
            guard let start = text.firstRange(of: marker)?.upperBound, let end = text[start...].firstIndex(of: "\"") else { return }
            target = String(text[start..<end])
            activate(initialWindow.0, initialWindow.1)
        }

        func activate(_ cls: String, _ caption: String) {
            guard let bus, let target else { return }
            gestured_bus_call_ss(bus, nil, target, "/io/github/gestured/Focus", "io.github.gestured.Focus", "Activated",
                                 nil, nil, cls, caption)
        }
    }

    /// A private session bus: dbus-daemon prints its address when it is ready.
    static func privateBus(_ dir: TempDir) throws -> (Gestured.Process, String) {
        let address = "unix:path=\(dir.path)/bus"
        let p = try Gestured.Process(["--session", "--nofork", "--address=\(address)", "--print-address=1"],
                                     executable: "/usr/bin/dbus-daemon")
        let deadline = clinux_monotonic_ns() + 10_000_000_000
        while !p.stdout.hasSuffix("\n") && p.poll() == nil && clinux_monotonic_ns() < deadline { p.pump(ms: 100) }
        try #require(p.stdout.hasSuffix("\n"), "dbus-daemon is ready: \(p.stderr)")
        return (p, address)
    }

    @Test(Requires.programs([("dbus-daemon", "dbus-daemon")]))
    func theScriptIsLoadedAndEachActivationReported() throws {
        let dir = TempDir()
        let (daemon, address) = try Self.privateBus(dir)
        let kwin = FakeKWin(address: address)
        let source = KWinSource(busAddress: address, scriptDirectory: dir.path)
        let h = try SourceHarness(source)
        #expect(h.spin(serve: kwin.pump) { h.changes == [FocusedApp(app: "org.kde.dolphin", title: "Home — Dolphin")] }, "\(h.log)")
        #expect(kwin.loads.map(\.plugin) == ["gestured-focus"])
        #expect(kwin.unloads == ["gestured-focus"], "a script left by an earlier run is replaced")
        #expect(kwin.script.contains("function report(w) {"))
        #expect(kwin.script.contains("workspace.windowActivated.connect(report)"), "Plasma 6")
        #expect(kwin.script.contains("workspace.clientActivated.connect(report)"), "Plasma 5")
        kwin.activate("firefox", "Mozilla Firefox")
        #expect(h.spin(serve: kwin.pump) { h.changes.last == FocusedApp(app: "firefox", title: "Mozilla Firefox") })
        kwin.activate("", "")
        #expect(h.spin(serve: kwin.pump) { h.changes.count == 3 && h.changes.last == .some(nil) }, "no window")
        _ = daemon
    }

    @Test(Requires.programs([("dbus-daemon", "dbus-daemon")]))
    func aRestartedKWinGetsTheScriptAgain() throws {
        let dir = TempDir()
        let (daemon, address) = try Self.privateBus(dir)
        let kwin = FakeKWin(address: address)
        let h = try SourceHarness(KWinSource(busAddress: address, scriptDirectory: dir.path))
        #expect(h.spin(serve: kwin.pump) { h.changes.count == 1 })
        kwin.initialWindow = ("konsole", "~")
        kwin.restart(address)
        #expect(h.spin(serve: kwin.pump) { h.changes.last == FocusedApp(app: "konsole", title: "~") }, "\(h.log)")
        #expect(h.log.contains { $0.contains("KWin (re)started") })
        _ = daemon
    }

    @Test func noBusYetIsRetriedQuietly() throws {
        let dir = TempDir()
        let h = try SourceHarness(KWinSource(busAddress: "unix:path=\(dir.path)/none", scriptDirectory: dir.path,
                                             retryInitial: 0.02, retryMaximum: 0.05))
        h.spin(seconds: 0.2) { false }
        #expect(h.log.count == 1, "said once: \(h.log)")
        #expect(h.changes.isEmpty)
    }
}

enum KWinSourceTestSupport {
    static func string(_ m: OpaquePointer) -> String {
        var p: UnsafePointer<CChar>?
        sd_bus_message_read_basic(m, CChar(UInt8(ascii: "s")), &p)
        return p.map { String(cString: $0) } ?? ""
    }
}
