import GestureEngine
import PlainText
import YAMLTree

/// The live view's form of a config's gestures (docs/UI.md, "The form"): what each
/// entry of `gestures:` says, read from the YAML as written, and edits of one entry's
/// mapping made as small text edits, so that the rest of the file (its comments, its
/// layout, the other gestures) stays byte for byte as it was. Each edit is checked by
/// reading the new text again: it must be the old tree with that one key changed, or
/// the edit is refused and the text is left alone.
public enum GestureForm {
    /// One entry of `gestures:` as the form shows it.
    public struct Entry: Sendable, Equatable {
        public var index: Int
        public var name: String
        /// Where its mapping starts and ends (1-based lines), for "jump to its YAML".
        public var line: Int
        public var column: Int
        public var endLine: Int
        public var kind: String
        public var fingers: String?
        public var direction: String?
        /// The words `direction:` takes for this kind (`[]`: none).
        public var directions: [String]
        /// The fewest and most fingers the kind can be given.
        public var fingerRange: ClosedRange<Int>
        /// The kind's thresholds: key, the value as written (nil: the default), the
        /// quantity it takes ("distance", "duration", …) and the default.
        public var thresholds: [Threshold]
        /// The action's key (`command`, or a continuous gesture's `begin`, `update`, `end`),
        /// nil with none.
        public var actionKey: String?
        /// What it does: `keys super+d`, `workspace next`, `command notify-send hi`.
        public var action: String?
        /// The built-in action's key and value (`keys`, `super+d`), or nil for a command.
        public var builtIn: (key: String, value: String)?
        /// The command's text, when the action is a command.
        public var command: String?

        public static func == (a: Entry, b: Entry) -> Bool {
            a.index == b.index && a.name == b.name && a.kind == b.kind && a.fingers == b.fingers && a.direction == b.direction
                && a.action == b.action && a.thresholds == b.thresholds
        }
    }

    public struct Threshold: Sendable, Equatable {
        public var key: String
        public var value: String?
        public var quantity: String
        public var defaultValue: String
        /// How a value of its quantity is written: `20mm`, `300ms or 0.5s`.
        public var example: String?
    }

    /// A new value of a key: a scalar, or a flow mapping of scalars (`{keys: super+d}`).
    public enum Value: Sendable, Equatable {
        case scalar(String)
        case mapping([Pair])
        public struct Pair: Sendable, Equatable {
            public var key: String
            public var value: String
            public init(_ key: String, _ value: String) { self.key = key; self.value = value }
        }
    }

    /// Why an edit was refused, at a place in the text when there is one.
    public struct EditError: Error, Sendable, Equatable, CustomStringConvertible {
        public var mark: YAMLMark?
        public var message: String
        public init(mark: YAMLMark?, message: String) { self.mark = mark; self.message = message }
        public var description: String {
            mark.map { "line \($0.line), column \($0.column): \(message)" } ?? message
        }
    }

    /// The keys an action is bound with, in the order the form looks for one.
    static let actionKeys = ["command", "begin", "update", "end"]

    // MARK: Reading

    /// The gestures of `text`, as written; an error if it is not YAML with a list under
    /// `gestures:` (an empty or missing list is no gestures).
    public static func entries(_ text: String) throws(EditError) -> [Entry] {
        let root = try read(text)
        guard let list = root?["gestures"], case .sequence(let items) = list.value else { return [] }
        return items.enumerated().map { entry($1, index: $0) }
    }

    private static func entry(_ node: YAMLNode, index: Int) -> Entry {
        let name = node["name"]?.scalar ?? "gesture \(index + 1)"
        let kindWord = node["gesture"]?.scalar ?? ""
        let kind = GestureKind(rawValue: kindWord)
        let traits = kind?.traits
        let thresholds: [Threshold] = GestureKey.allCases.compactMap { key in
            guard let p = key.parameter, p != .shape, p != .side, p != .axis, traits?.parameters.contains(p) == true else { return nil }
            let e = key.entry
            return Threshold(key: key.rawValue, value: node[key.rawValue]?.scalar, quantity: e.type, defaultValue: e.defaultValue,
                             example: Quantity(rawValue: e.type)?.example)
        }
        var e = Entry(index: index, name: name, line: node.mark.line, column: node.mark.column,
                      endLine: lastLine(node), kind: kindWord, fingers: node["fingers"]?.scalar, direction: node["direction"]?.scalar,
                      directions: traits?.directions.words ?? [], fingerRange: 1...5, thresholds: thresholds)
        if let key = actionKeys.first(where: { node[$0] != nil }), let value = node[key] {
            e.actionKey = key
            switch value.value {
            case .scalar(let s):
                e.command = s
                e.action = "command " + s
            case .mapping(let pairs):
                if let first = pairs.first, let k = first.key.scalar {
                    let v = first.value.scalar ?? first.value.shape
                    e.builtIn = (k, v)
                    e.action = "\(k) \(v)"
                }
            case .sequence:
                e.action = key + " " + value.shape
            }
        }
        return e
    }

