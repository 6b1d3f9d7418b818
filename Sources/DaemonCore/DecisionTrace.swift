import GestureEngine
import TouchModel

/// Reads an engine's arena decisions since it last looked: what `--explain` and
/// `watch` print. Costs nothing unless someone asked for it.
public struct DecisionTrace {
    private var seen = 0

    public init() {}

    /// The decisions made since the previous call, oldest first.
    public mutating func take(from engine: GestureEngine) -> [ArenaDecision] {
        let total = engine.decisionCount
        guard total != seen else { return [] }
        defer { seen = total }
        return engine.decisions(since: seen)
    }

    /// `--explain`: only the decisions that say why something did not fire.
    public static func explanation(_ d: ArenaDecision) -> String? {
        guard d.to == .failed || d.to == .cancelled, let reason = d.reason else { return nil }
        return "\(d.name) \(d.to == .failed ? "failed" : "cancelled"): \(reason.text)"
    }

    /// `watch`: every transition, `name: possible → begin → began (reason)`.
    public static func transition(_ d: ArenaDecision) -> String {
        var s = "\(d.name): \(d.from) → \(d.transition) → \(d.refused ? "(refused)" : d.to.description)"
        if let reason = d.reason { s += " (\(reason.text))" }
        return s
    }
}
