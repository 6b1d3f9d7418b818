import GestureTestSupport

/// Seeded mutations of recordings and configs: text-level, line-aware, aimed at the
/// places that crashed or hung before (issue 10): numbers at their limits, huge and
/// negative times, event codes out of range, very long lines, truncation, garbage
/// bytes, repeated blocks (many contacts in one frame, many gestures), YAML tags,
/// anchors and deep nesting.
struct Mutator {
    enum Kind: String, CaseIterable {
        case number, time, code, longLine, truncate, garbage, repeatBlock, contacts, deleteLines, swapLines, yaml
    }

    var rng: SplitMix64

    /// Numbers every parser must range-check (decimal, hex, floats, YAML specials).
    static let extremes = ["0", "-0", "-1", "1", "127", "128", "255", "256", "32767", "32768", "65535", "65536",
                           "2147483647", "2147483648", "-2147483648", "-2147483649", "4294967295", "4294967296",
                           "9223372036854775807", "9223372036854775808", "-9223372036854775809",
                           "18446744073709551615", "99999999999999999999999", "7fffffff", "80000000", "ffffffff",
                           "ffff", "10000", "1e-320", "1e-17", "1e308", "1e309", "-1e308", "1.0000000000000002",
                           ".nan", ".inf", "-.inf", "nan", "0x7fffffff", "0b1", "1_000", "+5", "00000000000000000001"]
    static let times = ["0.000000", "4294967295.999999", "4294967296.000000", "9223372036854.775807",
                        "9223372036854.775808", "-1.000000", "-0.000001", "1.9999999", "1.", ".5", "1e9.5",
                        "18446744073709551616.0", "0.-1", "1.000000.5"]
    static let hexCodes = ["0000", "0001", "0002", "0003", "001f", "0020", "002f", "0030", "0039", "003a", "003f",
                           "0040", "0080", "00ff", "0100", "014a", "02ff", "0300", "8000", "ffff", "10000", "-1"]
    static let decimalCodes = ["0", "1", "2", "3", "31", "32", "47", "48", "53", "57", "63", "64", "128", "255", "256",
                               "330", "767", "768", "32768", "65535", "65536", "-1"]
    static let garbageBytes: [UInt8] = [0x00, 0x1b, 0x0a, 0x0d, 0x09, 0x7f, 0xff, 0xfe, 0xc3, 0x80, 0x9b,
                                        0x5b, 0x5d, 0x7b, 0x7d, 0x3a, 0x26, 0x2a, 0x21, 0x7c, 0x3e, 0x23, 0x22, 0x27,
                                        0x2d, 0x20, 0x30, 0x31, 0x39, 0x45, 0x78]

    init(seed: UInt64) { rng = SplitMix64(seed: seed) }

    mutating func int(_ n: Int) -> Int { n <= 1 ? 0 : Int(rng.next() % UInt64(n)) }
    mutating func pick<T>(_ a: [T]) -> T { a[int(a.count)] }

    /// One to three mutations of `text`; returns the kinds applied, for the report.
    mutating func mutate(_ text: [UInt8], config: Bool) -> (bytes: [UInt8], kinds: [Kind]) {
        var lines = split(text)
        var kinds: [Kind] = []
        for _ in 0..<(1 + int(3)) {
            let kind = pick(Kind.allCases)
            kinds.append(kind)
            switch kind {
            case .number:
                let value = pick(Self.extremes)
                replaceToken(&lines, with: value, where: { $0.first.map(Mutator.isNumberStart) ?? false })
            case .time: time(&lines)
            case .code: code(&lines)
            case .longLine: longLine(&lines, config: config)
            case .truncate:
                var bytes = join(lines)
                bytes.removeSubrange(int(bytes.count + 1)...)
                lines = split(bytes)
            case .garbage:
                guard !lines.isEmpty else { continue }
                let i = int(lines.count)
                let at = int(lines[i].count + 1)
                lines[i].insert(contentsOf: (0..<(1 + int(64))).map { _ in pick(Self.garbageBytes) }, at: at)
            case .repeatBlock:
                guard !lines.isEmpty else { continue }
                let start = int(lines.count)
                let block = Array(lines[start..<min(lines.count, start + 1 + int(config ? 30 : 50))])
                let copies = 1 + int(config ? 100 : 200)
                lines.insert(contentsOf: (0..<copies).flatMap { _ in block }, at: start)
            case .contacts: contacts(&lines, config: config)
            case .deleteLines:
                guard !lines.isEmpty else { continue }
                let start = int(lines.count)
                lines.removeSubrange(start..<min(lines.count, start + 1 + int(10)))
            case .swapLines:
                guard lines.count > 1 else { continue }
                lines.swapAt(int(lines.count), int(lines.count))
            case .yaml: yaml(&lines)
            }
        }
        return (join(lines), kinds)
    }

