import DaemonCore
import DaemonLoop
import GestureActions
import GestureInput
import JSON
import PlainText
import TouchModel

/// `gestured list-devices [--json]`
enum ListDevicesCommand {
    static let help = """
    usage: gestured list-devices [--json] [--input-dir DIR]

    Lists every input device: the touchpads and touchscreens gestured uses, with
    their size in mm, slots, resolution and the most fingers they report, and for
    every other device why it is not used.

      --json           one JSON object per device, for scripts
      --input-dir DIR  where evdev nodes live when udev has no database (default /dev/input)

    Exit 0 even when no device is found.
    """

    static func run(_ args: ArraySlice<String>) throws -> GesturedCommand.ExitCode {
        let a = try Arguments(args, spec: .init(flags: ["json"], options: ["input-dir"]))
        guard a.positionals.isEmpty else { throw UsageError("unexpected argument '\(a.positionals[0])'") }
        let nodes = Udev().inputNodes(inputDir: a.option("input-dir") ?? "/dev/input")
        let reports = DeviceScan.scan(nodes).map(ownTouchDevices)
        if a.flag("json") {
            for r in reports { Output.out(json(r)) }
            return .success
        }
        Output.out(text(reports))
        return .success
    }

    static func text(_ reports: [DeviceReport]) -> String {
        var lines: [String] = []
        for r in reports {
            switch r.status {
            case .used(let caps):
                let size = caps.size
                lines.append("\(r.path.printable)  \(caps.kind.rawValue)  \"\(r.name.printable)\"")
                lines.append("    size \(size.width.fixed(1)) × \(size.height.fixed(1)) mm\(caps.resolutionIsEstimated ? " (estimated: the device reports no resolution)" : ""), "
                             + "resolution \(caps.xUnitsPerMM.fixed(1)) × \(caps.yUnitsPerMM.fixed(1)) units/mm, "
                             + "\(caps.slotCount) slot\(caps.slotCount == 1 ? "" : "s")\(protocolNote(caps.touchProtocol)), "
                             + "up to \(caps.maxFingers) finger\(caps.maxFingers == 1 ? "" : "s")\(caps.isClickpad ? ", clickpad" : "")")
                if let line = orientationLine(r, caps) { lines.append(line) }
            case .ignored(let reason):
                lines.append("\(r.path.printable)  not used  \"\(r.name.printable)\": \((ownReason(r) ?? reason).printable)")
            case .unreadable(let message):
                lines.append("\(r.path.printable)  unreadable: \(message.printable)")
            }
        }
        if var advice = DeviceScan.noDeviceAdvice(reports) {
            // The line about /dev/input stands above the blank one, as a device's line would.
            if reports.isEmpty { lines.append(advice.removeFirst()) }
            lines += [""] + advice
            lines.append("To see gestured work without a device: gestured replay Tests/Recordings/touchscreens_Atmel_maXTouch_Touchscreen.4-finger-drag-down.events --detect")
        }
        return lines.joined(separator: "\n")
    }

    /// How positions are turned onto the screen: the calibration udev gives, and (for
    /// touchscreens, which follow by default) the screen's rotation.
    static func orientationLine(_ r: DeviceReport, _ caps: TouchCapabilities) -> String? {
        var parts: [String] = []
        if let m = r.calibration { parts.append("\(TouchDecoder.calibrationProperty) \(m) from udev") }
        if let why = r.calibrationProblem { parts.append(why.printable) }
        if caps.kind == .touchscreen { parts.append("follows the screen's rotation (gestured status shows it)") }
        return parts.isEmpty ? nil : "    orientation: " + parts.joined(separator: "; ")
    }

    /// The copies of grabbed devices (`grab:`) and the virtual touchpad are touch
    /// devices, but gestured's output: not used, and why.
    static func ownTouchDevices(_ r: DeviceReport) -> DeviceReport {
        guard case .used = r.status else { return r }
        if CloneDevice.isClone(name: r.name) {
            return DeviceReport(path: r.path, name: r.name,
                                status: .ignored("gestured's copy of a grabbed device (grab:): the desktop reads it, gestured reads the device itself"))
        }
        if r.name == VirtualTouchpad.name {
            return DeviceReport(path: r.path, name: r.name,
                                status: .ignored("gestured's own virtual touchpad: it plays follow bindings here as the desktop's touchpad swipes (not read)"))
        }
        return r
    }

    /// gestured's own virtual device is output, never input: say so rather than "not a touch device".
    static func ownReason(_ r: DeviceReport) -> String? {
        r.name == VirtualDevice.name ? "gestured's own virtual device: it writes the keys, clicks and scrolls of built-in actions here" : nil
    }

    static func protocolNote(_ p: TouchProtocol) -> String {
        switch p {
        case .slots: return ""
        case .anonymous: return " (protocol A, through mtdev)"
        case .singleTouch: return " (single-touch)"
        }
    }

    static func json(_ r: DeviceReport) -> String {
        var fields: [(String, String)] = [("path", JSON.string(r.path)), ("name", JSON.string(r.name))]
        switch r.status {
        case .used(let caps):
            fields += [("used", "true"), ("type", JSON.string(caps.kind.rawValue)),
                       ("width_mm", JSON.number(caps.size.width, 1)), ("height_mm", JSON.number(caps.size.height, 1)),
                       ("size_estimated", caps.resolutionIsEstimated ? "true" : "false"),
                       ("x_resolution", JSON.number(caps.xUnitsPerMM, 2)), ("y_resolution", JSON.number(caps.yUnitsPerMM, 2)),
                       ("slots", String(caps.slotCount)), ("max_fingers", String(caps.maxFingers)),
                       ("clickpad", caps.isClickpad ? "true" : "false"),
                       ("calibration", r.calibration.map { JSON.string($0.description) } ?? "null")]
        case .ignored(let reason):
            fields += [("used", "false"), ("reason", JSON.string(ownReason(r) ?? reason))]
        case .unreadable(let message):
            fields += [("used", "false"), ("reason", JSON.string(message))]
        }
        return JSON.object(fields)
    }
}
