import CLinux
import CSystemd
import Glibc
import LinuxSystem
import Testing

/// gestured's side of the GNOME extension's Follow methods, without the daemon: a
/// connection to a `GNOMESession`'s bus that owns `io.github.gestured` as the daemon
/// does (or, `owning: nil`, any other client), and calls FollowBegin, FollowUpdate
/// (without waiting, as gestured sends one per frame) and FollowEnd. It reads GNOME's
/// own state with Eval on the same connection, so each answer comes after every call
/// sent before it, and it hears every FollowEnded.
final class FollowClient {
    /// A D-Bus error reply: its name and message.
    struct BusError: Error, CustomStringConvertible {
        let name: String
        let message: String
        var description: String { "\(name): \(message)" }
    }

    struct Begun {
        let session: UInt32
        let axis: String
        let start: Double
    }

    static let gesturedName = "io.github.gestured"
    private var bus: OpaquePointer?
    /// FollowEnded(session, reason), as heard.
    private(set) var ended: [(session: UInt32, reason: String)] = []
    /// The titles of every FocusChanged this connection was sent (broadcast or to it).
    private(set) var focusTitles: [String] = []
    /// Every ShortcutActivated ("ShortcutActivated NAME") and ShortcutsWanted this connection was sent.
    private(set) var shortcutSignals: [String] = []

    /// Connected and, with `owning`, the name's owner once this returns (the bus has told
    /// GNOME Shell before it answers us).
    init(address: String, owning name: String? = FollowClient.gesturedName) throws {
        var b: OpaquePointer?
        sd_bus_new(&b)
        sd_bus_set_address(b, address)
        sd_bus_set_bus_client(b, 1)
        let started = sd_bus_start(b)
        try #require(started >= 0, "connected to \(address): \(Errno(rawValue: -started))")
        bus = b
        sd_bus_set_method_call_timeout(b, 20_000_000)
        sd_bus_match_signal(b, nil, nil, "/io/github/gestured/Shell", "io.github.gestured.Shell", "FollowEnded", { m, ud, _ in
            var session: UInt32 = 0
            var reason: UnsafePointer<CChar>?
            sd_bus_message_read_basic(m, CChar(UInt8(ascii: "u")), &session)
            sd_bus_message_read_basic(m, CChar(UInt8(ascii: "s")), &reason)
            Unmanaged<FollowClient>.fromOpaque(ud!).takeUnretainedValue().ended.append((session, reason.map { String(cString: $0) } ?? ""))
            return 0
        }, Unmanaged.passUnretained(self).toOpaque())
        sd_bus_match_signal(b, nil, nil, "/io/github/gestured/Shell", "io.github.gestured.Shell", "FocusChanged", { m, ud, _ in
            var app: UnsafePointer<CChar>?, title: UnsafePointer<CChar>?
            sd_bus_message_read_basic(m, CChar(UInt8(ascii: "s")), &app)
            sd_bus_message_read_basic(m, CChar(UInt8(ascii: "s")), &title)
            Unmanaged<FollowClient>.fromOpaque(ud!).takeUnretainedValue().focusTitles.append(title.map { String(cString: $0) } ?? "")
            return 0
        }, Unmanaged.passUnretained(self).toOpaque())
        for member in ["ShortcutActivated", "ShortcutsWanted"] {
            sd_bus_match_signal(b, nil, nil, "/io/github/gestured/Shell", "io.github.gestured.Shell", member, { m, ud, _ in
                var name: UnsafePointer<CChar>?
                sd_bus_message_read_basic(m, CChar(UInt8(ascii: "s")), &name)
                let member = sd_bus_message_get_member(m).map { String(cString: $0) } ?? ""
                Unmanaged<FollowClient>.fromOpaque(ud!).takeUnretainedValue().shortcutSignals
                    .append(member + (name.map { " " + String(cString: $0) } ?? ""))
                return 0
            }, Unmanaged.passUnretained(self).toOpaque())
        }
        if let name {
            let r = sd_bus_request_name(b, name, 0)
            try #require(r >= 0, "owns \(name): \(Errno(rawValue: -r))")
        }
    }

    deinit { close() }

    /// Gone from the bus, with any name it owned: as when gestured dies.
    func close() {
        if let bus { sd_bus_flush_close_unref(bus) }
        bus = nil
    }

    /// Now on CLOCK_MONOTONIC in ms, mod 2^32: the time base of gestured's frames and of Clutter's events.
    static var now: UInt32 { UInt32(truncatingIfNeeded: clinux_monotonic_ns() / 1_000_000) }

    func begin(_ kind: String, source: String = "touchscreen", at time: UInt32) throws(BusError) -> Begun {
        try call({ gestured_bus_follow_begin(bus, kind, source, time, &$0, &$1) }) { m in
            var session: UInt32 = 0, axis: UnsafePointer<CChar>?, start = 0.0
            sd_bus_message_read_basic(m, CChar(UInt8(ascii: "u")), &session)
            sd_bus_message_read_basic(m, CChar(UInt8(ascii: "s")), &axis)
            sd_bus_message_read_basic(m, CChar(UInt8(ascii: "d")), &start)
            return Begun(session: session, axis: axis.map { String(cString: $0) } ?? "", start: start)
        }
    }

    /// As gestured sends it: no reply expected, nothing waited for.
    func update(_ session: UInt32, _ progress: Double, at time: UInt32) {
        let r = gestured_bus_follow_update(bus, session, progress, time, nil, nil)
        #expect(r >= 0, "FollowUpdate sent: \(Errno(rawValue: -r))")
        sd_bus_flush(bus)
    }

