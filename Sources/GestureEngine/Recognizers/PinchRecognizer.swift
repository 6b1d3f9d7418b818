import TouchModel

/// Scale change before a pinch begins (1.1 = the outermost fingers 10 % farther apart
/// or closer). UIKit begins a pinch after a small change of the touches' distance;
/// 10 % of a typical 40 mm spread is 4 mm, past sensor jitter and a swipe's wobble.
let defaultPinchMinScale = 1.1

/// UIPinchGestureRecognizer for 2–5 fingers: the outermost fingers move apart or
/// together. Continuous, reporting scale (relative to the fingers' spread when their
/// count settled, as UIKit's is relative to touch-down) and its velocity.
///
/// Direction (`in` or `out`) is decided once, when the scale first crosses the
/// threshold either way: a pinch that closes 10 % and then spreads is a pinch `in`
/// (reporting scale both ways until the lift), as a swipe's direction is the one it
/// had when it crossed its distance. A binding for the other direction fails then
/// ("pinched in, which it does not accept"). Its `ended` (or `cancelled`) event says
/// the net direction, the one its scale shows.
///
/// Bound with `command:` alone (`GestureSpec.decidesAtLift`) it is discrete instead:
/// nothing happens while the fingers move, and at the lift it is recognized when the
/// net scale, the last one with the spec's fingers down, passed the threshold in a
/// direction it takes (issue 24: a pinch that closed to 0.89 as the fingers settled
/// and ended spread to 1.94 fires `direction: out`, not `in`).
public final class PinchRecognizer: RecognizerBase, GestureRecognizer {
    public let spec: GestureSpec
    private let fingers: ClosedRange<Int>
    private let minScale: Double
    private let accepts: (in: Bool, out: Bool)
    private let atLift: Bool
    @exclusivity(unchecked) private var matched: Sense?
    /// With `atLift`: the scale on the last frame with the count settled in the fingers.
    @exclusivity(unchecked) private var lastScale = 1.0
    /// The pinch so far while possible, as `amount` below (1: none) (`progress`).
    @exclusivity(unchecked) private var pinched = 1.0

    public init(spec: GestureSpec) {
        self.spec = spec
        fingers = fingerRange(of: spec, atLeast: 2)
        minScale = max(1.0001, spec.thresholds.minScale ?? defaultPinchMinScale)
        accepts = (spec.senses.isEmpty || spec.senses.contains(.in), spec.senses.isEmpty || spec.senses.contains(.out))
        atLift = spec.decidesAtLift
    }

    public override func evaluate(_ t: TouchSnapshot, _ input: RecognizerInput, state: RecognizerState) -> Evaluation {
        if state.isActive { return continueActive(t, input, fingers: fingers) }
        if atLift && input != .lifted && t.isSettled && fingers.contains(t.fingers) { lastScale = t.scale }
        let scale = atLift ? lastScale : t.scale
        // Spreading by 1.1 and closing to 1/1.1 are the same amount of pinch.
        let amount = scale >= 1 ? scale : 1 / max(scale, 0.0001)
        pinched = amount
        if atLift && input != .lifted { return .undecided }
        guard amount >= minScale else {
            return input == .lifted ? .fail(.tooLittleScale(scale: scale, needs: minScale)) : .undecided
        }
        let sense: Sense = scale >= 1 ? .out : .in
        guard sense == .in ? accepts.in : accepts.out else { return .fail(.wrongSense(moved: sense)) }
        matched = sense
        return atLift ? .recognize : .begin
    }

    /// The sense it began with, but at the end the net one (issue 24): an `ended` event's
    /// direction agrees with its scale.
    public override func annotate(_ event: inout GestureEvent, _ t: TouchSnapshot) {
        switch event.phase {
        case .ended, .cancelled: event.sense = t.scale >= 1 ? .out : .in
        case .recognized:
            event.sense = matched
            event.scale = lastScale  // the net change it was decided on, not the lift's
        case .began, .changed: event.sense = matched
        }
    }

    /// Linear in the amount (no logarithm in a pure-Swift engine): 1.05 of 1.1 is 0.5.
    public override var progress: Double? { fraction(pinched - 1, of: minScale - 1) }

    /// The scale of the touches now against its threshold, as `progress` measures it
    /// (asked while its gate waits, when `pinched` is not kept).
    public override func evidence(_ t: TouchSnapshot) -> Double {
        ((t.scale >= 1 ? t.scale : 1 / max(t.scale, 0.0001)) - 1) / (minScale - 1)
    }

    public override func reset() {
        matched = nil
        pinched = 1
        lastScale = 1
    }
}
