import TouchModel

/// How long the resting finger must have been down, alone, before the other fingers
/// land, s. Fingers put down together for a plain multi-finger tap, swipe or scroll
/// are no rest and a tap: on the bundled recordings the first finger of each such
/// gesture was down 0–82 ms before the next (docs/ENGINE.md, "Tip-tap"). 150 ms is
/// 1.8 times the widest of those, more than the finger-count settle window
/// (100 ms), and far below a hold's 500 ms.
let defaultTipTapMinRest = 0.150

/// BetterTouchTool's TipTap and TipSwipe: one finger rests and `fingers` more tap to
/// its left or right (`tip-tap`), or swipe while it rests (`tip-swipe`). Discrete.
///
/// The resting finger is the sequence's first (`TouchSnapshot.firstFingerID`): it
/// must have been down alone for `min-duration` before the others land, and move no
/// more than `max-movement` (the tap's 3 mm) until the gesture is recognized. The
/// side is where the others' centroid lands against it. A tap's fingers obey the
/// tap's rules (`max-movement`, `max-duration`) and must lift while the resting
/// finger stays down for the settle window after: fingers that all lift together
/// are a plain tap of them all, and the tip-tap leaves it alone. A swipe's fingers
/// travel `min-distance` (a swipe's 20 mm) within `max-angle` of a direction.
///
/// ```
///  idle ──1 finger──► resting ──N land (rested ≥ min-duration, side accepted)──► tapping
///   resting ──moved / others too soon / wrong side──► fail
///  tap:   tapping ──they lift──► lifted ──rest still down 100 ms──► recognize
///         tapping ──too long / moved / too many──► fail;  lifted ──rest lifts──► fail
///  swipe: tapping ──travel ≥ min-distance, direction accepted──► recognize
///  any phase ──resting finger moved or lifted──► fail
/// ```
///
/// A resting thumb in a clickpad's thumb zone is no finger (`TouchTracker`), so it
/// rests for nothing; bounding-box pads cannot tell which finger is which and fail.
public final class TipTapRecognizer: RecognizerBase, GestureRecognizer {
    enum Phase: Equatable {
        case idle
        case resting
        /// The others are down: since when, where their centroid was when their count
        /// last changed, and the most of them at once.
        case tapping(since: Timestamp, anchor: Point, most: Int)
        /// A tap's fingers lifted at this instant; the resting finger must stay.
        case lifted(at: Timestamp, most: Int)
    }

    public let spec: GestureSpec
    private let fingers: ClosedRange<Int>
    private let swipes: Bool
    private let boundingBox: Bool
    /// The gesture's own, or the default scaled by the profile's `timing-scale`.
    private let minRest: ScaledLimit
    private let maxMovement: Double
    private let maxDuration: ScaledLimit
    /// How long the resting finger must stay after the tap lifts: the settle window,
    /// as the engine's timing scales it, s.
    private let settleWindow: ScaledLimit
    private let minDistance: Double
    private let maxAngle: Double
    private let sides: (left: Bool, right: Bool)
    private let directions: Set<Direction>
    @exclusivity(unchecked) private var restID: Int32 = -1
    @exclusivity(unchecked) private var side = Side.left
    @exclusivity(unchecked) private var tapAt = Point.zero
    @exclusivity(unchecked) private var moved = Point.zero
    @exclusivity(unchecked) private var tapTravel = 0.0
    @exclusivity(unchecked) private var matched: Direction?
    @exclusivity(unchecked) private var phase = Phase.idle {
        didSet {
            switch phase {
            case .idle, .resting: deadline = nil
            case let .tapping(since, _, _): deadline = swipes ? nil : justPast(maxDuration.value, from: since)
            case let .lifted(at, _): deadline = justPast(settleWindow.value, from: at)
            }
        }
    }

    init(spec: GestureSpec, device: DeviceInfo, timing: EngineTiming = EngineTiming()) {
        self.spec = spec
        fingers = fingerRange(of: spec)
        swipes = spec.kind == .tipSwipe
        boundingBox = device.isSemiMT
        minRest = timing.time(spec.thresholds.minDuration, default: defaultTipTapMinRest)
        settleWindow = ScaledLimit(value: timing.settleWindow, scale: timing.scale)
        maxMovement = timing.movement(spec.thresholds.maxMovementMM, default: defaultTapMaxMovementMM)
        maxDuration = timing.time(spec.thresholds.maxTapDuration, default: defaultTapMaxDuration)
        minDistance = spec.thresholds.minDistanceMM ?? defaultSwipeMinDistanceMM
        let diagonals = spec.directions.isEmpty || spec.directions.contains { $0.isDiagonal }
        maxAngle = spec.thresholds.maxAngleDeg ?? (diagonals ? defaultSwipeMaxAngleWithDiagonalsDeg : defaultSwipeMaxAngleDeg)
        sides = (spec.sides.isEmpty || spec.sides.contains(.left), spec.sides.isEmpty || spec.sides.contains(.right))
        directions = spec.directions
    }

