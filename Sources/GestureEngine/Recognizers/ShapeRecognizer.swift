import TouchModel

/// Score a drawn shape needs by default (`min-score:`), 0…1. Measured in `make bench`
/// ("shape accuracy", docs/ENGINE.md "Shape"): the seeded synthetic samples of the
/// built-in shapes score a median 0.86 against their own shape (p25 0.83, p5 0.78);
/// of the bundled recordings' ordinary strokes only the bcm5974's drawn circles pass
/// the size and bend rules, and score at most 0.79.
public let defaultShapeMinScore = 0.80
/// A shape's larger side, at least, mm: smaller is a tap's or a rest's wobble.
let shapeMinSizeMM = 10.0
/// How far a shape must bend off a straight line: the ratio of the spread of its
/// points across their main axis to along it (0 a line, 1 as wide as long). The
/// bundled recordings' swipes, scrolls and drags bend 0.01 to just under 0.2 (a
/// Synaptics scroll that curves); an 'l' bends 0.5. Below it, a stroke is a swipe's
/// and the shape fails.
public let shapeMinBend = 0.2
/// Mean match distance (in units of the shape's larger side) at which the score is 0;
/// a score is 1 - distance / this.
let shapeScoreScale = 0.4
/// The path: a point kept each time the centroid has moved this far, mm …
let shapePointSpacingMM = 0.5
/// … in a buffer of this many, allocated once; when it is full every other point is
/// dropped and the spacing doubled (a 2 m stroke still fits, coarser).
let shapeMaxPathPoints = 512

/// A shape drawn by the hand: the path of the fingers' centroid (1–5 fingers) matched
/// at the lift against the built-in and the user's recorded templates with $Q
/// (`QRecognizer`, Vatavu, Anthony and Wobbrock 2018). Discrete: it decides once the
/// fingers lift, when the whole stroke is known, and reports the shape's name and its
/// score (0…1). It fires when the stroke looks most like one of the shapes it takes
/// and scores at least `min-score`.
///
/// A shape never takes a swipe's or a pan's stroke: a stroke that is too small or too
/// straight (`shapeMinBend`) fails before it is compared with anything; a pan begins
/// while the stroke is drawn and wins; a swipe for the same fingers waits for the
/// shape to fail (the arena's rule, docs/ENGINE.md "Shape"), which a straight stroke
/// does at the lift.
///
/// ```
///  drawing (points kept, 0 allocations) ──lifted──► size < 10 mm ──► fail (too small)
///                                                  bend < 0.2 ──► fail (too straight)
///                                                  best template not taken / score < min ──► fail
///                                                  else ──► recognize (shape, score)
/// ```
public final class ShapeRecognizer: RecognizerBase, GestureRecognizer {
    public let spec: GestureSpec
    private let minScore: Double
    /// The templates' clouds, their names, and whether this gesture takes each.
    private let clouds: [QRecognizer.Cloud]
    private let names: [String]
    private let takes: [Bool]
    private let path: UnsafeMutableBufferPointer<Point>
    @exclusivity(unchecked) private var pathCount = 0
    @exclusivity(unchecked) private var spacing = shapePointSpacingMM
    /// The fingers the path is drawn with: a count that grows starts the path over,
    /// one that shrinks (fingers lifting) stops it.
    @exclusivity(unchecked) private var pathFingers = 0
    /// More fingers down than it takes: not its stroke; it fails then, not at the lift,
    /// and the arena asks it nothing more for the sequence (a 1-finger shape was asked
    /// on every frame of every 2- to 5-finger gesture; callgrind, docs/PERFORMANCE.md).
    private let mostFingers: Int
    @exclusivity(unchecked) private var candidate = QRecognizer.Cloud()
    @exclusivity(unchecked) private var scratch = QRecognizer.Scratch()
    /// The decision: the template it looked most like and its score.
    @exclusivity(unchecked) private var best = -1
    @exclusivity(unchecked) private var score = 0.0

    public init(spec: GestureSpec) {
        self.spec = spec
        mostFingers = spec.fingers.upperBound
        minScore = spec.thresholds.minScore ?? defaultShapeMinScore
        let templates = ShapeTemplate.library(user: spec.shapeTemplates)
        var clouds: [QRecognizer.Cloud] = [], names: [String] = [], takes: [Bool] = []
        for t in templates {
            guard let cloud = QRecognizer.Cloud(t.points) else { continue }
            clouds.append(cloud)
            names.append(t.name)
            takes.append(spec.shapes.isEmpty || spec.shapes.contains(t.name))
        }
        self.clouds = clouds
        self.names = names
        self.takes = takes
        path = .allocate(capacity: shapeMaxPathPoints)
    }

