import TouchModel

/// `evemu-record` / `evemu-describe` text: `#` comments, `N:` name, `I:` ids (hex),
/// `P:` property bytes, `B:` type + bitmask bytes (a type's mask continues over
/// successive lines), `A:` code min max fuzz flat [resolution], `E:` sec.usec type
/// code value. Description and events may share a file or come in two.
enum EvemuFormat {
    struct Parsed {
        var device: DeviceDescription?
        var events: [InputEvent]
    }

    static func parse(_ text: String, path: String) throws(RecordingError) -> Parsed {
        var name: String?
        var id = InputID()
        var properties = Set<UInt16>()
        var propertyByte = 0
        var codes: [UInt16: Set<UInt16>] = [:]
        var maskBytes: [UInt16: Int] = [:]
        var absinfo: [UInt16: AbsInfo] = [:]
        var events: [InputEvent] = []
        var lineNumber = 0
        var sawHeader = false

        func fail(_ message: String) -> RecordingError {
            RecordingError(path: path, line: lineNumber, message: message)
        }

        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            var line = rawLine
            if let hash = line.firstIndex(of: "#") { line = line[..<hash] }
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
            guard let tag = fields.first else { continue }
            let args = fields.dropFirst()
            switch tag {
            case "N:":
                let after = rawLine.drop(while: { $0 != ":" }).dropFirst()
                name = String(after.drop(while: { $0 == " " })).trimmingTrailingSpace()
                sawHeader = true
            case "I:":
                let v = args.compactMap { UInt16($0, radix: 16) }
                guard v.count == 4 else { throw fail("I: needs bustype, vendor, product and version in hex") }
                id = InputID(bustype: v[0], vendor: v[1], product: v[2], version: v[3])
            case "P:":
                for byte in args {
                    guard let b = UInt8(byte, radix: 16) else { throw fail("P: byte '\(byte)' is not hex") }
                    for bit in 0..<8 where b & (1 << bit) != 0 { properties.insert(UInt16(propertyByte * 8 + bit)) }
                    propertyByte += 1
                }
            case "B:":
                guard let type = args.first.flatMap({ UInt16($0, radix: 16) }), type <= EventType.max else {
                    throw fail("B: needs an event type in hex (00…1f)")
                }
                var index = maskBytes[type, default: 0]
                for byte in args.dropFirst() {
                    guard let b = UInt8(byte, radix: 16) else { throw fail("B: byte '\(byte)' is not hex") }
                    for bit in 0..<8 where b & (1 << bit) != 0 {
                        codes[type, default: []].insert(UInt16(index * 8 + bit))
                    }
                    index += 1
                    guard index <= 128 else { throw fail("B: bitmask for type \(type) is longer than any event type has") }
                }
                maskBytes[type] = index
            case "A:":
                let v = args.map { Int32($0) }
                guard let codeText = args.first, let code = UInt16(codeText, radix: 16), code <= AbsCode.max,
                      v.count >= 5, v.dropFirst().allSatisfy({ $0 != nil }) else {
                    throw fail("A: needs an axis code in hex (00…3f) then min max fuzz flat [resolution]")
                }
                absinfo[code] = AbsInfo(minimum: v[1]!, maximum: v[2]!, fuzz: v[3]!, flat: v[4]!,
                                        resolution: v.count > 5 ? v[5]! : 0)
            case "E:":
                guard args.count == 4 else { throw fail("E: needs time, type, code and value") }
                let a = Array(args)
                guard let time = parseTime(a[0]) else { throw fail("E: time '\(a[0])' is not seconds.microseconds") }
                guard let type = UInt16(a[1], radix: 16), let code = UInt16(a[2], radix: 16), let value = Int32(a[3]) else {
                    throw fail("E: type and code must be hex, value decimal")
                }
                events.append(InputEvent(time: time, type: type, code: code, value: value))
            case "S:", "L:":
                continue // "S:" and "L:" carry no events we use
            default:
                throw fail("unexpected '\(tag)': an evemu file has N:, I:, P:, B:, A: and E: lines")
            }
        }
        var device: DeviceDescription?
        if let name, sawHeader {
            // evemu lists the EV_ABS bits, but the absinfo lines are what make an axis usable.
            device = DeviceDescription(name: name, id: id, properties: properties, codes: codes, absinfo: absinfo)
        }
        return Parsed(device: device, events: events)
    }

    /// "1382570952.534113" → µs, without going through a Double (which would round).
    static func parseTime<S: StringProtocol>(_ s: S) -> Timestamp? {
        let parts = s.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let sec = Int64(parts[0]), parts[1].count <= 6,
              let frac = Int64(parts[1]), frac >= 0, sec >= 0, sec < Int64.max / 1_000_000 - 1 else { return nil }
        var us = frac
        for _ in parts[1].count..<6 { us *= 10 }
        return Timestamp(microseconds: sec * 1_000_000 + us)
    }
}

extension String {
    func trimmingTrailingSpace() -> String {
        var s = Substring(self)
        while let last = s.last, last == " " || last == "\t" || last == "\r" { s = s.dropLast() }
        return String(s)
    }
}
