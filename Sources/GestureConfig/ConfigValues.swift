import YAMLTree
import GestureEngine
import TouchModel

/// Readers of one value each (text, names, counts, quantities, regions): each
/// reports what is wrong at the value's mark and returns nil.
extension ConfigParser {
    mutating func text(_ v: YAMLNode, _ what: String) -> String? {
        guard let s = v.scalar else {
            log.error(v.mark, "expected text for \(what), found \(v.shape)")
            return nil
        }
        guard !v.isNull else {
            log.error(v.mark, "\(what) is YAML's null ('\(s)'), not text; write the text, or quote it (\"\(s)\") to mean the word itself")
            return nil
        }
        guard !s.trimmingSpaces().isEmpty else {
            log.error(v.mark, "\(what) is empty")
            return nil
        }
        guard !s.utf8.contains(0) else {
            log.error(v.mark, "\(what) holds a NUL character ('\\0'); the system would cut it short there")
            return nil
        }
        return s
    }

    /// Every explicit YAML tag (`!!binary`, `!!int`, `!custom`) in the file: values are
    /// read as written, so a tag would silently mean nothing. `!!str` says what every
    /// scalar is anyway and is allowed. Iterative: the depth is the reader's to bound.
    mutating func refuseTags(_ root: YAMLNode) {
        let yamlPrefix = "tag:yaml.org,2002:"
        var pending = [root]
        while let node = pending.popLast() {
            if let tag = node.tag, !(tag == yamlPrefix + "str" && node.scalar != nil) {
                let written = tag.hasPrefix(yamlPrefix) ? "!!" + tag.dropFirst(yamlPrefix.count) : tag
                log.error(node.mark, "YAML tags such as '\(written)' are not supported: values are read as written; remove the tag")
            }
            switch node.value {
            case .scalar: break
            case .sequence(let items): pending += items
            case .mapping(let pairs): for (k, v) in pairs { pending += [k, v] }
            }
        }
    }

    mutating func name(_ v: YAMLNode, _ what: String) -> String? {
        guard let s = text(v, what) else { return nil }
        let ok = s.unicodeScalars.allSatisfy { c in
            c.properties.isAlphabetic || ("0"..."9").contains(c) || c == "-" || c == "_" || c == "."
        }
        guard ok else {
            log.error(v.mark, "'\(s)' is not a usable name; expected letters, digits, '-', '_' or '.'")
            return nil
        }
        guard s.unicodeScalars.count <= Self.maximumNameLength else {
            log.error(v.mark, "a name is at most \(Self.maximumNameLength) characters, found \(s.unicodeScalars.count)")
            return nil
        }
        return s
    }

    /// Longest gesture name: plenty for a word or three, and it keeps a did-you-mean
    /// over every name quick.
    static let maximumNameLength = 64

    /// One name or a list of them, each with where it is written.
    mutating func names(_ v: YAMLNode, _ what: String) -> [(String, SourceMark)] {
        let nodes: [YAMLNode]
        if case .sequence(let items) = v.value { nodes = items } else { nodes = [v] }
        return nodes.compactMap { n in name(n, what).map { ($0, n.mark) } }
    }

    /// One glob or a list of them (`apps:`, `device-names:`), none empty; `example` is
    /// what an empty list is told to give.
    mutating func globs(_ v: YAMLNode, _ what: String, example: String = "an app id or class like firefox") -> [String] {
        let nodes: [YAMLNode]
        if case .sequence(let items) = v.value { nodes = items } else { nodes = [v] }
        if nodes.isEmpty { log.error(v.mark, "'\(what)' is an empty list; give \(example)") }
        return nodes.compactMap { text($0, what) }
    }

    mutating func oneOf<T: RawRepresentable & CaseIterable>(_ v: YAMLNode, _: T.Type, _ what: String) -> T? where T.RawValue == String {
        guard let s = text(v, what) else { return nil }
        if let t = T(rawValue: s) { return t }
        let options = T.allCases.map(\.rawValue)
        log.error(v.mark, "unknown \(what) '\(s)', expected one of: \(options.joined(separator: ", "))\(DidYouMean.hint(for: s, among: options))")
        return nil
    }

