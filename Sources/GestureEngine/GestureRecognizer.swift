import TouchModel

/// What a recognizer makes of the touches. It only proposes; the `Arena` decides
/// whether the proposal becomes a transition (it may make the recognizer wait, or
/// fail it because another won).
public enum Evaluation: Sendable, Equatable {
    /// Nothing decided yet (possible), or nothing new (began/changed).
    case undecided
    /// Continuous: the gesture has started.
    case begin
    /// Continuous and active: its values moved.
    case change
    /// Continuous and active: it finished (fingers lifted).
    case end
    /// Continuous and active: it cannot go on (more fingers than it takes).
    case cancel
    /// Discrete: it happened.
    case recognize
    /// It cannot happen in this touch sequence, and why.
    case fail(FailureReason)
}

/// One recognizer kind. Every kind is a class in its own file: it keeps its own
/// detection state (a small state machine of its own, like a tap's count of taps),
/// reads `TouchSnapshot`s and proposes `Evaluation`s. The UIKit state machine
/// (`RecognizerState`) and arbitration live in the `Arena`, once for all kinds.
///
/// To add a kind (see `ScrubRecognizer`, the worked example): subclass
/// `RecognizerBase`, conform to this protocol, override what `RecognizerBase` lists
/// (`evaluate` always), add a `GestureKind` case and its `traits` entry (the compiler
/// asks for it). Keep what `evaluate` needs in stored `let`s (not `spec` read per
/// frame) and mark mutable state `@exclusivity(unchecked)` like the others
/// (docs/ENGINE.md, "Performance").
public protocol GestureRecognizer: RecognizerBase {
    var spec: GestureSpec { get }
}

/// What the arena asks of every recognizer, as a class's methods: the arena holds its
/// recognizers unretained (`Unmanaged`) and calls them through the vtable. Through the
/// protocol's existential each call retained and released the recognizer (issue 15,
/// callgrind: 18 instructions an event). The defaults are a kind with no deadline, no
/// finger gate and nothing to annotate; `evaluate` must be overridden.
public class RecognizerBase {
    init() {}

    /// Called for every frame and timer while the recognizer is possible, waiting
    /// (continuous kinds) or active; `state` is where the arena has it.
    public func evaluate(_ touches: TouchSnapshot, _ input: RecognizerInput, state: RecognizerState) -> Evaluation {
        fatalError("\(type(of: self)) must override evaluate")
    }
    /// The next instant at which the recognizer must be evaluated even with no frame
    /// (a hold's press duration, a tap's timeouts), as of its last evaluation. Stored
    /// here, set by the kinds that have one: the arena reads it after every evaluation,
    /// and a call for it cost more than the rest of an undecided evaluation.
    @exclusivity(unchecked) public final internal(set) var deadline: Timestamp?
    /// Fills in the kind's own values (direction, duration, …) on an event the arena emits.
    public func annotate(_ event: inout GestureEvent, _ touches: TouchSnapshot) {}
    /// Forget the touch sequence (UIKit's `reset()`): back to possible.
    public func reset() {}
    /// Kinds whose `evaluate`, while possible, starts with `MotionGate.check` return
    /// their finger range here: until the count has settled inside it (or the fingers
    /// lift) they propose nothing and change nothing, so the arena does not ask them.
    /// nil (the default): asked on every frame.
    public var gatedFingers: ClosedRange<Int>? { nil }
    /// How far toward its own begin (or recognize) threshold the recognizer is, 0…1,
    /// as of its last evaluation while possible; nil for a kind with nothing to
    /// measure. Only the event stream asks (`GestureEngine.forEachProgress`): each
    /// kind keeps the quantity it compares with its threshold anyway (a store per
    /// evaluation) and makes the ratio here, so frames nobody asks about pay no more.
    public var progress: Double? { nil }
}

/// `value` of `threshold`, 0…1 (a threshold of 0 or less is already passed).
func fraction(_ value: Double, of threshold: Double) -> Double {
    threshold > 0 ? min(1, max(0, value / threshold)) : 1
}

/// A spec's finger range, clamped to what the kind supports. Recognizers keep it in a
/// stored property: reading `spec` through the protocol would copy the whole spec.
func fingerRange(of spec: GestureSpec, atLeast minimum: Int = 1) -> ClosedRange<Int> {
    let lo = max(minimum, spec.fingers.lowerBound)
    return lo...max(lo, spec.fingers.upperBound)
}

/// The first questions every motion-triggered recognizer asks while possible: have
/// the fingers settled, are there the right number, and did they move the right way
/// (together for swipes and pans, against each other for pinches and rotations)?
enum MotionGate: Equatable {
    /// Not yet: keep watching.
    case wait
    case fail(FailureReason)
    /// Go on to the kind's own thresholds.
    case open

    /// `needs` nil accepts any motion (transform, scrub). `decides` false: a pinch or
    /// rotation with no competing translation gesture does not fail when the fingers
    /// moved together first; it waits for its own threshold (except on pads that can
    /// only translate).
    static func check(_ t: TouchSnapshot, _ input: RecognizerInput, fingers: ClosedRange<Int>,
                      needs: MotionClass?, decides: Bool = true) -> MotionGate {
        switch input {
        case .lifted:
            // The final word: the settled count stands even if a finger lifted early.
            guard fingers.contains(t.fingers) else { return .fail(.fingers(have: t.fingers, need: fingers)) }
        case .touches, .timer:
            guard t.isSettled, fingers.contains(t.fingers) else { return .wait }
        }
        switch (needs, t.motion) {
        case (nil, _): return .open
        case (.translation?, .deformation): return .fail(.fingersMovedApart)
        case (.deformation?, .translation): return decides || t.hasUntrackedFingers ? .fail(.fingersMovedTogether) : .open
        case (_?, .undecided): return input == .lifted ? .open : .wait
        case (.translation?, .translation), (.deformation?, .deformation): return .open
        case (.undecided?, _): return .open
        }
    }
}

/// While a continuous recognizer is active: a frame that moves the fingers is a change
/// (UIKit reports changes as touches move, not per report), lifting ends it, a settled
/// finger count below its range ends it and one above cancels it (libinput cancels a
/// swipe when a finger is added).
func continueActive(_ t: TouchSnapshot, _ input: RecognizerInput, fingers: ClosedRange<Int>) -> Evaluation {
    switch input {
    case .lifted: return .end
    case .timer: return .undecided
    case .touches:
        guard t.isSettled, !fingers.contains(t.fingers) else { return t.moved ? .change : .undecided }
        return t.fingers < fingers.lowerBound ? .end : .cancel
    }
}
