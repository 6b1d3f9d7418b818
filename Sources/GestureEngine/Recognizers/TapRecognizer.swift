import TouchModel

/// Most a finger may move during a tap, mm. UIKit allows about 10 pt (1.5–2 mm on a
/// phone); libinput's TAP_MOVE_THRESHOLD is 1.3 mm for one finger but multi-finger
/// taps wobble more, so 3 mm.
let defaultTapMaxMovementMM = 3.0
/// Longest a tap may stay down, s. libinput's tap timeout is 180 ms; UIKit is more
/// lenient. 300 ms keeps deliberate slow taps while a hold (500 ms) stays distinct.
let defaultTapMaxDuration = 0.300
/// Longest pause between the taps of a multi-tap, s. libinput's drag timeout is
/// 300 ms; UIKit's double-tap interval is about 350 ms.
let defaultTapMaxInterval = 0.350

/// UITapGestureRecognizer: `taps` taps of exactly `fingers` fingers, each short and
/// still. Discrete: recognized when the last tap lifts.
///
/// ```
///  idle ──fingers down──► down ──all lifted, taps left──► between ──fingers down──► down
///                          │  └──all lifted, last tap──► recognize
///                          └──too long / moved / too many fingers──► fail
///  between ──interval passed──► fail
/// ```
public final class TapRecognizer: RecognizerBase, GestureRecognizer {
    enum Phase: Equatable {
        case idle
        case down(tapsDone: Int, since: Timestamp)
        case between(tapsDone: Int, liftedAt: Timestamp)
    }

    public let spec: GestureSpec
    private let fingers: ClosedRange<Int>
    private let maxMovement: Double
    /// The gesture's own, or the default scaled by the profile's `timing-scale`.
    private let maxDuration: ScaledLimit
    private let maxInterval: ScaledLimit
    /// The deadline follows the phase: set when the phase changes, read by the arena
    /// after every evaluation.
    @exclusivity(unchecked) private var phase = Phase.idle {
        didSet {
            switch phase {
            case .idle: deadline = nil
            case let .down(_, since): deadline = justPast(maxDuration.value, from: since)
            case let .between(_, liftedAt): deadline = justPast(maxInterval.value, from: liftedAt)
            }
        }
    }

    init(spec: GestureSpec, timing: EngineTiming = EngineTiming()) {
        self.spec = spec
        tapsNeeded = max(1, spec.taps)
        fingers = fingerRange(of: spec)
        maxMovement = timing.movement(spec.thresholds.maxMovementMM, default: defaultTapMaxMovementMM)
        maxDuration = timing.time(spec.thresholds.maxTapDuration, default: defaultTapMaxDuration)
        maxInterval = timing.time(spec.thresholds.maxTapInterval, default: defaultTapMaxInterval)
    }

    private let tapsNeeded: Int

    public override func evaluate(_ t: TouchSnapshot, _ input: RecognizerInput, state: RecognizerState) -> Evaluation {
        switch (phase, input) {
        case (.idle, .touches):
            phase = .down(tapsDone: 0, since: t.sequenceStart)
            return checkDown(t, fingers, since: t.sequenceStart)
        case (.idle, .lifted), (.idle, .timer):
            return .undecided
        case let (.down(_, since), .touches), let (.down(_, since), .timer):
            return checkDown(t, fingers, since: since)
        case let (.down(done, since), .lifted):
            if case let .fail(r) = checkDown(t, fingers, since: since) { return .fail(r) }
            guard fingers.contains(t.maxFingers) else { return .fail(.fingers(have: t.maxFingers, need: fingers)) }
            guard done + 1 >= tapsNeeded else {
                phase = .between(tapsDone: done + 1, liftedAt: t.liftedAt)
                return .undecided
            }
            return .recognize
        case let (.between(done, liftedAt), .touches):
            guard t.sequenceStart.seconds(since: liftedAt) <= maxInterval.value else {
                return .fail(.nextTapTooLate(maxSeconds: maxInterval.value, scale: maxInterval.scale))
            }
            phase = .down(tapsDone: done, since: t.sequenceStart)
            return checkDown(t, fingers, since: t.sequenceStart)
        case let (.between(_, liftedAt), .timer), let (.between(_, liftedAt), .lifted):
            return t.time.seconds(since: liftedAt) > maxInterval.value
                ? .fail(.nextTapTooLate(maxSeconds: maxInterval.value, scale: maxInterval.scale)) : .undecided
        }
    }

    /// While fingers are down: still short, still, and not too many fingers.
    private func checkDown(_ t: TouchSnapshot, _ fingers: ClosedRange<Int>, since: Timestamp) -> Evaluation {
        let end = t.isLifted ? t.liftedAt : t.time
        let held = end.seconds(since: since)
        if held > maxDuration.value { return .fail(.heldTooLong(seconds: held, maxSeconds: maxDuration.value, scale: maxDuration.scale)) }
        if t.travel > maxMovement { return .fail(.movedTooFar(mm: t.travel, limitMM: maxMovement)) }
        if t.maxFingers > fingers.upperBound { return .fail(.fingers(have: t.maxFingers, need: fingers)) }
        return .undecided
    }

    public override func annotate(_ event: inout GestureEvent, _ t: TouchSnapshot) {
        event.fingers = t.maxFingers
        event.location = t.tapLocation
    }

    /// Taps completed of those needed (the last one is recognized as it lifts).
    public override var progress: Double? {
        switch phase {
        case .idle: 0
        case let .down(done, _), let .between(done, _): fraction(Double(done), of: Double(tapsNeeded))
        }
    }

    public override func reset() { phase = .idle }
}
