import TouchModel

/// `evemu-record` / `evemu-describe` text: `#` comments, `N:` name, `I:` ids (hex),
/// `P:` property bytes, `B:` type + bitmask bytes (a type's mask continues over
/// successive lines), `A:` code min max fuzz flat [resolution], `E:` sec.usec type
/// code value. Description and events may share a file or come in two.
///
/// Read a line at a time. Every number is checked for its range before it is
/// converted: a recording is untrusted input (a `P:` bit past byte 8192 trapped).
struct EvemuFormat {
    /// Seconds in an `E:` time: a kernel timestamp fits 32 bits until 2106; larger
    /// ones are refused rather than overflow the microsecond arithmetic downstream.
    static let maxSeconds: Int64 = 0xffff_ffff

    private var name: String?
    private var id = InputID()
    private var properties = Set<UInt16>()
    private var propertyByte = 0
    private var codes: [UInt16: Set<UInt16>] = [:]
    private var maskBytes: [UInt16: Int] = [:]
    private var absinfo: [UInt16: AbsInfo] = [:]

    var device: DeviceDescription? {
        // evemu lists the EV_ABS bits, but the absinfo lines are what make an axis usable.
        name.map { DeviceDescription(name: $0, id: id, properties: properties, codes: codes, absinfo: absinfo) }
    }

    /// Reads a whole file: its description, and every event checked and counted, not kept.
    static func scan(_ path: String) throws(RecordingError) -> (device: DeviceDescription?, count: Int, first: InputEvent?) {
        let reader = try Reader(path)
        guard let first = try reader.next() else { return (reader.format.device, 0, nil) }
        var count = 1
        while try reader.next() != nil { count += 1 }
        return (reader.format.device, count, first)
    }

    /// A file's events, one at a time.
    final class Reader {
        private let file: RecordingFile
        private(set) var format = EvemuFormat()
        init(_ path: String) throws(RecordingError) { file = try RecordingFile(path) }

        func next() throws(RecordingError) -> InputEvent? {
            while let line = try file.nextLine() {
                if let e = try format.consume(line, at: file.lineNumber, path: file.path) { return e }
            }
            return nil
        }
    }

    /// One line: header lines update the description; an `E:` line is returned.
    mutating func consume(_ rawLine: Substring, at lineNumber: Int, path: String) throws(RecordingError) -> InputEvent? {
        func fail(_ message: String) -> RecordingError {
            RecordingError(path: path, line: lineNumber, message: message)
        }
        var line = rawLine
        if let hash = line.firstIndex(of: "#") { line = line[..<hash] }
        let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
        guard let tag = fields.first else { return nil }
        let args = fields.dropFirst()
        switch tag {
        case "E:":
            guard args.count == 4 else { throw fail("E: needs time, type, code and value") }
            let a = Array(args)
            guard let time = Self.parseTime(a[0]) else {
                throw fail("E: time '\(a[0])' is not seconds.microseconds (0 to \(Self.maxSeconds) s)")
            }
            guard let type = UInt16(a[1], radix: 16), let code = UInt16(a[2], radix: 16), let value = Int32(a[3]) else {
                throw fail("E: type and code must be hex (0…ffff), value a decimal 32-bit integer")
            }
            return InputEvent(time: time, type: type, code: code, value: value)
        case "N:":
            let after = rawLine.drop(while: { $0 != ":" }).dropFirst()
            name = String(after.drop(while: { $0 == " " })).trimmingTrailingSpace()
        case "I:":
            let v = args.compactMap { UInt16($0, radix: 16) }
            guard v.count == 4, args.count == 4 else { throw fail("I: needs bustype, vendor, product and version in hex (0…ffff)") }
            id = InputID(bustype: v[0], vendor: v[1], product: v[2], version: v[3])
        case "P:":
            for byte in args {
                guard let b = UInt8(byte, radix: 16) else { throw fail("P: byte '\(byte)' is not hex (00…ff)") }
                for bit in 0..<8 where b & (1 << bit) != 0 {
                    let property = propertyByte * 8 + bit
                    guard property <= Int(InputProperty.max) else {
                        throw fail("P: property bit \(property) is past INPUT_PROP_MAX (\(InputProperty.max))")
                    }
                    properties.insert(UInt16(property))
                }
                propertyByte += 1
            }
        case "B:":
            guard let type = args.first.flatMap({ UInt16($0, radix: 16) }), type <= EventType.max else {
                throw fail("B: needs an event type in hex (00…1f)")
            }
            var index = maskBytes[type, default: 0]
            for byte in args.dropFirst() {
                guard let b = UInt8(byte, radix: 16) else { throw fail("B: byte '\(byte)' is not hex (00…ff)") }
                guard index < 128 else { throw fail("B: bitmask for type \(type) is longer than any event type has") }
                for bit in 0..<8 where b & (1 << bit) != 0 {
                    codes[type, default: []].insert(UInt16(index * 8 + bit))
                }
                index += 1
            }
            maskBytes[type] = index
        case "A:":
            let v = args.map { Int32($0) }
            guard let codeText = args.first, let code = UInt16(codeText, radix: 16), code <= AbsCode.max,
                  v.count >= 5, v.count <= 6, v.dropFirst().allSatisfy({ $0 != nil }) else {
                throw fail("A: needs an axis code in hex (00…3f) then min max fuzz flat [resolution], 32-bit integers")
            }
            absinfo[code] = AbsInfo(minimum: v[1]!, maximum: v[2]!, fuzz: v[3]!, flat: v[4]!,
                                    resolution: v.count > 5 ? v[5]! : 0)
        case "S:", "L:":
            return nil // "S:" and "L:" carry no events we use
        default:
            throw fail("unexpected '\(tag)': an evemu file has N:, I:, P:, B:, A: and E: lines")
        }
        return nil
    }

    /// "1382570952.534113" → µs, without going through a Double (which would round).
    static func parseTime<S: StringProtocol>(_ s: S) -> Timestamp? {
        let parts = s.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count <= 10, let sec = Int64(parts[0]), parts[1].count <= 6,
              let frac = Int64(parts[1]), frac >= 0, sec >= 0, sec <= maxSeconds else { return nil }
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
