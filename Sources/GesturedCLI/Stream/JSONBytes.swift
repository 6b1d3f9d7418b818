import TouchModel

/// JSON written straight into a reused byte buffer: the event stream's lines cost no
/// string building (a frame line at 60 Hz, a gesture line per frame), so once the buffer
/// has grown to a line's size, writing one allocates nothing. Strings are escaped as
/// `String.quoted` escapes them (TouchModel/Escaping.swift): every control character,
/// DEL, C1, U+2028/2029 and U+FEFF as `\u00XX`-style escapes, so a hostile device or
/// gesture name stays inert in any reader. Numbers round as `Double.fixed` does (half
/// away from zero), so a value reads the same here as in `replay --json`.
struct JSONBytes {
    var bytes: [UInt8] = []

    init(capacity: Int = 4096) { bytes.reserveCapacity(capacity) }

    mutating func removeAll() { bytes.removeAll(keepingCapacity: true) }

    // MARK: Structure

    /// `{"type":"NAME"`: every line starts so; `end()` closes it.
    mutating func begin(type: StaticString) {
        bytes.append(UInt8(ascii: "{"))
        raw("\"type\":\"")
        raw(type)
        bytes.append(UInt8(ascii: "\""))
    }

    /// `}` and the newline that ends a line.
    mutating func end() {
        bytes.append(UInt8(ascii: "}"))
        bytes.append(UInt8(ascii: "\n"))
    }

    /// `,"KEY":` (keys are the encoder's own constants, never escaped).
    mutating func key(_ k: StaticString) {
        bytes.append(UInt8(ascii: ","))
        bytes.append(UInt8(ascii: "\""))
        raw(k)
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    /// `"KEY":` as the first member of a nested object (no comma).
    mutating func firstKey(_ k: StaticString) {
        bytes.append(UInt8(ascii: "\""))
        raw(k)
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    mutating func raw(_ s: StaticString) {
        s.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func byte(_ c: Unicode.Scalar) { bytes.append(UInt8(c.value)) }

    // MARK: Values

    mutating func null() { raw("null") }

    mutating func bool(_ b: Bool) { b ? raw("true") : raw("false") }

    mutating func string(_ s: String?) {
        guard let s else { return null() }
        bytes.append(UInt8(ascii: "\""))
        for ch in s.unicodeScalars { escaped(ch) }
        bytes.append(UInt8(ascii: "\""))
    }

    /// A list of strings, `[]` when empty.
    mutating func strings(_ list: some Sequence<String>) {
        byte("[")
        var first = true
        for s in list {
            if !first { byte(",") }
            first = false
            string(s)
        }
        byte("]")
    }

    mutating func int(_ n: some BinaryInteger) { integer(Int64(n)) }

    /// Fixed-point, as `Double.fixed(decimals)`; not finite is `null`.
    mutating func number(_ v: Double, _ decimals: Int) {
        guard v.isFinite else { return null() }
        var scale: Int64 = 1
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(v) * Double(scale)).rounded()
        guard scaled < 9.0e18 else { return bytes.append(contentsOf: String(v).utf8) }  // never a touch's value
        let n = Int64(scaled)
        if v < 0 && n != 0 { byte("-") }
        digits(UInt64(n / scale), minimum: 1)
        guard decimals > 0 else { return }
        byte(".")
        digits(UInt64(n % scale), minimum: decimals)
    }

    /// Microseconds as seconds with six decimals, exactly (no floating point).
    mutating func seconds(microseconds us: Int64) {
        if us < 0 { byte("-") }
        let m = us.magnitude
        digits(m / 1_000_000, minimum: 1)
        byte(".")
        digits(m % 1_000_000, minimum: 6)
    }

    // MARK: Pieces

    private mutating func integer(_ n: Int64) {
        if n < 0 { byte("-") }
        digits(n.magnitude, minimum: 1)
    }

    /// The decimal digits of `n`, zero-padded on the left to `minimum`.
    private mutating func digits(_ n: UInt64, minimum: Int) {
        var count = 1, rest = n / 10
        while rest > 0 { count += 1; rest /= 10 }
        let width = max(count, minimum)
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: width))
        var v = n, i = start + width - 1
        while v > 0 {
            bytes[i] = UInt8(ascii: "0") + UInt8(v % 10)
            v /= 10
            i -= 1
        }
    }

    private mutating func escaped(_ ch: Unicode.Scalar) {
        switch ch {
        case "\"": raw("\\\"")
        case "\\": raw("\\\\")
        case "\t": raw("\\t")
        case "\n": raw("\\n")
        case "\r": raw("\\r")
        case _ where ch.needsEscape:
            raw("\\u")
            let hex: StaticString = "0123456789abcdef"
            hex.withUTF8Buffer { h in
                for shift in stride(from: 12, through: 0, by: -4) { bytes.append(h[Int((ch.value >> UInt32(shift)) & 0xf)]) }
            }
        default:
            let utf8 = UTF8.encode(ch)!
            bytes.append(contentsOf: utf8)
        }
    }
}
