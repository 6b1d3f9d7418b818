import TouchModel

/// One drawn example of a shape: the hand's path, mm or any unit (only its form
/// counts: it is resampled, centred and scaled). Built in (`ShapeTemplate.builtIn`) or
/// recorded by the user (`gestured record-shape`, docs/SHAPES.md).
public struct ShapeTemplate: Sendable, Equatable {
    public var name: String
    public var points: [Point]
    public init(name: String, points: [Point]) {
        self.name = name
        self.points = points
    }
}

extension ShapeTemplate {
    /// The shapes gestured knows without any file, as drawn on the surface (+y down).
    /// Chosen to be told apart by a point cloud, which ignores the order and direction
    /// of drawing but not the orientation: no circle (`gesture: circle` has it), no
    /// 'v' beside the check, no '2' beside the 'z'. Each has three differently
    /// proportioned examples: $Q takes the nearest one.
    public static let builtInNames = ["z", "n", "s", "l", "check", "caret", "triangle", "w"]

    public static let builtIn: [ShapeTemplate] = {
        func t(_ name: String, _ xy: [(Double, Double)]) -> ShapeTemplate {
            ShapeTemplate(name: name, points: xy.map { Point(x: $0.0, y: $0.1) })
        }
        let shapes = [
            t("z", [(0, 0), (1, 0), (0, 1), (1, 1)]),
            t("n", [(0, 1), (0, 0), (1, 1), (1, 0)]),
            ShapeTemplate(name: "s", points: sCurve(width: 1, height: 1.2)),
            t("l", [(0, 0), (0, 1), (0.8, 1)]),
            t("check", [(0, 0.55), (0.3, 1), (1, 0)]),
            t("caret", [(0, 1), (0.5, 0), (1, 1)]),
            t("triangle", [(0.5, 0), (1, 0.87), (0, 0.87), (0.5, 0)]),
            t("w", [(0, 0), (0.25, 1), (0.5, 0.15), (0.75, 1), (1, 0)]),
        ]
        // Each as drawn wider and taller: hands stretch a 'z' more than they turn it.
        return shapes.flatMap { shape in
            [1, 0.75, 1.33].map { k in
                ShapeTemplate(name: shape.name, points: shape.points.map { Point(x: $0.x * k, y: $0.y / k) })
            }
        }
    }()

    /// An 's' from its top right: round the top to the middle, then round the bottom
    /// to the lower left (two arcs of 250°).
    static func sCurve(width: Double, height: Double) -> [Point] {
        var points: [Point] = []
        let r = Point(x: width / 2, y: height / 4)
        for k in 0...24 {  // upper arc, -20° back to -270°
            let a = (-20.0 - 250.0 * Double(k) / 24) * Geometry.radiansPerDegree
            points.append(Point(x: r.x + r.x * sine(a + .pi / 2), y: r.y + r.y * sine(a)))
        }
        for k in 1...24 {  // lower arc, -90° on to 160°
            let a = (-90.0 + 250.0 * Double(k) / 24) * Geometry.radiansPerDegree
            points.append(Point(x: r.x + r.x * sine(a + .pi / 2), y: 3 * r.y + r.y * sine(a)))
        }
        return points
    }

    /// sin(a) by its series on -π…π (the engine has no libm): to 1e-12, for building
    /// templates only.
    static func sine(_ a: Double) -> Double {
        let x = Angle.normalized(a)
        var term = x, sum = 0.0
        for k in 0..<20 {
            sum += term
            term *= -x * x / Double((2 * k + 2) * (2 * k + 3))
        }
        return sum
    }
}
