import CLinux
import CSystemd
import DaemonCore
@testable import DaemonLoop
@testable import DesktopActions
import GestureConfig
import Glibc
import Testing

/// gestured's side of `shortcut:` on GNOME (docs/GNOME.md, "Shortcuts") against a fake
/// extension on a private `dbus-daemon --session`: the list is sent, refusals and an
/// extension that is off are said, ShortcutsWanted sends it again, and ShortcutActivated
/// runs a binding only from the owner of org.gnome.Shell and only for a name on the
/// list. GNOMEShortcutTests runs the real extension in GNOME 43, 48 and 50.
@Suite(.serialized) struct GNOMEShortcutProtocolTests {
    static let path = "/io/github/gestured/Shell", interface = "io.github.gestured.Shell"

    final class FakeExtension {
        private(set) var bus: OpaquePointer?
        /// Off: the object answers nothing, as when the extension is disabled.
        var enabled: Bool
        /// Accelerators refused, as GNOME refuses keys another shortcut has.
        var taken: Set<String> = []
        /// Each list SetShortcuts was given, as "name=accelerator".
        private(set) var lists: [[String]] = []

        init(address: String, enabled: Bool) {
            self.enabled = enabled
            let b = TestBus.client(address)
            bus = b
            sd_bus_add_object(b, nil, GNOMEShortcutProtocolTests.path, { m, ud, _ in
                Unmanaged<FakeExtension>.fromOpaque(ud!).takeUnretainedValue().call(m!)
            }, Unmanaged.passUnretained(self).toOpaque())
            sd_bus_request_name(b, "org.gnome.Shell", 0)
        }

        deinit { if let bus { sd_bus_close_unref(bus) } }

        func pump() { while let b = bus, sd_bus_process(b, nil) > 0 {} }

        private func call(_ m: OpaquePointer) -> Int32 {
            guard enabled, sd_bus_message_is_method_call(m, GNOMEShortcutProtocolTests.interface, "SetShortcuts") > 0 else { return 0 }
            var pairs: [(String, String)] = []
            sd_bus_message_enter_container(m, CChar(UInt8(ascii: "a")), "(ss)")
            while sd_bus_message_enter_container(m, CChar(UInt8(ascii: "r")), "ss") > 0 {
                var name: UnsafePointer<CChar>?, accelerator: UnsafePointer<CChar>?
                sd_bus_message_read_basic(m, CChar(UInt8(ascii: "s")), &name)
                sd_bus_message_read_basic(m, CChar(UInt8(ascii: "s")), &accelerator)
                sd_bus_message_exit_container(m)
                pairs.append((String(cString: name!), String(cString: accelerator!)))
            }
            sd_bus_message_exit_container(m)
            lists.append(pairs.map { "\($0.0)=\($0.1)" })
            var reply: OpaquePointer?
            sd_bus_message_new_method_return(m, &reply)
            sd_bus_message_open_container(reply, CChar(UInt8(ascii: "a")), "(ss)")
            for (name, accelerator) in pairs where taken.contains(accelerator) {
                sd_bus_message_open_container(reply, CChar(UInt8(ascii: "r")), "ss")
                sd_bus_message_append_basic(reply, CChar(UInt8(ascii: "s")), name)
                sd_bus_message_append_basic(reply, CChar(UInt8(ascii: "s")), accelerator)
                sd_bus_message_close_container(reply)
            }
            sd_bus_message_close_container(reply)
            sd_bus_send(bus, reply, nil)
            sd_bus_message_unref(reply)
            return 1
        }

        /// The extension's signal `member`, sent to `destination` alone.
        func emit(_ member: String, _ argument: String?, to destination: String) {
            var m: OpaquePointer?
            sd_bus_message_new_signal(bus, &m, GNOMEShortcutProtocolTests.path, GNOMEShortcutProtocolTests.interface, member)
            if let argument { sd_bus_message_append_basic(m, CChar(UInt8(ascii: "s")), argument) }
            sd_bus_message_set_destination(m, destination)
            sd_bus_send(bus, m, nil)
            sd_bus_message_unref(m)
            pump()
        }

        /// Who owns `name` now, as the bus says.
        func owner(_ name: String) -> String? {
            var error = sd_bus_error()
            var reply: OpaquePointer?
            defer {
                sd_bus_error_free(&error)
                sd_bus_message_unref(reply)
            }
            guard gestured_bus_call_s_sync(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                           "GetNameOwner", name, &error, &reply) >= 0 else { return nil }
            var owner: UnsafePointer<CChar>?
            sd_bus_message_read_basic(reply, CChar(UInt8(ascii: "s")), &owner)
            return owner.map { String(cString: $0) }
        }
    }

