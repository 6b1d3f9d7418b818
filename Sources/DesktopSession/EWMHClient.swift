import CDesktop
import Glibc
import LinuxSystem

/// Desktop actions on an X11 window manager that follows EWMH (openbox, xfwm4, i3,
/// fluxbox…): client messages to the root window, as pagers send them. Through libxcb
/// on the loop; every property read is a request whose reply is collected when the
/// socket is readable, in the order sent (X answers in order). Only `xcb_connect`
/// waits, for the server's greeting, at the first request and after a lost connection.
///
/// ```
///  first request ─→ connect, intern the atoms ─→ (atoms known) ─→ read the properties it needs
///               ─→ send the client message(s) ─→ done
/// ```
public final class EWMHClient {
    /// What to ask of the window manager.
    public enum Request: Sendable, Equatable {
        /// `_NET_CURRENT_DESKTOP`: by an offset from the current desktop (wrapping, as
        /// pagers and xdotool do) or to a desktop numbered from 0.
        case switchDesktop(Target)
        /// `_NET_WM_DESKTOP` on the active window, then `_NET_CURRENT_DESKTOP` to follow it.
        case moveActiveWindow(Target)
        /// `_NET_SHOWING_DESKTOP`, to the opposite of its current value.
        case toggleShowingDesktop
    }

    public enum Target: Sendable, Equatable {
        case relative(Int)
        case absolute(Int)
    }

    package let display: String
    private weak var loop: FocusLoop?
    private var connection: OpaquePointer?
    private var root: xcb_window_t = 0
    private var fd: Int32 = -1
    private var atoms: [String: xcb_atom_t] = [:]
    /// Replies awaited, in the order asked: X answers in order.
    private var pending: [(sequence: UInt32, handle: (UnsafeMutableRawPointer?) -> Void)] = []
    /// Requests made before the atoms were known.
    private var waiting: [(Request, (String?) -> Void)] = []

    static let atomNames = ["_NET_CURRENT_DESKTOP", "_NET_NUMBER_OF_DESKTOPS", "_NET_WM_DESKTOP", "_NET_SHOWING_DESKTOP", "_NET_ACTIVE_WINDOW"]
    /// What a pager's messages to the root window are sent with (EWMH "Root Window Messages").
    static let rootMask = XCB_EVENT_MASK_SUBSTRUCTURE_NOTIFY.rawValue | XCB_EVENT_MASK_SUBSTRUCTURE_REDIRECT.rawValue
    /// `_NET_WM_DESKTOP`'s source indication for a pager (EWMH: 2), which a window
    /// manager obeys without second-guessing it as an application's request.
    static let sourcePager: UInt32 = 2

    package init(display: String, loop: FocusLoop) {
        self.display = display
        self.loop = loop
    }

    deinit { disconnect() }

    /// Sends `request`; `done` gets nil once the message is sent, or why it could not be.
    package func perform(_ request: Request, done: @escaping (String?) -> Void) {
        if connection == nil, let why = connect() { return done(why) }
        if atoms.count < Self.atomNames.count { return waiting.append((request, done)) }
        start(request, done)
    }

    // MARK: Connection

    private func connect() -> String? {
        let (opened, why) = Self.open(display)
        guard let (c, root) = opened else { return why }
        guard let loop else {
            gd_xcb_disconnect(c)
            return "no event loop"
        }
        let fd = gd_xcb_get_file_descriptor(c)
        do {
            try loop.watch(FileDescriptor(rawValue: fd)) { [weak self] in self?.readable() }
        } catch {
            gd_xcb_disconnect(c)
            return "cannot watch the X server's socket"
        }
        connection = c
        self.fd = fd
        self.root = root
        atoms = [:]
        for name in Self.atomNames {
            ask(gd_xcb_intern_atom(c, 0, UInt16(name.utf8.count), name).sequence) { [unowned self] reply in
                atoms[name] = reply?.assumingMemoryBound(to: xcb_intern_atom_reply_t.self).pointee.atom ?? 0
                if atoms.count == Self.atomNames.count {
                    let queued = waiting
                    waiting = []
                    for (r, done) in queued { start(r, done) }
                }
            }
        }
        gd_xcb_flush(c)
        return nil
    }

    /// A connection to `display` and its screen's root window, or why there is none
    /// (X11Source opens its own the same way). `xcb_connect` waits for the server's greeting.
    static func open(_ display: String) -> ((OpaquePointer, xcb_window_t)?, String?) {
        if let why = gd_load_xcb() { return (nil, "cannot load libxcb (Debian: libxcb1): \(String(cString: why))") }
        var screen: Int32 = 0
        let c = gd_xcb_connect(display, &screen)
        guard let c, gd_xcb_connection_has_error(c) == 0 else {
            if let c { gd_xcb_disconnect(c) }
            return (nil, "cannot connect to the X server \(display)")
        }
        var roots = gd_xcb_setup_roots_iterator(gd_xcb_get_setup(c))
        for _ in 0..<max(0, screen) where roots.rem > 0 { gd_xcb_screen_next(&roots) }
        guard roots.rem > 0, let s = roots.data else {
            gd_xcb_disconnect(c)
            return (nil, "the X server \(display) has no screen \(screen)")
        }
        return ((c, s.pointee.root), nil)
    }

