import PlainText
import TouchModel
import YAMLTree

/// `libinput record` YAML (file version 1): reads its first device's `evdev`
/// description, udev properties and `events`, and writes the same shape so a user's
/// `gestured record` file replays in libinput's tools and ours alike.
///
///     version: 1
///     ndevices: 1
///     devices:
///     - node: /dev/input/event5
///       evdev:
///         name: "SynPS/2 Synaptics TouchPad"
///         id: [17, 2, 7, 433]
///         codes: {0: [0, 1, 3], 1: [272, 325], 3: [0, 1, 47, 53, 54, 57]}
///         absinfo: {0: [1472, 5472, 0, 0, 60], 53: [1472, 5472, 0, 0, 60]}
///         properties: [0, 2]
///       udev: {properties: [ID_INPUT=1, ID_INPUT_TOUCHPAD=1]}
///       events:
///       - evdev:
///         - [  0,      0,   3,  57,   1] # sec, usec, type, code, value
enum LibinputRecordFormat {
    static func looksLike(_ text: String) -> Bool {
        for line in text.textLines.lazy.filter({ !$0.isEmpty }).prefix(20) {
            let l = line.drop(while: { $0 == " " })
            if l.hasPrefix("#") || l.isEmpty { continue }
            return l.hasPrefix("version:") || l.hasPrefix("ndevices:") || l.hasPrefix("libinput:") || l.hasPrefix("devices:")
        }
        return false
    }

    /// Where the events are: streamed, never held as one tree (903 MB for a 70 MB file).
    static let eventsPath: [YAMLPathComponent] = [.key("devices"), .index(0), .key("events")]

    /// Reads a whole file: every event group checked and counted, not kept, then the
    /// description (which may come before or after the events).
    static func scan(_ path: String) throws(RecordingError) -> Recording {
        let reader = try Reader(path)
        guard let first = try reader.next() else {
            throw RecordingError(path: path, line: nil, message: "no evdev events in the recording")
        }
        var count = 1
        while try reader.next() != nil { count += 1 }
        guard let root = reader.stream.root else {
            throw RecordingError(path: path, line: nil, message: "empty YAML document")
        }
        let device = try description(root, path: path)
        return Recording(path: path, device: device, events: RecordingEvents(source: .libinputRecord(path), count: count, first: first))
    }

    /// A file's events, a group (one frame) at a time.
    final class Reader {
        private let file: RecordingFile
        let stream: YAMLStream
        private var group: [InputEvent] = []
        private var index = 0

        init(_ path: String) throws(RecordingError) {
            file = try RecordingFile(path)
            stream = YAMLStream(fd: file.fd, fileKind: "a recording", streamed: LibinputRecordFormat.eventsPath)
        }

        func next() throws(RecordingError) -> InputEvent? {
            while index == group.count {
                group.removeAll(keepingCapacity: true)
                index = 0
                guard let node = stream.next() else {
                    if let problem = stream.problem {
                        throw RecordingError(path: file.path, line: problem.mark?.line, message: problem.message)
                    }
                    return nil
                }
                try LibinputRecordFormat.events(in: node, path: file.path, into: &group)
            }
            defer { index += 1 }
            return group[index]
        }
    }

    /// One item of `events:`: its `evdev:` rows (a `libinput:` item carries none).
    static func events(in group: YAMLNode, path: String, into out: inout [InputEvent]) throws(RecordingError) {
        guard let evs = group["evdev"], case .sequence(let rows) = evs.value else { return }
        for row in rows {
            guard let v = row.integers, v.count == 5, v[0] >= 0, v[0] <= EvemuFormat.maxSeconds, v[1] >= 0, v[1] < 1_000_000,
                  let type = UInt16(exactly: v[2]), let code = UInt16(exactly: v[3]), let value = Int32(exactly: v[4]) else {
                throw RecordingError(path: path, line: row.mark.line,
                                     message: "an evdev event must be [sec, usec, type, code, value]: sec 0…\(EvemuFormat.maxSeconds), "
                                        + "usec 0…999999, type and code 0…65535, value a 32-bit integer")
            }
            out.append(InputEvent(time: Timestamp(microseconds: v[0] * 1_000_000 + v[1]), type: type, code: code, value: value))
        }
    }

