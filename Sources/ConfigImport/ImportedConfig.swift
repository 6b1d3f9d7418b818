import GestureConfig
import GestureEngine
import PlainText
import TouchModel
import YAMLTree

/// The tools `gestured import` reads. Each reads libinput's gestures, so their
/// configs describe touchpad gestures in libinput's terms (docs/IMPORT.md).
public enum ImportFormat: String, Sendable, CaseIterable {
    case libinputGestures = "libinput-gestures"
    case fusuma
    case touchegg

    /// `fusuma's`, `libinput-gestures'`: for the output's header and the summary.
    public var possessive: String { rawValue + (rawValue.hasSuffix("s") ? "'" : "'s") }

    /// The file each tool reads, for messages and the output's header.
    public var fileName: String {
        switch self {
        case .libinputGestures: return "libinput-gestures.conf"
        case .fusuma: return "config.yml"
        case .touchegg: return "touchegg.conf"
        }
    }

    /// Which format `text` is, from its content alone (the file names vary): XML
    /// starts with `<`; libinput-gestures' lines start with one of its keywords;
    /// anything else is taken for fusuma's YAML, whose reader then says what is wrong.
    public static func detect(_ bytes: [UInt8]) -> ImportFormat {
        var text = Substring(decoding: bytes.prefix(64 << 10), as: UTF8.self)
        if text.hasPrefix("\u{FEFF}") { text = text.dropFirst() }
        let start = text.drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        if start.hasPrefix("<") { return .touchegg }
        for line in text.textLines where !line.isEmpty {
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard let first = words.first, !first.hasPrefix("#") else { continue }
            let keyword = first.hasSuffix(":") ? first.dropLast() : first
            return LibinputGesturesImport.keywords.contains(String(keyword)) && !(words.count == 1 && first.hasSuffix(":")) ? .libinputGestures : .fusuma
        }
        return .fusuma
    }

    /// Translates `bytes`, read from `file`: the gestured config, or the problem with
    /// the input at its place.
    public func translate(_ bytes: [UInt8], file: String) throws(ImportError) -> ImportedConfig {
        try Self.refuseNUL(bytes, file: file)
        switch self {
        case .libinputGestures: return try LibinputGesturesImport.translate(bytes, file: file)
        case .fusuma: return try FusumaImport.translate(bytes, file: file)
        case .touchegg: return try ToucheggImport.translate(bytes, file: file)
        }
    }
}

extension ImportFormat {
    /// No tool's config holds a NUL, and a command or name with one would be cut short
    /// there: an error at the first, by line and column (in characters, as the config's).
    static func refuseNUL(_ bytes: [UInt8], file: String) throws(ImportError) {
        guard bytes.contains(0) else { return }
        for (i, line) in textLines(bytes).enumerated() {
            guard let at = line.firstIndex(of: 0) else { continue }
            let column = String(decoding: line[..<at], as: UTF8.self).count + 1
            throw ImportError(file: file, line: i + 1, column: column, "a NUL character: no config holds one, and a command would be cut short there")
        }
    }

    /// The same for a NUL written as an escape (YAML's `"\0"`, `"\x00"`) in any value.
    static func refuseNUL(in root: YAMLNode, file: String) throws(ImportError) {
        var pending = [root]
        while let node = pending.popLast() {
            switch node.value {
            case .scalar(let s):
                if s.utf8.contains(0) {
                    throw ImportError(file: file, line: node.mark.line, column: node.mark.column,
                                      "a value holds a NUL character ('\\0'): a command or name would be cut short there")
                }
            case .sequence(let items): pending += items
            case .mapping(let pairs): for (k, v) in pairs { pending += [k, v] }
            }
        }
    }
}

/// What stops an import: the input cannot be read as its format. `file:line:column:
/// message`, like the config's own diagnostics.
public struct ImportError: Error, Sendable, Equatable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var column: Int?
    public var message: String

    public init(file: String, line: Int? = nil, column: Int? = nil, _ message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String {
        guard let line else { return "\(file): error: \(message)" }
        return "\(file):\(line):\(column.map { "\($0):" } ?? "") error: \(message)"
    }
}

