import DaemonLoop
import JSON
import TouchModel

/// The stream's lines read back into the engine's values, so that `gestured ui` can run
/// an engine of its own (try, record) on what the daemon streams: a `frame` line holds
/// everything a `TouchFrame` does (`t_us` exact, positions in mm and normalized).
package enum StreamReading {
    package static func number(_ v: JSONValue?) -> Double? {
        if case .number(let d)? = v { return d }
        return nil
    }

    /// A `device` line's device, or one of `hello`'s `devices`: its path and what an engine needs.
    package static func device(_ v: JSONValue) -> (path: String, info: DeviceInfo)? {
        guard let path = v["path"]?.string, let name = v["name"]?.string,
              let kind = v["kind"]?.string.flatMap(DeviceKind.init(rawValue:)),
              let w = number(v["width_mm"]), let h = number(v["height_mm"]), w > 0, h > 0 else { return nil }
        let slots = number(v["slots"]).map { Int(max(1, min(10, $0))) } ?? 5
        return (path, DeviceInfo(name: name, kind: kind, size: Size(width: w, height: h),
                                 sizeIsEstimated: v["size_estimated"]?.bool ?? false, maxFingers: slots))
    }

    /// A `frame` line as the decoder made it. Hostile or broken lines give nil.
    package static func frame(_ v: JSONValue) -> (device: String, frame: TouchFrame)? {
        guard let device = v["device"]?.string, let us = number(v["t_us"]), us.isFinite, abs(us) < 9e18,
              let fingers = number(v["fingers"]), (0...10).contains(fingers), let list = v["contacts"]?.array,
              list.count <= 10 else { return nil }
        var contacts: [Contact] = []
        for c in list {
            guard let id = number(c["id"]), abs(id) < 2e9, let x = number(c["x"]), let y = number(c["y"]) else { return nil }
            contacts.append(Contact(id: Int32(id), slot: Int32(clamping: Int(number(c["slot"]) ?? 0)), position: Point(x: x, y: y),
                                    normalized: Point(x: number(c["nx"]) ?? 0, y: number(c["ny"]) ?? 0),
                                    majorMM: number(c["major"]) ?? 0))
        }
        var flags: TouchFrame.Flags = []
        for f in v["flags"]?.array ?? [] {
            if f.string == "resynced" { flags.insert(.resynced) }
            if f.string == "button" { flags.insert(.buttonDown) }
        }
        return (device, TouchFrame(time: Timestamp(microseconds: Int64(us)), contacts: ContactList(contacts),
                                   fingerCount: Int(fingers), flags: flags))
    }
}
