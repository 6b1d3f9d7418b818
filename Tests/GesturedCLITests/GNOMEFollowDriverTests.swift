import CLinux
import CSystemd
import DaemonCore
import DesktopActions
import DesktopSession
import GestureConfig
import GestureTestSupport
import Glibc
import LinuxSystem
import Testing
import TouchModel
@testable import DaemonLoop

/// A follow on GNOME, gestured's side: the pan's beginning is the extension's
/// `FollowBeginChannel(kind, source, time, channel)`, asked as the owner of
/// `io.github.gestured`; every step after it is a record on the channel. The extension
/// here is a fake on a private bus that keeps what it was given (the real GNOME Shells
/// are in TodaysGNOMETests and GNOMEShellTests).
@Suite(.serialized) struct GNOMEFollowDriverTests {
    final class FakeExtension {
        private(set) var bus: OpaquePointer?
        /// What FollowBeginChannel carried, and who sent it.
        private(set) var begins: [(kind: String, source: String, time: UInt32, sender: String)] = []
        private(set) var channel: Int32 = -1
        var refuse: String?

        init(address: String) {
            let b = TestBus.client(address)
            bus = b
            sd_bus_add_object(b, nil, "/io/github/gestured/Shell", { m, ud, _ in
                Unmanaged<FakeExtension>.fromOpaque(ud!).takeUnretainedValue().call(m!)
            }, Unmanaged.passUnretained(self).toOpaque())
            sd_bus_request_name(b, "org.gnome.Shell", 0)
        }
        deinit {
            if channel >= 0 { close(channel) }
            if let bus { sd_bus_close_unref(bus) }
        }

        func pump() { while let b = bus, sd_bus_process(b, nil) > 0 {} }

        private(set) var switched: [String] = []

        private func call(_ m: OpaquePointer) -> Int32 {
            if sd_bus_message_is_method_call(m, "io.github.gestured.Shell", "SwitchWorkspace") > 0 {
                switched.append(KWinSourceTestSupport.string(m))
                return gestured_bus_reply_i(m, 2)
            }
            guard sd_bus_message_is_method_call(m, "io.github.gestured.Shell", "FollowBeginChannel") > 0 else { return 0 }
            var kind: UnsafePointer<CChar>?, source: UnsafePointer<CChar>?
            var time: UInt32 = 0
            var fd: Int32 = -1
            sd_bus_message_read_basic(m, CChar(UInt8(ascii: "s")), &kind)
            sd_bus_message_read_basic(m, CChar(UInt8(ascii: "s")), &source)
            sd_bus_message_read_basic(m, CChar(UInt8(ascii: "u")), &time)
            sd_bus_message_read_basic(m, CChar(UInt8(ascii: "h")), &fd)
            begins.append((String(cString: kind!), String(cString: source!), time, String(cString: sd_bus_message_get_sender(m))))
            if let refuse { return gestured_bus_reply_error(m, "org.freedesktop.DBus.Error.Failed", refuse) }
            if channel >= 0 { close(channel) }
            channel = fcntl(fd, F_DUPFD_CLOEXEC, 0)
            return gestured_bus_reply_usd(m, UInt32(begins.count), "horizontal", 0)
        }

        /// The records on the channel so far: (time ms, kind, progress); `closed` once
        /// the writer has gone.
        func records() -> (records: [(UInt32, UInt32, Double)], closed: Bool) {
            var out: [(UInt32, UInt32, Double)] = []
            var buffer = [UInt8](repeating: 0, count: 16)
            while true {
                let n = buffer.withUnsafeMutableBytes { recv(channel, $0.baseAddress, 16, Int32(MSG_DONTWAIT)) }
                let n2 = n < 0 && errno == ENOTSOCK ? buffer.withUnsafeMutableBytes { Glibc.read(channel, $0.baseAddress, 16) } : n
                if n2 == 0 { return (out, true) }
                guard n2 == 16 else { return (out, false) }
                buffer.withUnsafeBytes { raw in
                    out.append((UInt32(littleEndian: raw.load(fromByteOffset: 0, as: UInt32.self)),
                                UInt32(littleEndian: raw.load(fromByteOffset: 4, as: UInt32.self)),
                                Double(bitPattern: UInt64(littleEndian: raw.load(fromByteOffset: 8, as: UInt64.self)))))
                }
            }
        }

        /// Who owns `name` now (org.freedesktop.DBus.GetNameOwner), or nil.
        func owner(of name: String) -> String? {
            var reply: OpaquePointer?
            var error = sd_bus_error()
            defer { sd_bus_error_free(&error) }
            guard gestured_bus_call_s_sync(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetNameOwner", name, &error, &reply) >= 0,
                  let reply else { return nil }
            defer { sd_bus_message_unref(reply) }
            var p: UnsafePointer<CChar>?
            guard sd_bus_message_read_basic(reply, CChar(UInt8(ascii: "s")), &p) > 0, let p else { return nil }
            return String(cString: p)
        }
    }

