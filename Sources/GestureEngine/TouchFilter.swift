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
        if filtersEdges(spec) {
            let zone = spec.thresholds.edgeZoneMM ?? defaultEdgeZoneMM
            if nearestEdge(landing, device.size, zone: zone, among: spec.edges) == nil { return .notAtEdge }
        }
        return nil
    }

    /// Whether the spec's `edges` filter where its touches must begin: for every kind
    /// but one that starts at an edge and picks its own (an edge pan, whose motion
    /// gate checks the landing: `MotionGate`).
    static func filtersEdges(_ spec: GestureSpec) -> Bool {
        !spec.kind.traits.startsAtEdge && !spec.edges.isEmpty
    }

    /// Whether `p` lies within `zone` mm of one of the edges in `mask` (bit
    /// `Edge.bit`; 0: all four), on a surface of `size`.
    @inline(__always)
    static func isNearEdge(_ p: Point, _ size: Size, zone: Double, in mask: UInt8) -> Bool {
        (mask == 0 || mask & Edge.left.bit != 0) && p.x <= zone
            || (mask == 0 || mask & Edge.right.bit != 0) && size.width - p.x <= zone
            || (mask == 0 || mask & Edge.top.bit != 0) && p.y <= zone
            || (mask == 0 || mask & Edge.bottom.bit != 0) && size.height - p.y <= zone
    }

    /// The nearest edge within `zone` mm of `p`, among `edges` (empty = all four). All
    /// four are asked first, with no set lookups (each touch-down on a touchscreen asks,
    /// and most land near no edge): the nearest of all four, if it is one of `edges`, is
    /// also the nearest of them.
    static func nearestEdge(_ p: Point, _ size: Size, zone: Double, among edges: Set<Edge>) -> Edge? {
        guard let nearest = nearestEdge(p, size, zone: zone, where: { _ in true }) else { return nil }
        if edges.isEmpty || edges.contains(nearest) { return nearest }
        return nearestEdge(p, size, zone: zone, where: edges.contains)
    }

    @inline(__always)
    private static func nearestEdge(_ p: Point, _ size: Size, zone: Double, where included: (Edge) -> Bool) -> Edge? {
        var best: Edge?
        var bestDistance = Double.infinity
        for edge in Edge.all where included(edge) {
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

    /// This edge in a mask of edges (`TouchFilter.isNearEdge`).
    var bit: UInt8 {
        switch self {
        case .top: 1
        case .bottom: 2
        case .left: 4
        case .right: 8
        }
    }

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
