import GestureEngine
import TouchModel

/// Checks of a loaded config against what only a real device reveals (`gestured
/// check` itself, its output and exit status, live in the command line).
public enum ConfigCheck {
    /// Problems only a real device reveals: a threshold larger than the surface, more
    /// fingers than it can report. For `gestured check`/`list-devices` and the daemon's
    /// log when a device appears.
    public static func warnings(for config: Config, device: DeviceInfo) -> [String] {
        var out: [String] = []
        let longest = max(device.size.width, device.size.height)
        for spec in config.specs where spec.devices.admits(device) {
            let prefix = "gesture '\(spec.name)' on '\(device.name)'"
            if spec.fingers.lowerBound > device.maxFingers {
                out.append("\(prefix): needs \(spec.fingers.lowerBound) fingers, the device reports at most \(device.maxFingers); it can never fire there")
            }
            if let d = spec.thresholds.minDistanceMM, d > longest {
                out.append("\(prefix): min-distance \(format(d))mm is longer than the device (\(format(device.size.width)) × \(format(device.size.height)) mm); it can never fire there")
            }
            if let z = spec.thresholds.edgeZoneMM, z * 2 > min(device.size.width, device.size.height) {
                out.append("\(prefix): edge-zone \(format(z))mm covers more than half of the screen")
            }
        }
        return out
    }
}
