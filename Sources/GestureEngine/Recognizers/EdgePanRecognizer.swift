import TouchModel

/// Width of a touchscreen's edge zone, mm. UIKit's screen-edge pan starts within
/// about 20 pt of the edge (3–4 mm on a phone); fingers on a laptop's screen land
/// less precisely against the bezel, so 6 mm.
let defaultEdgeZoneMM = 6.0
/// Inward travel before an edge pan begins, mm (the pan's hysteresis, a little more
/// so a tap near the edge stays a tap).
let defaultEdgePanMinDistanceMM = 5.0

/// UIScreenEdgePanGestureRecognizer: a pan that starts in a touchscreen's edge zone
/// and moves inward. Continuous; `direction` on its events is the inward direction.
/// Its motion gate fails a touch that landed outside the zone, and fails it at once
/// on a touchpad (`MotionGate`): the pad's edge is not the screen's.
public final class EdgePanRecognizer: RecognizerBase, GestureRecognizer {
    enum Phase: Equatable {
        case unknown
        case fromEdge(Edge)
    }

    public let spec: GestureSpec
    private let fingers: ClosedRange<Int>
    private let device: DeviceInfo
    private let zone: Double
    private let minDistance: Double
    /// The edges it listens to (empty: all four).
    private let edges: Set<Edge>
    @exclusivity(unchecked) private var phase = Phase.unknown
    /// How far the fingers moved inward while possible, mm (`progress`).
    @exclusivity(unchecked) private var movedIn = 0.0

    public init(spec: GestureSpec, device: DeviceInfo) {
        self.spec = spec
        fingers = fingerRange(of: spec)
        self.device = device
        zone = spec.thresholds.edgeZoneMM ?? defaultEdgeZoneMM
        minDistance = spec.thresholds.minDistanceMM ?? defaultEdgePanMinDistanceMM
        edges = spec.edges
    }

    public override func evaluate(_ t: TouchSnapshot, _ input: RecognizerInput, state: RecognizerState) -> Evaluation {
        if state.isActive { return continueActive(t, input, fingers: fingers) }
        let edge: Edge
        switch phase {
        case let .fromEdge(e):
            edge = e
        case .unknown:
            // The motion gate let only a touch that landed in an edge zone through.
            guard let e = TouchFilter.nearestEdge(t.landing, device.size, zone: zone, among: edges) else {
                return .fail(.notAtEdge)
            }
            phase = .fromEdge(e)
            edge = e
        }
        let inwardUnit = edge.inward.unitVector
        let inward = t.translation.x * inwardUnit.x + t.translation.y * inwardUnit.y
        let along = abs(t.translation.x * inwardUnit.y - t.translation.y * inwardUnit.x)
        movedIn = inward
        if along >= minDistance && along > inward {
            return .fail(.wrongDirection(moved: Direction.nearest(to: t.translation)))
        }
        guard inward >= minDistance else {
            return input == .lifted ? .fail(.tooShort(mm: max(0, inward), needsMM: minDistance)) : .undecided
        }
        return .begin
    }

    public override func annotate(_ event: inout GestureEvent, _ t: TouchSnapshot) {
        if case let .fromEdge(edge) = phase { event.direction = edge.inward }
    }

    public override var progress: Double? { fraction(movedIn, of: minDistance) }

    public override func reset() {
        phase = .unknown
        movedIn = 0
    }
}
