import CDesktop
import LinuxSystem

/// What the D-Bus sources (KWin, GNOME Shell) do alike with sd-bus: find the session
/// bus, connect to it, run sd-bus until it is idle, and read replies.
package enum SessionBus {
    /// The session bus address from the environment, as sd-bus and libdbus find it.
    package static func address(_ env: [String: String]) -> String? {
        if let a = env["DBUS_SESSION_BUS_ADDRESS"], !a.isEmpty { return a }
        return env["XDG_RUNTIME_DIR"].map { "unix:path=\($0)/bus" }
    }

    /// A started client connection to `link.endpoint`, or nil once `link.failed` was told why.
    static func open(_ link: LibraryConnection) -> OpaquePointer? {
        let (b, why) = open(address: link.endpoint)
        if let why { link.failed(why) }
        return b
    }

    /// `open`, then its descriptor watched on the loop (`link.opened`), reading with
    /// `readable`: the connection, or nil (closed again if the loop refused it; `link`
    /// was told and tries again later).
    static func connect(_ link: LibraryConnection, readable: @escaping () -> Void) -> OpaquePointer? {
        guard let b = open(link) else { return nil }
        guard link.opened(gd_sd_bus_get_fd(b), readable: readable) else {
            close(b, link)
            return nil
        }
        return b
    }

    /// Stops watching `bus` (`link.closed`) and closes it.
    static func close(_ bus: OpaquePointer?, _ link: LibraryConnection) {
        link.closed()
        if let bus { gd_sd_bus_close_unref(bus) }
    }

    /// A started client connection to `address`, or why there is none.
    static func open(address: String) -> (OpaquePointer?, String?) {
        if let why = gd_load_sdbus() { return (nil, "cannot load sd-bus (Debian: libsystemd0): \(String(cString: why))") }
        var b: OpaquePointer?
        guard gd_sd_bus_new(&b) >= 0, let b else { return (nil, "cannot create an sd-bus connection") }
        gd_sd_bus_set_address(b, address)
        gd_sd_bus_set_bus_client(b, 1)
        let r = gd_sd_bus_start(b)
        guard r >= 0 else {
            gd_sd_bus_unref(b)
            return (nil, "cannot connect to the bus \(address): \(Errno(rawValue: -r))")
        }
        return (b, nil)
    }

    /// Runs sd-bus until it has nothing more to do: reads, dispatches, writes what is
    /// queued. False when the connection broke (the source closes it; `link.lost` was told).
    /// `bus` is asked before each step: a callback may have closed it.
    static func process(_ bus: () -> OpaquePointer?, _ link: LibraryConnection) -> Bool {
        guard let why = process(bus) else { return true }
        link.lost(why)
        return false
    }

    /// As above; nil, or why the connection broke.
    static func process(_ bus: () -> OpaquePointer?) -> String? {
        while let b = bus() {
            let r = gd_sd_bus_process(b, nil)
            if r < 0 { return "lost the session bus: \(Errno(rawValue: -r))" }
            if r == 0 { return nil }
        }
        return nil
    }

    /// Our own name on `bus` (":1.42"): what a test sends to directly.
    static func uniqueName(_ bus: OpaquePointer) -> String? {
        var unique: UnsafePointer<CChar>?
        guard gd_sd_bus_get_unique_name(bus, &unique) >= 0, let unique else { return nil }
        return String(cString: unique)
    }

    static func readString(_ m: OpaquePointer) -> String? {
        var p: UnsafePointer<CChar>?
        guard gd_sd_bus_message_read_basic(m, CChar(UInt8(ascii: "s")), &p) > 0, let p else { return nil }
        return String(cString: p)
    }

    /// The error a reply carries, as "org.x.Error: message", or nil for a method return.
    static func error(_ m: OpaquePointer?) -> String? {
        guard let m, gd_sd_bus_message_is_method_error(m, nil) > 0, let e = gd_sd_bus_message_get_error(m) else { return nil }
        return "\(e.pointee.name.map { String(cString: $0) } ?? "error"): \(e.pointee.message.map { String(cString: $0) } ?? "")"
    }
}
