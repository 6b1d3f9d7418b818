import CYaml

/// Where something starts in a text file: 1-based line, and column in characters.
public struct YAMLMark: Sendable, Equatable, Comparable {
    public var line: Int
    public var column: Int
    public init(line: Int, column: Int) { self.line = line; self.column = column }
    public static func < (a: YAMLMark, b: YAMLMark) -> Bool {
        (a.line, a.column) < (b.line, b.column)
    }
}

/// Something wrong with the YAML itself, at a place when libyaml gave one.
public struct YAMLProblem: Sendable, Equatable {
    public var mark: YAMLMark?
    public var message: String
}

/// A YAML node with the place it starts, built from libyaml's event stream: the
/// one YAML reader of the project (config files and `libinput record` files).
/// Scalars stay as written, never typed by YAML's own rules — `no` stays the
/// string "no" until a schema says it is a boolean; sequences and mappings keep
/// their key order and duplicates for a validator to report.
public struct YAMLNode: Sendable {
    public enum Value: Sendable {
        case scalar(String)
        case sequence([YAMLNode])
        case mapping([(key: YAMLNode, value: YAMLNode)])
    }
    public var mark: YAMLMark
    public var value: Value
    /// An explicit tag as libyaml resolves it (`!!binary` is `tag:yaml.org,2002:binary`);
    /// nil when none was written. Readers that take values as written refuse tags
    /// rather than silently ignore what they ask for.
    public var tag: String?
    /// A scalar written without quotes or block style: only such a `~` or `null` is
    /// YAML's null; a quoted `"~"` is the text `~`.
    public var isPlain: Bool
    /// Where it ends (just past its last character; a block collection's end is where the
    /// next token starts): nil for a node not read from text. An alias's node is its
    /// anchor's, with the anchor's marks.
    public var end: YAMLMark?
    /// A collection written in flow style (`{a: 1}`, `[1, 2]`), not as an indented block.
    public var isFlow: Bool

    public init(mark: YAMLMark, value: Value, tag: String? = nil, isPlain: Bool = true, end: YAMLMark? = nil, isFlow: Bool = false) {
        self.mark = mark
        self.value = value
        self.tag = tag
        self.isPlain = isPlain
        self.end = end
        self.isFlow = isFlow
    }

    /// YAML's null written as a plain scalar (`~`, `null`, `Null`, `NULL`), which a
    /// reader of text would otherwise take as the word itself.
    public var isNull: Bool {
        guard isPlain, case .scalar(let s) = value else { return false }
        return s == "~" || s == "null" || s == "Null" || s == "NULL"
    }

    public var scalar: String? {
        if case .scalar(let s) = value { return s }
        return nil
    }

    /// The value of the first `key:` of a mapping.
    public subscript(key: String) -> YAMLNode? {
        guard case .mapping(let pairs) = value else { return nil }
        return pairs.first { $0.key.scalar == key }?.value
    }

    /// A sequence of integer scalars, or nil.
    public var integers: [Int64]? {
        guard case .sequence(let items) = value else { return nil }
        var out: [Int64] = []
        out.reserveCapacity(items.count)
        for item in items {
            guard let s = item.scalar, let v = Int64(s) else { return nil }
            out.append(v)
        }
        return out
    }

    /// What the node is, for "expected a mapping, found a list".
    public var shape: String {
        switch value {
        case .scalar(let s): return s.isEmpty ? "nothing" : "'\(s)'"
        case .sequence: return "a list"
        case .mapping: return "a mapping"
        }
    }
}

/// Reads one YAML document with libyaml's event API.
public enum YAMLReader {
    /// Alias bombs ("billion laughs"): an alias costs the size of what it repeats;
    /// past this many repeated nodes the file is refused.
    public static let aliasExpansionLimit = 10_000
    /// Deeper nesting than any of our files needs; refused before it can exhaust a stack.
    public static let maximumDepth = 64

