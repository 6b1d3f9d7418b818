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
/// asks for it; a kind that sets `deadline` declares `keepsTime`). Keep what `evaluate` needs in stored `let`s (not `spec` read per
/// frame) and mark mutable state `@exclusivity(unchecked)` like the others
/// (docs/ENGINE.md, "Performance").
public protocol GestureRecognizer: RecognizerBase {
    var spec: GestureSpec { get }
}

/// What the arena asks of every recognizer, as a class's methods: the arena holds its
/// recognizers unretained (`Unmanaged`) and calls them through the vtable. Through the
/// protocol's existential each call retained and released the recognizer (issue 15,
/// callgrind: 18 instructions an event). The defaults are a kind with no deadline and
/// nothing to annotate; `evaluate` must be overridden.
public class RecognizerBase {
    init() {}

    /// Called for every frame and timer while the recognizer is possible, waiting
    /// (continuous kinds) or active; `state` is where the arena has it. A kind with a
    /// motion gate (`KindTraits.gate`) is called while possible or waiting only once
    /// the gate is open: the arena checks it first (`MotionGate`).
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
    /// Whether a gesture that takes fingers moving together could still win with the
    /// motion so far (the arena asks before it lets it hold up a pinch or rotation for
    /// the same fingers: `Arena.rivalHoldsUp`). The default: yes. A kind with
    /// directions says no once the fingers have plainly gone a way it does not take.
    public func couldAccept(_ touches: TouchSnapshot) -> Bool { true }
    /// How far toward its own begin (or recognize) threshold the recognizer is, 0…1,
    /// as of its last evaluation while possible; nil for a kind with nothing to
    /// measure. Only the event stream asks (`GestureEngine.forEachProgress`): each
    /// kind keeps the quantity it compares with its threshold anyway (a store per
    /// evaluation) and makes the ratio here, so frames nobody asks about pay no more.
    public var progress: Double? { nil }
    /// How far the touches' own evidence for this gesture has built up against its
    /// threshold, 1 at it and more past it: what the arena weighs when a pinch or
    /// rotation and a gesture for fingers moving together could both still win
    /// (`Arena.rivalHoldsUp`). The default is `progress` as of the last evaluation (a
    /// circle's arc, a pan's distance), and 1 for a kind with nothing to measure. Kinds
    /// the arena does not ask while they wait (a pinch, a rotation) read the touches.
    public func evidence(_ touches: TouchSnapshot) -> Double { progress ?? 1 }
}

/// The deadline that decides a limit of `seconds` counted from `start`: 1 µs past it.
/// The limits are inclusive (a tap held exactly `maxDuration` is still a tap), so the
/// timer must fire when the limit has passed, not when it is reached.
@inline(__always)
func justPast(_ seconds: Double, from start: Timestamp) -> Timestamp {
    start.adding(seconds: seconds + 0.000_001)
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

/// The first questions about a motion-triggered gesture that has not begun: have the
/// fingers settled, are there the right number, and did they move the right way
/// (together for swipes and pans, against each other for pinches and rotations)? The
/// arena asks them for every member whose kind declares a gate (`KindTraits.gate`),
/// before and instead of its recognizer, which is asked only once the gate is open.
struct MotionGate {
    let gate: KindTraits.Gate
    /// The spec's fingers, clamped to what the kind takes.
    let fingers: ClosedRange<Int>
    /// A deformation gate fails when the fingers moved together first. False when no
    /// translation gesture on the device competes for these fingers: a pinch or
    /// rotation then waits for its own threshold (except on pads that can only
    /// translate) (`GestureEngine.competesWithTranslation`).
    let decides: Bool
    /// A kind that starts at an edge (`KindTraits.startsAtEdge`): the first questions
    /// are whether the device is a touchscreen (`onTouchpad`: it is not) and whether
    /// the touches landed within `edgeZone` mm of one of its edges (`edgeMask`,
    /// `Edge.bit`; 0: any) on a surface of `size`. `edgeZone` < 0: no such questions.
    let edgeZone: Double
    let edgeMask: UInt8
    let size: Size
    let onTouchpad: Bool

    init(_ gate: KindTraits.Gate, fingers: ClosedRange<Int>, decides: Bool,
         edges: (zone: Double, among: Set<Edge>, device: DeviceInfo)? = nil) {
        self.gate = gate
        self.fingers = fingers
        self.decides = decides
        edgeZone = edges?.zone ?? -1
        edgeMask = edges?.among.reduce(0) { $0 | $1.bit } ?? 0
        size = edges?.device.size ?? Size(width: 0, height: 0)
        onTouchpad = edges?.device.kind == .touchpad
    }

    /// Whether the gate waits for a settled count inside `fingers` with nothing to say
    /// before (the arena does not visit the member until then). An edge check is asked
    /// from the first frame on, so its member is visited unsettled too.
    var waitsForSettledCount: Bool {
        switch gate {
        case .settled: edgeZone < 0
        case .none, .atLift: false
        }
    }

    /// Whether, on top of that, it waits for the fingers' motion to be classified
    /// (`needs` a motion class): while `TouchSnapshot.motion` is undecided its verdict
    /// is `undecided` but at the lift (`Arena.awaitsMotion`).
    var waitsForMotion: Bool { waitsForSettledCount && gate != .settled(needs: nil) }

    /// nil: open, the recognizer decides. Otherwise what the member proposes without
    /// its recognizer being asked: `undecided` (not yet: keep watching) or `fail`.
    @inline(__always)
    func verdict(_ t: TouchSnapshot, _ input: RecognizerInput) -> Evaluation? {
        switch gate {
        case .none:
            return nil
        case .atLift:
            guard input == .lifted, !fingers.contains(t.fingers) else { return nil }
            return .fail(.fingers(have: t.fingers, need: fingers))
        case let .settled(needs):
            if edgeZone >= 0 {
                // The pad's edge is not the screen's.
                if onTouchpad { return .fail(.needsTouchscreen) }
                if !TouchFilter.isNearEdge(t.landing, size, zone: edgeZone, in: edgeMask) { return .fail(.notAtEdge) }
            }
            switch input {
            case .lifted:
                // The final word: the settled count stands even if a finger lifted early.
                guard fingers.contains(t.fingers) else { return .fail(.fingers(have: t.fingers, need: fingers)) }
            case .touches, .timer:
                guard t.isSettled, fingers.contains(t.fingers) else { return .undecided }
            }
            switch (needs, t.motion) {
            case (nil, _): return nil
            case (.translation?, .deformation): return .fail(.fingersMovedApart)
            case (.deformation?, .translation): return decides || t.hasUntrackedFingers ? .fail(.fingersMovedTogether) : nil
            case (_?, .undecided): return input == .lifted ? nil : .undecided
            case (.translation?, .translation), (.deformation?, .deformation): return nil
            case (.undecided?, _): return nil
            }
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
