import TouchModel

/// Distance a swipe must travel, mm. fusuma and libinput-gestures trigger at about
/// 20 mm of touchpad travel; UIKit's swipe needs roughly 50 pt (~8 mm on a phone,
/// whose finger moves the content 1:1, which a touchpad does not).
public let defaultSwipeMinDistanceMM = 20.0
/// Slowest a swipe may be when it crosses that distance, mm/s. A deliberate slow
/// drag is a pan, not a swipe (UIKit's swipe likewise fails on slow motion).
let defaultSwipeMinVelocityMMPerS = 50.0
/// Largest angle off the direction, degrees. With only the four axes accepted, 30°
/// leaves a dead zone between them, so a diagonal stroke does nothing rather than the
/// wrong thing; with diagonals accepted, 22.5° tiles the circle.
let defaultSwipeMaxAngleDeg = 30.0
let defaultSwipeMaxAngleWithDiagonalsDeg = 22.5
/// The distance a swipe acts at when no other gesture bound for its fingers needs
/// more to be told apart from it (issue 24, "sooner"; `GestureEngine.soonerSwipeDistance`),
/// mm. Half the default: at 10 mm a touchpad's 1 mm of jitter turns the direction by
/// under 6°, far inside the 22.5–30° a swipe allows, and it is twice the most a tap
/// or hold may move (3–5 mm). Below the full distance a swipe only recognizes; what
/// would fail it (too slow, off its direction) waits for the full distance instead.
let soonerSwipeMinDistanceMM = 15.0
/// Short of its full distance a swipe acts only on a straight stroke: its net
/// displacement at least this fraction of the path its centroid travelled.
let soonerSwipeStraightness = 0.9

/// UISwipeGestureRecognizer: the fingers travel far and fast enough in one of the
/// accepted directions. Discrete: recognized as soon as the motion qualifies, or at
/// the lift if the fingers were still settling then.
public final class SwipeRecognizer: RecognizerBase, GestureRecognizer {
    public let spec: GestureSpec
    private let minDistance: Double
    /// The distance it may act at first (`soonerSwipeMinDistanceMM`, or `minDistance`).
    private let actsAt: Double
    /// The gesture's own, or the default divided by the profile's `timing-scale`.
    private let minVelocity: ScaledLimit
    private let maxAngle: Double
    private let directions: Set<Direction>
    @exclusivity(unchecked) private var matched: Direction?
    /// How far the fingers travelled while possible, mm (`progress`: the distance is the
    /// threshold a swipe waits for; its speed is judged once, when it gets there).
    @exclusivity(unchecked) private var travelled = 0.0

    init(spec: GestureSpec, sooner: Double? = nil, timing: EngineTiming = EngineTiming()) {
        self.spec = spec
        minDistance = spec.thresholds.minDistanceMM ?? defaultSwipeMinDistanceMM
        actsAt = spec.thresholds.minDistanceMM == nil ? min(sooner ?? minDistance, minDistance) : minDistance
        minVelocity = timing.speed(spec.thresholds.minVelocityMMPerS, default: defaultSwipeMinVelocityMMPerS)
        directions = spec.directions
        let diagonals = spec.directions.isEmpty || spec.directions.contains { $0.isDiagonal }
        maxAngle = spec.thresholds.maxAngleDeg
            ?? (diagonals ? defaultSwipeMaxAngleWithDiagonalsDeg : defaultSwipeMaxAngleDeg)
    }

    public override func evaluate(_ t: TouchSnapshot, _ input: RecognizerInput, state: RecognizerState) -> Evaluation {
        let distance = t.translation.length
        travelled = distance
        // The lift is the last word: the full distance, as without `sooner`.
        guard distance >= (input == .lifted ? minDistance : actsAt) else {
            return input == .lifted ? .fail(.tooShort(mm: distance, needsMM: minDistance)) : .undecided
        }
        let moved = Direction.nearest(to: t.translation)
        let (direction, off) = directions.isEmpty
            ? Direction.nearest(to: t.translation, among: Direction.compass)
            : Direction.nearest(to: t.translation, among: directions)
        // Short of its full distance it acts only on a clean swipe; what would fail it
        // waits for the full distance (a stroke still finding its way).
        let early = distance < minDistance
        // Early, only a straight stroke in its direction: a path that went round (a
        // circle's chord passes every direction) is no swipe yet. Direction, distance
        // and straightness decide it (issue 37): a slow, straight, clean stroke does
        // not wait for the last 50 ms to be fast, only for the stroke to be, on average.
        if early && (off > maxAngle || distance < t.path * soonerSwipeStraightness) {
            return .undecided
        }
        if off > maxAngle {
            let accepted = directions.isEmpty || directions.contains(moved)
            return .fail(accepted ? .offAxis(degrees: off, maxDegrees: maxAngle) : .wrongDirection(moved: moved))
        }
        let speed = early ? max(t.velocity.length, meanSpeed(t)) : t.velocity.length
        guard speed >= minVelocity.value else {
            return early ? .undecided : .fail(.tooSlow(mmPerS: speed, needsMMPerS: minVelocity.value, scale: minVelocity.scale))
        }
        matched = direction
        return .recognize
    }

    public override func annotate(_ event: inout GestureEvent, _ t: TouchSnapshot) {
        event.direction = matched ?? Direction.nearest(to: t.translation)
    }

    /// No, once the fingers have moved past the motion decision's distance in a
    /// direction farther than `maxAngle` from every accepted one.
    public override func couldAccept(_ t: TouchSnapshot) -> Bool {
        guard !directions.isEmpty, t.translation.length >= motionDecisionDistanceMM else { return true }
        return Direction.nearest(to: t.translation, among: directions).offDegrees <= maxAngle
    }

    public override var progress: Double? { fraction(travelled, of: actsAt) }

    /// Its distance along the direction it would take, times its straightness, over the
    /// distance it acts at: a stroke that curves (a centroid turning about a pivot
    /// finger) builds up less evidence than a straight one of the same length.
    public override func evidence(_ t: TouchSnapshot) -> Double {
        let (direction, _) = directions.isEmpty
            ? Direction.nearest(to: t.translation, among: Direction.compass)
            : Direction.nearest(to: t.translation, among: directions)
        let along = max(0, t.translation.x * direction.unitVector.x + t.translation.y * direction.unitVector.y)
        let straightness = t.path > 0 ? min(1, t.translation.length / t.path) : 1
        return along * straightness / actsAt
    }

    /// The stroke's mean speed since its finger count arrived, mm/s: steadier than the
    /// last 50 ms on a slow drag, whose frames a touchscreen's jitter makes uneven. (A
    /// hand that rested first is slower on average: its last 50 ms still count.)
    private func meanSpeed(_ t: TouchSnapshot) -> Double {
        let elapsed = t.time.seconds(since: t.countChangedAt)
        return elapsed > 0 ? t.path / elapsed : 0
    }

    public override func reset() {
        matched = nil
        travelled = 0
    }
}
