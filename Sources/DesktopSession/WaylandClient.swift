import CDesktop

/// A libwayland-client connection on the daemon's loop, what every Wayland source here
/// shares (the outputs' transforms, the wlr toplevel list): libwayland-client loaded when
/// it first connects, the registry's globals handed to the source, libwayland's
/// non-blocking read on each wakeup of the socket (never a poll), and a lost connection
/// retried through `LibraryConnection`.
///
/// ```
///  connect ─→ get_registry ─→ onConnected (the source may send more, roundtrip) ─→ flush
///     ↑           global / global_remove ─→ the source
///     └── timer ── lost: EOF, a protocol error, a write that fails ─→ onDisconnect, disconnect
/// ```
final class WaylandClient {
    let link: LibraryConnection
    private(set) var display: OpaquePointer?
    private(set) var registry: OpaquePointer?
    /// Set by the source: a global announced (name, interface, version), or removed.
    var onGlobal: (UInt32, String, UInt32) -> Void = { _, _, _ in }
    var onGlobalRemoved: (UInt32) -> Void = { _ in }
    /// Set by the source: get_registry is sent, not yet flushed.
    var onConnected: () -> Void = {}
    /// Set by the source: the display is about to go; destroy the proxies made on it.
    var onDisconnect: () -> Void = {}

    /// `socket`: the compositor's socket path (`WAYLAND_DISPLAY` resolved, `socket(_:)`).
    init(socket: String, retry: ReconnectTimer) {
        link = LibraryConnection(endpoint: socket, retry: retry)
    }

    /// The compositor's socket: `WAYLAND_DISPLAY` as a path, or under `XDG_RUNTIME_DIR`
    /// (as libwayland finds it, but from the daemon's environment, not the process's).
    static func socket(_ env: [String: String]) -> String? {
        guard let name = env["WAYLAND_DISPLAY"], !name.isEmpty else { return nil }
        if name.hasPrefix("/") { return name }
        guard let dir = env["XDG_RUNTIME_DIR"], !dir.isEmpty else { return nil }
        return dir + "/" + name
    }

    func start(on loop: FocusLoop, onChange: @escaping (FocusedApp?) -> Void, log: @escaping (String) -> Void, prefix: String) {
        link.connect = { [unowned self] in connect() }
        link.start(on: loop, onChange: onChange, log: log, prefix: prefix)
    }

    func stop() {
        link.cancel()
        disconnect()
    }

    private var me: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    private static func client(_ data: UnsafeMutableRawPointer?) -> WaylandClient {
        Unmanaged<WaylandClient>.fromOpaque(data!).takeUnretainedValue()
    }

    private func connect() {
        if let why = gd_load_wayland() { return link.failed("cannot load libwayland-client (Debian: libwayland-client0): \(String(cString: why))") }
        guard let d = gd_wl_display_connect(link.endpoint) else { return link.failed("cannot connect to the Wayland compositor at \(link.endpoint)") }
        display = d
        guard link.opened(gd_wl_display_get_fd(d), readable: { [weak self] in self?.readable() }) else { return disconnect() }
        guard let r = gd_wl_get_registry(d) else { return lose("get_registry failed") }
        registry = r
        gd_wl_proxy_add_listener(r, Self.registryListener, me)
        onConnected()
        flush()
    }

    /// libwayland's non-blocking read: what is queued is dispatched first, then the
    /// socket (readable: it does not block) is read and its events dispatched.
    private func readable() {
        guard let d = display else { return }
        while gd_wl_display_prepare_read(d) != 0 {
            guard dispatch(d) else { return }
        }
        if gd_wl_display_read_events(d) < 0 { return lose("the compositor closed the connection") }
        guard dispatch(d) else { return }
        flush()
    }

    /// The queued events, each to its listener; false when the connection is gone.
    private func dispatch(_ d: OpaquePointer) -> Bool {
        if gd_wl_display_dispatch_pending(d) < 0 {
            lose("a protocol error")
            return false
        }
        if let why = failure {
            lose(why)
            return false
        }
        return true
    }

    /// Why a listener gave up on the connection, acted on once libwayland has returned:
    /// the display cannot be closed under its own dispatch.
    private var failure: String?

    /// From a listener: the connection is to be closed (and retried) after this dispatch.
    func fail(_ why: String) {
        if failure == nil { failure = why }
    }

    /// Sends what the source's requests queued.
    func flush() {
        guard let d = display else { return }
        if gd_wl_display_flush(d) < 0 { lose("cannot write to the compositor") }
    }

    /// Closes the connection and tries again later.
    func lose(_ why: String) {
        guard display != nil else { return }
        disconnect()
        link.lost("lost \(link.endpoint): \(why)")
    }

    /// Callbacks of `roundtrip` not yet done.
    private var syncs: [OpaquePointer: () -> Void] = [:]

    /// wl_display.sync: `then` runs when its `done` comes, after everything the
    /// compositor sent before it (the globals, what a bind made it send).
    func roundtrip(then: @escaping () -> Void) {
        guard let d = display, let callback = gd_wl_display_sync(d) else { return fail("wl_display.sync failed") }
        syncs[callback] = then
        gd_wl_proxy_add_listener(callback, Self.syncListener, me)
    }

    private func synced(_ callback: OpaquePointer?) {
        guard let callback, let then = syncs.removeValue(forKey: callback) else { return }
        gd_wl_proxy_destroy(callback)
        then()
    }

    /// The listeners libwayland calls through, made once and never written again
    /// (nonisolated: only the loop's thread reads them, through libwayland).
    nonisolated(unsafe) private static let syncListener: UnsafeMutablePointer<(@convention(c) () -> Void)?> = {
        let l = UnsafeMutablePointer<gd_wl_callback_listener>.allocate(capacity: 1)
        l.initialize(to: gd_wl_callback_listener(done: { data, callback, _ in client(data).synced(callback) }))
        return UnsafeMutableRawPointer(l).assumingMemoryBound(to: (@convention(c) () -> Void)?.self)
    }()

    nonisolated(unsafe) private static let registryListener: UnsafeMutablePointer<(@convention(c) () -> Void)?> = {
        let l = UnsafeMutablePointer<gd_wl_registry_listener>.allocate(capacity: 1)
        l.initialize(to: gd_wl_registry_listener(
            global: { data, _, name, interface, version in
                client(data).onGlobal(name, interface.map { String(cString: $0) } ?? "", version)
            },
            global_remove: { data, _, name in client(data).onGlobalRemoved(name) }))
        return UnsafeMutableRawPointer(l).assumingMemoryBound(to: (@convention(c) () -> Void)?.self)
    }()

    private func disconnect() {
        link.closed()
        failure = nil
        if display != nil { onDisconnect() }
        for callback in syncs.keys { gd_wl_proxy_destroy(callback) }
        syncs.removeAll()
        if let r = registry { gd_wl_proxy_destroy(r) }
        registry = nil
        if let d = display { gd_wl_display_disconnect(d) }
        display = nil
    }
}
