import TouchModel

/// UIKit's UILongPressGestureRecognizer.minimumPressDuration default, s.
let defaultHoldMinDuration = 0.5
/// Most the fingers may move before the press begins, mm. UIKit's allowableMovement
/// is 10 pt (about 1.5–2 mm on a phone); touchpad sensors jitter by about 1 mm, so 3 mm
/// (libinput's own move threshold for gestures).
let defaultHoldAllowableMovementMM = 3.0

/// UILongPressGestureRecognizer: `fingers` fingers held still for the minimum
/// duration; continuous from then on (changed as they move, ended when they lift).
///
/// `spec.taps` counts the press itself, so the default 1 is a plain press (UIKit's
/// numberOfTapsRequired 0) and 2 is tap-then-press (numberOfTapsRequired 1). The taps
/// before the press follow the tap recognizer's limits.
///
/// ```
///  tapping(n) ──short still tap──► tapping(n+1) … ──► pressing
///  pressing ──settled, right fingers, still for minDuration──► begin
///           ──moved / lifted too soon / wrong fingers──► fail
/// ```
public final class HoldRecognizer: GestureRecognizer {
    enum Phase: Equatable {
        case tapping(done: Int, lastLift: Timestamp?)
        case pressing
        case holding(since: Timestamp)
    }

    public let spec: GestureSpec
    private let minDuration: Double
    private let allowableMovement: Double
    private let tapMaxDuration: Double
    private let tapMaxInterval: Double
    private var phase: Phase
    private var nextDeadline: Timestamp?

    public init(spec: GestureSpec) {
        self.spec = spec
        minDuration = spec.thresholds.minDuration ?? defaultHoldMinDuration
        allowableMovement = spec.thresholds.maxMovementMM ?? defaultHoldAllowableMovementMM
        tapMaxDuration = spec.thresholds.maxTapDuration ?? defaultTapMaxDuration
        tapMaxInterval = spec.thresholds.maxTapInterval ?? defaultTapMaxInterval
        phase = .pressing
        reset()
    }

    private var tapsBefore: Int { max(0, spec.taps - 1) }

    public func evaluate(_ t: TouchSnapshot, _ input: RecognizerInput, state: RecognizerState) -> Evaluation {
        let fingers = fingerRange()
        nextDeadline = nil
        switch (phase, state.isActive) {
        case (.holding, true):
            return continueActive(t, input, fingers: fingers)
        case let (.tapping(done, lastLift), false):
            return tapStep(t, input, done: done, lastLift: lastLift)
        case (.pressing, false):
            return pressStep(t, input, fingers: fingers)
        case (.holding, false), (.tapping, true), (.pressing, true):
            return .undecided // the arena's state and ours disagree: survive, stay put
        }
    }

    private func tapStep(_ t: TouchSnapshot, _ input: RecognizerInput, done: Int, lastLift: Timestamp?) -> Evaluation {
        if let lastLift, t.sequenceStart.seconds(since: lastLift) > tapMaxInterval
            || (t.isLifted && t.time.seconds(since: lastLift) > tapMaxInterval) {
            return .fail(.taps(have: done, need: tapsBefore))
        }
        switch input {
        case .touches, .timer:
            if t.isLifted {
                if let lastLift { nextDeadline = lastLift.adding(seconds: tapMaxInterval + 0.000_001) }
                return .undecided
            }
            let held = t.time.seconds(since: t.sequenceStart)
            if held > tapMaxDuration || t.travel > defaultTapMaxMovementMM {
                return .fail(.taps(have: done, need: tapsBefore))
            }
            nextDeadline = t.sequenceStart.adding(seconds: tapMaxDuration + 0.000_001)
            return .undecided
        case .lifted:
            let n = done + 1
            phase = n >= tapsBefore ? .pressing : .tapping(done: n, lastLift: t.liftedAt)
            if n >= tapsBefore { pressLastLift = t.liftedAt }
            nextDeadline = t.liftedAt.adding(seconds: tapMaxInterval + 0.000_001)
            return .undecided
        }
    }

    /// The lift of the last tap before the press: the press must follow within the tap interval.
    private var pressLastLift: Timestamp?

    private func pressStep(_ t: TouchSnapshot, _ input: RecognizerInput, fingers: ClosedRange<Int>) -> Evaluation {
        if let last = pressLastLift {
            if t.sequenceStart > last {
                if t.sequenceStart.seconds(since: last) > tapMaxInterval { return .fail(.taps(have: tapsBefore - 1, need: tapsBefore)) }
            } else if t.time.seconds(since: last) > tapMaxInterval {
                return .fail(.taps(have: tapsBefore - 1, need: tapsBefore))
            } else {
                nextDeadline = last.adding(seconds: tapMaxInterval + 0.000_001)
                return .undecided // between the last tap and the press
            }
        }
        if t.travel > allowableMovement { return .fail(.movedTooFar(mm: t.travel, limitMM: allowableMovement)) }
        let pressed = (t.isLifted ? t.liftedAt : t.time).seconds(since: t.countChangedAt)
        switch input {
        case .lifted:
            guard fingers.contains(t.fingers) else { return .fail(.fingers(have: t.fingers, need: fingers)) }
            return .fail(.liftedTooSoon(seconds: pressed, needsSeconds: minDuration))
        case .touches, .timer:
            guard fingers.contains(t.currentFingers) else { return .undecided }
            let due = t.countChangedAt.adding(seconds: minDuration)
            guard t.isSettled, t.time >= due else {
                nextDeadline = max(due, t.countChangedAt.adding(seconds: fingerCountSettleWindow))
                return .undecided
            }
            phase = .holding(since: t.countChangedAt)
            return .begin
        }
    }

    public var deadline: Timestamp? { nextDeadline }

    public func annotate(_ event: inout GestureEvent, _ t: TouchSnapshot) {
        if case let .holding(since) = phase { event.duration = t.time.seconds(since: since) }
    }

    public func reset() {
        phase = tapsBefore > 0 ? .tapping(done: 0, lastLift: nil) : .pressing
        pressLastLift = nil
        nextDeadline = nil
    }
}
