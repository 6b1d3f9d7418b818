import CLinux
import GestureTestSupport
import Glibc
import LinuxSystem
import Testing
@testable import Commands
@testable import DaemonLoop

extension RealDesktops {
    /// `shortcut:` on a real GNOME Shell (Debian's 43 here; 48 and 50 in the roots, from
    /// TodaysGNOMETests): the daemon gives the extension its list, GNOME grabs it, keys
    /// pressed through GNOME's own input path (a Clutter virtual keyboard, what remote
    /// desktop uses) run the binding, and only gestured may set the list or hear it.
    @Suite struct GNOMEShortcutTests {
        @Test(GNOMESession.programs, GNOMESession.dbusmock)
        func aShortcutPressedInGNOMERunsItsBindingAndOnlyGesturedHearsIt() throws {
            try Self.aShortcutPressedInGNOMERunsItsBinding(in: nil)
        }

        /// X keysyms: Super_L, Alt_L, w, q.
        static let superKey: UInt32 = 0xffeb, altKey: UInt32 = 0xffe9, wKey: UInt32 = 0x77, qKey: UInt32 = 0x71

        /// Presses `keys` in order and releases them in reverse, as a keyboard GNOME reads.
        static func press(_ session: GNOMESession, _ keys: [UInt32]) throws {
            let js = "(() => { const Clutter = imports.gi.Clutter, GLib = imports.gi.GLib; "
                + "globalThis._gesturedTestKeyboard ??= Clutter.get_default_backend().get_default_seat()"
                + ".create_virtual_device(Clutter.InputDeviceType.KEYBOARD_DEVICE); "
                + "const k = globalThis._gesturedTestKeyboard, keys = [\(keys.map(String.init).joined(separator: ", "))]; "
                + "for (const key of keys) k.notify_keyval(GLib.get_monotonic_time(), key, Clutter.KeyState.PRESSED); "
                + "for (const key of keys.reverse()) k.notify_keyval(GLib.get_monotonic_time(), key, Clutter.KeyState.RELEASED); "
                + "return true; })()"
            #expect(try session.eval(js) == "true", "keys pressed: \(session.log)")
        }

        /// Whether nobody holds `accelerator` in GNOME now (grabbed for a moment to see, then let go).
        static func free(_ accelerator: String) -> String {
            "(() => { const a = global.display.grab_accelerator('\(accelerator)', 0); "
                + "if (a) global.display.ungrab_accelerator(a); return a !== 0; })()"
        }

        static func config(_ ran: String, shortcut: String) -> String {
            """
            gestures:
              - name: note
                gesture: swipe
                fingers: 3
                direction: up
                command: echo "$GESTURE_NAME $GESTURE_TRIGGER" >> \(ran)
                shortcut: \(shortcut)
              - name: taken
                gesture: swipe
                fingers: 3
                direction: down
                command: echo taken >> \(ran)
                shortcut: <Super>Page_Down
            """
        }

        static func aShortcutPressedInGNOMERunsItsBinding(in root: DebianRoot?) throws {
            let session = try GNOMESession(enabled: [GNOMESession.harnessUUID, GNOMESession.extensionUUID], in: root)
            // Another program on the session bus, listening to every shortcut signal there is.
            let other = try FollowClient(address: session.address, owning: nil)
            let ran = session.dir.path + "/ran"
            let log = HostileDeviceTests.LogPipe()
            var daemon: Daemon? = try LiveDeviceTests.makeDaemon(
                session.dir, config: Self.config(ran, shortcut: "<Super><Alt>w"),
                logger: Logger(threshold: .info, environment: [:], fd: FileDescriptor(rawValue: log.writeFD)),
                environment: ["XDG_CURRENT_DESKTOP": "GNOME", "WAYLAND_DISPLAY": "wayland-0", "DBUS_SESSION_BUS_ADDRESS": session.address])
            #expect(LiveDeviceTests.spin(daemon!) { log.drain().contains("GNOME shortcuts: <Super><Alt>w runs note") },
                    "the extension took the list: \(log.text) \(session.log)")
            #expect(log.text.contains("shortcut <Super>Page_Down for taken: GNOME refused it (already taken?)"),
                    "GNOME's own workspace shortcut is not taken from it: \(log.text)")
            #expect(log.text.components("GNOME shortcuts:") == 1, "said once, though sent twice (at start, and as the extension asked)")