    /// Returns the document's root (nil for an empty file or on a problem) and the
    /// problem that stopped the reading, if any. `fileKind` names the file in
    /// messages ("a config file holds one document").
    public static func read(_ bytes: [UInt8], fileKind: String) -> (YAMLNode?, YAMLProblem?) {
        var log = ProblemLog()
        let root = read(bytes, fileKind: fileKind, log: &log)
        return (log.problem == nil ? root : nil, log.problem)
    }

    /// Every document of a multi-document stream (`---` between them), in order, with
    /// the first problem; empty documents give no node. At most `maximumDocuments`
    /// (more: a problem), each with the limits of one document (anchors are a
    /// document's own, as YAML has them).
    public static func readDocuments(_ bytes: [UInt8], fileKind: String, maximumDocuments: Int = 64) -> ([YAMLNode], YAMLProblem?) {
        var log = ProblemLog()
        var documents: [YAMLNode] = []
        var tooMany: YAMLMark?
        read(bytes, fileKind: fileKind, log: &log) { root, at in
            guard documents.count < maximumDocuments else {
                tooMany = at
                return false
            }
            if let root { documents.append(root) }
            return true
        }
        if let tooMany { log.error(tooMany, "more than \(maximumDocuments) YAML documents ('---')") }
        return (log.problem == nil ? documents : [], log.problem)
    }

    private static func read(_ bytes: [UInt8], fileKind: String, log: inout ProblemLog) -> YAMLNode? {
        read(bytes, fileKind: fileKind, log: &log, eachDocument: nil)
    }

    /// Parses `bytes` and returns the root. With `eachDocument`, every document's root
    /// is handed to it as its end is read (false: stop), and nil is returned; without,
    /// a second document is a problem.
    @discardableResult
    private static func read(_ bytes: [UInt8], fileKind: String, log: inout ProblemLog,
                             eachDocument: ((YAMLNode?, YAMLMark) -> Bool)?) -> YAMLNode? {
        // libyaml's parser stores pointers into itself: it must not move, so it lives on the heap.
        let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
        defer { parser.deallocate() }
        guard yaml_parser_initialize(parser) != 0 else {
            log.error(nil, "out of memory starting the YAML parser")
            return nil
        }
        defer { yaml_parser_delete(parser) }
        return bytes.withUnsafeBufferPointer { buf in
            yaml_parser_set_input_string(parser, buf.baseAddress, buf.count)
            var builder = TreeBuilder(fileKind: fileKind)
            while true {
                var event = yaml_event_t()
                guard yaml_parser_parse(parser, &event) != 0 else {
                    reportSyntaxError(parser.pointee, bytes: buf, log: &log)
                    return nil
                }
                defer { yaml_event_delete(&event) }
                if event.type == YAML_STREAM_END_EVENT { break }
                if !builder.consume(event, log: &log) { return nil }
                if let eachDocument, event.type == YAML_DOCUMENT_END_EVENT {
                    guard eachDocument(builder.root, mark(event.start_mark)) else { return nil }
                    builder = TreeBuilder(fileKind: fileKind)  // a document's anchors are its own
                }
            }
            return eachDocument == nil ? builder.root : nil
        }
    }

    /// `bytes`: the whole text, to turn a reader error's byte offset into a line; a
    /// stream has no such text and names the offset.
    static func reportSyntaxError(_ p: yaml_parser_t, bytes: UnsafeBufferPointer<UInt8>?, log: inout ProblemLog) {
        let problem = p.problem.map { String(cString: $0) } ?? "malformed YAML"
        var message = "YAML syntax: \(problem)"
        if let context = p.context.map({ String(cString: $0) }) {
            message += " (\(context) at line \(p.context_mark.line + 1))"
        }
        if p.error == YAML_READER_ERROR {
            // The reader reports a byte offset, not a mark.
            guard let bytes else {
                log.error(nil, "the file is not valid UTF-8 or UTF-16 text: \(problem) at byte \(p.problem_offset)")
                return
            }
            log.error(mark(offset: Int(p.problem_offset), in: bytes), "the file is not valid UTF-8 or UTF-16 text: \(problem)")
            return
        }
        log.error(mark(p.problem_mark), message)
    }