    public override func evaluate(_ t: TouchSnapshot, _ input: RecognizerInput, state: RecognizerState) -> Evaluation {
        if boundingBox || t.hasUntrackedFingers { return .fail(.fingersNotTracked) }
        if input == .lifted {
            switch phase {
            case .idle, .resting: return .fail(.noTipTap)
            case .tapping, .lifted: return .fail(.restLifted)
            }
        }
        if phase == .idle {
            guard t.firstFingerID >= 0 else { return .undecided }
            restID = t.firstFingerID
            phase = .resting
        }
        guard t.firstFingerID == restID else { return .fail(.restLifted) }
        if t.firstFingerTravel > maxMovement { return .fail(.restMoved(mm: t.firstFingerTravel, limitMM: maxMovement)) }
        let others = t.currentFingers - 1
        switch phase {
        case .idle, .resting:
            guard others > 0 else { return .undecided }
            let rested = t.time.seconds(since: t.sequenceStart)
            if rested < minRest.value {
                return .fail(.restedTooShort(seconds: rested, needsSeconds: minRest.value, scale: minRest.scale))
            }
            side = t.otherFingers.x < t.firstFinger.x ? .left : .right
            guard side == .left ? sides.left : sides.right else { return .fail(.wrongSide(tapped: side)) }
            tapAt = t.otherFingers
            phase = .tapping(since: t.time, anchor: t.otherFingers, most: others)
            return checkTapping(t, since: t.time, most: others)
        case let .tapping(since, anchor, most):
            if others == 0 {
                guard fingers.contains(most) else { return .fail(.fingers(have: most, need: fingers)) }
                if swipes { return .fail(.tooShort(mm: moved.length, needsMM: minDistance)) }
                phase = .lifted(at: t.time, most: most)
                return .undecided
            }
            if others > most {
                // Another of them landed: their centroid jumps, so measure afresh.
                phase = .tapping(since: since, anchor: t.otherFingers - moved, most: others)
                return checkTapping(t, since: since, most: others)
            }
            if others == most { moved = t.otherFingers - anchor }
            return checkTapping(t, since: since, most: most)
        case let .lifted(at, _):
            if others > 0 {
                return .fail(.tappedAgain(seconds: t.time.seconds(since: at), waitSeconds: settleWindow.value,
                                          scale: settleWindow.scale))
            }
            return t.time.seconds(since: at) >= settleWindow.value ? .recognize : .undecided
        }
    }

    /// While the others are down: not too many; a tap short and still, a swipe far
    /// enough in an accepted direction.
    private func checkTapping(_ t: TouchSnapshot, since: Timestamp, most: Int) -> Evaluation {
        if most > fingers.upperBound { return .fail(.fingers(have: most, need: fingers)) }
        let distance = moved.length
        tapTravel = max(tapTravel, distance)
        if !swipes {
            let held = t.time.seconds(since: since)
            if held > maxDuration.value { return .fail(.heldTooLong(seconds: held, maxSeconds: maxDuration.value, scale: maxDuration.scale)) }
            if tapTravel > maxMovement { return .fail(.movedTooFar(mm: tapTravel, limitMM: maxMovement)) }
            return .undecided
        }
        guard distance >= minDistance, fingers.contains(most) else { return .undecided }
        let way = Direction.nearest(to: moved)
        let (direction, off) = directions.isEmpty
            ? Direction.nearest(to: moved, among: Direction.compass)
            : Direction.nearest(to: moved, among: directions)
        if off > maxAngle {
            return .fail(directions.isEmpty || directions.contains(way) ? .offAxis(degrees: off, maxDegrees: maxAngle)
                         : .wrongDirection(moved: way))
        }
        matched = direction
        return .recognize
    }

    public override func annotate(_ event: inout GestureEvent, _ t: TouchSnapshot) {
        event.side = side
        event.location = tapAt
        event.translation = moved
        event.direction = matched
        switch phase {
        case let .tapping(_, _, most), let .lifted(_, most): event.fingers = most
        case .idle, .resting: break
        }
    }

    public override func reset() {
        phase = .idle
        restID = -1
        moved = .zero
        tapTravel = 0
        matched = nil
    }
}
