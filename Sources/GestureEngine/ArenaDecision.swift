import TouchModel

/// One transition the arena made: `old → transition → new`, with the reason for a
/// failure or cancellation. The arena keeps the last `DecisionLog.capacity` of them
/// for `watch` and `--explain`; text is built only when printed.
public struct ArenaDecision: Sendable, Equatable, CustomStringConvertible {
    public var time: Timestamp
    public var name: String
    public var from: RecognizerState
    public var transition: Transition
    public var to: RecognizerState
    public var reason: FailureReason?
    /// Set when the machine refused the transition (a bug in a recognizer, survived):
    /// `to` is then `from`.
    public var refused: Bool

    public var description: String {
        var s = "\(time) \(name): \(from) → \(transition) → \(refused ? "(refused)" : to.description)"
        if let reason { s += " (\(reason.text))" }
        return s
    }
}

/// Why, as the arena records it: trivially copyable, so recording a decision is a few
/// stores. A `FailureReason` names other gestures with strings, and every copy of one
/// (and every ring entry it overwrote) went through its value witnesses: about 100
/// instructions a decision, 20 decisions a touch sequence (issue 15, callgrind). The
/// arena's own reasons name members by number; any other `FailureReason` (a
/// recognizer's, a filter's, a teardown's) is attached to its decision
/// (`DecisionLog.attach`).
enum ArenaReason: Equatable {
    /// No reason: begin, recognize, wait, end.
    case none
    /// The `FailureReason` attached to the decision.
    case attached
    case lostTo(member: Int32)
    case requiredGestureRecognized(member: Int32)
    case fingers(have: Int, need: ClosedRange<Int>)
    case liftedBeforeItBegan
    case disabled
}

/// A fixed ring of decisions: recording one never allocates. An entry names its
/// member by number (the name is looked up when the decisions are read), so recording
/// copies no string, and the arena's list of failures points at the decision that
/// holds each reason instead of copying it again: every touch sequence records a
/// decision for most members.
struct DecisionLog: ~Copyable {
    /// At least the last 128 decisions, and 4 per member, so the failures of one touch
    /// sequence (one decision each) are still here when `--explain` asks.
    let capacity: Int
    struct Entry {
        var time: Timestamp
        var member: Int32
        var from: RecognizerState
        var transition: Transition
        var to: RecognizerState
        var refused: Bool
        var why: ArenaReason
    }
    /// Allocated once (an array here checked its uniqueness on every decision).
    private let ring: MemberTable<Entry>
    /// The reasons attached to the entries in `ring` (same slots), meaningful where
    /// the entry's `why` is `.attached`.
    private let attached: MemberTable<FailureReason>
    private var head = 0
    /// Decisions ever recorded, so a reader can ask for the ones since it last looked.
    private(set) var total = 0
    private var kept: Int { min(total, capacity) }

    init(members: Int) {
        capacity = max(128, 4 * members)
        ring = MemberTable(repeating: Entry(time: Timestamp(microseconds: 0), member: 0, from: .possible, transition: .reset,
                                            to: .possible, refused: false, why: .none),
                           count: capacity)
        attached = MemberTable(repeating: .disabled, count: capacity)
    }

    /// Records a decision; returns its number.
    @discardableResult
    mutating func record(time: Timestamp, member: Int, from: RecognizerState, transition: Transition,
                         to: RecognizerState, why: ArenaReason, refused: Bool) -> Int {
        ring[head] = Entry(time: time, member: Int32(truncatingIfNeeded: member), from: from, transition: transition, to: to,
                           refused: refused, why: why)
        head = head + 1 == capacity ? 0 : head + 1
        total += 1
        return total - 1
    }

    /// Attaches `reason` to the decision recorded last (its `why` is `.attached`).
    func attach(_ reason: consuming FailureReason) {
        attached[head == 0 ? capacity - 1 : head - 1] = reason
    }

    /// The reason recorded with decision `number`, if it is still kept, with each
    /// member's name from `name`.
    func reason(ofDecision number: Int, name: (Int) -> String) -> FailureReason? {
        guard number >= total - kept && number < total else { return nil }
        return reason(at: number % capacity, name: name)
    }

    private func reason(at slot: Int, name: (Int) -> String) -> FailureReason? {
        switch ring[slot].why {
        case .none: nil
        case .attached: attached[slot]
        case let .lostTo(m): .lostTo(name(Int(m)))
        case let .requiredGestureRecognized(m): .requiredGestureRecognized(name(Int(m)))
        case let .fingers(have, need): .fingers(have: have, need: need)
        case .liftedBeforeItBegan: .liftedBeforeItBegan
        case .disabled: .disabled
        }
    }

    /// The decisions numbered `since…total-1` that are still kept, oldest first, with
    /// each member's name from `name`.
    func decisions(since: Int, name: (Int) -> String) -> [ArenaDecision] {
        let first = max(since, total - kept)
        guard first < total else { return [] }
        return (first..<total).map {
            let e = ring[$0 % capacity]
            return ArenaDecision(time: e.time, name: name(Int(e.member)), from: e.from, transition: e.transition, to: e.to,
                                 reason: reason(at: $0 % capacity, name: name), refused: e.refused)
        }
    }
}
