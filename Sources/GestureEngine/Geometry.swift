import TouchModel

/// Degrees ↔ radians, and the direction helpers every directional recognizer shares.
enum Geometry {
    static let radiansPerDegree = Double.pi / 180
}

extension Direction {
    /// The unit vector of the direction in device coordinates (+y is down).
    var unitVector: Point {
        let d = 0.7071067811865476
        switch self {
        case .up: return Point(x: 0, y: -1)
        case .down: return Point(x: 0, y: 1)
        case .left: return Point(x: -1, y: 0)
        case .right: return Point(x: 1, y: 0)
        case .upLeft: return Point(x: -d, y: -d)
        case .upRight: return Point(x: d, y: -d)
        case .downLeft: return Point(x: -d, y: d)
        case .downRight: return Point(x: d, y: d)
        }
    }

    /// The direction's angle from +x in radians (+y is down): what `atan2` of
    /// `unitVector` gives, as a constant, so choosing a direction costs one `atan2`.
    var angle: Double {
        switch self {
        case .right: return 0
        case .downRight: return .pi / 4
        case .down: return .pi / 2
        case .downLeft: return 3 * .pi / 4
        case .left: return .pi
        case .upLeft: return -3 * .pi / 4
        case .up: return -.pi / 2
        case .upRight: return -.pi / 4
        }
    }

    var isDiagonal: Bool {
        switch self {
        case .up, .down, .left, .right: return false
        case .upLeft, .upRight, .downLeft, .downRight: return true
        }
    }

    /// The eight directions, stored once (`allCases` may build an array per call).
    static let compass: [Direction] = Direction.allCases

    /// The nearest of the eight compass directions to a displacement.
    static func nearest(to v: Point) -> Direction {
        // Sectors of 45° centred on each direction: compare against tan 22.5°, no atan2
        // (a pan annotates every change with it).
        let tan22 = 0.41421356237309503
        let ax = abs(v.x), ay = abs(v.y)
        if ay <= ax * tan22 { return v.x < 0 ? .left : .right }
        if ax <= ay * tan22 { return v.y < 0 ? .up : .down }
        return v.y < 0 ? (v.x < 0 ? .upLeft : .upRight) : (v.x < 0 ? .downLeft : .downRight)
    }

    /// The nearest direction of `candidates` and the angle between it and `v`, in degrees.
    static func nearest<C: Collection>(to v: Point, among candidates: C) -> (direction: Direction, offDegrees: Double)
    where C.Element == Direction {
        let angle = Angle.atan2(v.y, v.x)
        var best = Direction.right
        var bestOff = Double.infinity
        for d in compass where candidates.contains(d) {
            let off = abs(Angle.normalized(angle - d.angle))
            if off < bestOff { best = d; bestOff = off }
        }
        return (best, bestOff / Geometry.radiansPerDegree)
    }
}
