/// A small JSON reader for the compositors' IPC replies (sway/i3 trees and events,
/// Hyprland's `j/activewindow`). Foundation's JSONSerialization would link ICU into a
/// static binary (+45 MB); this reads RFC 8259 into a value tree, bounded in depth so
/// a hostile peer cannot overflow the stack, and never traps on malformed input.
///
/// A value tree costs ~30 times its text (a 16 MiB GET_TREE took the daemon from 12
/// to 503 MB), so a source says what it needs (`Limits`): the keys it reads (every
/// other member is checked and skipped, never built), how much of a string it keeps,
/// and how many values it may build at most; the text is read in place, not copied.
public enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Deepest nesting accepted (sway's trees are about 10 deep).
    public static let maxDepth = 256

    public struct Limits: Sendable {
        /// The object members built (nil: all); the others are skipped.
        public var keys: Set<String>?
        /// Longer strings are cut to this many scalars.
        public var maxStringScalars: Int
        /// A document that would build more values than this is refused (nil).
        public var maxValues: Int

        public init(keys: Set<String>? = nil, maxStringScalars: Int = .max, maxValues: Int = .max) {
            self.keys = keys
            self.maxStringScalars = maxStringScalars
            self.maxValues = maxValues
        }

        public static let unlimited = Limits()
    }

    /// Parses a whole document; nil if it is not valid JSON (or nests too deep, or
    /// needs more values than `limits` allows).
    public static func parse(_ bytes: some Collection<UInt8>, limits: Limits = .unlimited) -> JSONValue? {
        func read(_ buffer: UnsafeBufferPointer<UInt8>) -> JSONValue? {
            var reader = Reader(bytes: buffer, limits: limits)
            guard let value = reader.value(depth: 0, keep: true) else { return nil }
            reader.skipSpace()
            return reader.at == buffer.count ? value : nil
        }
        if let v = bytes.withContiguousStorageIfAvailable(read) { return v }
        return Array(bytes).withUnsafeBufferPointer(read)
    }

    public subscript(key: String) -> JSONValue? {
        if case .object(let o) = self { return o[key] }
        return nil
    }

    public var string: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    public var number: Double? {
        if case .number(let n) = self { return n }
        return nil
    }

    public var bool: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    public var array: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// One grammar for what is built and what is only checked: `keep: false` reads a
    /// value to its end and returns `.null` for it, building nothing.
    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        let limits: Limits
        var at = 0
        var built = 0

        init(bytes: UnsafeBufferPointer<UInt8>, limits: Limits) {
            self.bytes = bytes
            self.limits = limits
        }

        mutating func skipSpace() {
            while at < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[at]) { at += 1 }
        }

        mutating func value(depth: Int, keep: Bool) -> JSONValue? {
            guard depth < JSONValue.maxDepth else { return nil }
            if keep {
                built += 1
                guard built <= limits.maxValues else { return nil }
            }
            skipSpace()
            guard at < bytes.count else { return nil }
            switch bytes[at] {
            case UInt8(ascii: "{"): return object(depth: depth, keep: keep)
            case UInt8(ascii: "["): return array(depth: depth, keep: keep)
            case UInt8(ascii: "\""): return string(keep: keep).map { keep ? .string($0) : .null }
            case UInt8(ascii: "t"): return literal("true", .bool(true))
            case UInt8(ascii: "f"): return literal("false", .bool(false))
            case UInt8(ascii: "n"): return literal("null", .null)
            default: return number()
            }
        }

        mutating func literal(_ word: StaticString, _ v: JSONValue) -> JSONValue? {
            let n = word.utf8CodeUnitCount
            guard at + n <= bytes.count, UnsafeBufferPointer(start: word.utf8Start, count: n).elementsEqual(bytes[at..<at + n]) else { return nil }
            at += n
            return v
        }

        mutating func object(depth: Int, keep: Bool) -> JSONValue? {
            at += 1
            var out: [String: JSONValue] = [:]
            skipSpace()
            if at < bytes.count, bytes[at] == UInt8(ascii: "}") { at += 1; return keep ? .object(out) : .null }
            while true {
                skipSpace()
                guard at < bytes.count, bytes[at] == UInt8(ascii: "\""), let key = string(keep: keep) else { return nil }
                skipSpace()
                guard at < bytes.count, bytes[at] == UInt8(ascii: ":") else { return nil }
                at += 1
                let wanted = keep && (limits.keys?.contains(key) ?? true)
                guard let v = value(depth: depth + 1, keep: wanted) else { return nil }
                if wanted { out[key] = v }
                skipSpace()
                guard at < bytes.count else { return nil }
                if bytes[at] == UInt8(ascii: ",") { at += 1; continue }
                if bytes[at] == UInt8(ascii: "}") { at += 1; return keep ? .object(out) : .null }
                return nil
            }
        }

        mutating func array(depth: Int, keep: Bool) -> JSONValue? {
            at += 1
            var out: [JSONValue] = []
            skipSpace()
            if at < bytes.count, bytes[at] == UInt8(ascii: "]") { at += 1; return keep ? .array(out) : .null }
            while true {
                guard let v = value(depth: depth + 1, keep: keep) else { return nil }
                if keep { out.append(v) }
                skipSpace()
                guard at < bytes.count else { return nil }
                if bytes[at] == UInt8(ascii: ",") { at += 1; continue }
                if bytes[at] == UInt8(ascii: "]") { at += 1; return keep ? .array(out) : .null }
                return nil
            }
        }

        /// A string at `at` (which is a quote); escapes decoded, surrogate pairs joined,
        /// cut to `maxStringScalars`. Not kept: checked only, and "" returned.
        mutating func string(keep: Bool) -> String? {
            at += 1
            var scalars = String.UnicodeScalarView()
            var run: [UInt8] = []
            let cap = keep ? limits.maxStringScalars : 0
            var kept = 0
            func append(_ c: Unicode.Scalar) {
                guard kept < cap else { return }
                scalars.append(c)
                kept += 1
            }
            func flush() {
                guard !run.isEmpty else { return }
                for c in String(decoding: run, as: UTF8.self).unicodeScalars { append(c) }
                run.removeAll(keepingCapacity: true)
            }
            while at < bytes.count {
                let c = bytes[at]
                at += 1
                switch c {
                case UInt8(ascii: "\""):
                    flush()
                    return String(scalars)
                case UInt8(ascii: "\\"):
                    flush()
                    guard at < bytes.count else { return nil }
                    let e = bytes[at]
                    at += 1
                    switch e {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): append(Unicode.Scalar(e))
                    case UInt8(ascii: "b"): append("\u{8}")
                    case UInt8(ascii: "f"): append("\u{C}")
                    case UInt8(ascii: "n"): append("\n")
                    case UInt8(ascii: "r"): append("\r")
                    case UInt8(ascii: "t"): append("\t")
                    case UInt8(ascii: "u"):
                        guard var code = hex4() else { return nil }
                        if (0xD800..<0xDC00).contains(code), at + 1 < bytes.count,
                           bytes[at] == UInt8(ascii: "\\"), bytes[at + 1] == UInt8(ascii: "u") {
                            at += 2
                            guard let low = hex4(), (0xDC00..<0xE000).contains(low) else { return nil }
                            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        }
                        append(Unicode.Scalar(code) ?? "\u{FFFD}")
                    default: return nil
                    }
                case 0..<0x20:
                    return nil
                default:
                    // Bytes past the cap are checked only. A run is decoded in pieces of
                    // about 4 KiB, each cut before a character's first byte, never inside one.
                    guard kept < cap else { continue }
                    if run.count >= 4096, c & 0xC0 != 0x80 { flush() }
                    run.append(c)
                }
            }
            return nil
        }

        mutating func hex4() -> UInt32? {
            guard at + 4 <= bytes.count else { return nil }
            var v: UInt32 = 0
            for _ in 0..<4 {
                let c = bytes[at]
                at += 1
                switch c {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): v = v << 4 | UInt32(c - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): v = v << 4 | UInt32(c - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): v = v << 4 | UInt32(c - UInt8(ascii: "A") + 10)
                default: return nil
                }
            }
            return v
        }

        mutating func number() -> JSONValue? {
            let start = at
            while at < bytes.count, "+-0123456789.eE".utf8.contains(bytes[at]) { at += 1 }
            guard at > start, let d = Double(String(decoding: bytes[start..<at], as: UTF8.self)) else { return nil }
            return .number(d)
        }
    }
}
