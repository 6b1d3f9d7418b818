/// `settings: accessibility:` (docs/ACCESSIBILITY.md): recognition fitted to slow,
/// shaky or hesitant hands, for every gesture on every device at once. iOS offers the
/// same as Touch Accommodations (hold duration, ignore repeat, tap assistance).
///
/// The default profile changes nothing: every figure is the one a config without the
/// section has, and an engine made with it behaves as one made without it.
public struct AccessibilityProfile: Sendable, Equatable {
    /// Multiplies every time threshold a gesture does not set itself: tap duration,
    /// double-tap interval, hold, the settle window, the sooner rules; velocity floors
    /// are divided by it (the same distance may take this much longer). 1: no change.
    public var timingScale: Double = 1
    /// Smooths each contact's position before recognition (the 1€ filter); nil: off.
    public var tremorFilter: TremorFilterSettings?
    /// Seconds a touch must rest before it counts; 0: at once.
    public var holdToAccept: Double = 0
    /// Seconds within which a binding acts once, however often its gesture is
    /// recognized; 0: every time.
    public var ignoreRepeats: Double = 0
    /// Which point of a touch is a tap's location.
    public var tapAt: TapPoint = .last

    public init() {}

    /// Whether this is the default profile, which changes nothing.
    public var isOff: Bool { self == AccessibilityProfile() }

    /// The longest pause a multi-tap allows between its taps, s: its own `max-interval`
    /// as written, else the default times `timingScale` (`gestured check` compares it
    /// with `holdToAccept`).
    public func maxTapInterval(own: Double?) -> Double { own ?? defaultTapMaxInterval * timingScale }
}

/// The 1€ filter's parameters (Casiez, Roussel, Vogel, "1€ Filter: A Simple
/// Speed-based Low-pass Filter for Noisy Input in Interactive Systems", CHI 2012;
/// `OneEuroFilter`).
///
/// The defaults were chosen by measurement (docs/ACCESSIBILITY.md, "The tremor
/// filter"): a finger held still with a 5 Hz, 1 mm tremor keeps 0.24 mm of it, a
/// 200 mm/s stroke lags 20 ms; over the bundled recordings slowed 2.5× with that
/// tremor at five phases, they lose the fewest gestures of the 20 settings tried
/// (min-cutoff 0.5–1.5 Hz, beta 0.01–0.1, d-cutoff 0.7–2 Hz).
public struct TremorFilterSettings: Sendable, Equatable {
    /// Cutoff frequency at rest, Hz: lower smooths more while the fingers are still.
    public var minCutoff: Double = 1.0
    /// How fast the cutoff rises with speed, per mm/s: higher lags less on fast strokes.
    public var beta: Double = 0.02
    /// Cutoff for the speed estimate itself, Hz.
    public var derivativeCutoff: Double = 1.0

    public init(minCutoff: Double = 1.0, beta: Double = 0.02, derivativeCutoff: Double = 1.0) {
        self.minCutoff = minCutoff
        self.beta = beta
        self.derivativeCutoff = derivativeCutoff
    }
}

/// `tap-at:`: the point where a touch began, or where it lifted.
public enum TapPoint: String, Sendable, CaseIterable {
    case first, last
}
