import CYaml
import TouchModel

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
        for line in text.split(separator: "\n").prefix(20) {
            let l = line.drop(while: { $0 == " " })
            if l.hasPrefix("#") || l.isEmpty { continue }
            return l.hasPrefix("version:") || l.hasPrefix("ndevices:") || l.hasPrefix("libinput:") || l.hasPrefix("devices:")
        }
        return false
    }

    static func parse(_ text: String, path: String) throws(RecordingError) -> Recording {
        let root = try YAMLTree.parse(text, path: path)
        func fail(_ node: YAMLTree.Node?, _ message: String) -> RecordingError {
            RecordingError(path: path, line: node?.line, message: message)
        }
        guard let devices = root["devices"], case .sequence(let list) = devices.value, let dev = list.first else {
            throw fail(root, "no 'devices:' list: not a libinput record file")
        }
        guard let evdev = dev["evdev"] else { throw fail(dev, "device has no 'evdev:' description") }
        let name = evdev["name"]?.scalar ?? "unnamed device"
        var id = InputID()
        if let ids = evdev["id"]?.integers, ids.count == 4 {
            id = InputID(bustype: UInt16(truncatingIfNeeded: ids[0]), vendor: UInt16(truncatingIfNeeded: ids[1]),
                         product: UInt16(truncatingIfNeeded: ids[2]), version: UInt16(truncatingIfNeeded: ids[3]))
        }
        var codes: [UInt16: Set<UInt16>] = [:]
        if let node = evdev["codes"], case .mapping(let entries) = node.value {
            for (key, value) in entries {
                guard let type = UInt16(key), let list = value.integers else {
                    throw fail(value, "codes: '\(key)' must map an event type to a list of codes")
                }
                codes[type] = Set(list.compactMap { UInt16(exactly: $0) })
            }
        }
        var absinfo: [UInt16: AbsInfo] = [:]
        if let node = evdev["absinfo"], case .mapping(let entries) = node.value {
            for (key, value) in entries {
                guard let code = UInt16(key), code <= AbsCode.max, let v = value.integers, v.count >= 4,
                      v.allSatisfy({ Int32(exactly: $0) != nil }) else {
                    throw fail(value, "absinfo: '\(key)' must be [min, max, fuzz, flat, resolution]")
                }
                absinfo[code] = AbsInfo(minimum: Int32(v[0]), maximum: Int32(v[1]), fuzz: Int32(v[2]), flat: Int32(v[3]),
                                        resolution: v.count > 4 ? Int32(v[4]) : 0)
            }
        }
        let properties = Set((evdev["properties"]?.integers ?? []).compactMap { UInt16(exactly: $0) })
        var udev: [String: String] = [:]
        if let props = dev["udev"]?["properties"], case .sequence(let items) = props.value {
            for item in items {
                guard let s = item.scalar, let eq = s.firstIndex(of: "=") else { continue }
                udev[String(s[..<eq])] = String(s[s.index(after: eq)...])
            }
        }
        var events: [InputEvent] = []
        if let node = dev["events"], case .sequence(let groups) = node.value {
            for group in groups {
                guard let evs = group["evdev"], case .sequence(let rows) = evs.value else { continue }
                for row in rows {
                    guard let v = row.integers, v.count == 5, v[0] >= 0, v[1] >= 0, v[1] < 1_000_000,
                          v[0] < Int64.max / 1_000_000 - 1,
                          let type = UInt16(exactly: v[2]), let code = UInt16(exactly: v[3]), let value = Int32(exactly: v[4]) else {
                        throw fail(row, "an evdev event must be [sec, usec, type, code, value]")
                    }
                    events.append(InputEvent(time: Timestamp(microseconds: v[0] * 1_000_000 + v[1]),
                                             type: type, code: code, value: value))
                }
            }
        }
        guard !events.isEmpty else { throw fail(dev, "no evdev events in the recording") }
        let device = DeviceDescription(name: name, id: id, properties: properties, codes: codes,
                                       absinfo: absinfo, udevProperties: udev)
        return Recording(path: path, device: device, events: events)
    }

    /// The header of a `libinput record`-compatible file, up to `events:`.
    static func header(for d: DeviceDescription, node: String) -> String {
        var s = "version: 1\nndevices: 1\nlibinput:\n  version: \"gestured\"\n  git: \"unknown\"\n"
        s += "devices:\n- node: \(node)\n  evdev:\n"
        s += "    # Name: \(d.name)\n"
        s += "    name: \(quoted(d.name))\n"
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
            for key in d.udevProperties.keys.sorted() { s += "    - \(quoted(key + "=" + d.udevProperties[key]!))\n" }
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

    static func quoted(_ s: String) -> String {
        var out = "\""
        for ch in s.unicodeScalars {
            switch ch {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where ch.value < 0x20: out += "\\x" + (ch.value < 16 ? "0" : "") + String(ch.value, radix: 16)
            default: out.unicodeScalars.append(ch)
            }
        }
        return out + "\""
    }
}