    /// FollowUpdate as a call whose answer is waited for (to see it refused).
    func updateWaiting(_ session: UInt32, _ progress: Double, at time: UInt32) throws(BusError) {
        try call({ gestured_bus_follow_update(bus, session, progress, time, &$0, &$1) }) { _ in () }
    }

    /// Where GNOME settles, in its units.
    func end(_ session: UInt32, at time: UInt32, cancel: Bool = false) throws(BusError) -> Double {
        try call({ gestured_bus_follow_end(bus, session, time, cancel ? 1 : 0, &$0, &$1) }) { m in
            var end = Double.nan
            sd_bus_message_read_basic(m, CChar(UInt8(ascii: "d")), &end)
            return end
        }
    }

    /// One of the extension's other methods with one string argument (`SwitchWorkspace
    /// next`), as gestured's desktop actions call it: its answer in gdbus's notation,
    /// `(uint32 2,)` or `(true,)`.
    func call(_ method: String, _ argument: String) throws(BusError) -> String {
        try call({ gestured_bus_call_s_sync(bus, "org.gnome.Shell", "/io/github/gestured/Shell", "io.github.gestured.Shell",
                                            method, argument, &$0, &$1) }) { m in
            var type: CChar = 0
            sd_bus_message_peek_type(m, &type, nil)
            switch UInt8(bitPattern: type) {
            case UInt8(ascii: "u"):
                var u: UInt32 = 0
                sd_bus_message_read_basic(m, type, &u)
                return "(uint32 \(u),)"
            case UInt8(ascii: "b"):
                var b: Int32 = 0
                sd_bus_message_read_basic(m, type, &b)
                return b != 0 ? "(true,)" : "(false,)"
            default:
                return "(type \(type),)"
            }
        }
    }

    /// GetFocus: the app and the title, or the error.
    func getFocus() throws(BusError) -> (app: String, title: String) {
        try call({ gestured_bus_call_sync(bus, "org.gnome.Shell", "/io/github/gestured/Shell", "io.github.gestured.Shell",
                                          "GetFocus", &$0, &$1) }) { m in
            var app: UnsafePointer<CChar>?, title: UnsafePointer<CChar>?
            sd_bus_message_read_basic(m, CChar(UInt8(ascii: "s")), &app)
            sd_bus_message_read_basic(m, CChar(UInt8(ascii: "s")), &title)
            return (app.map { String(cString: $0) } ?? "", title.map { String(cString: $0) } ?? "")
        }
    }

    /// `code` run by GNOME Shell (its JSON result), or nil if it threw.
    func eval(_ code: String) -> String? {
        do {
            return try call({ gestured_bus_eval(bus, code, &$0, &$1) }) { m -> String? in
                var ok: Int32 = 0
                var text: UnsafePointer<CChar>?
                sd_bus_message_read_basic(m, CChar(UInt8(ascii: "b")), &ok)
                sd_bus_message_read_basic(m, CChar(UInt8(ascii: "s")), &text)
                return ok != 0 ? text.map { String(cString: $0) } : nil
            }
        } catch {
            Issue.record("Eval \(code): \(error)")
            return nil
        }
    }

    /// Eval of `code` until it answers `expected`, for at most `seconds`: its last answer.
    /// Between tries it waits on the bus (and hears FollowEnded), 20 ms at most.
    @discardableResult
    func wait(_ code: String, for expected: String, seconds: Double = 10) -> String? {
        let deadline = clinux_monotonic_ns() + Int64(seconds * 1e9)
        var answer = eval(code)
        while answer != expected && clinux_monotonic_ns() < deadline {
            pump(untilNS: min(deadline, clinux_monotonic_ns() + 20_000_000))
            answer = eval(code)
        }
        return answer
    }

    /// The FollowEnded of `session`, waited for at most `seconds`: its reason.
    func endedReason(_ session: UInt32, seconds: Double = 10) -> String? {
        let deadline = clinux_monotonic_ns() + Int64(seconds * 1e9)
        while !ended.contains(where: { $0.session == session }) && clinux_monotonic_ns() < deadline { pump(untilNS: deadline) }
        return ended.first { $0.session == session }?.reason
    }

    /// Dispatches what the bus has sent (a reply to a call may have brought more), or else
    /// waits for more until `deadline` (monotonic ns) and dispatches that.
    func pump(untilNS deadline: Int64) {
        guard let bus else { return }
        var dispatched = false
        while sd_bus_process(bus, nil) > 0 { dispatched = true }
        let left = deadline - clinux_monotonic_ns()
        guard !dispatched, left > 0 else { return }
        sd_bus_wait(bus, UInt64(left / 1000))
        while sd_bus_process(bus, nil) > 0 {}
    }

    private func call<T>(_ send: (inout sd_bus_error, inout OpaquePointer?) -> Int32,
                         _ read: (OpaquePointer) -> T) throws(BusError) -> T {
        var error = sd_bus_error()
        var reply: OpaquePointer?
        defer {
            sd_bus_error_free(&error)
            sd_bus_message_unref(reply)
        }
        let r = send(&error, &reply)
        guard r >= 0, let reply else {
            throw BusError(name: error.name.map { String(cString: $0) } ?? "errno",
                           message: error.message.map { String(cString: $0) } ?? "\(Errno(rawValue: -r))")
        }
        return read(reply)
    }
}
