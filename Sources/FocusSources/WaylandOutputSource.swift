import CDesktop

/// Every Wayland compositor's outputs, as a Wayland client sees them: each `wl_output`
/// global sends its `transform` in `geometry` and, since version 2, `done` after every
/// change, whenever the output is turned (`swaymsg output eDP-1 transform 90`, GNOME's
/// or KDE's display settings, a rotation daemon). Through libwayland-client (loaded
/// when this source connects), on the loop:
///
/// ```
///  connect ─→ get_registry ─→ global wl_output ─→ bind (version ≤ 4) ─→ geometry, name, done ─→ report
///                               ↑ global / global_remove: an output plugged in or gone
/// ```
///
/// sway 1.7 sends no IPC event when an output is turned; this does, on every compositor.
public final class WaylandOutputSource: RotationSource {
    public let name = "wayland"
    public var endpoint: String { link.endpoint }
    public var outputs: [OutputRotation]? { report.outputs }

    private var display: OpaquePointer?
    private var registry: OpaquePointer?
    /// By the registry's global name: the bound proxy, its name and its transform.
    private var bound: [UInt32: Output] = [:]
    private let link: LibraryConnection
    private let report = RotationReport()

    private struct Output {
        var proxy: OpaquePointer
        var name: String
        var transform: Int32 = 0
    }

    /// The compositor's socket: `WAYLAND_DISPLAY` as a path, or under `XDG_RUNTIME_DIR`
    /// (as libwayland finds it, but from the daemon's environment, not the process's).
    public static func socket(_ env: [String: String]) -> String? {
        guard let name = env["WAYLAND_DISPLAY"], !name.isEmpty else { return nil }
        if name.hasPrefix("/") { return name }
        guard let dir = env["XDG_RUNTIME_DIR"], !dir.isEmpty else { return nil }
        return dir + "/" + name
    }

    public init(socket: String, retryInitial: Double = 0.5, retryMaximum: Double = 10) {
        link = LibraryConnection(endpoint: socket, retry: ReconnectTimer(initial: retryInitial, maximum: retryMaximum))
    }

    deinit {
        link.cancel()
        disconnect()
    }

    public func start(on loop: FocusLoop, onChange: @escaping ([OutputRotation]?) -> Void, log: @escaping (String) -> Void) {
        report.onChange = onChange
        link.connect = { [unowned self] in connect() }
        link.start(on: loop, onChange: { _ in }, log: log, prefix: "rotation from wayland")
    }

    public func stop() {
        link.cancel()
        disconnect()
    }

    private var me: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    private static func source(_ data: UnsafeMutableRawPointer?) -> WaylandOutputSource {
        Unmanaged<WaylandOutputSource>.fromOpaque(data!).takeUnretainedValue()
    }

    private func connect() {
        if let why = gd_load_wayland() { return link.failed("cannot load libwayland-client (Debian: libwayland-client0): \(String(cString: why))") }
        guard let d = gd_wl_display_connect(link.endpoint) else { return link.failed("cannot connect to the Wayland compositor at \(link.endpoint)") }
        display = d
        guard link.opened(gd_wl_display_get_fd(d), readable: { [weak self] in self?.readable() }) else { return disconnect() }
        guard let r = gd_wl_get_registry(d) else { return lose("get_registry failed") }
        registry = r
        gd_wl_proxy_add_listener(r, Self.registryListener, me)
        if gd_wl_display_flush(d) < 0 { lose("cannot write to the compositor") }
    }

    /// libwayland's non-blocking read: what is queued is dispatched first, then the
    /// socket (readable: it does not block) is read and its events dispatched.
    private func readable() {
        guard let d = display else { return }
        while gd_wl_display_prepare_read(d) != 0 {
            if gd_wl_display_dispatch_pending(d) < 0 { return lose("a protocol error") }
        }
        if gd_wl_display_read_events(d) < 0 { return lose("the compositor closed the connection") }
        if gd_wl_display_dispatch_pending(d) < 0 { return lose("a protocol error") }
        if gd_wl_display_flush(d) < 0 { lose("cannot write to the compositor") }
    }

    private func lose(_ why: String) {
        disconnect()
        link.lost("lost \(link.endpoint): \(why)")
    }

    // MARK: The protocol

    /// Version 4 brings the output's `name` (`eDP-1`); older ones are named by number.
    static let outputVersion: UInt32 = 4
    /// Outputs bound at most: more than any desk has, few enough that a compositor
    /// announcing globals without end costs nothing.
    static let maxOutputs = 32

    private func global(_ name: UInt32, _ interface: String, _ version: UInt32) {
        guard interface == "wl_output", let r = registry, bound[name] == nil, bound.count < Self.maxOutputs,
              let proxy = gd_wl_bind_output(r, name, min(version, Self.outputVersion)) else { return }
        bound[name] = Output(proxy: proxy, name: "wl_output-\(name)")
        gd_wl_proxy_add_listener(proxy, Self.outputListener, me)
    }

    private func globalRemoved(_ name: UInt32) {
        guard let o = bound.removeValue(forKey: name) else { return }
        gd_wl_proxy_destroy(o.proxy)
        reportOutputs()
    }

    private func update(_ proxy: OpaquePointer?, _ change: (inout Output) -> Void) {
        guard let key = bound.first(where: { $0.value.proxy == proxy })?.key else { return }
        change(&bound[key]!)
    }

    private func reportOutputs() {
        report.report(bound.values.sorted { $0.name < $1.name }.map {
            // WL_OUTPUT_TRANSFORM_90 is 1 … 270 is 3; 4–7 are the same turns mirrored.
            OutputRotation(output: $0.name, degrees: Int($0.transform & 3) * 90)
        })
    }

    /// The listeners libwayland calls through, made once and never written again
    /// (nonisolated: only the loop's thread reads them, through libwayland).
    nonisolated(unsafe) private static let registryListener: UnsafeMutablePointer<(@convention(c) () -> Void)?> = {
        let l = UnsafeMutablePointer<gd_wl_registry_listener>.allocate(capacity: 1)
        l.initialize(to: gd_wl_registry_listener(
            global: { data, _, name, interface, version in
                source(data).global(name, interface.map { String(cString: $0) } ?? "", version)
            },
            global_remove: { data, _, name in source(data).globalRemoved(name) }))
        return UnsafeMutableRawPointer(l).assumingMemoryBound(to: (@convention(c) () -> Void)?.self)
    }()

    nonisolated(unsafe) private static let outputListener: UnsafeMutablePointer<(@convention(c) () -> Void)?> = {
        let l = UnsafeMutablePointer<gd_wl_output_listener>.allocate(capacity: 1)
        l.initialize(to: gd_wl_output_listener(
            geometry: { data, output, _, _, _, _, _, _, _, transform in source(data).update(output) { $0.transform = transform } },
            mode: { _, _, _, _, _, _ in },
            done: { data, _ in source(data).reportOutputs() },
            scale: { _, _, _ in },
            name: { data, output, name in
                guard let name else { return }
                source(data).update(output) { $0.name = String(String(cString: name).prefix(64)) }
            },
            description: { _, _, _ in }))
        return UnsafeMutableRawPointer(l).assumingMemoryBound(to: (@convention(c) () -> Void)?.self)
    }()

    private func disconnect() {
        link.closed()
        for o in bound.values { gd_wl_proxy_destroy(o.proxy) }
        bound.removeAll()
        if let r = registry { gd_wl_proxy_destroy(r) }
        registry = nil
        if let d = display { gd_wl_display_disconnect(d) }
        display = nil
    }
}