    /// Line and column (in characters) of a byte offset in UTF-8 text.
    static func mark(offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> YAMLMark {
        var line = 1, column = 1
        for b in bytes.prefix(offset) {
            if b == UInt8(ascii: "\n") { line += 1; column = 1 }
            else if b & 0xC0 != 0x80 { column += 1 }  // not a continuation byte
        }
        return YAMLMark(line: line, column: column)
    }

    static func mark(_ m: yaml_mark_t) -> YAMLMark {
        YAMLMark(line: Int(m.line) + 1, column: Int(m.column) + 1)
    }
}

/// Builds the tree from events with an explicit stack (no recursion on untrusted depth).
/// With a `streamed` path, the items of the sequence there are not added to the tree
/// but handed out one at a time (`takeItem()`), so the tree stays small however long
/// that sequence is. What is held then has a budget, `limit`: the rest of the tree
/// (with anchored nodes), and each item while it is built, each count at most
/// `limit.nodes` nodes and `limit.bytes` bytes of scalar text.
struct TreeBuilder {
    private struct Open {
        var node: YAMLNode
        var anchor: String?
        var size: Int
        var pendingKey: YAMLNode?
        /// How many components of `streamed` this container's path matches; nil once off it.
        var onPath: Int?
        /// Inside an item of the streamed sequence: handed out, not kept.
        var inStream = false
    }
    let fileKind: String
    private let streamed: [YAMLPathComponent]?
    private let limit: (nodes: Int, bytes: Int)
    private var streamedItem: YAMLNode?
    /// Nodes and scalar bytes held: outside the streamed list, and in the item being built.
    private var kept = (nodes: 0, bytes: 0)
    private var item = (nodes: 0, bytes: 0)
    init(fileKind: String, streamed: [YAMLPathComponent]? = nil, limit: (nodes: Int, bytes: Int) = (.max, .max)) {
        self.fileKind = fileKind
        self.streamed = streamed
        self.limit = limit
    }

    /// The streamed sequence's item completed by the last event, if one was.
    mutating func takeItem() -> YAMLNode? {
        defer { streamedItem = nil }
        return streamedItem
    }

    /// The sequence whose items are handed out rather than kept.
    private func isStreamed(_ open: Open) -> Bool {
        guard let streamed, open.onPath == streamed.count, case .sequence = open.node.value else { return false }
        return true
    }

    /// Where a container opening under the top of the stack lies on the streamed path.
    private func onPath(ofChildOf parent: Open?) -> Int? {
        guard let streamed else { return nil }
        guard let parent else { return 0 }
        guard let depth = parent.onPath, depth < streamed.count else { return nil }
        switch (streamed[depth], parent.node.value) {
        case (.key(let k), .mapping):
            return parent.pendingKey?.scalar == k ? depth + 1 : nil
        case (.index(let i), .sequence(let items)):
            return items.count == i ? depth + 1 : nil
        default:
            return nil
        }
    }
    private var stack: [Open] = []
    private var anchors: [String: (node: YAMLNode, size: Int)] = [:]
    private var expanded = 0
    private var documents = 0
    private(set) var root: YAMLNode?

