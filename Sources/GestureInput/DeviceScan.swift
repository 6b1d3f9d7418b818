import TouchModel

/// What `list-devices` reports of one evdev node: used as a touchpad or touchscreen,
/// or not used and why.
public struct DeviceReport: Equatable, Sendable {
    public enum Status: Equatable, Sendable {
        case used(TouchCapabilities)
        case ignored(String)
        case unreadable(String)
    }
    public var path: String
    public var name: String
    public var status: Status
    /// The device's `LIBINPUT_CALIBRATION_MATRIX`, where udev gives one gestured uses.
    public var calibration: ContactTransform?
    /// Why the one udev gives is not used.
    public var calibrationProblem: String?

    public init(path: String, name: String, status: Status) {
        self.path = path
        self.name = name
        self.status = status
    }
}

public enum DeviceScan {
    /// Why gestured has no touch device, in `list-devices`' words (the live view says
    /// the same), or nil when one of `reports` is used.
    public static func noDeviceAdvice(_ reports: [DeviceReport]) -> [String]? {
        guard !reports.contains(where: { if case .used = $0.status { true } else { false } }) else { return nil }
        var lines: [String] = []
        if reports.isEmpty { lines.append("No input devices found (no /dev/input/event* nodes).") }
        lines.append("No touchpad or touchscreen is available to gestured.")
        if reports.isEmpty || reports.contains(where: { if case .unreadable = $0.status { true } else { false } }) {
            lines.append("If your machine has one, check that you may read it: add yourself to the input group")
            lines.append("  sudo usermod -aG input $USER")
            lines.append("then log out and in again (check with: id -nG | grep -w input).")
        }
        return lines
    }

    /// Opens every node once to describe it; nothing stays open.
    public static func scan(_ nodes: [Udev.Node]) -> [DeviceReport] {
        nodes.map { node in
            do throws(DeviceError) {
                let device = try EvdevDevice(path: node.path, udevProperties: node.properties)
                var report = DeviceReport(path: node.path, name: device.description.name,
                                          status: .used(device.decoder.capabilities))
                report.calibration = device.decoder.calibration.isIdentity ? nil : device.decoder.calibration
                report.calibrationProblem = device.decoder.calibrationProblem
                return report
            } catch {
                switch error {
                case .open:
                    return DeviceReport(path: node.path, name: node.properties["NAME"]?.trimmingQuotes() ?? "?",
                                        status: .unreadable(error.description))
                case .unsupported(_, let name, let reason):
                    return DeviceReport(path: node.path, name: name, status: .ignored(reason))
                }
            }
        }
    }
}

extension String {
    func trimmingQuotes() -> String {
        var s = Substring(self)
        if s.hasPrefix("\"") { s = s.dropFirst() }
        if s.hasSuffix("\"") { s = s.dropLast() }
        return String(s)
    }
}