    static let config = """
        gestures:
          - {name: a, gesture: swipe, direction: left, command: x, shortcut: <Super><Alt>w}
          - {name: b, gesture: swipe, direction: right, command: y, shortcut: <Super>Page_Down}
          - {name: c, gesture: swipe, direction: up, command: z}
        """

    @Test(Requires.programs([("dbus-daemon", "dbus-daemon")]))
    func theListGoesToTheExtensionAndOnlyItsShellIsBelieved() throws {
        let dir = TempDir()
        let (busDaemon, address) = try KWinFocusTests.privateBus(dir)
        let shell = FakeExtension(address: address, enabled: false)
        let loop = try EventLoop()
        var lines: [String] = []
        var ran: [String] = []
        let sink = DesktopActions(detected: .desktop(.gnome(bus: address)), loop: loop, log: { lines.append($1) })
        sink.onShortcut = { ran.append($0) }
        func spin(_ done: () -> Bool) -> Bool {
            let deadline = clinux_monotonic_ns() + 10_000_000_000
            while !done() && clinux_monotonic_ns() < deadline {
                shell.pump()
                loop.runOnce(timeoutMS: 5)
            }
            return done()
        }
        let config = try #require(ConfigLoader.parse(Self.config, file: "c.yaml").0)
        sink.prepareShortcuts(config: config)
        #expect(spin { lines.contains { $0.hasPrefix("GNOME shortcuts not bound: ") } }, "\(lines)")
        #expect(lines.last?.hasSuffix("they will be when the gestured extension runs (gnome-extensions enable gestured@gestured.github.io)") == true,
                "the extension off is said with the command that enables it: \(lines)")
        let gestured = try #require(shell.owner("io.github.gestured"), "the desktop actions' connection owns the name")

        // Enabled, the extension asks: the list goes, and what GNOME refused is said.
        shell.enabled = true
        shell.taken = ["<Super>Page_Down"]
        shell.emit("ShortcutsWanted", nil, to: gestured)
        #expect(spin { lines.contains("GNOME shortcuts: <Super><Alt>w runs a") }, "\(lines)")
        #expect(lines.contains("shortcut <Super>Page_Down for b: GNOME refused it (already taken?)"), "\(lines)")
        #expect(shell.lists.last == ["a=<Super><Alt>w", "b=<Super>Page_Down"])

        shell.emit("ShortcutActivated", "a", to: gestured)
        #expect(spin { ran == ["a"] })
        // A name the list does not hold (a gesture with no shortcut) runs nothing.
        shell.emit("ShortcutActivated", "c", to: gestured)
        #expect(spin { lines.contains { $0.contains("ShortcutActivated for 'c', which is no shortcut of this config") } }, "\(lines)")
        // Another client (queued for org.gnome.Shell, not its owner) is not believed.
        let forger = FakeExtension(address: address, enabled: true)
        let ignored = sink.ignoredShortcutSignals
        forger.emit("ShortcutActivated", "a", to: gestured)
        #expect(spin { sink.ignoredShortcutSignals > ignored })
        #expect(ran == ["a"], "a forged signal runs nothing")

        // A reload with no shortcut lets go of them all.
        sink.prepareShortcuts(config: try #require(ConfigLoader.parse("gestures:\n  - {name: c, gesture: swipe, command: z}\n", file: "c.yaml").0))
        #expect(spin { shell.lists.last == [] }, "\(shell.lists)")

        // A binding for another desktop (`desktop: KDE`) keeps its shortcut off GNOME:
        // grabbed, its keys would be taken from GNOME for a binding that runs nothing here.
        let mixed = try #require(ConfigLoader.parse("""
            gestures:
              - {name: k, gesture: swipe, fingers: 3, direction: up, desktop: KDE, command: z, shortcut: <Super><Alt>k}
              - {name: g, gesture: swipe, fingers: 3, direction: down, command: z, shortcut: <Super><Alt>g}
            """, file: "c.yaml").0).forDesktop("GNOME")
        sink.prepareShortcuts(config: mixed)
        #expect(spin { shell.lists.last == ["g=<Super><Alt>g"] }, "\(shell.lists)")
        _ = busDaemon
    }
}
