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
    public var endpoint: String { client.link.endpoint }
    public var outputs: [OutputRotation]? { report.outputs }

    /// By the registry's global name: the bound proxy, its name and its transform.
    private var bound: [UInt32: Output] = [:]
    private let client: WaylandClient
    private let report = RotationReport()

    private struct Output {
        var proxy: OpaquePointer
        var name: String
        var transform: Int32 = 0
    }

    /// The compositor's socket: `WAYLAND_DISPLAY` as a path, or under `XDG_RUNTIME_DIR`.
    public static func socket(_ env: [String: String]) -> String? { WaylandClient.socket(env) }

    public init(socket: String, retryInitial: Double = 0.5, retryMaximum: Double = 10) {
        client = WaylandClient(socket: socket, retry: ReconnectTimer(initial: retryInitial, maximum: retryMaximum))
        client.onGlobal = { [unowned self] in global($0, $1, $2) }
        client.onGlobalRemoved = { [unowned self] in globalRemoved($0) }
        client.onDisconnect = { [unowned self] in destroyOutputs() }
    }

    deinit {
        destroyOutputs()
        client.onDisconnect = {}  // self is going: nothing may reach it through the client
        client.stop()
    }

    public func start(on loop: FocusLoop, onChange: @escaping ([OutputRotation]?) -> Void, log: @escaping (String) -> Void) {
        report.onChange = onChange
        client.start(on: loop, onChange: { _ in }, log: log, prefix: "rotation from wayland")
    }

    public func stop() { client.stop() }

    private var me: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    private static func source(_ data: UnsafeMutableRawPointer?) -> WaylandOutputSource {
        Unmanaged<WaylandOutputSource>.fromOpaque(data!).takeUnretainedValue()
    }

    // MARK: The protocol

    /// Version 4 brings the output's `name` (`eDP-1`); older ones are named by number.
    static let outputVersion: UInt32 = 4
    /// Outputs bound at most: more than any desk has, few enough that a compositor
    /// announcing globals without end costs nothing.
    static let maxOutputs = 32

    private func global(_ name: UInt32, _ interface: String, _ version: UInt32) {
        guard interface == "wl_output", let r = client.registry, bound[name] == nil, bound.count < Self.maxOutputs,
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

    private func destroyOutputs() {
        for o in bound.values { gd_wl_proxy_destroy(o.proxy) }
        bound.removeAll()
    }

    private func reportOutputs() {
        report.report(bound.values.sorted { $0.name < $1.name }.map {
            // WL_OUTPUT_TRANSFORM_90 is 1 … 270 is 3; 4–7 are the same turns mirrored.
            OutputRotation(output: $0.name, degrees: Int($0.transform & 3) * 90)
        })
    }

    /// The listener libwayland calls through, made once and never written again
    /// (nonisolated: only the loop's thread reads it, through libwayland).
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
}
