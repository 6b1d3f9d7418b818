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
