import TouchModel

/// Every time the engine judges touches by, scaled once when the engine is built by
/// the accessibility profile's `timing-scale` (docs/ENGINE.md, "Time, and the timing
/// scale", lists each one): a hand that moves 2.5× slower gets 2.5× the time, so the
/// frames cost what they did. A time threshold a gesture sets itself is taken as
/// written (the user chose it); the defaults and the engine's own windows are scaled;
/// a speed floor is divided by the scale. With the scale 1 every figure is the
/// constant itself (`x * 1 == x` exactly), so behaviour is unchanged to the bit.
///
/// A sequence's window (`after:`) comes from the config, which scales it: a gesture's
/// own `within:` is taken as written, `settings: sequence-window:` (1 s unless set) is
/// multiplied by the scale (`ConfigParser`).
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
    /// Added to every movement limit a gesture does not set itself (a tap's and a
    /// tip-tap's `max-movement`, a hold's allowable movement), mm: with the tremor
    /// filter on, `tremorLandingAllowanceMM`; else 0.
    let landingAllowanceMM: Double

    init(scale: Double = 1, tremorFilter: Bool = false) {
        landingAllowanceMM = tremorFilter ? tremorLandingAllowanceMM : 0
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

    /// A gesture's movement limit, mm: its own as written, else `default` and the
    /// tremor's room where the finger landed (`landingAllowanceMM`).
    func movement(_ own: Double?, default mm: Double) -> Double {
        own ?? mm + landingAllowanceMM
    }

    /// A gesture's speed floor, mm/s: its own as written, else `default` over the scale
    /// (the same distance may take that much longer).
    func speed(_ own: Double?, default mmPerS: Double) -> ScaledLimit {
        own.map { ScaledLimit(value: $0, scale: 1) } ?? ScaledLimit(value: mmPerS / scale, scale: scale)
    }
}

/// How far a shaking finger's landing point may lie from where the hand rests, mm:
/// the amplitude of the tremor the filter's defaults were chosen for (5 Hz, 1 mm;
/// docs/ACCESSIBILITY.md). A touch lands wherever the tremor has it at that instant,
/// and the filter, which starts from the first point it is given, cannot know the
/// offset; the smoothed path then settles up to this far away, which a tap or a hold
/// would count as movement. Measured on the slowed, shaking Atmel 2-finger press
/// (SlowShakyHandTests): it moved 5.0–5.4 mm against the 5 mm a hold allows, the same
/// press unshaken 4.2 mm.
let tremorLandingAllowanceMM = 1.0

/// A threshold as a recognizer uses it, and the factor the profile's `timing-scale`
/// applied to it (1: the gesture's own, or no profile), which a failure's text
/// reports ("allows 0.75 s (scaled 2.5× by timing-scale)").
struct ScaledLimit: Sendable, Equatable {
    var value: Double
    var scale: Double
}
