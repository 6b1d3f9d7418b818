import TouchModel

/// A leg of the stroke must run this far before turning back counts as a reversal, mm
/// (smaller wiggles are jitter, not scrubbing).
let defaultScrubMinLegMM = 5.0
/// Reversals needed. Apple's sample recognizer ends when it has counted more than two
/// horizontal turns ("count > 2").
let scrubRequiredReversals = 3
/// Most the stroke may wander vertically from where it began, mm: a scrub is horizontal.
let defaultScrubMaxVerticalDriftMM = 15.0

/// The worked example of extending the engine: Apple's custom "reset" recognizer, a
/// horizontal stroke that reverses direction three or more times (a scribble to
/// clear). Discrete, recognized at the lift like Apple's (its decision needs the
/// whole stroke). Everything it needs is in `TouchSnapshot`; it keeps its own little
/// machine of which way the current leg runs.
///
/// ```
///  still ──|dx| ≥ leg──► rightward | leftward ──back by ≥ leg──► the other (+1 reversal)
///  lifted: reversals ≥ 3 ──► recognize, else fail
/// ```
public final class ScrubRecognizer: RecognizerBase, GestureRecognizer {
    enum Leg: Equatable {
        case still(startX: Double)
        case rightward(extremeX: Double)
        case leftward(extremeX: Double)
    }

    public let spec: GestureSpec
    private let minLeg: Double
    private let maxDrift: Double
    @exclusivity(unchecked) private var leg = Leg.still(startX: 0)
    @exclusivity(unchecked) private var reversals = 0
    @exclusivity(unchecked) private var sequence: Timestamp?

    public init(spec: GestureSpec) {
        self.spec = spec
        minLeg = spec.thresholds.minDistanceMM ?? defaultScrubMinLegMM
        maxDrift = spec.thresholds.maxMovementMM ?? defaultScrubMaxVerticalDriftMM
    }

    public override func evaluate(_ t: TouchSnapshot, _ input: RecognizerInput, state: RecognizerState) -> Evaluation {
        if sequence != t.sequenceStart {
            sequence = t.sequenceStart
            leg = .still(startX: t.translation.x)
            reversals = 0
        }
        if abs(t.translation.y) > maxDrift { return .fail(.verticalDrift(mm: abs(t.translation.y), maxMM: maxDrift)) }
        follow(t.translation.x)
        switch input {
        case .touches, .timer:
            return .undecided
        case .lifted:
            return reversals >= scrubRequiredReversals
                ? .recognize : .fail(.reversals(have: reversals, need: scrubRequiredReversals))
        }
    }

    private func follow(_ x: Double) {
        switch leg {
        case let .still(startX):
            if x - startX >= minLeg { leg = .rightward(extremeX: x) }
            else if startX - x >= minLeg { leg = .leftward(extremeX: x) }
        case let .rightward(extremeX):
            if x > extremeX { leg = .rightward(extremeX: x) }
            else if extremeX - x >= minLeg { leg = .leftward(extremeX: x); reversals += 1 }
        case let .leftward(extremeX):
            if x < extremeX { leg = .leftward(extremeX: x) }
            else if x - extremeX >= minLeg { leg = .rightward(extremeX: x); reversals += 1 }
        }
    }

    /// Reversals made of those needed (it is recognized at the lift once there are enough).
    public override var progress: Double? { fraction(Double(reversals), of: Double(scrubRequiredReversals)) }

    public override func reset() {
        sequence = nil
        reversals = 0
    }
}
