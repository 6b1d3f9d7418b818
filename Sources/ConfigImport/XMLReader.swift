/// A small, bounded XML reader for touchegg's config: elements, attributes, text,
/// comments, CDATA, processing instructions and XML's five entities and character
/// references. No DTD: a `<!DOCTYPE` is refused, so no entity can expand (no
/// "billion laughs") and nothing external is fetched. Nesting, element count and
/// sizes are capped; every problem names its line and column. An explicit stack,
/// never recursion, so no input can exhaust the call stack.
struct XMLElement: Sendable, Equatable {
    var name: String
    var attributes: [(name: String, value: String)]
    var children: [XMLElement] = []
    /// The text directly inside, entities replaced, in order.
    var text = ""
    var line: Int
    var column: Int

    static func == (a: XMLElement, b: XMLElement) -> Bool {
        a.name == b.name && a.attributes.elementsEqual(b.attributes, by: ==) && a.children == b.children && a.text == b.text
    }

    func attribute(_ name: String) -> String? { attributes.first { $0.name == name }?.value }
    func child(_ name: String) -> XMLElement? { children.first { $0.name == name } }
}

struct XMLProblem: Error, Equatable {
    var line: Int
    var column: Int
    var message: String
}

struct XMLReader {
    static let maximumDepth = 32
    static let maximumElements = 100_000
    static let maximumAttributes = 64

    private let bytes: [UInt8]
    private var i = 0
    private var line = 1, column = 1
    private var elements = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The root element of `bytes`.
    static func parse(_ bytes: [UInt8]) throws(XMLProblem) -> XMLElement {
        var r = XMLReader(bytes)
        return try r.document()
    }

    private mutating func document() throws(XMLProblem) -> XMLElement {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
        guard String(validating: bytes, as: UTF8.self) != nil else { throw problem("not UTF-8 text") }
        var stack: [XMLElement] = []
        var root: XMLElement?
        while i < bytes.count {
            if peek("<") {
                if peek("<!--") { try skip(past: "-->", what: "a comment"); continue }
                if peek("<?") { try skip(past: "?>", what: "a processing instruction"); continue }
                if peek("<![CDATA[") {
                    guard !stack.isEmpty else { throw problem("text outside the root element") }
                    let start = i + 9
                    try skip(past: "]]>", what: "a CDATA section")
                    stack[stack.count - 1].text += String(decoding: bytes[start..<(i - 3)], as: UTF8.self)
                    continue
                }
                if peek("<!") { throw problem("a DTD or declaration ('<!'): touchegg.conf has none, and entities are not expanded") }
                if peek("</") {
                    let (l, c) = (line, column)
                    advance(2)
                    let name = try self.name()
                    skipSpace()
                    try expect(">")
                    guard let open = stack.popLast() else { throw XMLProblem(line: l, column: c, message: "'</\(name)>' closes nothing") }
                    guard open.name == name else {
                        throw XMLProblem(line: l, column: c, message: "'</\(name)>' where '</\(open.name)>' (opened at line \(open.line)) should close first")
                    }
                    if stack.isEmpty { root = open } else { stack[stack.count - 1].children.append(open) }
                    continue
                }
                guard root == nil else { throw problem("a second root element; an XML file has one") }
                guard stack.count < Self.maximumDepth else { throw problem("nested more than \(Self.maximumDepth) elements deep") }
                elements += 1
                guard elements <= Self.maximumElements else { throw problem("more than \(Self.maximumElements) elements") }
                let (element, closed) = try startTag()
                if !closed { stack.append(element) } else if stack.isEmpty { root = element } else { stack[stack.count - 1].children.append(element) }
                continue
            }
            let (l, c) = (line, column)
            let text = try self.text()
            if stack.isEmpty {
                guard text.allSatisfy(\.isWhitespace) else { throw XMLProblem(line: l, column: c, message: "text outside the root element") }
            } else {
                stack[stack.count - 1].text += text
            }
        }
        if let open = stack.last { throw XMLProblem(line: open.line, column: open.column, message: "'<\(open.name)>' is never closed") }
        guard let root else { throw problem("no root element: the file is empty") }
        return root
    }

