/// A kernel event time, in microseconds (`input_event.time`, CLOCK_MONOTONIC on live
/// devices, whatever clock the recording used on replays). The engine never reads a
/// clock: every instant it sees is one of these, handed in by its caller.
public struct Timestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var microseconds: Int64

    // Inlinable: the engine compares and offsets instants several times per frame,
    // and across the module boundary each was a call (`adding` one more into libm's
    // `round`).
    @inlinable public init(microseconds: Int64) { self.microseconds = microseconds }
    public init(seconds: Double) { self.microseconds = Int64((seconds * 1_000_000).rounded()) }

    @inlinable public var seconds: Double { Double(microseconds) / 1_000_000 }

    /// Seconds elapsed from `earlier` to `self` (negative if `earlier` is later).
    @inlinable public func seconds(since earlier: Timestamp) -> Double {
        Double(microseconds &- earlier.microseconds) / 1_000_000
    }

    /// `seconds` rounded to the nearest microsecond, halves away from zero (as
    /// `rounded()`, without the call into libm).
    @inlinable public func adding(seconds: Double) -> Timestamp {
        let us = seconds * 1_000_000
        return Timestamp(microseconds: microseconds &+ Int64(us < 0 ? us - 0.5 : us + 0.5))
    }

    /// `microseconds` later (earlier if negative): where a span is kept in whole
    /// microseconds, one integer add.
    @inlinable public func adding(microseconds us: Int64) -> Timestamp {
        Timestamp(microseconds: microseconds &+ us)
    }

    @inlinable public static func < (a: Timestamp, b: Timestamp) -> Bool { a.microseconds < b.microseconds }

    public var description: String {
        let s = microseconds / 1_000_000, us = abs(microseconds % 1_000_000)
        let frac = String(us)
        return "\(s).\(String(repeating: "0", count: 6 - frac.count))\(frac)"
    }
}
