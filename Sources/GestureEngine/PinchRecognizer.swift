import TouchModel

/// Scale change before a pinch begins (1.1 = the outermost fingers 10 % farther apart
/// or closer). UIKit begins a pinch after a small change of the touches' distance;
/// 10 % of a typical 40 mm spread is 4 mm, past sensor jitter and a swipe's wobble.
let defaultPinchMinScale = 1.1

/// UIPinchGestureRecognizer for 2–5 fingers: the outermost fingers move apart or
/// together. Continuous, reporting scale (relative to the fingers' spread when their
/// count settled, as UIKit's is relative to touch-down) and its velocity.
public final class PinchRecognizer: GestureRecognizer {
    public let spec: GestureSpec
    private let fingers: ClosedRange<Int>
    private let minScale: Double

    public init(spec: GestureSpec) {
        self.spec = spec
        fingers = fingerRange(of: spec, atLeast: 2)
        minScale = max(1.0001, spec.thresholds.minScale ?? defaultPinchMinScale)
    }

    public func evaluate(_ t: TouchSnapshot, _ input: RecognizerInput, state: RecognizerState) -> Evaluation {
        if state.isActive { return continueActive(t, input, fingers: fingers) }
        switch MotionGate.check(t, input, fingers: fingers, needs: .deformation) {
        case .wait: return .undecided
        case let .fail(reason): return .fail(reason)
        case .open: break
        }
        // Spreading by 1.1 and closing to 1/1.1 are the same amount of pinch.
        let amount = t.scale >= 1 ? t.scale : 1 / max(t.scale, 0.0001)
        guard amount >= minScale else {
            return input == .lifted ? .fail(.tooLittleScale(scale: t.scale, needs: minScale)) : .undecided
        }
        return .begin
    }

    public func reset() {}
}
