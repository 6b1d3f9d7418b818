/// Shell globs over device names, with fnmatch(3)'s semantics without flags (the C
/// locale): `*` any run of characters (`/` and a leading `.` included), `?` any one
/// character, `[abc]`, `[a-z]`, `[!x]` or `[^x]`, `[[:digit:]]` and the other POSIX
/// classes (ASCII), `\x` the character x. An unterminated `[` is the character `[`.
/// Collating symbols (`[.x.]`) and equivalence classes (`[=x=]`) are not supported.
///
/// The one glob of the project: the engine's device and app (`apps:`) filters, `gestured check` and the
/// daemon's `--device` all use it, so they cannot disagree about a name. Matching is
/// greedy with one backtracking point (the last `*`), so it takes at most
/// pattern × name steps: `*a*a*a*a*a*a*b` against an 80-character name once took more
/// than 30 s in a recursive matcher.
public struct Glob: Sendable {
    private let tokens: [Token]

    public init(_ pattern: String) {
        tokens = Self.compile(Array(pattern.unicodeScalars))
    }

    /// Whether `pattern` matches the whole of `name`.
    public static func matches(_ pattern: String, _ name: String) -> Bool {
        Glob(pattern).matches(name)
    }

    public func matches(_ name: String) -> Bool {
        let text = Array(name.unicodeScalars)
        var p = 0, t = 0
        var star: (p: Int, t: Int)?  // the last `*` seen, and where its run ends now
        while t < text.count {
            if p < tokens.count, tokens[p] == .star {
                star = (p, t)
                p += 1
            } else if p < tokens.count, tokens[p].matches(text[t]) {
                p += 1
                t += 1
            } else if let s = star {
                // Let the last `*` take one more character; any earlier `*` need not:
                // every other token takes exactly one character.
                star = (s.p, s.t + 1)
                p = s.p + 1
                t = s.t + 1
            } else {
                return false
            }
        }
        while p < tokens.count, tokens[p] == .star { p += 1 }
        return p == tokens.count
    }

    // MARK: Compiling

    private enum Token: Sendable, Equatable {
        case star
        case any
        case literal(Unicode.Scalar)
        /// A bracket expression.
        case set([Item], negated: Bool)
        /// An unterminated `[`: the character `[`, unless one of what follows it would
        /// already have matched `[` (fnmatch then fails rather than go on).
        case openBracket([Item])
        /// What fnmatch never matches: a `\` at the end, a range with no end.
        case never

        func matches(_ c: Unicode.Scalar) -> Bool {
            switch self {
            case .star, .any: return true
            case .literal(let l): return l == c
            case .set(let items, let negated):
                switch Item.evaluate(items, c) {
                case .matched: return !negated
                case .exhausted: return negated
                case .failed: return false
                }
            case .openBracket(let items): return c == "[" && Item.evaluate(items, "[") == .exhausted
            case .never: return false
            }
        }
    }

    /// One member of a bracket expression, tried in order as fnmatch does.
    private enum Item: Sendable, Equatable {
        case char(Unicode.Scalar)
        case range(Unicode.Scalar, Unicode.Scalar)
        case characterClass(CharacterClass)
        /// An unknown class name: fnmatch fails when it reaches one.
        case fail

        enum Outcome { case matched, exhausted, failed }

        static func evaluate(_ items: [Item], _ c: Unicode.Scalar) -> Outcome {
            for item in items {
                switch item {
                case .char(let x): if x == c { return .matched }
                case .range(let lo, let hi): if lo <= c && c <= hi { return .matched }
                case .characterClass(let k): if k.contains(c) { return .matched }
                case .fail: return .failed
                }
            }
            return .exhausted
        }
    }

    private static func compile(_ p: [Unicode.Scalar]) -> [Token] {
        var tokens: [Token] = []
        var i = 0
        while i < p.count {
            let c = p[i]
            i += 1
            switch c {
            case "*": if tokens.last != .star { tokens.append(.star) }
            case "?": tokens.append(.any)
            case "\\":
                if i < p.count { tokens.append(.literal(p[i])); i += 1 } else { tokens.append(.never) }
            case "[":
                let (token, next) = bracket(p, from: i)
                tokens.append(token)
                i = next
            default: tokens.append(.literal(c))
            }
        }
        return tokens
    }

    /// The bracket expression whose `[` is just before `start`, as glibc's fnmatch reads
    /// it; returns the token and where the pattern goes on.
    private static func bracket(_ p: [Unicode.Scalar], from start: Int) -> (Token, Int) {
        var i = start
        func next() -> Unicode.Scalar? {
            defer { i += 1 }
            return i < p.count ? p[i] : nil
        }
        func peek(_ k: Int = 0) -> Unicode.Scalar? { i + k < p.count ? p[i + k] : nil }
        let negated = peek() == "!" || peek() == "^"
        if negated { i += 1 }
        var items: [Item] = []
        var c = next()  // the first character, `]` included, is a member
        while true {
            guard var member = c else { return (.openBracket(items), start) }
            if member == "\\" {
                guard let escaped = next() else { return (.never, p.count) }
                member = escaped
            } else if member == "[", peek() == ":", let (k, end) = CharacterClass.parse(p, at: i + 1) {
                items.append(k.map(Item.characterClass) ?? .fail)
                i = end
                c = next()
                if c == "]" { return (.set(items, negated: negated), i) }
                continue
            }
            // A member; a range when `-` and an end other than `]` follow.
            let isRange = peek() == "-" && peek(1) != nil && peek(1) != "]"
            if !isRange { items.append(.char(member)) }
            c = next()
            if c == "-", peek() != "]" {
                guard var end = next() else { return (.never, p.count) }
                if end == "\\" {
                    guard let escaped = next() else { return (.never, p.count) }
                    end = escaped
                }
                items.append(.range(member, end))
                c = next()
            }
            if c == "]" { return (.set(items, negated: negated), i) }
        }
    }
}

/// The POSIX character classes, for ASCII (the C locale's meaning).
private enum CharacterClass: String, Sendable, Equatable, CaseIterable {
    case alpha, digit, alnum, upper, lower, space, blank, punct, xdigit, cntrl, graph, print

    /// The class named at `p[start...]` up to `:]`, and the index after it; nil when
    /// no `:]` closes a lowercase name (then `[` is an ordinary member); `.some(nil)`
    /// for an unknown name.
    static func parse(_ p: [Unicode.Scalar], at start: Int) -> (CharacterClass?, Int)? {
        var name = ""
        var i = start
        while i + 1 < p.count, !(p[i] == ":" && p[i + 1] == "]") {
            guard p[i] >= "a" && p[i] < "z" else { return nil }
            name.unicodeScalars.append(p[i])
            i += 1
        }
        guard i + 1 < p.count else { return nil }
        return (CharacterClass(rawValue: name), i + 2)
    }

    func contains(_ c: Unicode.Scalar) -> Bool {
        guard c.isASCII else { return false }
        let v = c.value
        let upper = (65...90).contains(v), lower = (97...122).contains(v), digit = (48...57).contains(v)
        switch self {
        case .alpha: return upper || lower
        case .digit: return digit
        case .alnum: return upper || lower || digit
        case .upper: return upper
        case .lower: return lower
        case .space: return v == 32 || (9...13).contains(v)
        case .blank: return v == 32 || v == 9
        case .punct: return (33...126).contains(v) && !(upper || lower || digit)
        case .xdigit: return digit || (65...70).contains(v) || (97...102).contains(v)
        case .cntrl: return v < 32 || v == 127
        case .graph: return (33...126).contains(v)
        case .print: return (32...126).contains(v)
        }
    }
}