/// A small YAML document tree over libyaml's event parser, with line numbers, for
/// reading recordings. Aliases are refused (recordings never use them) and depth and
/// size are bounded, so a hostile file cannot blow up memory.
enum YAMLTree {
    static let maxDepth = 64
    static let maxNodes = 20_000_000

    struct Node {
        enum Value {
            case scalar(String)
            case sequence([Node])
            case mapping([(String, Node)])
        }
        var value: Value
        var line: Int

        subscript(key: String) -> Node? {
            guard case .mapping(let entries) = value else { return nil }
            return entries.first(where: { $0.0 == key })?.1
        }
        var scalar: String? {
            if case .scalar(let s) = value { return s }
            return nil
        }
        /// A sequence of integer scalars.
        var integers: [Int64]? {
            guard case .sequence(let items) = value else { return nil }
            var out: [Int64] = []
            out.reserveCapacity(items.count)
            for item in items {
                guard let s = item.scalar, let v = Int64(s) else { return nil }
                out.append(v)
            }
            return out
        }
    }

    static func parse(_ text: String, path: String) throws(RecordingError) -> Node {
        // libyaml's parser stores pointers into itself: it must not move, so it lives on the heap.
        let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
        defer { parser.deallocate() }
        guard yaml_parser_initialize(parser) == 1 else {
            throw RecordingError(path: path, line: nil, message: "out of memory starting the YAML parser")
        }
        defer { yaml_parser_delete(parser) }
        var bytes = Array(text.utf8)
        return try bytes.withUnsafeMutableBufferPointer { (buffer) throws(RecordingError) -> Node in
            yaml_parser_set_input_string(parser, buffer.baseAddress, buffer.count)
            var builder = Builder(path: path)
            while true {
                var event = yaml_event_t()
                guard yaml_parser_parse(parser, &event) == 1 else {
                    let line = Int(parser.pointee.problem_mark.line) + 1
                    let problem = parser.pointee.problem.map { String(cString: $0) } ?? "malformed YAML"
                    throw RecordingError(path: path, line: line, message: problem)
                }
                defer { yaml_event_delete(&event) }
                if let root = try builder.take(event) { return root }
                if event.type == YAML_STREAM_END_EVENT {
                    throw RecordingError(path: path, line: nil, message: "empty YAML document")
                }
            }
        }
    }

    private struct Builder {
        let path: String
        var stack: [(node: Node, pendingKey: String?)] = []
        var count = 0

        init(path: String) { self.path = path }

        /// Consumes one event; returns the root once the first document is complete.
        mutating func take(_ e: yaml_event_t) throws(RecordingError) -> Node? {
            let line = Int(e.start_mark.line) + 1
            switch e.type {
            case YAML_SCALAR_EVENT:
                let s = String(decoding: UnsafeBufferPointer(start: e.data.scalar.value, count: e.data.scalar.length), as: UTF8.self)
                return try add(Node(value: .scalar(s), line: line), isScalar: true)
            case YAML_SEQUENCE_START_EVENT:
                try open(Node(value: .sequence([]), line: line))
            case YAML_MAPPING_START_EVENT:
                try open(Node(value: .mapping([]), line: line))
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                guard let done = stack.popLast() else { return nil }
                return try add(done.node, isScalar: false)
            case YAML_ALIAS_EVENT:
                throw RecordingError(path: path, line: line, message: "YAML aliases are not allowed in recordings")
            default:
                break
            }
            return nil
        }

        private mutating func open(_ node: Node) throws(RecordingError) {
            guard stack.count < YAMLTree.maxDepth else {
                throw RecordingError(path: path, line: node.line, message: "nested deeper than \(YAMLTree.maxDepth) levels")
            }
            stack.append((node, nil))
        }

        private mutating func add(_ node: Node, isScalar: Bool) throws(RecordingError) -> Node? {
            count += 1
            guard count <= YAMLTree.maxNodes else {
                throw RecordingError(path: path, line: node.line, message: "more than \(YAMLTree.maxNodes) YAML nodes")
            }
            guard !stack.isEmpty else { return node }
            let top = stack.count - 1
            switch stack[top].node.value {
            case .sequence(var items):
                stack[top].node.value = .scalar("") // release the array so the append does not copy it
                items.append(node)
                stack[top].node.value = .sequence(items)
            case .mapping(var entries):
                if let key = stack[top].pendingKey {
                    stack[top].node.value = .scalar("")
                    entries.append((key, node))
                    stack[top].node.value = .mapping(entries)
                    stack[top].pendingKey = nil
                } else {
                    guard isScalar, let key = node.scalar else {
                        throw RecordingError(path: path, line: node.line, message: "mapping keys must be plain scalars")
                    }
                    stack[top].pendingKey = key
                }
            case .scalar:
                break
            }
            return nil
        }
    }
}
