import GestureEngine
import Glibc
import TouchModel

/// `gestured check`: what it prints and how it exits, so the command line only wires it up.
public enum ConfigCheck {
    /// Exit status when the config has errors (0 when clean or only warnings).
    public static let failureStatus: Int32 = 1

    /// Loads the config the daemon would load, writes every diagnostic and a summary
    /// line to `write`, and returns the exit status.
    public static func run(explicit: String?, environment: [String: String], uid: uid_t = getuid(),
                           write: (String) -> Void) -> Int32 {
        let source = resolveConfigPath(explicit: explicit, environment: environment)
        let (config, diagnostics) = ConfigLoader.load(source, uid: uid)
        for d in diagnostics { write(d.description) }
        let name: String
        switch source {
        case .file(let path): name = path
        case .builtIn:
            name = ConfigLoader.builtInName
            write("no config file at \(configSearchPath(environment: environment).joined(separator: " or ")); checking the built-in default")
        }
        let errors = diagnostics.count { $0.isError }, warnings = diagnostics.count - errors
        guard let config else {
            write("\(name): \(plural(errors, "error")), \(plural(warnings, "warning"))")
            return failureStatus
        }
        write("\(name): OK, \(plural(config.specs.count, "gesture"))\(warnings > 0 ? ", \(plural(warnings, "warning"))" : "")")
        return 0
    }

    /// Problems only a real device reveals: a threshold larger than the surface, more
    /// fingers than it can report. For `gestured check`/`list-devices` and the daemon's
    /// log when a device appears.
    public static func warnings(for config: Config, device: DeviceInfo) -> [String] {
        var out: [String] = []
        let longest = max(device.size.width, device.size.height)
        for spec in config.specs where applies(spec.devices, to: device) {
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

    static func applies(_ filter: DeviceFilter, to device: DeviceInfo) -> Bool {
        if let kind = filter.kind, kind != device.kind { return false }
        if let glob = filter.nameGlob { return fnmatch(glob, device.name, 0) == 0 }
        return true
    }

    private static func plural(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
}