    /// The last line a node's text is on.
    private static func lastLine(_ node: YAMLNode) -> Int {
        (node.isFlow || node.scalar != nil) ? (node.end?.line ?? node.mark.line) : contentEndNode(node).end?.line ?? node.mark.line
    }

    // MARK: Editing

    /// `text` with gesture `index` (which must be named `name`: the page may show an
    /// older text) given `value` for `key` (nil: the key removed), changed only in that
    /// gesture's mapping. Throws, changing nothing, when the text is not YAML, the
    /// gesture is not there, or the edit could not be made without touching anything
    /// else (an alias of the gesture, a merge key).
    public static func edit(_ text: String, index: Int, name: String, key: String, value: Value?) throws(EditError) -> String {
        guard isPlainKey(key) else { throw EditError(mark: nil, message: "'\(key.printable)' is not a key the form edits") }
        guard let root = try read(text) else { throw EditError(mark: nil, message: "the config is empty: add a gesture first") }
        guard let list = root["gestures"], case .sequence(let items) = list.value else {
            throw EditError(mark: root.mark, message: "the config has no list under 'gestures:'")
        }
        guard items.indices.contains(index) else {
            throw EditError(mark: list.mark, message: "there is no gesture \(index + 1) ('\(name.printable)') any more; the config has \(items.count)")
        }
        let node = items[index]
        guard case .mapping(let pairs) = node.value else {
            throw EditError(mark: node.mark, message: "gesture \(index + 1) is \(node.shape), not a mapping of keys")
        }
        let written = node["name"]?.scalar ?? "gesture \(index + 1)"
        guard written == name else {
            throw EditError(mark: node.mark, message: "gesture \(index + 1) is '\(written.printable)', not '\(name.printable)': the config changed meanwhile")
        }
        if pairs.contains(where: { $0.key.scalar == "<<" }) {
            throw EditError(mark: node.mark, message: "'\(name.printable)' takes keys from elsewhere ('<<:'); edit its YAML by hand")
        }
        var scalars = Array(text.unicodeScalars)
        let lines = LineTable(scalars)
        let rendered = value.map(render)
        let found = pairs.firstIndex { $0.key.scalar == key }
        switch (found, rendered) {
        case (nil, nil):
            return text
        case (let i?, let new?):
            try replace(pairs[i], with: new, in: &scalars, lines: lines)
        case (nil, let new?):
            try add(key + ": " + new, to: node, in: &scalars, lines: lines)
        case (let i?, nil):
            try remove(at: i, of: node, in: &scalars, lines: lines)
        }
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        let result = String(view)
        try verify(result, against: root, index: index, key: key, value: rendered, at: node.mark)
        return result
    }

    /// A key as the form writes it: a word of letters, digits and dashes.
    private static func isPlainKey(_ key: String) -> Bool {
        !key.isEmpty && key.count <= 64 && key.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
    }

