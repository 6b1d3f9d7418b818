import PlainText

/// JSON written straight into a reused byte buffer: the event stream's lines cost no
/// string building (a frame line at 60 Hz, a gesture line per frame), so once the buffer
/// has grown to a line's size, writing one allocates nothing. Each value is written
/// with one capacity check and plain stores (an `Array` append asks the runtime
/// whether the array is shared at every byte, which showed in the profile). A copy is
/// a value, as an array is: a shared buffer is copied when the next line begins.
///
/// Strings are escaped as `String.quoted` escapes them (TouchModel/Escaping.swift):
/// every control character, DEL, C1, U+2028/2029 and U+FEFF as `\u00XX`-style
/// escapes, so a hostile device or gesture name stays inert in any reader. Numbers
/// round as `Double.fixed` does (half away from zero), so a value reads the same here
/// as in `replay --json`.
package struct JSONBytes {
    /// The bytes' owner; replaced (never resized) when it must grow.
    private final class Storage {
        let base: UnsafeMutablePointer<UInt8>
        let capacity: Int
        init(capacity: Int) {
            self.capacity = capacity
            base = .allocate(capacity: capacity)
        }
        deinit { base.deallocate() }
    }

    private var storage: Storage
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    package private(set) var count = 0

    package init(capacity: Int = 4096) {
        storage = Storage(capacity: capacity)
        base = storage.base
        self.capacity = capacity
    }

    /// The lines written so far (a copy).
    package var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    /// Lends the lines written so far without copying them.
    package func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try withExtendedLifetime(storage) { try body(UnsafeBufferPointer(start: base, count: count)) }
    }

    package mutating func removeAll() {
        count = 0
        unshare()
    }

    /// Room for `n` more bytes.
    @inline(__always)
    private mutating func reserve(_ n: Int) {
        if count + n > capacity { grow(n) }
    }

    private mutating func grow(_ n: Int) {
        let bigger = Storage(capacity: max(2 * capacity, count + n))
        bigger.base.update(from: base, count: count)
        storage = bigger
        base = bigger.base
        capacity = bigger.capacity
    }

    /// A copy of this value made since the last line shares its storage: it gets its own.
    private mutating func unshare() {
        if !isKnownUniquelyReferenced(&storage) { grow(0) }
    }

    @inline(__always)
    private mutating func put(_ b: UInt8) {
        base[count] = b
        count += 1
    }

    private mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) {
        reserve(bytes.count)
        if let from = bytes.baseAddress { (base + count).update(from: from, count: bytes.count) }
        count += bytes.count
    }

    // MARK: Structure

    /// `{"type":"NAME"`: every line starts so; `end()` closes it.
    package mutating func begin(type: StaticString) {
        unshare()
        raw("{\"type\":\"")
        raw(type)
        byte("\"")
    }

    /// `}` and the newline that ends a line.
    package mutating func end() {
        reserve(2)
        put(UInt8(ascii: "}"))
        put(UInt8(ascii: "\n"))
    }

    /// Takes back the `}` and newline of the line just ended, to add keys to it.
    package mutating func reopen() {
        guard count >= 2, base[count - 2] == UInt8(ascii: "}"), base[count - 1] == UInt8(ascii: "\n") else { return }
        count -= 2
    }

    /// `,"KEY":` (keys are the encoder's own constants, never escaped).
    package mutating func key(_ k: StaticString) {
        reserve(k.utf8CodeUnitCount + 4)
        put(UInt8(ascii: ","))
        quotedKey(k)
    }

    /// `"KEY":` as the first member of a nested object (no comma).
    package mutating func firstKey(_ k: StaticString) {
        reserve(k.utf8CodeUnitCount + 3)
        quotedKey(k)
    }

    /// `"KEY":` into room already reserved, in one pass: a key is a few bytes, and a
    /// line has 10 to 30 of them (each went through four calls and two capacity checks).
    @inline(__always)
    private mutating func quotedKey(_ k: StaticString) {
        let from = k.utf8Start, to = base + count, n = k.utf8CodeUnitCount
        to[0] = UInt8(ascii: "\"")
        for i in 0..<n { to[i &+ 1] = from[i] }
        to[n &+ 1] = UInt8(ascii: "\"")
        to[n &+ 2] = UInt8(ascii: ":")
        count &+= n &+ 3
    }

    @inline(__always)
    package mutating func raw(_ s: StaticString) {
        s.withUTF8Buffer { put($0) }
    }

    package mutating func byte(_ c: Unicode.Scalar) {
        reserve(1)
        put(UInt8(truncatingIfNeeded: c.value))
    }

    // MARK: Values

    package mutating func null() { raw("null") }

    package mutating func bool(_ b: Bool) { b ? raw("true") : raw("false") }

    package mutating func string(_ s: String?) {
        guard var s else { return null() }
        byte("\"")
        // Most names and paths are plain ASCII: copied in one go.
        let plain = s.withUTF8 { utf8 -> Bool in
            guard !utf8.contains(where: { $0 < 0x20 || $0 >= 0x7f || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else { return false }
            put(utf8)
            return true
        }
        if !plain {
            for ch in s.unicodeScalars { escaped(ch) }
        }
        byte("\"")
    }

    /// A list of strings, `[]` when empty.
    package mutating func strings(_ list: some Sequence<String>) {
        byte("[")
        var first = true
        for s in list {
            if !first { byte(",") }
            first = false
            string(s)
        }
        byte("]")
    }

    package mutating func int(_ n: some BinaryInteger) { integer(Int64(n)) }

    /// Fixed-point, as `Double.fixed(decimals)`; not finite is `null`.
    package mutating func number(_ v: Double, _ decimals: Int) {
        guard v.isFinite else { return null() }
        var scale: UInt64 = 1
        for _ in 0..<decimals { scale &*= 10 }
        let scaled = abs(v) * Double(scale)
        guard scaled < 9.0e18 else {  // never a touch's value
            var text = String(v)
            return text.withUTF8 { put($0) }
        }
        // Rounded half away from zero, as `rounded()` (which is a call to libm's round
        // here): what follows the point, `scaled` less its whole part, is exact.
        let whole = UInt64(scaled)
        let n = scaled - Double(whole) >= 0.5 ? whole &+ 1 : whole
        if v < 0 && n != 0 { byte("-") }
        guard decimals > 0 else { return digits(n, minimum: 1) }
        // All the digits at once (at least one before the point), then the last
        // `decimals` of them moved one place on for the point.
        digits(n, minimum: decimals + 1)
        reserve(1)
        let point = count - decimals
        for i in stride(from: count, to: point, by: -1) { base[i] = base[i - 1] }
        base[point] = UInt8(ascii: ".")
        count += 1
    }

    /// Microseconds as seconds with six decimals, exactly (no floating point).
    package mutating func seconds(microseconds us: Int64) {
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
        // The width by comparisons (a division by 10 per digit here showed in the profile).
        var width = 1, power: UInt64 = 10
        while width < 20 && n >= power { width += 1; power &*= 10 }
        width = max(width, minimum)
        reserve(width)
        // From the last digit back, two at a time: one division by 100 for each pair.
        var at = count + width, v = n
        Self.pairs.withUTF8Buffer { pairs in
            while v >= 100 {
                let q = v / 100, r = Int(truncatingIfNeeded: v &- q &* 100) &* 2
                at &-= 2
                base[at] = pairs[r]
                base[at &+ 1] = pairs[r &+ 1]
                v = q
            }
            if v >= 10 {
                let r = Int(truncatingIfNeeded: v) &* 2
                at &-= 2
                base[at] = pairs[r]
                base[at &+ 1] = pairs[r &+ 1]
            } else {
                at &-= 1
                base[at] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: v)
            }
        }
        while at > count {
            at &-= 1
            base[at] = UInt8(ascii: "0")
        }
        count += width
    }

    /// "00", "01", … "99": the two digits of each number below 100.
    private static let pairs: StaticString = "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"

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
            reserve(4)
            hex.withUTF8Buffer { h in
                for shift in stride(from: 12, through: 0, by: -4) { put(h[Int((ch.value >> UInt32(shift)) & 0xf)]) }
            }
        default:
            let utf8 = UTF8.encode(ch)!
            reserve(utf8.count)
            for b in utf8 { put(b) }
        }
    }
}
