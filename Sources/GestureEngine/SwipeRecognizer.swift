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

/// UISwipeGestureRecognizer: the fingers travel far and fast enough in one of the
/// accepted directions. Discrete: recognized as soon as the motion qualifies, or at
/// the lift if the fingers were still settling then.
public final class SwipeRecognizer: RecognizerBase, GestureRecognizer {
    public let spec: GestureSpec
    private let minDistance: Double
    private let minVelocity: Double
    private let maxAngle: Double
    private let directions: Set<Direction>
    @exclusivity(unchecked) private var matched: Direction?
    /// How far the fingers travelled while possible, mm (`progress`: the distance is the
    /// threshold a swipe waits for; its speed is judged once, when it gets there).
    @exclusivity(unchecked) private var travelled = 0.0

    public init(spec: GestureSpec) {
        self.spec = spec
        minDistance = spec.thresholds.minDistanceMM ?? defaultSwipeMinDistanceMM
        minVelocity = spec.thresholds.minVelocityMMPerS ?? defaultSwipeMinVelocityMMPerS
        directions = spec.directions
        let diagonals = spec.directions.isEmpty || spec.directions.contains { $0.isDiagonal }
        maxAngle = spec.thresholds.maxAngleDeg
            ?? (diagonals ? defaultSwipeMaxAngleWithDiagonalsDeg : defaultSwipeMaxAngleDeg)
    }

    public override func evaluate(_ t: TouchSnapshot, _ input: RecognizerInput, state: RecognizerState) -> Evaluation {
        let distance = t.translation.length
        travelled = distance
        guard distance >= minDistance else {
            return input == .lifted ? .fail(.tooShort(mm: distance, needsMM: minDistance)) : .undecided
        }
        let moved = Direction.nearest(to: t.translation)
        let (direction, off) = directions.isEmpty
            ? Direction.nearest(to: t.translation, among: Direction.compass)
            : Direction.nearest(to: t.translation, among: directions)
        if off > maxAngle {
            let accepted = directions.isEmpty || directions.contains(moved)
            return .fail(accepted ? .offAxis(degrees: off, maxDegrees: maxAngle) : .wrongDirection(moved: moved))
        }
        let speed = t.velocity.length
        guard speed >= minVelocity else { return .fail(.tooSlow(mmPerS: speed, needsMMPerS: minVelocity)) }
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

    public override var progress: Double? { fraction(travelled, of: minDistance) }

    public override func reset() {
        matched = nil
        travelled = 0
    }
}