    /// The first device's `evdev:` and `udev:` description. Every number is checked
    /// for its range before it is converted.
    static func description(_ root: YAMLNode, path: String) throws(RecordingError) -> DeviceDescription {
        func fail(_ node: YAMLNode?, _ message: String) -> RecordingError {
            RecordingError(path: path, line: node?.mark.line, message: message)
        }
        guard let devices = root["devices"], case .sequence(let list) = devices.value, let dev = list.first else {
            throw fail(root, "no 'devices:' list: not a libinput record file")
        }
        guard let evdev = dev["evdev"] else { throw fail(dev, "device has no 'evdev:' description") }
        let name = evdev["name"]?.scalar ?? "unnamed device"
        var id = InputID()
        if let node = evdev["id"] {
            guard let ids = node.integers, ids.count == 4, ids.allSatisfy({ UInt16(exactly: $0) != nil }) else {
                throw fail(node, "id: must be [bustype, vendor, product, version], each 0…65535")
            }
            id = InputID(bustype: UInt16(ids[0]), vendor: UInt16(ids[1]), product: UInt16(ids[2]), version: UInt16(ids[3]))
        }
        var codes: [UInt16: Set<UInt16>] = [:]
        if let node = evdev["codes"], case .mapping(let entries) = node.value {
            for (keyNode, value) in entries {
                let key = keyNode.scalar ?? ""
                guard let type = UInt16(key), type <= EventType.max, let list = value.integers,
                      list.allSatisfy({ $0 >= 0 && $0 <= KeyCode.max }) else {
                    throw fail(value, "codes: '\(key)' must map an event type (0…31) to a list of codes (0…\(KeyCode.max))")
                }
                codes[type] = Set(list.map { UInt16($0) })
            }
        }
        var absinfo: [UInt16: AbsInfo] = [:]
        if let node = evdev["absinfo"], case .mapping(let entries) = node.value {
            for (keyNode, value) in entries {
                let key = keyNode.scalar ?? ""
                guard let code = UInt16(key), code <= AbsCode.max, let v = value.integers, v.count >= 4, v.count <= 5,
                      v.allSatisfy({ Int32(exactly: $0) != nil }) else {
                    throw fail(value, "absinfo: '\(key)' must be an axis (0…63): [min, max, fuzz, flat, resolution], 32-bit integers")
                }
                absinfo[code] = AbsInfo(minimum: Int32(v[0]), maximum: Int32(v[1]), fuzz: Int32(v[2]), flat: Int32(v[3]),
                                        resolution: v.count > 4 ? Int32(v[4]) : 0)
            }
        }
        var properties = Set<UInt16>()
        if let node = evdev["properties"] {
            guard let list = node.integers, list.allSatisfy({ $0 >= 0 && $0 <= InputProperty.max }) else {
                throw fail(node, "properties: must be a list of INPUT_PROP_* numbers (0…\(InputProperty.max))")
            }
            properties = Set(list.map { UInt16($0) })
        }
        var udev: [String: String] = [:]
        if let props = dev["udev"]?["properties"], case .sequence(let items) = props.value {
            for item in items {
                guard let s = item.scalar, let eq = s.firstIndex(of: "=") else { continue }
                udev[String(s[..<eq])] = String(s[s.index(after: eq)...])
            }
        }
        return DeviceDescription(name: name, id: id, properties: properties, codes: codes, absinfo: absinfo, udevProperties: udev)
    }

    /// The header of a `libinput record`-compatible file, up to `events:`.
    static func header(for d: DeviceDescription, node: String) -> String {
        var s = "version: 1\nndevices: 1\nlibinput:\n  version: \"gestured\"\n  git: \"unknown\"\n"
        s += "devices:\n- node: \(node)\n  evdev:\n"
        s += "    # Name: \(d.name.printable)\n"
        s += "    name: \(d.name.quoted)\n"
        s += "    id: [\(d.id.bustype), \(d.id.vendor), \(d.id.product), \(d.id.version)]\n"
        s += "    codes:\n"
        for type in d.codes.keys.sorted() {
            s += "      \(type): [\(d.codes[type]!.sorted().map(String.init).joined(separator: ", "))]\n"
        }
        s += "    absinfo:\n"
        for code in d.absinfo.keys.sorted() {
            let a = d.absinfo[code]!
            s += "      \(code): [\(a.minimum), \(a.maximum), \(a.fuzz), \(a.flat), \(a.resolution)]\n"
        }
        s += "    properties: [\(d.properties.sorted().map(String.init).joined(separator: ", "))]\n"
        if !d.udevProperties.isEmpty {
            s += "  udev:\n    properties:\n"
            for key in d.udevProperties.keys.sorted() { s += "    - \((key + "=" + d.udevProperties[key]!).quoted)\n" }
        }
        s += "  events:\n"
        return s
    }

    /// One frame's events (up to and including its SYN_REPORT) as an `- evdev:` group,
    /// times relative to the recording's start as libinput writes them.
    static func group(_ events: ArraySlice<InputEvent>, since start: Timestamp) -> String {
        var s = "  - evdev:\n"
        for e in events {
            let t = max(0, e.time.microseconds - start.microseconds)
            s += "    - [\(pad(t / 1_000_000, 3)), \(pad(t % 1_000_000, 6)), \(pad(Int64(e.type), 3)), \(pad(Int64(e.code), 3)), \(pad(Int64(e.value), 6))]\n"
        }
        return s
    }

    private static func pad(_ v: Int64, _ width: Int) -> String {
        let s = String(v)
        return s.count >= width ? s : String(repeating: " ", count: width - s.count) + s
    }
}
