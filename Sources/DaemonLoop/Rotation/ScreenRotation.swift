import DesktopSession
import GestureConfig
import TouchModel

/// The screen's rotation for the daemon's devices (docs/INPUT.md, "Screen rotation"),
/// from the first that answers: the compositor's output transform (wl_output, sway,
/// RandR), else iio-sensor-proxy when `rotation: sensor: true`, else `rotation:
/// orientation:`. Its one hook into the daemon is `onChange`, after which the daemon
/// asks each session's orientation again.
package final class ScreenRotation {
    /// The compositor's sources, the first that has answered believed; or why this
    /// desktop has none.
    package let compositors: [any RotationSource]
    package let unavailable: String?
    package private(set) var settings: RotationSettings
    private var sensor: SensorProxySource?
    private let environment: [String: String]
    private weak var loop: EventLoop?
    private var logger: Logger?
    private var onChange: () -> Void = {}

    /// Where one device's rotation comes from, for the log and `gestured status`.
    package struct Choice: Equatable {
        package var orientation: Orientation
        /// "wayland output eDP-1", "randr output eDP-1", "iio-sensor-proxy", "config",
        /// "config (wayland: DP-1, DP-2, none built in: …)".
        package var source: String

        /// Nothing says the screen is turned: not worth a word per device in status.
        package static let unturned = Choice(orientation: .normal, source: "config")
    }

    package init(environment: [String: String], settings: RotationSettings) {
        self.environment = environment
        self.settings = settings
        switch RotationDetection.detect(environment) {
        case .sources(let s):
            compositors = s
            unavailable = nil
        case .none(let why):
            compositors = []
            unavailable = why
        }
    }

    package func start(on loop: EventLoop, logger: Logger, onChange: @escaping () -> Void) {
        self.loop = loop
        self.logger = logger
        self.onChange = onChange
        for c in compositors {
            logger.notice("screen rotation from \(c.name) at \(c.endpoint)")
            c.start(on: loop, onChange: { [unowned self] _ in self.onChange() }, log: { logger.info($0) })
        }
        if let unavailable { logger.info("screen rotation: \(unavailable)") }
        startSensor()
    }

    /// A reloaded config's `rotation:`: the sensor starts or stops with `sensor:`.
    package func update(_ new: RotationSettings) {
        let old = settings
        settings = new
        if new.sensor != old.sensor {
            if new.sensor { startSensor() } else { sensor?.stop(); sensor = nil }
        }
        onChange()
    }

    package func stop() {
        for c in compositors { c.stop() }
        sensor?.stop()
    }

    private func startSensor() {
        guard settings.sensor, sensor == nil, let loop, let logger else { return }
        let s = SensorProxySource(busAddress: SensorProxySource.systemBus(environment))
        sensor = s
        logger.notice("screen rotation: iio-sensor-proxy at \(s.endpoint) where the compositor does not say")
        s.start(on: loop, onChange: { [unowned self] _ in self.onChange() }, log: { logger.info($0) })
    }

    /// The rotation `device` takes now; nil when it does not follow the screen. When the
    /// compositor answered but no output is the touchscreen's, the fallback says why.
    package func choice(for device: DeviceInfo) -> Choice? {
        guard settings.follows(device) else { return nil }
        var unmapped: String?
        if let compositor = compositors.first(where: { $0.outputs != nil }), let outputs = compositor.outputs {
            let named = settings.output(for: device)
            if let o = Self.output(outputs, named: named), let orientation = Orientation(rawValue: o.degrees) {
                return Choice(orientation: orientation, source: "\(compositor.name) output \(o.output)")
            }
            unmapped = "\(compositor.name): " + Self.unmapped(outputs, named: named)
        }
        if let o = sensor?.outputs?.first, let orientation = Orientation(rawValue: o.degrees) {
            return Choice(orientation: orientation, source: "iio-sensor-proxy")
        }
        return Choice(orientation: settings.orientation, source: unmapped.map { "config (\($0))" } ?? "config")
    }

    /// The output a touchscreen shows on: the one named, else the built-in panel, else
    /// the only one; nil when that is not known.
    package static func output(_ outputs: [OutputRotation], named name: String?) -> OutputRotation? {
        if let name { return outputs.first { $0.output == name } }
        return outputs.first(where: \.isBuiltIn) ?? (outputs.count == 1 ? outputs[0] : nil)
    }

    /// Why `output` found none, for the log and status: what to write in the config.
    package static func unmapped(_ outputs: [OutputRotation], named name: String?) -> String {
        let names = outputs.map(\.output).joined(separator: ", ")
        if outputs.isEmpty { return "no output is on" }
        if let name { return "no output \(name) (it has \(names))" }
        return "\(names), none built in: name the touchscreen's in rotation: output:"
    }

    /// For `gestured status`: where the rotation comes from.
    package var statusLine: String {
        var parts: [String] = []
        for compositor in compositors {
            let outs = compositor.outputs.map { $0.isEmpty ? "no output is on" : $0.map { "\($0.output) \(Orientation(rawValue: $0.degrees)?.description ?? "?")" }.joined(separator: ", ") }
            parts.append("\(compositor.name) (\(outs ?? "not answered yet"))")
        }
        if let unavailable { parts.append("compositor: \(unavailable)") }
        if let sensor { parts.append("iio-sensor-proxy (\(sensor.outputs?.first.flatMap { Orientation(rawValue: $0.degrees) }?.description ?? "not answered yet"))") }
        parts.append("else \(settings.orientation)")
        return "screen rotation: " + parts.joined(separator: "; ")
    }
}