    mutating func list<T: RawRepresentable & CaseIterable>(_ v: YAMLNode, _: T.Type, _ what: String) -> [T]? where T.RawValue == String {
        if case .sequence(let items) = v.value {
            let values = items.map { oneOf($0, T.self, what) }
            return values.contains { $0 == nil } ? nil : values.compactMap { $0 }
        }
        return oneOf(v, T.self, what).map { [$0] }
    }

    mutating func bool(_ v: YAMLNode, _ what: String) -> Bool? {
        switch v.scalar {
        case "true": return true
        case "false": return false
        default:
            log.error(v.mark, "'\(what)' takes true or false, found \(v.shape)")
            return nil
        }
    }

    mutating func count(_ v: YAMLNode, _ range: ClosedRange<Int>, _ what: String) -> Int? {
        guard let s = v.scalar, let n = Int(s.trimmingSpaces()) else {
            log.error(v.mark, "'\(what)' takes a whole number from \(range.lowerBound) to \(range.upperBound), found \(v.shape)")
            return nil
        }
        guard range.contains(n) else {
            log.error(v.mark, "'\(what)' must be from \(range.lowerBound) to \(range.upperBound), found \(n)")
            return nil
        }
        return n
    }

    /// A pinch's `in`/`out` or a rotation's `clockwise`/`counterclockwise`, one or a list.
    mutating func senses(_ v: YAMLNode, kind: GestureKind) -> Set<Sense>? {
        guard let all = list(v, Sense.self, "direction") else { return nil }
        let words = kind.traits.directions.words
        for s in all where !words.contains(s.rawValue) {
            log.error(v.mark, "a \(kind.rawValue) goes \(words.joined(separator: " or ")), not '\(s.rawValue)'")
            return nil
        }
        return Set(all)
    }

    mutating func fingers(_ v: YAMLNode, kind: GestureKind) -> ClosedRange<Int>? {
        guard let s = v.scalar?.trimmingSpaces() else {
            log.error(v.mark, "'fingers' takes a count like 3 (or a range like 2-4 for \(GestureKey.rangeKinds)), found \(v.shape)")
            return nil
        }
        let parts = s.split(separator: "-", omittingEmptySubsequences: false).map { Int(String($0).trimmingSpaces()) }
        guard (parts.count == 1 || parts.count == 2), let lo = parts.first!, let hi = parts.last! else {
            log.error(v.mark, "'fingers' takes a count like 3 (or a range like 2-4 for \(GestureKey.rangeKinds)), found '\(s)'")
            return nil
        }
        guard (1...5).contains(lo), (1...5).contains(hi), lo <= hi else {
            log.error(v.mark, "'fingers' must be from 1 to 5\(parts.count == 2 ? ", the smaller first" : ""), found '\(s)'")
            return nil
        }
        if lo != hi, !kind.traits.takesRange {
            log.error(v.mark, "a \(kind.rawValue) takes one finger count, found the range '\(s)'; ranges are for \(GestureKey.rangeKinds)")
            return nil
        }
        if lo < kind.traits.minFingers {
            log.error(v.mark, "a \(kind.rawValue) needs at least \(kind.traits.minFingers) fingers, found '\(s)'")
            return nil
        }
        return lo...hi
    }

    mutating func quantity(_ v: YAMLNode, _ q: Quantity, _ what: String) -> Double? {
        guard let s = v.scalar else {
            log.error(v.mark, "'\(what)' takes \(q.withArticle) like \(q.example), found \(v.shape)")
            return nil
        }
        switch q.parse(s) {
        case .success(let x): return x
        case .failure(let e):
            log.error(v.mark, "'\(what)': \(e.message)")
            return nil
        }
    }

    /// A quantity within its bounds: more than zero (a scale: more than 1x), at least
    /// `Quantity.floor`, at most `max` or `Quantity.ceiling`.
    mutating func positive(_ v: YAMLNode, _ q: Quantity, _ what: String, max: Double? = nil) -> Double? {
        guard let x = quantity(v, q, what) else { return nil }
        return bounded(x, q, what, at: v, max: max)
    }

    private mutating func bounded(_ x: Double, _ q: Quantity, _ what: String, at v: YAMLNode, max: Double? = nil) -> Double? {
        let found = "found '\(v.scalar ?? "")'"
        let limit = max ?? q.ceiling
        if q == .scale, x <= 1 {
            log.error(v.mark, "'\(what)' must be more than 1x (1x is no change), like \(q.example), \(found)")
        } else if x <= 0 {
            log.error(v.mark, "'\(what)' must be more than zero, \(found)")
        } else if x > limit {
            log.error(v.mark, "'\(what)' must be at most \(format(limit))\(q.baseSuffix), \(found)")
        } else if x < q.floor.value {
            log.error(v.mark, "'\(what)' must be at least \(q.floor.text) (less is \(q.floor.reason)), \(found)")
        } else {
            return x
        }
        return nil
    }

