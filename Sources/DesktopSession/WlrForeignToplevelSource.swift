import CDesktop

/// wlroots compositors (labwc, wayfire, river, sway, and any other that speaks it) through
/// `wlr-foreign-toplevel-management-unstable-v1`, the window list taskbars read: each
/// window is a `zwlr_foreign_toplevel_handle_v1` that sends its `app_id`, `title` and
/// `state` (an array that holds `activated`, 2, while the window has the focus), then
/// `done` after each change, and `closed` when it goes. The focused app is the activated
/// window's. Through libwayland-client (`WaylandClient`), on the loop, woken only by the
/// compositor's socket:
///
/// ```
///  connect ─→ get_registry, sync ─→ globals ─→ done ─┬─ manager offered: bind (≤ 3), sync ─→ its windows ─→ done ─→ report ─→ following
///                                                    └─ not offered: noManager, said as the problem (a global announced later is bound)
///  following: toplevel (a new window), app_id / title / state … done (applied, reported), closed (destroyed, reported)
/// ```
///
/// A compositor can announce windows without end: `maxToplevels` are followed, the rest
/// destroyed at once. Strings are cut as `FocusedApp` cuts them (libwayland bounds each
/// message to 4 KiB anyway).
public final class WlrForeignToplevelSource: FocusSource {
    public let name = "wlr-foreign-toplevel"
    public var endpoint: String { client.link.endpoint }
    public var connected: Bool { client.display != nil && client.link.focus.told }
    /// Why the focus is not known though connected: the compositor offers no manager.
    public var problem: String? { client.link.problem }

    /// Where the window list is, one roundtrip (`wl_display.sync`) at a time.
    enum Phase: Equatable {
        /// Waiting for the first sync's `done`: every global comes before it.
        case listingGlobals
        /// The compositor offers no manager: said as the problem; one announced later is bound.
        case noManager
        /// The manager is bound; waiting for the second sync, before which every window was sent.
        case listingToplevels
        /// The window list is known: each `done` and `closed` is reported.
        case following
    }

    private(set) var phase = Phase.listingGlobals
    /// The compositor's name for messages (`XDG_CURRENT_DESKTOP`), else its socket.
    public let compositor: String
    private let client: WaylandClient
    private var manager: OpaquePointer?
    /// The manager's global, by its registry name: its removal ends the connection.
    private var managerName: UInt32?
    private var toplevels: [OpaquePointer: Toplevel] = [:]
    /// Activations counted, so that the newest activated window wins where several say so.
    private var activations: UInt64 = 0
    /// Windows destroyed unread because `maxToplevels` were followed (said once a connection).
    private(set) var refusedToplevels = 0

    /// Highest protocol version bound: 3 adds `parent`, which is read and ignored.
    static let managerVersion: UInt32 = 3
    /// Windows followed at most: more than anyone opens, few enough that a compositor
    /// announcing windows without end costs little (each kept window is ~1.5 KB at most).
    static let maxToplevels = 1000
    /// `zwlr_foreign_toplevel_handle_v1.state`'s `activated`.
    static let activatedState: UInt32 = 2

    struct Toplevel {
        struct State: Equatable {
            var app = ""
            var title = ""
            var activated = false
        }
        /// As of the last `done`.
        var shown = State()
        /// What came since: applied at the next `done`.
        var pending = State()
        /// `activations` when it was last activated.
        var activatedAt: UInt64 = 0
    }

    /// `socket`: the compositor's socket, a path (`WAYLAND_DISPLAY` under `XDG_RUNTIME_DIR`,
    /// as `FocusDetection` resolves it). `compositor`: its name in messages ("labwc").
    public init(socket: String, compositor: String? = nil, retryInitial: Double = 0.5, retryMaximum: Double = 10) {
        self.compositor = compositor ?? socket
        client = WaylandClient(socket: socket, retry: ReconnectTimer(initial: retryInitial, maximum: retryMaximum))
        client.onGlobal = { [unowned self] in global($0, $1, $2) }
        client.onGlobalRemoved = { [unowned self] in if $0 == managerName { client.fail("the compositor withdrew \(Self.protocolName)") } }
        client.onConnected = { [unowned self] in roundtrip() }
        client.onDisconnect = { [unowned self] in forget() }
    }

    deinit {
        forget()
        client.onDisconnect = {}  // self is going: nothing may reach it through the client
        client.stop()
    }

    public func start(on loop: FocusLoop, onChange: @escaping (FocusedApp?) -> Void, log: @escaping (String) -> Void) {
        client.start(on: loop, onChange: onChange, log: log, prefix: name)
    }

    public func stop() { client.stop() }

    public static let protocolName = "wlr-foreign-toplevel-management"

    /// The problem said when the compositor offers no manager.
    var noManager: String { "this compositor (\(compositor)) offers no \(Self.protocolName); per-application gestures are off" }

    /// How many windows are followed.
    var toplevelCount: Int { toplevels.count }

    private var me: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    private static func source(_ data: UnsafeMutableRawPointer?) -> WlrForeignToplevelSource {
        Unmanaged<WlrForeignToplevelSource>.fromOpaque(data!).takeUnretainedValue()
    }

    // MARK: The roundtrips