    /// `<name a="v">`, or `<name/>` (then `closed`).
    private mutating func startTag() throws(XMLProblem) -> (element: XMLElement, closed: Bool) {
        let (l, c) = (line, column)
        advance(1)
        var element = XMLElement(name: try name(), attributes: [], line: l, column: c)
        while true {
            let spaced = skipSpace()
            if peek("/>") { advance(2); return (element, true) }
            if peek(">") { advance(1); return (element, false) }
            guard spaced else { throw problem("expected a space, '>' or '/>' in '<\(element.name)>'") }
            let attribute = try name()
            skipSpace()
            try expect("=")
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: "'") else {
                throw problem("the value of '\(attribute)' must be quoted")
            }
            let quote = bytes[i]
            advance(1)
            let value = try text(until: quote)
            advance(1)
            guard !element.attributes.contains(where: { $0.name == attribute }) else { throw problem("'\(attribute)' given twice") }
            guard element.attributes.count < Self.maximumAttributes else { throw problem("more than \(Self.maximumAttributes) attributes") }
            element.attributes.append((attribute, value))
        }
    }

    /// Text up to the next `<` (or `quote` inside an attribute), entities replaced.
    private mutating func text(until quote: UInt8? = nil) throws(XMLProblem) -> String {
        var out: [UInt8] = []
        while i < bytes.count {
            let b = bytes[i]
            if let quote, b == quote { return String(decoding: out, as: UTF8.self) }
            if b == UInt8(ascii: "<") {
                if quote != nil { throw problem("'<' inside an attribute value") }
                break
            }
            if b == UInt8(ascii: "&") { out += try entity(); continue }
            out.append(b)
            advance(1)
        }
        if quote != nil { throw problem("an attribute value is never closed") }
        return String(decoding: out, as: UTF8.self)
    }

    /// `&amp;`, `&#233;`, `&#xE9;`: XML's own entities only.
    private mutating func entity() throws(XMLProblem) -> [UInt8] {
        guard let end = bytes[i...].prefix(12).firstIndex(of: UInt8(ascii: ";")) else { throw problem("'&' that starts no entity (write &amp;)") }
        let body = String(decoding: bytes[(i + 1)..<end], as: UTF8.self)
        let scalar: Unicode.Scalar?
        switch body {
        case "lt": scalar = "<"
        case "gt": scalar = ">"
        case "amp": scalar = "&"
        case "quot": scalar = "\""
        case "apos": scalar = "'"
        default:
            if body.hasPrefix("#x") { scalar = UInt32(body.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init) }
            else if body.hasPrefix("#") { scalar = UInt32(body.dropFirst(), radix: 10).flatMap(Unicode.Scalar.init) }
            else { throw problem("unknown entity '&\(body);': only XML's own (&lt; &gt; &amp; &quot; &apos;) and &#N; are read") }
        }
        guard let scalar, scalar.value != 0 else { throw problem("'&\(body);' is no character") }
        advance(end + 1 - i)
        return Array(String(scalar).utf8)
    }

    private mutating func name() throws(XMLProblem) -> String {
        let start = i
        while i < bytes.count, !" \t\r\n=/>\"'<&".utf8.contains(bytes[i]) { advance(1) }
        guard i > start else { throw problem("expected a name") }
        guard i - start <= 256 else { throw problem("a name longer than 256 bytes") }
        return String(decoding: bytes[start..<i], as: UTF8.self)
    }

    @discardableResult
    private mutating func skipSpace() -> Bool {
        let start = i
        while i < bytes.count, " \t\r\n".utf8.contains(bytes[i]) { advance(1) }
        return i > start
    }

    private mutating func skip(past end: String, what: String) throws(XMLProblem) {
        let (l, c) = (line, column)
        let needle = Array(end.utf8)
        while i < bytes.count {
            if bytes[i...].starts(with: needle) { advance(needle.count); return }
            advance(1)
        }
        throw XMLProblem(line: l, column: c, message: "\(what) is never closed ('\(end)')")
    }

    private mutating func expect(_ s: String) throws(XMLProblem) {
        guard peek(s) else { throw problem("expected '\(s)'") }
        advance(s.utf8.count)
    }

    private func peek(_ s: String) -> Bool { bytes[i...].starts(with: s.utf8) }

    /// Moves on `n` bytes, counting lines, and columns in characters.
    private mutating func advance(_ n: Int) {
        for _ in 0..<n where i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "\n") { line += 1; column = 1 } else if b & 0xC0 != 0x80 { column += 1 }
            i += 1
        }
    }

    private func problem(_ message: String) -> XMLProblem { XMLProblem(line: line, column: column, message: message) }
}