            try Self.press(session, [Self.superKey, Self.altKey, Self.wKey])
            #expect(LiveDeviceTests.spin(daemon!) { LiveDeviceTests.read(ran) == "note shortcut\n" },
                    "Super+Alt+W ran 'note' as a shortcut: \(LiveDeviceTests.read(ran) ?? "nothing") \(log.drain()) \(session.log)")
            #expect(log.drain().contains("[note] run by a desktop shortcut, not by a gesture"), "\(log.text)")

            // Nobody else heard it: GNOME answers this after every signal it sent before.
            #expect(other.eval("1") == "1")
            other.pump(untilNS: clinux_monotonic_ns())
            #expect(other.shortcutSignals == [], "another client hears no shortcut and is asked for none")

            // Another client may not set shortcuts: refused, and nothing grabbed.
            let set = try Gestured.Process(["call", "--address", session.address, "--dest", "org.gnome.Shell",
                                            "--object-path", "/io/github/gestured/Shell", "--method",
                                            "io.github.gestured.Shell.SetShortcuts", "[('evil', '<Super><Alt>e')]"],
                                           executable: "/usr/bin/gdbus")
            #expect(set.wait(timeoutMS: 20_000) != 0)
            #expect(set.stderr.contains("org.freedesktop.DBus.Error.AccessDenied: only gestured (the owner of io.github.gestured) may call this"),
                    "\(set.stderr)")
            #expect(try session.eval(Self.free("<Super><Alt>e")) == "true", "nothing grabbed for it")
            #expect(try session.eval(Self.free("<Super><Alt>w")) == "false", "gestured's grab kept")

            // Nor make gestured run one: a ShortcutActivated sent to gestured directly.
            let owner = try #require(try session.gdbus(["call", "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
                                                        "--method", "org.freedesktop.DBus.GetNameOwner", "io.github.gestured"]))
            let unique = try #require(owner.quoted(after: "('"), "\(owner)")
            let ignored = daemon!.desktopActions?.ignoredShortcutSignals ?? 0
            try session.gdbus(["emit", "--dest", unique, "--object-path", "/io/github/gestured/Shell",
                               "--signal", "io.github.gestured.Shell.ShortcutActivated", "note"])
            #expect(LiveDeviceTests.spin(daemon!) { (daemon!.desktopActions?.ignoredShortcutSignals ?? 0) > ignored }, "the forged signal reached gestured")
            #expect(LiveDeviceTests.read(ran) == "note shortcut\n", "and ran nothing")

            // A reload sends the new list: the old keys are let go, the new ones run it.
            _ = session.dir.write("config.yaml", Self.config(ran, shortcut: "<Super><Alt>q"))
            #expect(daemon!.reload(reason: "test"))
            #expect(LiveDeviceTests.spin(daemon!) { log.drain().contains("GNOME shortcuts: <Super><Alt>q runs note") }, "\(log.text)")
            #expect(try session.eval(Self.free("<Super><Alt>w")) == "true", "the old shortcut let go")
            try Self.press(session, [Self.superKey, Self.altKey, Self.qKey])
            #expect(LiveDeviceTests.spin(daemon!) { LiveDeviceTests.read(ran) == "note shortcut\nnote shortcut\n" },
                    "Super+Alt+Q ran it: \(LiveDeviceTests.read(ran) ?? "nothing")")

            // gestured gone: the extension lets go of its shortcuts.
            daemon = nil
            #expect(other.wait(Self.free("<Super><Alt>q"), for: "true") == "true", "released when gestured left the bus: \(session.log)")
            other.pump(untilNS: clinux_monotonic_ns())
            #expect(other.shortcutSignals == [])
        }
    }
}

extension String {
    /// How many times `part` occurs.
    func components(_ part: String) -> Int { split(separator: part, omittingEmptySubsequences: false).count - 1 }
}
