import CYaml

/// A YAML node with the place it starts, built from libyaml's event stream.
/// Only what a config needs: scalars (as written, never typed by YAML's own
/// rules — `no` stays the string "no" until the schema says it is a boolean),
/// sequences and mappings that keep their key order and duplicates for the
/// validator to report.
struct YAMLNode {
    enum Value {
        case scalar(String)
        case sequence([YAMLNode])
        case mapping([(key: YAMLNode, value: YAMLNode)])
    }
    var mark: SourceMark
    var value: Value

    var scalar: String? {
        if case .scalar(let s) = value { return s }
        return nil
    }

    /// What the node is, for "expected a mapping, found a list".
    var shape: String {
        switch value {
        case .scalar(let s): return s.isEmpty ? "nothing" : "'\(s)'"
        case .sequence: return "a list"
        case .mapping: return "a mapping"
        }
    }
}

/// Reads one YAML document with libyaml's event API.
enum YAMLReader {
    /// Alias bombs ("billion laughs"): an alias costs the size of what it repeats;
    /// past this many repeated nodes the file is refused.
    static let aliasExpansionLimit = 10_000
    /// Deeper nesting than any config needs; refused before it can exhaust a stack.
    static let maximumDepth = 64

    /// Returns the document's root (nil for an empty file) and reports every problem to `log`.
    static func read(_ bytes: [UInt8], log: inout DiagnosticLog) -> YAMLNode? {
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
            var builder = TreeBuilder()
            while true {
                var event = yaml_event_t()
                guard yaml_parser_parse(parser, &event) != 0 else {
                    reportSyntaxError(parser.pointee, log: &log)
                    return nil
                }
                defer { yaml_event_delete(&event) }
                if event.type == YAML_STREAM_END_EVENT { break }
                if !builder.consume(event, log: &log) { return nil }
            }
            return builder.root
        }
    }

    private static func reportSyntaxError(_ p: yaml_parser_t, log: inout DiagnosticLog) {
        let problem = p.problem.map { String(cString: $0) } ?? "malformed YAML"
        var message = "YAML syntax: \(problem)"
        if let context = p.context.map({ String(cString: $0) }) {
            message += " (\(context) at line \(p.context_mark.line + 1))"
        }
        if p.error == YAML_READER_ERROR {
            message = "the file is not valid UTF-8 or UTF-16 text: \(problem)"
        }
        log.error(mark(p.problem_mark), message)
    }

    static func mark(_ m: yaml_mark_t) -> SourceMark {
        SourceMark(line: Int(m.line) + 1, column: Int(m.column) + 1)
    }
}

/// Builds the tree from events with an explicit stack (no recursion on untrusted depth).
private struct TreeBuilder {
    private struct Open {
        var node: YAMLNode
        var anchor: String?
        var size: Int
        var pendingKey: YAMLNode?
    }
    private var stack: [Open] = []
    private var anchors: [String: (node: YAMLNode, size: Int)] = [:]
    private var expanded = 0
    private var documents = 0
    private(set) var root: YAMLNode?

    /// Returns false when reading must stop.
    mutating func consume(_ e: yaml_event_t, log: inout DiagnosticLog) -> Bool {
        let at = YAMLReader.mark(e.start_mark)
        switch e.type {
        case YAML_DOCUMENT_START_EVENT:
            documents += 1
            if documents > 1 {
                log.error(at, "a second YAML document ('---'); a config file holds one document")
                return false
            }
        case YAML_SCALAR_EVENT:
            let s = e.data.scalar
            let text = String(decoding: UnsafeBufferPointer(start: s.value, count: Int(s.length)), as: UTF8.self)
            add(YAMLNode(mark: at, value: .scalar(text)), anchor: string(s.anchor), size: 1, log: &log)
        case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
            guard stack.count < YAMLReader.maximumDepth else {
                log.error(at, "nested more than \(YAMLReader.maximumDepth) levels deep")
                return false
            }
            let isSeq = e.type == YAML_SEQUENCE_START_EVENT
            let anchor = isSeq ? string(e.data.sequence_start.anchor) : string(e.data.mapping_start.anchor)
            stack.append(Open(node: YAMLNode(mark: at, value: isSeq ? .sequence([]) : .mapping([])),
                              anchor: anchor, size: 1))
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            let open = stack.removeLast()
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
        return true
    }

    private mutating func add(_ node: YAMLNode, anchor: String?, size: Int, log: inout DiagnosticLog) {
        if let anchor { anchors[anchor] = (node, size) }
        guard !stack.isEmpty else { root = node; return }
        stack[stack.count - 1].size += size
        let top = stack.count - 1
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