    /// A scalar as YAML text: plain when it reads back the same in a block and in a flow
    /// mapping, else double-quoted.
    static func scalarText(_ s: String) -> String {
        let safe = s.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || "+-._/@".unicodeScalars.contains($0) }
        let null = ["~", "null", "Null", "NULL"].contains(s)
        return safe && !s.isEmpty && !null && !s.hasPrefix("-") && !s.hasPrefix("@") ? s : s.quoted
    }

    static func render(_ value: Value) -> String {
        switch value {
        case .scalar(let s): return scalarText(s)
        case .mapping(let pairs): return "{" + pairs.map { scalarText($0.key) + ": " + scalarText($0.value) }.joined(separator: ", ") + "}"
        }
    }

    private static func read(_ text: String) throws(EditError) -> YAMLNode? {
        let (root, problem) = YAMLReader.read(Array(text.utf8), fileKind: "a config file")
        if let problem { throw EditError(mark: problem.mark, message: problem.message + "; fix it in the editor first") }
        return root
    }

    /// The node whose end is where a node's text ends: itself for a scalar or a flow
    /// collection, else its last child's (a block collection's own end is where the
    /// next token starts, past any comment after it).
    private static func contentEndNode(_ node: YAMLNode) -> YAMLNode {
        var n = node
        while !n.isFlow {
            switch n.value {
            case .scalar: return n
            case .sequence(let items):
                guard let last = items.last else { return n }
                n = last
            case .mapping(let pairs):
                guard let last = pairs.last else { return n }
                n = last.value
            }
        }
        return n
    }

    private static func isSpace(_ c: Unicode.Scalar) -> Bool { c == " " || c == "\t" || LineTable.isBreak(c) }

    /// Where a node's text ends: past its last character that is not a space (a block
    /// scalar's end mark is past the blank lines after it).
    private static func contentEnd(_ node: YAMLNode, _ scalars: [Unicode.Scalar], _ lines: LineTable) throws(EditError) -> Int {
        let n = contentEndNode(node)
        guard let end = n.end, var at = lines.offset(end, scalars.count) else { throw cannot(node.mark) }
        let start = lines.offset(n.mark, scalars.count) ?? 0
        while at > start, isSpace(scalars[at - 1]) { at -= 1 }
        return at
    }

    private static func cannot(_ mark: YAMLMark?) -> EditError {
        EditError(mark: mark, message: "the form cannot edit this gesture's YAML in place (an alias, or an unusual layout); edit it by hand")
    }

    private static func replace(_ pair: (key: YAMLNode, value: YAMLNode), with new: String, in scalars: inout [Unicode.Scalar], lines: LineTable) throws(EditError) {
        let v = pair.value
        let end = try contentEnd(v, scalars, lines)
        if v.scalar == "" && v.isPlain || (!v.isFlow && v.scalar == nil) {
            // Nothing written after `key:`, or an indented block: the new value goes right after the colon.
            guard let keyEnd = pair.key.end.flatMap({ lines.offset($0, scalars.count) }),
                  let colon = scalars[keyEnd...].firstIndex(of: ":") else { throw cannot(pair.key.mark) }
            let to = max(end, colon + 1)
            scalars.replaceSubrange((colon + 1)..<to, with: (" " + new).unicodeScalars)
            return
        }
        guard let start = lines.offset(v.mark, scalars.count), start <= end else { throw cannot(v.mark) }
        scalars.replaceSubrange(start..<end, with: new.unicodeScalars)
    }

    private static func add(_ pairText: String, to node: YAMLNode, in scalars: inout [Unicode.Scalar], lines: LineTable) throws(EditError) {
        guard case .mapping(let pairs) = node.value else { throw cannot(node.mark) }
        if node.isFlow {
            guard let end = node.end.flatMap({ lines.offset($0, scalars.count) }), end > 0, scalars[end - 1] == "}" else { throw cannot(node.mark) }
            var at = end - 1
            while at > 0, isSpace(scalars[at - 1]) { at -= 1 }
            scalars.insert(contentsOf: ((pairs.isEmpty ? "" : ", ") + pairText).unicodeScalars, at: at)
            return
        }
        guard let first = pairs.first, let last = pairs.last else { throw cannot(node.mark) }
        var at = try contentEnd(last.value, scalars, lines)
        while at < scalars.count, !LineTable.isBreak(scalars[at]) { at += 1 }  // past a comment on that line
        let newline = scalars.contains("\r") && text(scalars).contains("\r\n") ? "\r\n" : "\n"
        let indent = String(repeating: " ", count: first.key.mark.column - 1)
        scalars.insert(contentsOf: (newline + indent + pairText).unicodeScalars, at: at)
    }

    private static func text(_ scalars: [Unicode.Scalar]) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return String(view)
    }

    private static func remove(at i: Int, of node: YAMLNode, in scalars: inout [Unicode.Scalar], lines: LineTable) throws(EditError) {
        guard case .mapping(let pairs) = node.value else { throw cannot(node.mark) }
        let pair = pairs[i]
        guard let keyStart = lines.offset(pair.key.mark, scalars.count) else { throw cannot(pair.key.mark) }
        let end = try contentEnd(pair.value, scalars, lines)
        if node.isFlow {
            // `, key: value` after the one before it; the first pair with the `, ` after it.
            if i > 0 {
                let from = try contentEnd(pairs[i - 1].value, scalars, lines)
                scalars.removeSubrange(from..<end)
            } else if pairs.count > 1, let next = lines.offset(pairs[1].key.mark, scalars.count) {
                scalars.removeSubrange(keyStart..<next)
            } else {
                scalars.removeSubrange(keyStart..<end)
            }
            return
        }
        // A block key on a line of its own: the whole line, with its comment, goes.
        var lineStart = keyStart
        while lineStart > 0, !LineTable.isBreak(scalars[lineStart - 1]) { lineStart -= 1 }
        guard scalars[lineStart..<keyStart].allSatisfy({ $0 == " " }) else {
            throw EditError(mark: pair.key.mark, message: "'\(pair.key.scalar ?? "")' starts its gesture's entry ('- \(pair.key.scalar ?? ""):'); remove it by hand")
        }
        var lineEnd = end
        while lineEnd < scalars.count, !LineTable.isBreak(scalars[lineEnd]) { lineEnd += 1 }
        if lineEnd < scalars.count { lineEnd += (scalars[lineEnd] == "\r" && lineEnd + 1 < scalars.count && scalars[lineEnd + 1] == "\n") ? 2 : 1 }
        scalars.removeSubrange(lineStart..<lineEnd)
    }

    /// The new text must read as the old tree with only that key changed: otherwise the
    /// text is not returned (an alias shared the node, or the layout fooled the edit).
    private static func verify(_ result: String, against old: YAMLNode, index: Int, key: String, value: String?, at mark: YAMLMark) throws(EditError) {
        let (root, problem) = YAMLReader.read(Array(result.utf8), fileKind: "a config file")
        guard problem == nil, let root else { throw cannot(mark) }
        var expected = old
        guard case .mapping(var top) = old.value, let g = top.firstIndex(where: { $0.key.scalar == "gestures" }),
              case .sequence(var items) = top[g].value.value, case .mapping(var pairs) = items[index].value else { throw cannot(mark) }
        if let value {
            guard let parsed = YAMLReader.read(Array(("x: " + value).utf8), fileKind: "a value").0?["x"] else { throw cannot(mark) }
            if let i = pairs.firstIndex(where: { $0.key.scalar == key }) { pairs[i].value = parsed }
            else { pairs.append((YAMLNode(mark: mark, value: .scalar(key)), parsed)) }
        } else {
            pairs.removeAll { $0.key.scalar == key }
        }
        items[index].value = .mapping(pairs)
        top[g].value.value = .sequence(items)
        expected.value = .mapping(top)
        guard canonical(root) == canonical(expected) else { throw cannot(mark) }
    }

    /// A node's content without its marks or styles, for comparing two trees.
    private static func canonical(_ node: YAMLNode) -> String {
        switch node.value {
        case .scalar(let s): return (node.isNull ? "~" : s.quoted) + (node.tag.map { "!" + $0 } ?? "")
        case .sequence(let items): return "[" + items.map(canonical).joined(separator: ",") + "]"
        case .mapping(let pairs): return "{" + pairs.map { canonical($0.key) + ":" + canonical($0.value) }.joined(separator: ",") + "}"
        }
    }
}

/// Where each line starts, in Unicode scalars, with libyaml's line breaks (`\n`, `\r\n`,
/// `\r`, NEL, LS, PS), so that its marks (line, column in characters) become offsets.
struct LineTable {
    private var starts: [Int] = [0]

    static func isBreak(_ c: Unicode.Scalar) -> Bool {
        c == "\n" || c == "\r" || c == "\u{85}" || c == "\u{2028}" || c == "\u{2029}"
    }

    init(_ scalars: [Unicode.Scalar]) {
        var i = 0
        while i < scalars.count {
            let c = scalars[i]
            i += 1
            guard Self.isBreak(c) else { continue }
            if c == "\r", i < scalars.count, scalars[i] == "\n" { i += 1 }
            starts.append(i)
        }
    }

    func offset(_ mark: YAMLMark, _ count: Int) -> Int? {
        guard mark.line >= 1, mark.line <= starts.count, mark.column >= 1 else { return nil }
        let o = starts[mark.line - 1] + mark.column - 1
        return o <= count ? o : nil
    }
}
