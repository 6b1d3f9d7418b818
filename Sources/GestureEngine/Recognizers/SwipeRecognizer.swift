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
    private let minVelocity: Double
    private let maxAngle: Double
    private let directions: Set<Direction>
    @exclusivity(unchecked) private var matched: Direction?
    /// How far the fingers travelled while possible, mm (`progress`: the distance is the
    /// threshold a swipe waits for; its speed is judged once, when it gets there).
    @exclusivity(unchecked) private var travelled = 0.0
    /// The path the fingers' centroid has travelled since the count settled, mm, and
    /// where it was last (a sooner swipe must be straight: `soonerSwipeStraightness`).
    @exclusivity(unchecked) private var path = 0.0
    @exclusivity(unchecked) private var last = Point.zero
    @exclusivity(unchecked) private var countSince: Timestamp?

    public init(spec: GestureSpec, sooner: Double? = nil) {
        self.spec = spec
        minDistance = spec.thresholds.minDistanceMM ?? defaultSwipeMinDistanceMM
        actsAt = spec.thresholds.minDistanceMM == nil ? min(sooner ?? minDistance, minDistance) : minDistance
        minVelocity = spec.thresholds.minVelocityMMPerS ?? defaultSwipeMinVelocityMMPerS
        directions = spec.directions
        let diagonals = spec.directions.isEmpty || spec.directions.contains { $0.isDiagonal }
        maxAngle = spec.thresholds.maxAngleDeg
            ?? (diagonals ? defaultSwipeMaxAngleWithDiagonalsDeg : defaultSwipeMaxAngleDeg)
    }

    public override func evaluate(_ t: TouchSnapshot, _ input: RecognizerInput, state: RecognizerState) -> Evaluation {
        let distance = t.translation.length
        travelled = distance
        if actsAt < minDistance {
            if countSince != t.countChangedAt { countSince = t.countChangedAt; path = 0; last = .zero }
            path += (t.translation - last).length
            last = t.translation
        }
        // The lift is the last word: the full distance, as without `sooner`.
        guard distance >= (input == .lifted ? minDistance : actsAt) else {
            return input == .lifted ? .fail(.tooShort(mm: distance, needsMM: minDistance)) : .undecided
        }
        let moved = Direction.nearest(to: t.translation)
        let (direction, off) = directions.isEmpty
            ? Direction.nearest(to: t.translation, among: Direction.compass)
            : Direction.nearest(to: t.translation, among: directions)
        // Short of its full distance it acts only on a clean swipe; what would fail it
        // waits for the full distance (a stroke still finding its way or its speed).
        let early = distance < minDistance
        // Early, only a straight stroke that still heads its way: a path that went round
        // (a circle's chord passes every direction) or is turning is no swipe yet.
        if early && (off > maxAngle || distance < path * soonerSwipeStraightness
                     || Direction.nearest(to: t.velocity, among: [direction]).offDegrees > maxAngle) {
            return .undecided
        }
        if off > maxAngle {
            let accepted = directions.isEmpty || directions.contains(moved)
            return .fail(accepted ? .offAxis(degrees: off, maxDegrees: maxAngle) : .wrongDirection(moved: moved))
        }
        let speed = t.velocity.length
        guard speed >= minVelocity else { return early ? .undecided : .fail(.tooSlow(mmPerS: speed, needsMMPerS: minVelocity)) }
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

    public override func reset() {
        matched = nil
        travelled = 0
        path = 0
        countSince = nil
    }
}
