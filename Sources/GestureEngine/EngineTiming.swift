import TouchModel

/// Every time the engine judges touches by, scaled once when the engine is built by
/// the accessibility profile's `timing-scale` (docs/ENGINE.md, "Time, and the timing
/// scale", lists each one): a hand that moves 2.5× slower gets 2.5× the time, so the
/// frames cost what they did. A time threshold a gesture sets itself is taken as
/// written (the user chose it); the defaults and the engine's own windows are scaled;
/// a speed floor is divided by the scale. With the scale 1 every figure is the
/// constant itself (`x * 1 == x` exactly), so behaviour is unchanged to the bit.
///
/// Not scaled: a sequence's window (`after:`), which the config always sets (the
/// gesture's `within:`, else `settings: sequence-window:`), so it is the user's.
///
/// The spans the tracker reads on every frame are kept in whole microseconds: an
/// integer add, where the constant in seconds folded to one at compile time.
struct EngineTiming: Sendable {
    /// `timing-scale`; 1 changes nothing.
    let scale: Double
    /// `fingerCountSettleWindow` scaled, s: the finger count's settle window, and the
    /// wait a tip-tap gives its resting finger after the tap lifts; and in µs.
    let settleWindow: Double
    let settleMicroseconds: Int64
    /// `motionDecisionGrace` scaled, µs.
    let motionGraceMicroseconds: Int64
    /// `velocityWindow` scaled, µs: the history a velocity is measured over.
    let velocitySpanMicroseconds: Int64
    /// `maxMotionFrameGapMicroseconds` scaled: a longer gap between frames is a rest.
    let restGapMicroseconds: Int64

    init(scale: Double = 1) {
        // The config refuses a scale that is not positive and finite; the engine is
        // public, so it keeps its own invariant rather than trusting every caller.
        let s = scale.isFinite && scale > 0 ? scale : 1
        self.scale = s
        settleWindow = fingerCountSettleWindow * s
        settleMicroseconds = Self.microseconds(fingerCountSettleWindow * s)
        motionGraceMicroseconds = Self.microseconds(motionDecisionGrace * s)
        velocitySpanMicroseconds = Self.microseconds(velocityWindow * s)
        restGapMicroseconds = Int64((Double(maxMotionFrameGapMicroseconds) * s).rounded())
    }

    /// Seconds in whole microseconds, rounded as `Timestamp.adding(seconds:)` rounds.
    private static func microseconds(_ seconds: Double) -> Int64 { Int64((seconds * 1_000_000).rounded()) }

    /// A gesture's time threshold, s: its own as written, else `default` times the scale.
    func time(_ own: Double?, default seconds: Double) -> ScaledLimit {
        own.map { ScaledLimit(value: $0, scale: 1) } ?? ScaledLimit(value: seconds * scale, scale: scale)
    }

    /// A gesture's speed floor, mm/s: its own as written, else `default` over the scale
    /// (the same distance may take that much longer).
    func speed(_ own: Double?, default mmPerS: Double) -> ScaledLimit {
        own.map { ScaledLimit(value: $0, scale: 1) } ?? ScaledLimit(value: mmPerS / scale, scale: scale)
    }
}

/// A threshold as a recognizer uses it, and the factor the profile's `timing-scale`
/// applied to it (1: the gesture's own, or no profile), which a failure's text
/// reports ("allows 0.75 s (scaled 2.5× by timing-scale)").
struct ScaledLimit: Sendable, Equatable {
    var value: Double
    var scale: Double
}