    /// wl_display.sync: its `done` comes after everything the compositor sent before it.
    private func roundtrip() {
        client.roundtrip { [unowned self] in synced() }
    }

    private func synced() {
        switch phase {
        case .listingGlobals:
            if manager == nil {
                phase = .noManager
                client.link.say(noManager)
            } else {
                phase = .listingToplevels
                roundtrip()
            }
        case .listingToplevels:
            phase = .following
            report()
        case .noManager, .following:
            break
        }
    }

    private func global(_ name: UInt32, _ interface: String, _ version: UInt32) {
        guard manager == nil, interface == Self.protocolInterface, let r = client.registry,
              let proxy = gd_wl_bind_wlr_toplevel_manager(r, name, min(version, Self.managerVersion)) else { return }
        manager = proxy
        managerName = name
        gd_wl_proxy_add_listener(proxy, Self.managerListener, me)
        client.link.say(nil, recovered: "the compositor offers \(Self.protocolName) now")
        if phase == .noManager {
            phase = .listingToplevels
            roundtrip()
        }
    }

    static let protocolInterface = String(cString: gd_wlr_toplevel_manager_name())

    // MARK: The windows

    private func opened(_ handle: OpaquePointer?) {
        guard let handle else { return }
        guard toplevels.count < Self.maxToplevels else {
            if refusedToplevels == 0 { client.link.log("more than \(Self.maxToplevels) windows: the others are not followed") }
            refusedToplevels += 1
            return gd_wlr_toplevel_handle_destroy(handle)
        }
        toplevels[handle] = Toplevel()
        gd_wl_proxy_add_listener(handle, Self.handleListener, me)
    }

    private func change(_ handle: OpaquePointer?, _ edit: (inout Toplevel.State) -> Void) {
        guard let handle, toplevels[handle] != nil else { return }
        edit(&toplevels[handle]!.pending)
    }

    private static func activated(in array: UnsafeMutablePointer<gd_wl_array>?) -> Bool {
        guard let array, let data = array.pointee.data else { return false }
        let states = UnsafeBufferPointer(start: data.assumingMemoryBound(to: UInt32.self), count: array.pointee.size / 4)
        return states.contains(activatedState)
    }

    private func done(_ handle: OpaquePointer?) {
        guard let handle, var t = toplevels[handle] else { return }
        if t.pending.activated && !t.shown.activated {
            activations += 1
            t.activatedAt = activations
        }
        t.shown = t.pending
        toplevels[handle] = t
        if phase == .following { report() }
    }

    private func closed(_ handle: OpaquePointer?) {
        guard let handle, toplevels.removeValue(forKey: handle) != nil else { return }
        gd_wlr_toplevel_handle_destroy(handle)
        if phase == .following { report() }
    }

    /// The newest activated window's app; nil when no window is activated (or it has no app id).
    private func report() {
        let focused = toplevels.values.filter(\.shown.activated).max { $0.activatedAt < $1.activatedAt }?.shown
        client.link.focus.report(focused.flatMap { $0.app.isEmpty ? nil : FocusedApp(app: $0.app, title: $0.title) })
    }

    /// The connection is going: every proxy made on it with it.
    private func forget() {
        for handle in toplevels.keys { gd_wl_proxy_destroy(handle) }
        toplevels.removeAll()
        if let m = manager { gd_wl_proxy_destroy(m) }
        manager = nil
        managerName = nil
        phase = .listingGlobals
        refusedToplevels = 0
    }

    // MARK: The listeners libwayland calls through, made once and never written again
    // (nonisolated: only the loop's thread reads them, through libwayland).

    nonisolated(unsafe) private static let managerListener: UnsafeMutablePointer<(@convention(c) () -> Void)?> = {
        let l = UnsafeMutablePointer<gd_wlr_toplevel_manager_listener>.allocate(capacity: 1)
        l.initialize(to: gd_wlr_toplevel_manager_listener(
            toplevel: { data, _, handle in source(data).opened(handle) },
            finished: { data, _ in source(data).client.fail("the compositor finished the window list") }))
        return UnsafeMutableRawPointer(l).assumingMemoryBound(to: (@convention(c) () -> Void)?.self)
    }()

    nonisolated(unsafe) private static let handleListener: UnsafeMutablePointer<(@convention(c) () -> Void)?> = {
        let l = UnsafeMutablePointer<gd_wlr_toplevel_handle_listener>.allocate(capacity: 1)
        l.initialize(to: gd_wlr_toplevel_handle_listener(
            title: { data, handle, title in
                guard let title else { return }
                source(data).change(handle) { $0.title = FocusedApp.cut(String(cString: title), to: FocusedApp.maxTitleLength) }
            },
            app_id: { data, handle, app in
                guard let app else { return }
                source(data).change(handle) { $0.app = FocusedApp.cut(String(cString: app), to: FocusedApp.maxAppLength) }
            },
            output_enter: { _, _, _ in },
            output_leave: { _, _, _ in },
            state: { data, handle, states in source(data).change(handle) { $0.activated = activated(in: states) } },
            done: { data, handle in source(data).done(handle) },
            closed: { data, handle in source(data).closed(handle) },
            parent: { _, _, _ in }))
        return UnsafeMutableRawPointer(l).assumingMemoryBound(to: (@convention(c) () -> Void)?.self)
    }()
}
