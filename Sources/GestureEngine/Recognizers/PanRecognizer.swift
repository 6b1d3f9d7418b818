import TouchModel

/// Distance before a pan begins, mm. UIKit's pan hysteresis is about 10 pt (~2 mm);
/// libinput waits for 3 mm of motion before it trusts a touch's direction.
let defaultPanMinDistanceMM = 3.0
/// With an axis lock, how far off the axis the motion may start, degrees.
let defaultPanAxisToleranceDeg = 30.0

/// UIPanGestureRecognizer (with minimumNumberOfTouches…maximumNumberOfTouches):
/// the fingers move together; continuous, reporting translation and velocity.
/// An optional axis lock keeps only the motion along that axis and fails a pan that
/// starts off it; `directions`, if set, filters the direction it starts in.
public final class PanRecognizer: RecognizerBase, GestureRecognizer {
    public let spec: GestureSpec
    private let fingers: ClosedRange<Int>
    private let minDistance: Double
    private let axisTolerance: Double
    private let axis: Axis?
    private let directions: Set<Direction>
    /// How far the fingers moved while possible, mm (`progress`).
    @exclusivity(unchecked) private var moved = 0.0

    public init(spec: GestureSpec) {
        self.spec = spec
        fingers = fingerRange(of: spec)
        minDistance = spec.thresholds.minDistanceMM ?? defaultPanMinDistanceMM
        axisTolerance = spec.thresholds.maxAngleDeg ?? defaultPanAxisToleranceDeg
        axis = spec.axis
        directions = spec.directions
    }

    public override func evaluate(_ t: TouchSnapshot, _ input: RecognizerInput, state: RecognizerState) -> Evaluation {
        if state.isActive { return continueActive(t, input, fingers: fingers) }
        let distance = t.translation.length
        moved = distance
        guard distance >= minDistance else {
            return input == .lifted ? .fail(.tooShort(mm: distance, needsMM: minDistance)) : .undecided
        }
        if let axis {
            let along = axis == .horizontal ? abs(t.translation.x) : abs(t.translation.y)
            let off = Angle.atan2(along == 0 ? distance : (distance * distance - along * along).squareRoot(), along)
                / Geometry.radiansPerDegree
            if off > axisTolerance { return .fail(.offAxis(degrees: off, maxDegrees: axisTolerance)) }
        }
        if !directions.isEmpty {
            let moved = Direction.nearest(to: t.translation)
            if !directions.contains(moved) { return .fail(.wrongDirection(moved: moved)) }
        }
        return .begin
    }

    public override func annotate(_ event: inout GestureEvent, _ t: TouchSnapshot) {
        switch axis {
        case .horizontal?:
            event.translation.y = 0
            event.velocity.y = 0
        case .vertical?:
            event.translation.x = 0
            event.velocity.x = 0
        case nil:
            break
        }
        if event.translation != .zero { event.direction = Direction.nearest(to: event.translation) }
    }

    /// No, once the fingers have moved past the motion decision's distance off its
    /// axis or in a direction it does not take.
    public override func couldAccept(_ t: TouchSnapshot) -> Bool {
        let distance = t.translation.length
        guard distance >= motionDecisionDistanceMM else { return true }
        if let axis {
            let along = axis == .horizontal ? abs(t.translation.x) : abs(t.translation.y)
            let off = Angle.atan2((distance * distance - along * along).squareRoot(), along) / Geometry.radiansPerDegree
            if off > axisTolerance { return false }
        }
        return directions.isEmpty || directions.contains(Direction.nearest(to: t.translation))
    }

    public override var progress: Double? { fraction(moved, of: minDistance) }

    public override func reset() { moved = 0 }
}
