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

/// A fixed ring of decisions: recording one never allocates.
struct DecisionLog {
    static let capacity = 128
    private var ring: [ArenaDecision] = []
    private var head = 0
    /// Decisions ever recorded, so a reader can ask for the ones since it last looked.
    private(set) var total = 0

    init() { ring.reserveCapacity(Self.capacity) }

    mutating func record(_ d: ArenaDecision) {
        if ring.count < Self.capacity { ring.append(d) } else { ring[head] = d }
        head = (head + 1) % Self.capacity
        total += 1
    }

    /// The decisions numbered `since…total-1` that are still kept, oldest first.
    func decisions(since: Int) -> [ArenaDecision] {
        let first = max(since, total - ring.count)
        guard first < total else { return [] }
        return (first..<total).map { ring[$0 % Self.capacity] }
    }
}