    deinit { path.deallocate() }

    public override func evaluate(_ t: TouchSnapshot, _ input: RecognizerInput, state: RecognizerState) -> Evaluation {
        switch input {
        case .touches:
            if t.currentFingers > mostFingers { return .fail(.fingers(have: t.currentFingers, need: spec.fingers)) }
            follow(t)
            return .undecided
        case .timer: return .undecided
        case .lifted: return decide()
        }
    }

    /// Keeps the centroid's path: a point each `spacing` mm. Allocates nothing.
    @inline(__always)
    private func follow(_ t: TouchSnapshot) {
        if t.currentFingers > pathFingers {
            pathFingers = t.currentFingers
            pathCount = 0
            spacing = shapePointSpacingMM
        }
        guard t.currentFingers == pathFingers else { return }
        let p = t.location
        if pathCount > 0 {
            let d = p - path[pathCount - 1]
            guard d.x * d.x + d.y * d.y >= spacing * spacing else { return }
        }
        if pathCount == shapeMaxPathPoints { thin() }
        path[pathCount] = p
        pathCount += 1
    }

    /// Drops every other point and doubles the spacing.
    private func thin() {
        var kept = 0
        for i in stride(from: 0, to: pathCount, by: 2) { path[kept] = path[i]; kept += 1 }
        pathCount = kept
        spacing *= 2
    }

    private func decide() -> Evaluation {
        guard !clouds.isEmpty else { return .fail(.noShapeTemplate) }
        let stroke = UnsafeBufferPointer(rebasing: path[0..<pathCount])
        var minX = Double.infinity, maxX = -Double.infinity, minY = Double.infinity, maxY = -Double.infinity
        for p in stroke {
            minX = min(minX, p.x); maxX = max(maxX, p.x); minY = min(minY, p.y); maxY = max(maxY, p.y)
        }
        let size = pathCount < 2 ? 0 : max(maxX - minX, maxY - minY)
        guard size >= shapeMinSizeMM, QRecognizer.normalize(stroke, into: &candidate, scratch: &scratch) else {
            return .fail(.shapeTooSmall(mm: size, needsMM: shapeMinSizeMM))
        }
        let bend = Self.bend(candidate)
        guard bend >= shapeMinBend else { return .fail(.tooStraight(bend: bend, needs: shapeMinBend)) }
        var bestDistance = Double.infinity
        best = -1
        for k in clouds.indices {
            let d = QRecognizer.distance(candidate, clouds[k], worstUseful: bestDistance, scratch: &scratch)
            if d < bestDistance { bestDistance = d; best = k }
        }
        guard best >= 0 else { return .fail(.noShapeTemplate) }
        score = max(0, 1 - bestDistance / shapeScoreScale)
        guard takes[best], score >= minScore else {
            return .fail(.unlikeShape(best: names[best], score: score, needs: minScore, taken: takes[best]))
        }
        return .recognize
    }

    /// The spread of a cloud's points across their main axis over the spread along it
    /// (square roots of the covariance's eigenvalues): 0 for a line.
    public static func bend(_ c: QRecognizer.Cloud) -> Double {
        var sxx = 0.0, syy = 0.0, sxy = 0.0
        for k in 0..<QRecognizer.count {  // centred already
            sxx += c.xs[k] * c.xs[k]; syy += c.ys[k] * c.ys[k]; sxy += c.xs[k] * c.ys[k]
        }
        let mean = (sxx + syy) / 2, diff = (sxx - syy) / 2
        let root = (diff * diff + sxy * sxy).squareRoot()
        let major = mean + root, minor = max(0, mean - root)
        return major > 0 ? (minor / major).squareRoot() : 0
    }

    public override func annotate(_ event: inout GestureEvent, _ t: TouchSnapshot) {
        if best >= 0 {
            event.shape = names[best]
            event.score = score
        }
    }

    public override func reset() {
        pathCount = 0
        pathFingers = 0
        spacing = shapePointSpacingMM
        best = -1
        score = 0
    }
}

extension ShapeTemplate {
    /// The templates a shape gesture compares with: the user's recorded ones, and the
    /// built-in ones of the names the user has not recorded (a recorded 'z' replaces
    /// the built-in 'z').
    public static func library(user: [ShapeTemplate]) -> [ShapeTemplate] {
        let recorded = Set(user.map(\.name))
        return user + builtIn.filter { !recorded.contains($0.name) }
    }
}