    /// `every:` takes whichever quantity its unit names.
    mutating func step(_ v: YAMLNode) -> (Quantity, Double)? {
        guard let s = v.scalar else {
            log.error(v.mark, "'every' takes a step like 10mm, 15deg or 1.25x, found \(v.shape)")
            return nil
        }
        for q in [Quantity.distance, .angle, .scale] {
            if case .success(let x) = q.parse(s) {
                return bounded(x, q, "every", at: v).map { (q, $0) }
            }
        }
        log.error(v.mark, "'every' takes a step like 10mm, 15deg or 1.25x, found '\(s)'")
        return nil
    }

    mutating func region(_ v: YAMLNode) -> Region? {
        guard let pairs = mapping(v, RegionKey.self, what: "a region") else { return nil }
        var edges: [RegionKey: Double] = [.left: 0, .top: 0, .right: 1, .bottom: 1]
        var ok = true
        for (key, _, value) in pairs {
            if let f = fraction(value, key.rawValue) { edges[key] = f } else { ok = false }
        }
        guard ok else { return nil }
        guard edges[.left]! < edges[.right]!, edges[.top]! < edges[.bottom]! else {
            log.error(v.mark, "the region is empty: 'left' must be less than 'right' and 'top' less than 'bottom'")
            return nil
        }
        return Region(x: edges[.left]!...edges[.right]!, y: edges[.top]!...edges[.bottom]!)
    }

    /// A plain number within `range` (`2.5`; `2.5x` too, for a scale).
    mutating func number(_ v: YAMLNode, _ what: String, in range: ClosedRange<Double>) -> Double? {
        guard let s = v.scalar else {
            log.error(v.mark, "'\(what)' takes a number like \(format(range.upperBound / 2)), found \(v.shape)")
            return nil
        }
        let digits = s.hasSuffix("x") ? String(s.dropLast()) : s
        guard let x = Double(digits), x.isFinite else {
            log.error(v.mark, "'\(what)' takes a number like \(format(range.upperBound / 2)), found '\(s)'")
            return nil
        }
        guard range.contains(x) else {
            log.error(v.mark, "'\(what)' must be from \(format(range.lowerBound)) to \(format(range.upperBound)), found '\(s)'")
            return nil
        }
        return x
    }

    /// A duration from 0 (off) to `AccessibilityKey.maxWindow`.
    mutating func window(_ v: YAMLNode, _ what: String) -> Double? {
        if v.scalar == "0" { return 0 }
        guard let t = quantity(v, .duration, what) else { return nil }
        guard t >= 0, t <= AccessibilityKey.maxWindow else {
            log.error(v.mark, "'\(what)' must be from 0ms to \(format(AccessibilityKey.maxWindow))s, found '\(v.scalar ?? "")'")
            return nil
        }
        return t
    }

    mutating func fraction(_ v: YAMLNode, _ what: String) -> Double? {
        guard var s = v.scalar?.trimmingSpaces() else {
            log.error(v.mark, "'\(what)' takes a fraction like 0.5 or 50%, found \(v.shape)")
            return nil
        }
        var scale = 1.0
        if s.hasSuffix("%") { s.removeLast(); scale = 100 }
        guard let x = Double(s.trimmingSpaces()), x.isFinite, (0...1).contains(x / scale) else {
            log.error(v.mark, "'\(what)' takes a fraction from 0 to 1 (or 0% to 100%), found '\(v.scalar ?? "")'")
            return nil
        }
        return x / scale
    }
}

/// A short decimal for messages: at most two decimals, no trailing zeros.
func format(_ x: Double) -> String {
    let hundredths = Int64((x * 100).rounded())
    let whole = hundredths / 100, frac = abs(hundredths % 100)
    if frac == 0 { return String(whole) }
    let f = frac % 10 == 0 ? String(frac / 10) : (frac < 10 ? "0\(frac)" : String(frac))
    return (x < 0 && whole == 0 ? "-" : "") + "\(whole).\(f)"
}