    private func ask(_ sequence: UInt32, _ handle: @escaping (UnsafeMutableRawPointer?) -> Void) {
        pending.append((sequence, handle))
    }

    private func readable() {
        guard let c = connection else { return }
        // Events are not asked for; any that come (errors of sent messages) are dropped.
        while let event = gd_xcb_poll_for_event(c) { free(event) }
        while let first = pending.first {
            var reply: UnsafeMutableRawPointer?
            var error: UnsafeMutablePointer<xcb_generic_error_t>?
            guard gd_xcb_poll_for_reply(c, first.sequence, &reply, &error) != 0 else { break }
            pending.removeFirst()
            first.handle(error == nil ? reply : nil)
            free(reply)
            free(error)
            guard connection != nil else { return }
        }
        if let c = connection, gd_xcb_connection_has_error(c) != 0 {
            let lost = waiting
            disconnect()
            for (_, done) in lost { done("lost the X server \(display)") }
        }
    }

    private func disconnect() {
        if fd >= 0 { loop?.unwatch(FileDescriptor(rawValue: fd)) }
        fd = -1
        if let c = connection { gd_xcb_disconnect(c) }
        connection = nil
        pending = []
        waiting = []
        atoms = [:]
    }

    // MARK: Requests

    private func start(_ request: Request, _ done: @escaping (String?) -> Void) {
        switch request {
        case .switchDesktop(let target):
            desktops { [unowned self] current, count in
                guard let desktop = resolve(target, current, count, done) else { return }
                message(root, "_NET_CURRENT_DESKTOP", [desktop, 0])
                done(nil)
            } failed: { done($0) }
        case .moveActiveWindow(let target):
            desktops { [unowned self] current, count in
                guard let desktop = resolve(target, current, count, done) else { return }
                cardinal(of: root, "_NET_ACTIVE_WINDOW") { [unowned self] window in
                    guard let window, window != 0 else { return done("no window has the focus (_NET_ACTIVE_WINDOW)") }
                    message(window, "_NET_WM_DESKTOP", [desktop, Self.sourcePager])
                    message(root, "_NET_CURRENT_DESKTOP", [desktop, 0])
                    done(nil)
                }
            } failed: { done($0) }
        case .toggleShowingDesktop:
            cardinal(of: root, "_NET_SHOWING_DESKTOP") { [unowned self] showing in
                message(root, "_NET_SHOWING_DESKTOP", [showing == 1 ? 0 : 1])
                done(nil)
            }
        }
    }

    /// The current desktop and how many there are, both from 0.
    private func desktops(_ then: @escaping (UInt32, UInt32) -> Void, failed: @escaping (String) -> Void) {
        cardinal(of: root, "_NET_NUMBER_OF_DESKTOPS") { [unowned self] count in
            guard let count, count > 0 else { return failed("the window manager does not say how many desktops it has (_NET_NUMBER_OF_DESKTOPS): it does not follow EWMH") }
            cardinal(of: root, "_NET_CURRENT_DESKTOP") { current in
                then(min(current ?? 0, count - 1), count)
            }
        }
    }

    private func resolve(_ target: Target, _ current: UInt32, _ count: UInt32, _ done: (String?) -> Void) -> UInt32? {
        switch target {
        case .relative(let n):
            let c = Int(count)
            return UInt32(((Int(current) + n) % c + c) % c)
        case .absolute(let n):
            guard n >= 0, n < Int(count) else {
                done("the window manager has \(count) desktop\(count == 1 ? "" : "s"), no desktop \(n + 1)")
                return nil
            }
            return UInt32(n)
        }
    }

    /// A 32-bit property of `window` (a CARDINAL or WINDOW), nil when it is not set.
    private func cardinal(of window: xcb_window_t, _ name: String, _ then: @escaping (UInt32?) -> Void) {
        guard let c = connection, let atom = atoms[name], atom != 0 else { return then(nil) }
        ask(gd_xcb_get_property(c, 0, window, atom, XCB_ATOM_ANY.rawValue, 0, 1).sequence) { reply in
            guard let reply else { return then(nil) }
            let r = reply.assumingMemoryBound(to: xcb_get_property_reply_t.self)
            guard r.pointee.format == 32, gd_xcb_get_property_value_length(r) >= 4, let value = gd_xcb_get_property_value(r) else { return then(nil) }
            then(value.loadUnaligned(as: UInt32.self))
        }
        gd_xcb_flush(c)
    }

    /// A ClientMessage of format 32, as EWMH's root window messages are.
    private func message(_ window: xcb_window_t, _ type: String, _ data: [UInt32]) {
        guard let c = connection, let atom = atoms[type], atom != 0 else { return }
        var event = xcb_client_message_event_t()
        event.response_type = UInt8(XCB_CLIENT_MESSAGE)
        event.format = 32
        event.window = window
        event.type = atom
        withUnsafeMutableBytes(of: &event.data) { raw in
            for (i, v) in data.prefix(5).enumerated() { raw.storeBytes(of: v, toByteOffset: i * 4, as: UInt32.self) }
        }
        withUnsafeBytes(of: &event) { raw in
            _ = gd_xcb_send_event(c, 0, root, Self.rootMask, raw.baseAddress!.assumingMemoryBound(to: CChar.self))
        }
        gd_xcb_flush(c)
    }
}
