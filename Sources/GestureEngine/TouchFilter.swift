import TouchModel

/// UIKit's shouldReceiveTouch, as configuration: which devices a gesture listens to
/// (kind, name glob) and, on touchscreens, where its touches must begin (a region, or
/// an edge zone).
enum TouchFilter {
    /// Whether a spec's device filter admits the device (checked once, at engine init).
    static func admits(_ filter: DeviceFilter, _ device: DeviceInfo) -> Bool {
        if let kind = filter.kind, kind != device.kind { return false }
        if let glob = filter.nameGlob, !Glob.matches(glob, device.name) { return false }
        return true
    }

    /// Whether a touch sequence that began at `landing` reaches a recognizer with this
    /// spec, and if not, why. Regions and edges only filter touchscreens: on a touchpad
    /// a place on the pad is not a place on the screen.
    static func receives(_ spec: GestureSpec, _ device: DeviceInfo, landing: Point, normalized: Point) -> FailureReason? {
        guard device.kind == .touchscreen else { return nil }
        if let r = spec.region, !(r.x.contains(normalized.x) && r.y.contains(normalized.y)) {
            return .outsideRegion
        }
        // An edge pan picks its own edge; for the others `edges` is a filter.
        if spec.kind != .edgePan, !spec.edges.isEmpty {
            let zone = spec.thresholds.edgeZoneMM ?? defaultEdgeZoneMM
            if nearestEdge(landing, device.size, zone: zone, among: spec.edges) == nil { return .notAtEdge }
        }
        return nil
    }

    /// The nearest edge within `zone` mm of `p`, among `edges` (empty = all four).
    static func nearestEdge(_ p: Point, _ size: Size, zone: Double, among edges: Set<Edge>) -> Edge? {
        var best: Edge?
        var bestDistance = Double.infinity
        for edge in Edge.all where edges.isEmpty || edges.contains(edge) {
            let d: Double
            switch edge {
            case .left: d = p.x
            case .right: d = size.width - p.x
            case .top: d = p.y
            case .bottom: d = size.height - p.y
            }
            if d <= zone && d < bestDistance { best = edge; bestDistance = d }
        }
        return best
    }
}

extension Edge {
    static let all: [Edge] = Edge.allCases

    /// The direction that leads away from the edge, into the surface.
    var inward: Direction {
        switch self {
        case .left: return .right
        case .right: return .left
        case .top: return .down
        case .bottom: return .up
        }
    }
}

/// Shell-style globs (`*`, `?`, `[abc]`, `[a-z]`, `[!x]`) over device names, as
/// fnmatch(3) without flags. Runs once per spec at engine init, never per frame.
enum Glob {
    static func matches(_ pattern: String, _ text: String) -> Bool {
        match(Array(pattern), 0, Array(text), 0)
    }

    private static func match(_ p: [Character], _ pi: Int, _ t: [Character], _ ti: Int) -> Bool {
        var pi = pi, ti = ti
        while pi < p.count {
            switch p[pi] {
            case "*":
                while pi < p.count && p[pi] == "*" { pi += 1 }
                if pi == p.count { return true }
                for k in ti...t.count where match(p, pi, t, k) { return true }
                return false
            case "?":
                guard ti < t.count else { return false }
                pi += 1; ti += 1
            case "[":
                guard ti < t.count, let (matched, next) = bracket(p, pi, t[ti]) else {
                    // An unterminated "[" is literal.
                    guard ti < t.count, t[ti] == "[" else { return false }
                    pi += 1; ti += 1
                    continue
                }
                guard matched else { return false }
                pi = next; ti += 1
            default:
                guard ti < t.count, t[ti] == p[pi] else { return false }
                pi += 1; ti += 1
            }
        }
        return ti == t.count
    }

    /// Matches `c` against the bracket expression at `p[start]`; nil if unterminated.
    private static func bracket(_ p: [Character], _ start: Int, _ c: Character) -> (Bool, Int)? {
        var i = start + 1
        var negate = false
        if i < p.count && (p[i] == "!" || p[i] == "^") { negate = true; i += 1 }
        var matched = false
        var first = true
        while i < p.count && (first || p[i] != "]") {
            first = false
            if i + 2 < p.count && p[i + 1] == "-" && p[i + 2] != "]" {
                if p[i] <= c && c <= p[i + 2] { matched = true }
                i += 3
            } else {
                if p[i] == c { matched = true }
                i += 1
            }
        }
        guard i < p.count else { return nil }
        return (matched != negate, i + 1)
    }
}
