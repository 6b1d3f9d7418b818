/// A point or displacement in millimetres (or, for `Contact.normalized`, in 0…1 of
/// the device's range). +x is right, +y is down, as the kernel reports.
public struct Point: Hashable, Sendable {
    public var x: Double
    public var y: Double

    // Inlinable: the engine does this arithmetic per contact per frame, and across
    // the module boundary each was a call (and `zero` a lazy global's accessor).
    @inlinable public init(x: Double, y: Double) { self.x = x; self.y = y }
    @inlinable public static var zero: Point { Point(x: 0, y: 0) }

    @inlinable public static func + (a: Point, b: Point) -> Point { Point(x: a.x + b.x, y: a.y + b.y) }
    @inlinable public static func - (a: Point, b: Point) -> Point { Point(x: a.x - b.x, y: a.y - b.y) }
    @inlinable public static func * (a: Point, k: Double) -> Point { Point(x: a.x * k, y: a.y * k) }
    @inlinable public static func / (a: Point, k: Double) -> Point { Point(x: a.x / k, y: a.y / k) }

    /// Euclidean length, for displacements.
    @inlinable public var length: Double { (x * x + y * y).squareRoot() }
}

/// A width and height in millimetres.
public struct Size: Hashable, Sendable {
    public var width: Double
    public var height: Double
    @inlinable public init(width: Double, height: Double) { self.width = width; self.height = height }
    @inlinable public var diagonal: Double { (width * width + height * height).squareRoot() }
}

/// Pure-Swift trigonometry: the engine imports nothing but the standard library,
/// which has no `atan2`, `sin` or `cos`. Accurate to about 1e-9 rad, far below
/// what any touch sensor resolves.
public enum Angle {
    /// The angle of (x, y) from the +x axis in radians, in -π…π (C's `atan2(y, x)`).
    public static func atan2(_ y: Double, _ x: Double) -> Double {
        if x == 0 && y == 0 { return 0 }
        let ax = abs(x), ay = abs(y)
        // atan of the smaller over the larger ratio, in 0…π/4.
        let swap = ay > ax
        let r = swap ? ax / ay : ay / ax
        var a = atanUnit(r)
        if swap { a = .pi / 2 - a }
        if x < 0 { a = .pi - a }
        return y < 0 ? -a : a
    }

    /// atan(r) for r in 0…1: reduce to |t| ≤ tan(π/12) with atan(r) = π/6 + atan((r·√3 − 1)/(r + √3)) where needed, then
    /// the Taylor series t − t³/3 + t⁵/5 − … to t²³/23 (the first term left out is below 1e-14 there). Its
    /// coefficients are constants, the polynomial in t² taken as two chains in t⁴ (the even and the odd
    /// terms) that run side by side: the series as a loop of divisions made this the engine's costliest
    /// arithmetic (a tracked pair's rotation is one atan2 a frame).
    @inline(__always)
    private static func atanUnit(_ r: Double) -> Double {
        let sqrt3 = 1.7320508075688772
        var base = 0.0
        var t = r
        if t > 0.2679491924311227 { // tan(π/12)
            t = (t * sqrt3 - 1) / (t + sqrt3)
            base = .pi / 6
        }
        let t2 = t * t, t4 = t2 * t2
        // (−1)ᵏ / (2k + 1): k even …
        let even = ((((1.0 / 21 * t4 + 1.0 / 17) * t4 + 1.0 / 13) * t4 + 1.0 / 9) * t4 + 1.0 / 5) * t4 + 1
        // … and k odd.
        let odd = ((((-1.0 / 23 * t4 - 1.0 / 19) * t4 - 1.0 / 15) * t4 - 1.0 / 11) * t4 - 1.0 / 7) * t4 - 1.0 / 3
        return base + t * (even + t2 * odd)
    }

    /// Wraps an angle difference into -π…π.
    @inlinable public static func normalized(_ a: Double) -> Double {
        // The difference of two atan2 results is within -2π…2π: one step, no fmod.
        if a > .pi && a <= 3 * .pi { return a - 2 * .pi }
        if a < -.pi && a >= -3 * .pi { return a + 2 * .pi }
        if abs(a) <= .pi { return a }
        var a = a.truncatingRemainder(dividingBy: 2 * .pi)
        if a > .pi { a -= 2 * .pi } else if a < -.pi { a += 2 * .pi }
        return a
    }
}

/// Pure-Swift natural logarithm, as `Angle` is trigonometry: for a pinch's scale in
/// steps (`every: 1.25x` counts in log space), where neither the engine nor the daemon
/// core imports libm. Accurate to a few ulps over the positive doubles.
public enum Logarithm {
    /// ln(x) for x > 0 (0 or below: -infinity or NaN, as C's `log`).
    public static func natural(_ x: Double) -> Double {
        guard x > 0 else { return x == 0 ? -.infinity : .nan }
        guard x.isFinite else { return x }
        // x = m·2ᵉ with m in [√½, √2), then ln m = 2·atanh(s), s = (m − 1)/(m + 1),
        // |s| ≤ 0.1716: the series s + s³/3 + … to s²³/23 leaves under 1e-17.
        var m = x.significand
        var e = Double(x.exponent)
        if m > 1.4142135623730951 {
            m /= 2
            e += 1
        }
        let s = (m - 1) / (m + 1), s2 = s * s
        var sum = 0.0
        var k = 23.0
        while k >= 3 {
            sum = (sum + 1 / k) * s2
            k -= 2
        }
        return e * 0.6931471805599453 + 2 * s * (1 + sum)
    }
}
