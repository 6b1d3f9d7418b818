import TouchModel

/// The reference library's custom "transform" recognizer: translation, scale and
/// rotation together, for `fingers` (a range). Begins when any one of them passes
/// its own threshold (the pan, pinch and rotate defaults); no swipe-vs-pinch
/// decision, since it takes both.
public final class TransformRecognizer: RecognizerBase, GestureRecognizer {
    public let spec: GestureSpec
    private let fingers: ClosedRange<Int>
    private let minDistance: Double
    private let minScale: Double
    private let minDegrees: Double
    /// Each threshold's quantity while possible (`progress`: the nearest one to passing).
    @exclusivity(unchecked) private var measured = (distance: 0.0, amount: 1.0, degrees: 0.0)

    public init(spec: GestureSpec) {
        self.spec = spec
        fingers = fingerRange(of: spec)
        minDistance = spec.thresholds.minDistanceMM ?? defaultPanMinDistanceMM
        minScale = max(1.0001, spec.thresholds.minScale ?? defaultPinchMinScale)
        minDegrees = spec.thresholds.minRotationDeg ?? defaultRotateMinDegrees
    }

    public override func evaluate(_ t: TouchSnapshot, _ input: RecognizerInput, state: RecognizerState) -> Evaluation {
        if state.isActive { return continueActive(t, input, fingers: fingers) }
        let distance = t.translation.length
        let amount = t.scale >= 1 ? t.scale : 1 / max(t.scale, 0.0001)
        let degrees = abs(t.rotation) / Geometry.radiansPerDegree
        measured = (distance, amount, degrees)
        if distance >= minDistance || amount >= minScale || degrees >= minDegrees { return .begin }
        return input == .lifted ? .fail(.tooShort(mm: distance, needsMM: minDistance)) : .undecided
    }

    public override var progress: Double? {
        max(fraction(measured.distance, of: minDistance), fraction(measured.amount - 1, of: minScale - 1),
            fraction(measured.degrees, of: minDegrees))
    }

    public override func reset() { measured = (0, 1, 0) }
}
