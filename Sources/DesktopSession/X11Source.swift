import CDesktop
import Glibc

/// X11 window managers that follow EWMH (i3, openbox, xfwm4, KWin and Mutter on X11…):
/// the root window's `_NET_ACTIVE_WINDOW` property names the focused window, and a
/// PropertyNotify on the root says when it changes; the app is that window's
/// `WM_CLASS` class. Through libxcb, with every request's reply collected when the
/// socket is readable (`xcb_poll_for_reply`), so the loop never waits on the X
/// server. Only `xcb_connect` itself waits, for the server's greeting, at start and
/// on reconnect.
///
/// ```
///  interning _NET_ACTIVE_WINDOW ─→ reading the active window ─→ reading its WM_CLASS ─→ idle
///                                     ↑ PropertyNotify (a change during a read is kept and read after it)
/// ```
public final class X11Source: FocusSource {
    public let name = "x11"
    public var endpoint: String { link.endpoint }
    public var connected: Bool { connection != nil && link.focus.told }

    private enum Pending {
        case none
        case atom(UInt32)
        case activeWindow(UInt32)
        case windowClass(UInt32)
    }

    private var connection: OpaquePointer?
    private var root: xcb_window_t = 0
    private var activeAtom: xcb_atom_t = 0
    private var pending = Pending.none
    /// `_NET_ACTIVE_WINDOW` changed while a read was under way: read it again after.
    private var changedMeanwhile = false
    private let link: LibraryConnection

    public init(display: String, retryInitial: Double = 0.5, retryMaximum: Double = 10) {
        link = LibraryConnection(endpoint: display, retry: ReconnectTimer(initial: retryInitial, maximum: retryMaximum))
    }

    deinit { stop() }

    public func start(on loop: FocusLoop, onChange: @escaping (FocusedApp?) -> Void, log: @escaping (String) -> Void) {
        link.connect = { [unowned self] in connect() }
        link.start(on: loop, onChange: onChange, log: log, prefix: "x11")
    }

    public func stop() {
        link.cancel()
        disconnect()
    }

    private func connect() {
        let (opened, why) = EWMHClient.open(endpoint)
        guard let (c, root) = opened else { return link.failed(why ?? "cannot connect to the X server \(endpoint)") }
        self.root = root
        var mask = XCB_EVENT_MASK_PROPERTY_CHANGE.rawValue
        gd_xcb_change_window_attributes(c, root, XCB_CW_EVENT_MASK.rawValue, &mask)
        let atomName = "_NET_ACTIVE_WINDOW"
        pending = .atom(gd_xcb_intern_atom(c, 0, UInt16(atomName.utf8.count), atomName).sequence)
        gd_xcb_flush(c)
        connection = c
        if !link.opened(gd_xcb_get_file_descriptor(c), readable: { [weak self] in self?.readable() }) { disconnect() }
    }

    private func readable() {
        guard let c = connection else { return }
        var progress = true
        while progress {
            progress = false
            while let event = gd_xcb_poll_for_event(c) {
                progress = true
                handle(event)
                free(event)
            }
            if collectReply(c) { progress = true }
        }
        if gd_xcb_connection_has_error(c) != 0 {
            disconnect()
            link.lost("lost the X server \(endpoint)")
        }
    }

    private func handle(_ event: UnsafeMutablePointer<xcb_generic_event_t>) {
        guard event.pointee.response_type & 0x7f == XCB_PROPERTY_NOTIFY else { return }
        let notify = UnsafeRawPointer(event).assumingMemoryBound(to: xcb_property_notify_event_t.self).pointee
        guard notify.window == root, notify.atom == activeAtom, activeAtom != 0 else { return }
        if case .none = pending { readActiveWindow() } else { changedMeanwhile = true }
    }

    /// Takes the reply the machine waits for, if it has come; true if it had.
    private func collectReply(_ c: OpaquePointer) -> Bool {
        let sequence: UInt32
        switch pending {
        case .none: return false
        case .atom(let s), .activeWindow(let s), .windowClass(let s): sequence = s
        }
        var reply: UnsafeMutableRawPointer?
        var error: UnsafeMutablePointer<xcb_generic_error_t>?
        guard gd_xcb_poll_for_reply(c, sequence, &reply, &error) != 0 else { return false }
        defer { free(reply); free(error) }
        let state = pending
        pending = .none
        switch state {
        case .none:
            break
        case .atom:
            activeAtom = reply?.assumingMemoryBound(to: xcb_intern_atom_reply_t.self).pointee.atom ?? 0
            readActiveWindow()
        case .activeWindow:
            let window = propertyBytes(reply).flatMap { $0.count >= 4 ? $0.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) } : nil } ?? 0
            if changedMeanwhile { readActiveWindow() }
            else if window == 0 { link.focus.report(nil) }
            else { readClass(of: window) }
        case .windowClass:
            if changedMeanwhile { readActiveWindow() } else { link.focus.report(Self.app(wmClass: propertyBytes(reply) ?? [])) }
        }
        return true
    }

    private func readActiveWindow() {
        guard let c = connection else { return }
        changedMeanwhile = false
        pending = .activeWindow(gd_xcb_get_property(c, 0, root, activeAtom, XCB_ATOM_WINDOW.rawValue, 0, 1).sequence)
        gd_xcb_flush(c)
    }

    private func readClass(of window: xcb_window_t) {
        guard let c = connection else { return }
        pending = .windowClass(gd_xcb_get_property(c, 0, window, XCB_ATOM_WM_CLASS.rawValue, XCB_ATOM_STRING.rawValue, 0, 256).sequence)
        gd_xcb_flush(c)
    }

    private func propertyBytes(_ reply: UnsafeMutableRawPointer?) -> [UInt8]? {
        guard let reply else { return nil }
        let r = reply.assumingMemoryBound(to: xcb_get_property_reply_t.self)
        let n = Int(gd_xcb_get_property_value_length(r))
        guard n > 0, let value = gd_xcb_get_property_value(r) else { return nil }
        return Array(UnsafeRawBufferPointer(start: value, count: n))
    }

    /// `WM_CLASS` is two NUL-terminated strings, instance then class; the class names
    /// the application (`XTerm`, `firefox`), the instance may be any name it was given.
    static func app(wmClass bytes: [UInt8]) -> FocusedApp? {
        let parts = bytes.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        let cls = parts.count > 1 && !parts[1].isEmpty ? parts[1] : parts.first ?? ""
        return cls.isEmpty ? nil : FocusedApp(app: cls)
    }


    private func disconnect() {
        link.closed()
        if let c = connection { gd_xcb_disconnect(c) }
        connection = nil
        pending = .none
    }
}
