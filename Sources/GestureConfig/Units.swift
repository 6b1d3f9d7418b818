/// Physical quantities written with a unit suffix: `20mm`, `0.5s`, `300ms`,
/// `15deg`, `1.25x`, `100mm/s`. A bare number is refused where a unit is expected:
/// "20" could mean millimetres or percent, and the file should say which.
enum Quantity: String, CaseIterable {
    case distance, duration, angle, scale, speed

    /// "a distance", "an angle".
    var withArticle: String { (self == .angle ? "an " : "a ") + rawValue }

    /// Accepted suffixes and how to reach the unit the specs use (mm, s, deg, ×, mm/s):
    /// multiply, then divide (dividing 300 by 1000 is exact where × 0.001 is not).
    var units: [(suffix: String, times: Double, over: Double)] {
        switch self {
        case .distance: return [("mm", 1, 1), ("cm", 10, 1)]
        case .duration: return [("ms", 1, 1000), ("s", 1, 1)]
        case .angle: return [("deg", 1, 1), ("°", 1, 1)]
        case .scale: return [("x", 1, 1)]
        case .speed: return [("mm/s", 1, 1)]
        }
    }

    /// The suffix of the unit the specs use (`mm`, `s`, `deg`, `x`, `mm/s`).
    var baseSuffix: String { units.first { $0.times == 1 && $0.over == 1 }!.suffix }

    /// Largest value accepted, in the spec unit: far beyond any real setting, low enough
    /// that converting to nanoseconds or device units cannot overflow.
    var ceiling: Double {
        switch self {
        case .distance: return 10_000     // 10 m
        case .duration: return 86_400     // a day
        case .angle: return 360
        case .scale: return 100
        case .speed: return 1_000_000
        }
    }

    /// Smallest value accepted, in the spec unit, as written in messages, and why.
    /// Below these a value is no setting a person makes but a typo or a probe, and
    /// the arithmetic it feeds (steps per millimetre, timeouts in nanoseconds) would
    /// leave the range where it means anything: `every: 1e-17mm` once trapped the
    /// daemon counting steps. Scales are factors, so theirs is a factor above 1x.
    var floor: (value: Double, text: String, reason: String) {
        switch self {
        case .distance: return (0.01, "0.01mm", "finer than any touch sensor resolves")
        case .duration: return (0.001, "1ms", "too short for a gesture or a command to notice")
        case .angle: return (0.01, "0.01deg", "finer than any touch sensor resolves")
        case .scale: return (1.001, "1.001x", "a change of 0.1 %, finer than any touch sensor resolves")
        case .speed: return (0.01, "0.01mm/s", "slower than any finger moves")
        }
    }

    var example: String {
        switch self {
        case .distance: return "20mm"
        case .duration: return "300ms or 0.5s"
        case .angle: return "15deg"
        case .scale: return "1.25x"
        case .speed: return "100mm/s"
        }
    }

    /// Parses `text`; on failure returns the message saying what was expected.
    func parse(_ text: String) -> Result<Double, QuantityError> {
        let t = text.trimmingSpaces()
        var numberEnd = t.startIndex
        while numberEnd < t.endIndex, "0123456789.+-eE".contains(t[numberEnd]) {
            // An 'e' only belongs to the number when a digit follows ("1e3mm", not "1em").
            if "eE".contains(t[numberEnd]) {
                let next = t.index(after: numberEnd)
                guard next < t.endIndex, t[next].isASCII, t[next].isNumber || "+-".contains(t[next]) else { break }
            }
            numberEnd = t.index(after: numberEnd)
        }
        let numberText = String(t[..<numberEnd])
        let suffix = String(t[numberEnd...]).trimmingSpaces()
        guard let value = Double(numberText), value.isFinite else {
            return .failure(QuantityError(message: "'\(text)' is not \(withArticle); expected a number with a unit, like \(example)"))
        }
        guard !suffix.isEmpty else {
            return .failure(QuantityError(message: "'\(text)' needs a unit; expected \(withArticle) like \(example)"))
        }
        guard let unit = units.first(where: { $0.suffix == suffix.lowercased() }) else {
            let all = Quantity.allCases.flatMap { $0.units.map(\.suffix) }
            var message = "unknown unit '\(suffix)' for \(withArticle); expected \(units.map(\.suffix).joined(separator: " or ")), like \(example)"
            if let other = Quantity.allCases.first(where: { $0.units.contains { $0.suffix == suffix.lowercased() } }) {
                message = "'\(text)' is \(other.withArticle), not \(withArticle); expected \(withArticle) like \(example)"
            } else {
                message += DidYouMean.hint(for: suffix, among: all)
            }
            return .failure(QuantityError(message: message))
        }
        return .success(value * unit.times / unit.over)
    }
}

struct QuantityError: Error { var message: String }

extension String {
    func trimmingSpaces() -> String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" { s = s.dropLast() }
        return String(s)
    }
}