    /// Returns false when reading must stop.
    mutating func consume(_ e: yaml_event_t, log: inout ProblemLog) -> Bool {
        let at = YAMLReader.mark(e.start_mark)
        switch e.type {
        case YAML_DOCUMENT_START_EVENT:
            documents += 1
            if documents > 1 {
                log.error(at, "a second YAML document ('---'); \(fileKind) holds one document")
                return false
            }
        case YAML_SCALAR_EVENT:
            let s = e.data.scalar
            let text = String(decoding: UnsafeBufferPointer(start: s.value, count: Int(s.length)), as: UTF8.self)
            add(YAMLNode(mark: at, value: .scalar(text), tag: string(s.tag), isPlain: s.style == YAML_PLAIN_SCALAR_STYLE,
                         end: YAMLReader.mark(e.end_mark)),
                anchor: string(s.anchor), size: 1, log: &log)
        case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
            guard stack.count < YAMLReader.maximumDepth else {
                log.error(at, "nested more than \(YAMLReader.maximumDepth) levels deep")
                return false
            }
            let isSeq = e.type == YAML_SEQUENCE_START_EVENT
            let anchor = isSeq ? string(e.data.sequence_start.anchor) : string(e.data.mapping_start.anchor)
            let tag = isSeq ? string(e.data.sequence_start.tag) : string(e.data.mapping_start.tag)
            let flow = isSeq ? e.data.sequence_start.style == YAML_FLOW_SEQUENCE_STYLE : e.data.mapping_start.style == YAML_FLOW_MAPPING_STYLE
            stack.append(Open(node: YAMLNode(mark: at, value: isSeq ? .sequence([]) : .mapping([]), tag: tag, isFlow: flow),
                              anchor: anchor, size: 1, onPath: onPath(ofChildOf: stack.last),
                              inStream: stack.last.map { $0.inStream || isStreamed($0) } ?? false))
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            var open = stack.removeLast()
            open.node.end = YAMLReader.mark(e.end_mark)
            add(open.node, anchor: open.anchor, size: open.size, log: &log)
        case YAML_ALIAS_EVENT:
            let name = string(e.data.alias.anchor) ?? ""
            guard let target = anchors[name] else {
                log.error(at, "unknown alias '*\(name)'; an alias must follow its '&\(name)' anchor")
                return false
            }
            expanded += target.size
            guard expanded <= YAMLReader.aliasExpansionLimit else {
                log.error(at, "aliases expand to more than \(YAMLReader.aliasExpansionLimit) nodes; refusing a possible alias bomb")
                return false
            }
            add(target.node, anchor: nil, size: target.size, log: &log)
        default:
            break
        }
        return log.problem == nil
    }

    private mutating func add(_ node: YAMLNode, anchor: String?, size: Int, log: inout ProblemLog) {
        if let anchor { anchors[anchor] = (node, size) }
        guard !stack.isEmpty else { root = node; return }
        let top = stack.count - 1
        let isItem = isStreamed(stack[top])
        if streamed != nil {
            // Counted a node at a time as it is added (an anchored one with all it holds).
            let bytes = node.scalar?.utf8.count ?? 0
            if isItem || stack[top].inStream {
                item.nodes += 1
                item.bytes += bytes
            }
            if !(isItem || stack[top].inStream) || anchor != nil {
                kept.nodes += anchor != nil ? size : 1
                kept.bytes += bytes
            }
            guard kept.nodes <= limit.nodes, kept.bytes <= limit.bytes, item.nodes <= limit.nodes, item.bytes <= limit.bytes else {
                log.error(node.mark, "more than \(limit.nodes) nodes or \(limit.bytes >> 20) MiB of text in one item or besides the "
                          + "streamed list; \(fileKind) needs far less")
                return
            }
        }
        if isItem {
            streamedItem = node
            item = (0, 0)
            return
        }
        stack[top].size += size
        switch stack[top].node.value {
        case .sequence(var items):
            stack[top].node.value = .scalar("")  // release the array so the append does not copy it
            items.append(node)
            stack[top].node.value = .sequence(items)
        case .mapping(var pairs):
            guard let key = stack[top].pendingKey else {
                stack[top].pendingKey = node
                return
            }
            stack[top].pendingKey = nil
            stack[top].node.value = .scalar("")
            pairs.append((key, node))
            stack[top].node.value = .mapping(pairs)
        case .scalar:
            break
        }
    }

    private func string(_ p: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        p.map { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) }
    }
}

/// A step on the path to a streamed sequence: a mapping's key or a sequence's index.
public enum YAMLPathComponent: Sendable, Equatable {
    case key(String)
    case index(Int)
}

/// The first problem found; reading stops there (libyaml cannot go on after one).
struct ProblemLog {
    private(set) var problem: YAMLProblem?
    mutating func error(_ mark: YAMLMark?, _ message: String) {
        if problem == nil { problem = YAMLProblem(mark: mark, message: message) }
    }
}
