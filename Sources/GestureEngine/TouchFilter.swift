import TouchModel

/// UIKit's shouldReceiveTouch, as configuration: on touchscreens, where a gesture's
/// touches must begin (a region, or an edge zone). Which devices it listens to (kind,
/// name glob) is `DeviceFilter.admits`, checked once when the engine is made.
enum TouchFilter {
    /// Whether a touch sequence that began at `landing` reaches a recognizer with this
    /// spec, and if not, why. Regions and edges only filter touchscreens: on a touchpad
    /// a place on the pad is not a place on the screen.
    static func receives(_ spec: GestureSpec, _ device: DeviceInfo, landing: Point, normalized: Point) -> FailureReason? {
        guard device.kind == .touchscreen else { return nil }
        if let r = spec.region, !(r.x.contains(normalized.x) && r.y.contains(normalized.y)) {
            return .outsideRegion
        }
        // An edge pan picks its own edge; for the others `edges` is a filter.
        if spec.kind != .edgePan, !spec.edges.isEmpty {
            let zone = spec.thresholds.edgeZoneMM ?? defaultEdgeZoneMM
            if nearestEdge(landing, device.size, zone: zone, among: spec.edges) == nil { return .notAtEdge }
        }
        return nil
    }

    /// The nearest edge within `zone` mm of `p`, among `edges` (empty = all four).
    static func nearestEdge(_ p: Point, _ size: Size, zone: Double, among edges: Set<Edge>) -> Edge? {
        var best: Edge?
        var bestDistance = Double.infinity
        for edge in Edge.all where edges.isEmpty || edges.contains(edge) {
            let d: Double
            switch edge {
            case .left: d = p.x
            case .right: d = size.width - p.x
            case .top: d = p.y
            case .bottom: d = size.height - p.y
            }
            if d <= zone && d < bestDistance { best = edge; bestDistance = d }
        }
        return best
    }
}

extension Edge {
    static let all: [Edge] = Edge.allCases

    /// The direction that leads away from the edge, into the surface.
    var inward: Direction {
        switch self {
        case .left: return .right
        case .right: return .left
        case .top: return .down
        case .bottom: return .up
        }
    }
}