    private static func isNumberStart(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || b == 0x2d || b == 0x2e
    }

    private func split(_ bytes: [UInt8]) -> [[UInt8]] {
        bytes.split(separator: 0x0a, omittingEmptySubsequences: false).map(Array.init)
    }

    private func join(_ lines: [[UInt8]]) -> [UInt8] {
        Array(lines.joined(separator: [0x0a]))
    }

    /// Tokens of a line: runs of characters other than space, tab, ',', '[', ']', ':'.
    private func tokens(_ line: [UInt8]) -> [Range<Int>] {
        var out: [Range<Int>] = []
        var start: Int?
        for (i, b) in line.enumerated() {
            let sep = b == 0x20 || b == 0x09 || b == 0x2c || b == 0x5b || b == 0x5d || b == 0x3a || b == 0x23
            if sep { if let s = start { out.append(s..<i); start = nil } } else if start == nil { start = i }
        }
        if let s = start { out.append(s..<line.count) }
        return out
    }

    /// Replaces a random matching token of a random line (up to 20 tries).
    private mutating func replaceToken(_ lines: inout [[UInt8]], with value: String, where ok: ([UInt8]) -> Bool,
                                       lineFilter: ([UInt8]) -> Bool = { _ in true }, index: Int? = nil) {
        guard !lines.isEmpty else { return }
        for _ in 0..<20 {
            let i = int(lines.count)
            guard lineFilter(lines[i]) else { continue }
            let candidates = tokens(lines[i]).filter { ok(Array(lines[i][$0])) }
            guard !candidates.isEmpty else { continue }
            let r = index.map { candidates[min($0, candidates.count - 1)] } ?? pick(candidates)
            lines[i].replaceSubrange(r, with: Array(value.utf8))
            return
        }
    }

    private static func starts(_ line: [UInt8], _ prefix: String) -> Bool {
        let p = Array(prefix.utf8)
        let trimmed = line.drop(while: { $0 == 0x20 })
        return trimmed.starts(with: p)
    }

    private mutating func time(_ lines: inout [[UInt8]]) {
        // evemu "E: sec.usec …" or a libinput row "- [sec, usec, …]".
        if lines.contains(where: { Self.starts($0, "E:") }) {
            let value = pick(Self.times)
            replaceToken(&lines, with: value, where: { $0.contains(0x2e) }, lineFilter: { Self.starts($0, "E:") })
        } else {
            let value = pick(Self.extremes), index = int(2)
            replaceToken(&lines, with: value, where: { $0 != [0x2d] }, lineFilter: { Self.starts($0, "- [") }, index: index)
        }
    }

    private mutating func code(_ lines: inout [[UInt8]]) {
        if lines.contains(where: { Self.starts($0, "E:") }) {
            let value = pick(Self.hexCodes), index = int(2)
            replaceToken(&lines, with: value, where: { !$0.contains(0x2e) && $0 != Array("E".utf8) },
                         lineFilter: { Self.starts($0, "E:") }, index: index)
        } else {
            let value = pick(Self.decimalCodes), index = 2 + int(2)
            replaceToken(&lines, with: value, where: { $0 != [0x2d] }, lineFilter: { Self.starts($0, "- [") }, index: index)
        }
    }

