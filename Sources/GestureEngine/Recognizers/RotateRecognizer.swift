import TouchModel

/// Turn before a rotation begins, degrees. UIKit's rotation recognizer begins after a
/// few degrees; 10° of a 40 mm spread is 3.5 mm of arc per finger, past sensor jitter.
let defaultRotateMinDegrees = 10.0

/// UIRotationGestureRecognizer for 2–5 fingers: the outermost fingers turn around
/// each other. Continuous, reporting rotation in radians (clockwise positive, as on
/// screen) and its velocity. Its direction (`clockwise` or `counterclockwise`) is the
/// way it turned when it crossed its threshold, as for a pinch (`PinchRecognizer`);
/// bound with `command:` alone, like a pinch, it is decided at the lift on the net turn.
public final class RotateRecognizer: RecognizerBase, GestureRecognizer {
    public let spec: GestureSpec
    private let fingers: ClosedRange<Int>
    private let minDegrees: Double
    private let accepts: (clockwise: Bool, counterclockwise: Bool)
    private let atLift: Bool
    @exclusivity(unchecked) private var matched: Sense?
    /// With `atLift`: the rotation on the last frame with the count settled in the fingers.
    @exclusivity(unchecked) private var lastRotation = 0.0
    /// How far the fingers turned while possible, degrees either way (`progress`).
    @exclusivity(unchecked) private var turned = 0.0

    public init(spec: GestureSpec) {
        self.spec = spec
        fingers = fingerRange(of: spec, atLeast: 2)
        minDegrees = spec.thresholds.minRotationDeg ?? defaultRotateMinDegrees
        accepts = (spec.senses.isEmpty || spec.senses.contains(.clockwise),
                   spec.senses.isEmpty || spec.senses.contains(.counterclockwise))
        atLift = spec.decidesAtLift
    }

    public override func evaluate(_ t: TouchSnapshot, _ input: RecognizerInput, state: RecognizerState) -> Evaluation {
        if state.isActive { return continueActive(t, input, fingers: fingers) }
        if atLift && input != .lifted && t.isSettled && fingers.contains(t.fingers) { lastRotation = t.rotation }
        let rotation = atLift ? lastRotation : t.rotation
        let degrees = abs(rotation) / Geometry.radiansPerDegree
        turned = degrees
        if atLift && input != .lifted { return .undecided }
        guard degrees >= minDegrees else {
            return input == .lifted ? .fail(.tooLittleRotation(degrees: degrees, needsDegrees: minDegrees)) : .undecided
        }
        let sense: Sense = rotation > 0 ? .clockwise : .counterclockwise
        guard sense == .clockwise ? accepts.clockwise : accepts.counterclockwise else {
            return .fail(.wrongSense(moved: sense))
        }
        matched = sense
        return atLift ? .recognize : .begin
    }

    /// As a pinch's (`PinchRecognizer.annotate`): at the end, the net way it turned.
    public override func annotate(_ event: inout GestureEvent, _ t: TouchSnapshot) {
        switch event.phase {
        case .ended, .cancelled: event.sense = t.rotation >= 0 ? .clockwise : .counterclockwise
        case .recognized:
            event.sense = matched
            event.rotation = lastRotation  // the net turn it was decided on, not the lift's
        case .began, .changed: event.sense = matched
        }
    }

    public override var progress: Double? { fraction(turned, of: minDegrees) }

    /// The turn of the touches now against its threshold (asked while its gate waits,
    /// when `turned` is not kept).
    public override func evidence(_ t: TouchSnapshot) -> Double {
        abs(t.rotation) / Geometry.radiansPerDegree / minDegrees
    }

    public override func reset() {
        matched = nil
        turned = 0
        lastRotation = 0
    }
}