/// One action in gestured's spelling: a shell command or a built-in action, with the
/// built-in's `reverse:` for steps the other way.
public enum ImportedAction: Sendable, Equatable {
    case command(String)
    /// Key combinations (`super+Right`), sent one after another.
    case keys([String], reverse: [String]? = nil)
    /// `button:`, `workspace:`, `move-window:`, `overview:`, `show-desktop:`.
    case builtIn(key: String, value: String, reverse: String? = nil)

    var yaml: String {
        switch self {
        case .command(let c): return c.quoted
        case .keys(let chords, let reverse):
            return "{keys: \(Self.list(chords))" + (reverse.map { ", reverse: \(Self.list($0))" } ?? "") + "}"
        case .builtIn(let key, let value, let reverse):
            return "{\(key): \(value.quoted)" + (reverse.map { ", reverse: \($0.quoted)" } ?? "") + "}"
        }
    }

    private static func list(_ items: [String]) -> String {
        items.count == 1 ? items[0].quoted : "[" + items.map(\.quoted).joined(separator: ", ") + "]"
    }
}

/// One gesture of the output, with the line of the input it came from.
public struct ImportedGesture: Sendable, Equatable {
    /// A name to start from; the config makes it unique (`-2`, `-3`…).
    public var name: String
    public var line: Int
    public var kind: String
    public var fingers: Int
    /// Keys after `fingers:`, in order, their values already YAML (`up`, `20mm`, `[firefox]`).
    public var keys: [(String, String)]
    public var actions: [(String, ImportedAction)]
    /// What the reader of the output should know: assumptions, differences.
    public var notes: [String]

    public init(name: String, line: Int, kind: String, fingers: Int, keys: [(String, String)] = [],
                actions: [(String, ImportedAction)], notes: [String] = []) {
        self.name = name
        self.line = line
        self.kind = kind
        self.fingers = fingers
        self.keys = keys
        self.actions = actions
        self.notes = notes
    }

    public static func == (a: ImportedGesture, b: ImportedGesture) -> Bool {
        a.name == b.name && a.line == b.line && a.kind == b.kind && a.fingers == b.fingers
            && a.keys.elementsEqual(b.keys, by: ==) && a.actions.elementsEqual(b.actions, by: ==) && a.notes == b.notes
    }

    /// The value written for `key`, if any (for tests and the summary).
    public func value(_ key: String) -> String? { keys.first { $0.0 == key }?.1 }
    public func action(_ key: String) -> ImportedAction? { actions.first { $0.0 == key }?.1 }
}

/// A translated config: gestures and, in their place, what could not be carried over.
public struct ImportedConfig: Sendable, Equatable {
    public enum Item: Sendable, Equatable {
        case gesture(ImportedGesture)
        /// Kept as a comment: the input's line, what it said, and why it is not imported.
        case kept(line: Int, text: String, reason: String)
    }

    public var format: ImportFormat
    public var items: [Item] = []
    /// Said once at the top: assumptions that hold for the whole file.
    public var notes: [String] = []

    public init(format: ImportFormat) { self.format = format }

    public var gestures: [ImportedGesture] {
        items.compactMap { if case .gesture(let g) = $0 { return g } else { return nil } }
    }

    public var keptCount: Int { items.count - gestures.count }

    /// A gesture, or in its place the reason it cannot be one: fingers gestured does
    /// not bind for its kind (a 1-finger pinch, 9 fingers), or a command longer than
    /// Linux passes to a program (`Binding.maximumCommandBytes`), which never ran in
    /// the other tool either.
    mutating func add(_ g: ImportedGesture) {
        if let kind = GestureKind(rawValue: g.kind), !(max(1, kind.traits.minFingers)...5).contains(g.fingers) {
            keep(g.line, "\(g.kind), \(g.fingers) finger\(g.fingers == 1 ? "" : "s")",
                 "a gestured \(g.kind) takes \(max(1, kind.traits.minFingers)) to 5 fingers")
            return
        }
        for case (_, .command(let c)) in g.actions where c.utf8.count > Binding.maximumCommandBytes {
            keep(g.line, c.prefix(60) + "…", "a command of \(c.utf8.count) bytes: Linux runs none longer than \(Binding.maximumCommandBytes) (MAX_ARG_STRLEN), so it never ran")
            return
        }
        items.append(.gesture(g))
    }
    mutating func keep(_ line: Int, _ text: some StringProtocol, _ reason: String) {
        items.append(.kept(line: line, text: String(text), reason: reason))
    }

