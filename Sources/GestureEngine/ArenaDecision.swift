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
    /// Set when the transition was refused (a bug in a recognizer, survived).
    public var illegal: Bool

    public var description: String {
        var s = "\(time) \(name): \(from) → \(transition) → \(illegal ? "(refused)" : to.description)"
        if let reason { s += " (\(reason.text))" }
        return s
    }
}

/// A fixed ring of decisions: recording one never allocates. An entry names its
/// member by number (the name is looked up when the decisions are read), so recording
/// copies no string, and the arena's list of failures points at the decision that
/// holds each reason instead of copying it again: every touch sequence records a
/// decision for most members.
struct DecisionLog {
    /// At least the last 128 decisions, and 4 per member, so the failures of one touch
    /// sequence (one decision each) are still here when `--explain` asks.
    let capacity: Int
    struct Entry {
        var time: Timestamp
        var member: Int32
        var from: RecognizerState
        var transition: Transition
        var to: RecognizerState
        var illegal: Bool
        /// Meaningful when `hasReason` (non-optional: see `Arena.move`).
        var hasReason: Bool
        var reason: FailureReason
    }
    /// Allocated once, freed by the arena (`free()`): an array here checked its
    /// uniqueness on every decision.
    private let ring: MemberTable<Entry>
    private var head = 0
    /// Decisions ever recorded, so a reader can ask for the ones since it last looked.
    private(set) var total = 0
    private var kept: Int { min(total, capacity) }

    init(members: Int) {
        capacity = max(128, 4 * members)
        ring = MemberTable(repeating: Entry(time: Timestamp(microseconds: 0), member: 0, from: .possible, transition: .reset,
                                            to: .possible, illegal: false, hasReason: false, reason: .disabled),
                           count: capacity)
    }

    func free() { ring.free() }

    /// Records a decision; returns its number.
    @discardableResult
    mutating func record(time: Timestamp, member: Int, from: RecognizerState, transition: Transition,
                         to: RecognizerState, reason: FailureReason, given: Bool, illegal: Bool) -> Int {
        let e = Entry(time: time, member: Int32(truncatingIfNeeded: member), from: from, transition: transition, to: to,
                      illegal: illegal, hasReason: given, reason: reason)
        ring[head] = e
        head = head + 1 == capacity ? 0 : head + 1
        total += 1
        return total - 1
    }

    /// The reason recorded with decision `number`, if it is still kept.
    func reason(ofDecision number: Int) -> FailureReason? {
        guard number >= total - kept && number < total else { return nil }
        let e = ring[number % capacity]
        return e.hasReason ? e.reason : nil
    }

    /// The decisions numbered `since…total-1` that are still kept, oldest first, with
    /// each member's name from `name`.
    func decisions(since: Int, name: (Int) -> String) -> [ArenaDecision] {
        let first = max(since, total - kept)
        guard first < total else { return [] }
        return (first..<total).map {
            let e = ring[$0 % capacity]
            return ArenaDecision(time: e.time, name: name(Int(e.member)), from: e.from, transition: e.transition, to: e.to,
                                 reason: e.hasReason ? e.reason : nil, illegal: e.illegal)
        }
    }
}
