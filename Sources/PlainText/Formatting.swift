/// Fixed-point text for numbers, without Foundation's `String(format:)` (which pulls
/// in ICU: +45 MB binary, +9 MB RSS).
extension Double {
    /// `12.345.fixed(1)` → "12.3"; rounds half away from zero; "nan"/"inf" as such.
    public func fixed(_ decimals: Int) -> String {
        guard isFinite else { return isNaN ? "nan" : (self < 0 ? "-inf" : "inf") }
        let decimals = Swift.max(0, Swift.min(decimals, 9))
        var scale: Int64 = 1
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(self) * Double(scale)).rounded()
        guard scaled < 9.0e18 else { return String(self) }
        let n = Int64(scaled)
        let whole = String(n / scale)
        let sign = self < 0 && n != 0 ? "-" : ""
        guard decimals > 0 else { return sign + whole }
        let frac = String(n % scale)
        return sign + whole + "." + String(repeating: "0", count: decimals - frac.count) + frac
    }
}