    private mutating func longLine(_ lines: inout [[UInt8]], config: Bool) {
        let n = pick([100, 1000, 9000, 20_000, 70_000, 200_000])
        let line: String
        if config {
            line = pick(["    command: " + String(repeating: "x", count: n),
                         "  - name: " + String(repeating: "n", count: n),
                         "    device-name: '" + String(repeating: "*a", count: n / 2) + "b'",
                         String(repeating: "[", count: min(n, 5000)) + String(repeating: "]", count: min(n, 5000))])
        } else {
            line = pick(["P: " + String(repeating: "ff ", count: n / 3), "N: " + String(repeating: "A", count: n),
                         "B: 01 " + String(repeating: "ff ", count: n / 3), "E: " + String(repeating: "1", count: n),
                         "    name: \"" + String(repeating: "\\e", count: n / 2) + "\"",
                         "    - [" + String(repeating: "1, ", count: n / 3) + "1]",
                         "P: " + String(repeating: "00 ", count: 8192) + "01"])
        }
        lines.insert(Array(line.utf8), at: int(lines.count + 1))
    }

    /// Many contacts in one frame: the protocol-A shape libmtdev hung on, or slots.
    private mutating func contacts(_ lines: inout [[UInt8]], config: Bool) {
        guard !config else { return repeatGestures(&lines) }
        let k = 1 + int(64)
        var block: [String] = []
        if lines.contains(where: { Self.starts($0, "E:") }) {
            for i in 0..<k {
                block += ["E: 1.000001 0003 0035 \(100 + i * 10)", "E: 1.000001 0003 0036 \(200 + i)"]
                if int(3) == 0 { block.append("E: 1.000001 0003 0030 \(int(300))") }
                if int(2) == 0 { block.append("E: 1.000001 0003 002f \(i)") }
                block.append(int(2) == 0 ? "E: 1.000001 0000 0002 0000" : "E: 1.000001 0003 0039 \(i)")
            }
        } else {
            for i in 0..<k {
                block += ["    - [  1,      1,   3,  53,  \(100 + i * 10)]", "    - [  1,      1,   3,  54,  \(200 + i)]",
                          int(2) == 0 ? "    - [  1,      1,   0,   2,   0]" : "    - [  1,      1,   3,  47,  \(i)]"]
            }
        }
        lines.insert(contentsOf: block.map { Array($0.utf8) }, at: int(lines.count + 1))
    }

    /// Configs: one gesture repeated (up to a few hundred gestures).
    private mutating func repeatGestures(_ lines: inout [[UInt8]]) {
        guard let start = lines.firstIndex(where: { Self.starts($0, "- name:") }) else { return }
        var end = start + 1
        while end < lines.count && !Self.starts(lines[end], "- ") && !lines[end].isEmpty { end += 1 }
        let block = Array(lines[start..<end])
        lines.insert(contentsOf: (0..<(1 + int(300))).flatMap { _ in block }, at: start)
    }

    private mutating func yaml(_ lines: inout [[UInt8]]) {
        guard !lines.isEmpty else { return }
        let i = int(lines.count)
        var line = lines[i]
        let colon = line.firstIndex(of: 0x3a)
        switch int(7) {
        case 0: if let c = colon { line.insert(contentsOf: Array(" !!binary".utf8), at: c + 1) }
        case 1: if let c = colon { line.insert(contentsOf: Array(" &anchor".utf8), at: c + 1) }
        case 2: if let c = colon { line = Array(line[...c]) + Array(" *anchor".utf8) }
        case 3: if let c = colon { line = Array(line[...c]) + Array(" ~".utf8) }
        case 4: line.insert(contentsOf: [UInt8](repeating: 0x20, count: 1 + int(8)), at: 0)
        case 5: if let c = colon { line = Array(line[...c]) + Array(" {a: [1, {b: c}], d: !!str 1}".utf8) }
        default: line = Array("---".utf8)
        }
        lines[i] = line
    }
}
