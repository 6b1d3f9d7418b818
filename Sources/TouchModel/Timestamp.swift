/// A kernel event time, in microseconds (`input_event.time`, CLOCK_MONOTONIC on live
/// devices, whatever clock the recording used on replays). The engine never reads a
/// clock: every instant it sees is one of these, handed in by its caller.
public struct Timestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var microseconds: Int64

    public init(microseconds: Int64) { self.microseconds = microseconds }
    public init(seconds: Double) { self.microseconds = Int64((seconds * 1_000_000).rounded()) }

    public var seconds: Double { Double(microseconds) / 1_000_000 }

    /// Seconds elapsed from `earlier` to `self` (negative if `earlier` is later).
    public func seconds(since earlier: Timestamp) -> Double {
        Double(microseconds &- earlier.microseconds) / 1_000_000
    }

    public func adding(seconds: Double) -> Timestamp {
        Timestamp(microseconds: microseconds &+ Int64((seconds * 1_000_000).rounded()))
    }

    public static func < (a: Timestamp, b: Timestamp) -> Bool { a.microseconds < b.microseconds }

    public var description: String {
        let s = microseconds / 1_000_000, us = abs(microseconds % 1_000_000)
        let frac = String(us)
        return "\(s).\(String(repeating: "0", count: 6 - frac.count))\(frac)"
    }
}