    /// The gestured config: a header, then each gesture with a comment saying where it
    /// came from (`file:line`), and what was not carried over as comments in its place.
    /// `source` is the input's name as the comments give it. Past `maximumBytes` it
    /// stops, and the text is cut short there.
    public func yaml(source: String, maximumBytes: Int = .max) -> String {
        let origin = source.printable
        var out = "# Imported by `gestured import` from \(format.possessive) \(origin).\n"
        out += "# Try it with: gestured run --config THIS_FILE --dry-run\n"
        for n in notes { out += comment(n, indent: "") }
        out += "\ngestures:\n"
        var used: Set<String> = []
        for item in items where out.utf8.count <= maximumBytes {
            switch item {
            case .gesture(let g):
                out += "\n  # from \(origin):\(g.line)\n"
                for n in g.notes { out += comment(n, indent: "  ") }
                let name = unique(g.name, &used)
                out += "  - name: \(name)\n    gesture: \(g.kind)\n    fingers: \(g.fingers)\n"
                for (k, v) in g.keys { out += "    \(k): \(v)\n" }
                for (k, a) in g.actions { out += "    \(k): \(a.yaml)\n" }
            case .kept(let line, let text, let reason):
                out += "\n  # not imported, \(origin):\(line): \(reason)\n"
                for l in text.textLines { out += "  #   \(String(l).printable)\n" }
            }
        }
        if gestures.isEmpty { out += "  []\n" }
        return out
    }

    /// The config's text (`yaml(source:)`) when it is within what `gestured check`
    /// takes of a file: at most `Config.maximumGestures` gestures and
    /// `ConfigLoader.maximumFileSize` bytes; else why not. A file of thousands of lines
    /// that all set one gesture, each kept as a comment with its reason, would be
    /// several times its own size.
    public func yamlWithinLimits(source: String) throws(ImportError) -> String {
        guard gestures.count <= Config.maximumGestures else {
            throw ImportError(file: source, "\(gestures.count) gestures to import; a gestured config holds at most \(Config.maximumGestures): split the file")
        }
        let text = yaml(source: source, maximumBytes: ConfigLoader.maximumFileSize)
        guard text.utf8.count <= ConfigLoader.maximumFileSize else {
            throw ImportError(file: source, "the gestured config would be more than the \(ConfigLoader.maximumFileSize >> 20) MiB a config may be (\(summary)): "
                + "remove the lines that set a gesture again or that gestured cannot import, or split the file")
        }
        return text
    }

    private func comment(_ text: String, indent: String) -> String {
        text.textLines.filter { !$0.isEmpty }.map { indent + "# " + String($0).printable + "\n" }.joined()
    }

    /// `name`, or `name-2`, `name-3`… when taken; only the characters names may hold.
    private func unique(_ name: String, _ used: inout Set<String>) -> String {
        var base = String(name.lowercased().unicodeScalars.map { ch -> Character in
            ("a"..."z").contains(ch) || ("0"..."9").contains(ch) || ch == "-" || ch == "_" || ch == "." ? Character(ch) : "-"
        }.prefix(56))
        if base.isEmpty { base = "gesture" }
        var candidate = base, n = 1
        while used.contains(candidate) { n += 1; candidate = "\(base)-\(n)" }
        used.insert(candidate)
        return candidate
    }

    /// The one-line summary `gestured import` ends with.
    public var summary: String {
        "\(gestures.count) binding\(gestures.count == 1 ? "" : "s") imported, \(keptCount) kept as comment\(keptCount == 1 ? "" : "s")"
    }
}
