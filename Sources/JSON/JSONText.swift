import PlainText

/// JSON text without Foundation: strings escaped, numbers as given.
public enum JSON {
    public static func string(_ s: String) -> String { s.quoted }

    public static func number(_ v: Double, _ decimals: Int = 3) -> String { v.isFinite ? v.fixed(decimals) : "null" }

    /// `{"a": 1, "b": "x"}` from already-encoded values, in the order given.
    public static func object(_ fields: [(String, String)]) -> String {
        "{" + fields.map { string($0.0) + ": " + $0.1 }.joined(separator: ", ") + "}"
    }
}
