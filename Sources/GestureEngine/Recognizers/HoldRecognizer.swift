import TouchModel

/// UIKit's UILongPressGestureRecognizer.minimumPressDuration default, s.
let defaultHoldMinDuration = 0.5
/// Most the fingers may move before the press begins, mm. UIKit's allowableMovement
/// is 10 pt (about 1.5–2 mm on a phone, whose digitizer output is filtered). Raw
/// touchpad positions jitter by about 1 mm, so 3 mm (libinput's own move threshold
/// for gestures). On a touchscreen the finger pad flattens against the glass as it
/// presses and the contact jumps: a recorded 2-finger press on an Atmel maXTouch
/// drifts 4.2 mm in 0.8 s, so 5 mm there.
let defaultHoldAllowableMovementMM: [DeviceKind: Double] = [.touchpad: 3.0, .touchscreen: 5.0]

/// UILongPressGestureRecognizer: `fingers` fingers held still for the minimum
/// duration; continuous from then on (changed as they move, ended when they lift).
///
/// `spec.taps` counts the press itself, so the default 1 is a plain press (UIKit's
/// numberOfTapsRequired 0) and 2 is tap-then-press (numberOfTapsRequired 1). The taps
/// before the press follow the tap recognizer's limits.
///
/// ```
///  tapping(n) ──short still tap──► tapping(n+1) … ──last tap──► pressing
///  tapping / pressing ──next touch too late──► fail
///  pressing ──settled, right fingers, still for minDuration──► begin ──► holding
///           ──moved / lifted too soon──► fail
/// ```
public final class HoldRecognizer: RecognizerBase, GestureRecognizer {
    enum Phase: Equatable {
        /// Counting the taps before the press; `lastLift` is when the latest one lifted.
        case tapping(done: Int, lastLift: Timestamp?)
        /// Waiting for, or in, the press; `after` is when the last tap before it lifted.
        case pressing(after: Timestamp?)
        case holding(since: Timestamp)
    }

    public let spec: GestureSpec
    private let fingers: ClosedRange<Int>
    /// The gesture's own, or the default scaled by the profile's `timing-scale`.
    private let minDuration: ScaledLimit
    private let allowableMovement: Double
    private let tapMaxDuration: ScaledLimit
    private let tapMaxInterval: ScaledLimit
    /// The finger count's settle window, as the engine's timing scales it, s.
    private let settleWindow: Double
    private let tapMaxMovement: Double
    @exclusivity(unchecked) private var phase = Phase.pressing(after: nil)
    /// How long the press has been held while possible, s (`progress`).
    @exclusivity(unchecked) private var held = 0.0

    init(spec: GestureSpec, device: DeviceInfo, timing: EngineTiming = EngineTiming()) {
        self.spec = spec
        tapsBefore = max(0, spec.taps - 1)
        fingers = fingerRange(of: spec)
        minDuration = timing.time(spec.thresholds.minDuration, default: defaultHoldMinDuration)
        allowableMovement = timing.movement(spec.thresholds.maxMovementMM, default: defaultHoldAllowableMovementMM[device.kind] ?? 3)
        tapMaxDuration = timing.time(spec.thresholds.maxTapDuration, default: defaultTapMaxDuration)
        tapMaxInterval = timing.time(spec.thresholds.maxTapInterval, default: defaultTapMaxInterval)
        settleWindow = timing.settleWindow
        tapMaxMovement = defaultTapMaxMovementMM
        super.init()
        reset()
    }

    private let tapsBefore: Int

    public override func evaluate(_ t: TouchSnapshot, _ input: RecognizerInput, state: RecognizerState) -> Evaluation {
        deadline = nil
        switch (phase, state.isActive) {
        case (.holding, true):
            return continueActive(t, input, fingers: fingers)
        case let (.tapping(done, lastLift), false):
            return tapStep(t, input, done: done, lastLift: lastLift)
        case let (.pressing(after), false):
            return pressStep(t, input, after: after)
        case (.holding, false), (.tapping, true), (.pressing, true):
            return .undecided // the arena's state and ours disagree: survive, stay put
        }
    }

    /// A touch (or the pause after one) that must be a quick, still tap.
    private func tapStep(_ t: TouchSnapshot, _ input: RecognizerInput, done: Int, lastLift: Timestamp?) -> Evaluation {
        if let lastLift, tooLate(t, after: lastLift) { return .fail(.taps(have: done, need: tapsBefore)) }
        switch input {
        case .touches, .timer:
            if t.isLifted {
                deadline = lastLift.map { justPast(tapMaxInterval.value, from: $0) }
                return .undecided
            }
            if t.time.seconds(since: t.sequenceStart) > tapMaxDuration.value || t.travel > tapMaxMovement {
                return .fail(.taps(have: done, need: tapsBefore))
            }
            deadline = justPast(tapMaxDuration.value, from: t.sequenceStart)
            return .undecided
        case .lifted:
            let n = done + 1
            phase = n >= tapsBefore ? .pressing(after: t.liftedAt) : .tapping(done: n, lastLift: t.liftedAt)
            deadline = justPast(tapMaxInterval.value, from: t.liftedAt)
            return .undecided
        }
    }

    /// The press itself: still, with the right fingers, for the minimum duration.
    private func pressStep(_ t: TouchSnapshot, _ input: RecognizerInput, after: Timestamp?) -> Evaluation {
        if let after {
            if tooLate(t, after: after) { return .fail(.nextTapTooLate(maxSeconds: tapMaxInterval.value, scale: tapMaxInterval.scale)) }
            if t.isLifted {
                deadline = justPast(tapMaxInterval.value, from: after)
                return .undecided // between the last tap and the press
            }
        }
        if t.travel > allowableMovement { return .fail(.movedTooFar(mm: t.travel, limitMM: allowableMovement)) }
        switch input {
        case .lifted:
            guard fingers.contains(t.fingers) else { return .fail(.fingers(have: t.fingers, need: fingers)) }
            return .fail(.liftedTooSoon(seconds: t.liftedAt.seconds(since: t.countChangedAt), needsSeconds: minDuration.value,
                                        scale: minDuration.scale))
        case .touches, .timer:
            guard fingers.contains(t.currentFingers) else { return .undecided }
            let due = t.countChangedAt.adding(seconds: minDuration.value)
            held = t.time.seconds(since: t.countChangedAt)
            guard t.isSettled, t.time >= due else {
                deadline = max(due, t.countChangedAt.adding(seconds: settleWindow))
                return .undecided
            }
            phase = .holding(since: t.countChangedAt)
            return .begin
        }
    }

    /// The next touch did not come within the tap interval of `lift`.
    private func tooLate(_ t: TouchSnapshot, after lift: Timestamp) -> Bool {
        let start = t.isLifted || t.sequenceStart <= lift ? t.time : t.sequenceStart
        return start.seconds(since: lift) > tapMaxInterval.value
    }

    public override func annotate(_ event: inout GestureEvent, _ t: TouchSnapshot) {
        if case let .holding(since) = phase { event.duration = t.time.seconds(since: since) }
    }

    /// The press's time of the minimum duration (0 while the taps before it are counted).
    public override var progress: Double? { fraction(held, of: minDuration.value) }

    public override func reset() {
        held = 0
        phase = tapsBefore > 0 ? .tapping(done: 0, lastLift: nil) : .pressing(after: nil)
        deadline = nil
    }
}
