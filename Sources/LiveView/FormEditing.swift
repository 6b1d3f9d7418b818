import GestureConfig
import JSON

/// `POST /api/form`: the page's form of the gestures (docs/UI.md, "The form"). The
/// page sends the editor's text and, for an edit, which gesture and key; the answer is
/// the text as edited (only that gesture's mapping changed, `GestureForm.edit`) and
/// every gesture as the form shows it. The page holds no YAML logic of its own.
enum FormEditing {
    /// `{"text": …, "edit": {"index": N, "name": …, "key": …, "value": "4" | {"keys": "super+d"} | null}}`
    static func answer(_ body: [UInt8]) -> String {
        guard let request = JSONValue.parse(body), let text = request["text"]?.string else {
            return failure(GestureForm.EditError(mark: nil, message: "expected {\"text\": …, \"edit\": {…}}"))
        }
        do throws(GestureForm.EditError) {
            var edited = text
            if let edit = request["edit"], edit != .null {
                guard let index = edit["index"]?.number, index >= 0, index < 1e6, let name = edit["name"]?.string,
                      let key = edit["key"]?.string else {
                    throw GestureForm.EditError(mark: nil, message: "an edit names the gesture's index and name, and a key")
                }
                edited = try GestureForm.edit(text, index: Int(index), name: name, key: key, value: try value(edit["value"]))
            }
            let entries = try GestureForm.entries(edited)
            return JSON.object([("ok", "true"), ("text", JSON.string(edited)), ("gestures", "[" + entries.map(json).joined(separator: ",") + "]")])
        } catch {
            return failure(error)
        }
    }

    private static func value(_ v: JSONValue?) throws(GestureForm.EditError) -> GestureForm.Value? {
        switch v {
        case nil, .null?: return nil
        case .string(let s)?: return .scalar(s)
        case .number(let n)? where n == n.rounded() && abs(n) < 1e9: return .scalar(String(Int(n)))
        case .object(let o)? where o.count == 1:
            let pairs = o.sorted { $0.key < $1.key }.compactMap { k, v in v.string.map { GestureForm.Value.Pair(k, $0) } }
            if pairs.count == o.count { return .mapping(pairs) }
        default: break
        }
        throw GestureForm.EditError(mark: nil, message: "a value is a string, a whole number, one {\"key\": \"value\"}, or null to remove the key")
    }

    private static func failure(_ e: GestureForm.EditError) -> String {
        JSON.object([("ok", "false"), ("message", JSON.string(e.description)),
                     ("line", e.mark.map { String($0.line) } ?? "null"), ("column", e.mark.map { String($0.column) } ?? "null")])
    }

    private static func json(_ e: GestureForm.Entry) -> String {
        func text(_ s: String?) -> String { s.map(JSON.string) ?? "null" }
        let thresholds = e.thresholds.map { t in
            JSON.object([("key", JSON.string(t.key)), ("value", text(t.value)), ("quantity", JSON.string(t.quantity)), ("example", text(t.example)),
                         ("default", JSON.string(t.defaultValue.replacing("`", with: "")))])
        }
        return JSON.object([
            ("index", String(e.index)), ("name", JSON.string(e.name)), ("line", String(e.line)), ("column", String(e.column)),
            ("end_line", String(e.endLine)), ("kind", JSON.string(e.kind)), ("fingers", text(e.fingers)), ("direction", text(e.direction)),
            ("directions", "[" + e.directions.map(JSON.string).joined(separator: ",") + "]"),
            ("fingers_min", String(e.fingerRange.lowerBound)), ("fingers_max", String(e.fingerRange.upperBound)),
            ("thresholds", "[" + thresholds.joined(separator: ",") + "]"),
            ("action_key", text(e.actionKey)), ("action", text(e.action)), ("command", text(e.command)),
            ("built_in", e.builtIn.map { JSON.object([("key", JSON.string($0.key)), ("value", JSON.string($0.value))]) } ?? "null"),
        ])
    }
}