    static func pan(_ sink: DesktopActions, _ follow: Follow, dx: Double, steps: Int, device: DeviceKind = .touchscreen, end: FollowMotion.Phase = .end) {
        for k in 0...steps {
            let phase: FollowMotion.Phase = k == 0 ? .begin : k == steps ? end : .update
            var inv = Invocation(gesture: "ws", trigger: "begin", action: .desktop(.follow(follow)), environment: [])
            inv.motion = FollowMotion(phase: phase, time: Timestamp(microseconds: 5_000_000 + Int64(k) * 10_000), translation: Point(x: dx * Double(k + 1), y: 0),
                                      velocity: Point(x: dx * 100, y: 0), device: device, surface: Size(width: 300, height: 190), fingers: 4)
            sink.submit(inv)
        }
    }

    @Test(Requires.programs([("dbus-daemon", "dbus-daemon")]))
    func aPanIsOneBeginAsGesturedThenARecordAStep() throws {
        let dir = TempDir()
        let (daemon, address) = try KWinFocusTests.privateBus(dir)
        defer { kill(daemon.pid, SIGTERM); _ = daemon.wait() }
        let ext = FakeExtension(address: address)
        ext.pump()
        var lines: [String] = []
        let loop = try EventLoop()
        let sink = DesktopActions(detected: .desktop(.gnome(bus: address)), loop: loop, log: { lines.append($1) })
        // A 4-finger drag left on a 300 mm touchscreen: 30 mm, the screen's width is a whole transition.
        Self.pan(sink, Follow(transition: .workspace), dx: -1, steps: 29)
        let deadline = clinux_monotonic_ns() + 30_000_000_000
        var got: (records: [(UInt32, UInt32, Double)], closed: Bool) = ([], false)
        while clinux_monotonic_ns() < deadline {
            ext.pump()
            loop.runOnce(timeoutMS: 5)
            if !ext.begins.isEmpty {
                let more = ext.records()
                got.records += more.records
                if more.closed { got.closed = true; break }
            }
        }
        #expect(ext.begins.count == 1)
        #expect(ext.begins.first?.kind == "workspace" && ext.begins.first?.source == "touchscreen" && ext.begins.first?.time == 5000)
        #expect(ext.begins.first?.sender == ext.owner(of: "io.github.gestured"), "FollowBeginChannel comes from the owner of io.github.gestured")
        #expect(got.closed, "the channel closes after the end")
        #expect(got.records.count == 30)
        let kinds: [UInt32] = got.records.map(\.1)
        #expect(kinds == Array(repeating: 0, count: 29) + [1], "updates, then one end")
        #expect(abs((got.records.last?.2 ?? 0) - 0.1) < 1e-9, "30 mm of a 300 mm screen to the left: 0.1 forward")
        let times: [UInt32] = got.records.map(\.0)
        let expected: [UInt32] = (0..<30).map { k in UInt32(5000 + k * 10) }
        #expect(times == expected, "each record has its frame's time")
        #expect(lines.isEmpty, "\(lines)")
        #expect(sink.lastFollowProgress.map { abs($0 - 0.1) < 1e-9 } == true, "the progress the desktop was given")
    }

    /// The extension off (or a GNOME it does not know): said, once, and the follow is the one step.
    @Test(Requires.programs([("dbus-daemon", "dbus-daemon")]))
    func aRefusedBeginIsSaidAndIsOneStep() throws {
        let dir = TempDir()
        let (daemon, address) = try KWinFocusTests.privateBus(dir)
        defer { kill(daemon.pid, SIGTERM); _ = daemon.wait() }
        let ext = FakeExtension(address: address)
        ext.refuse = "the workspace tracker is busy"
        ext.pump()
        var lines: [String] = []
        let loop = try EventLoop()
        let sink = DesktopActions(detected: .desktop(.gnome(bus: address)), loop: loop, log: { lines.append($1) })
        Self.pan(sink, Follow(transition: .workspace), dx: -1, steps: 3)
        let deadline = clinux_monotonic_ns() + 30_000_000_000
        while clinux_monotonic_ns() < deadline, lines.isEmpty {
            ext.pump()
            loop.runOnce(timeoutMS: 5)
        }
        #expect(lines.first == "[ws] workspace follow: GNOME did not take it: org.freedesktop.DBus.Error.Failed: the workspace tracker is busy; one step instead")
        while clinux_monotonic_ns() < deadline, ext.switched.isEmpty {
            ext.pump()
            loop.runOnce(timeoutMS: 5)
        }
        #expect(ext.switched == ["next"], "the one step, the way the fingers went")
    }
}
