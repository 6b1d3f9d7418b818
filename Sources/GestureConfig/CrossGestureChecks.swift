import YAMLTree
import GestureEngine
import TouchModel

/// The checks that need every gesture of the file: unique names, references that
/// resolve, cycles, and gestures an earlier one shadows.
extension ConfigParser {
    mutating func crossCheck() {
        var byName: [String: Int] = [:]
        for (i, d) in drafts.enumerated() where !d.spec.name.isEmpty {
            if let first = byName[d.spec.name] {
                log.error(d.marks[.name] ?? d.mark, "duplicate gesture name '\(d.spec.name)' (first used at line \(drafts[first].mark.line)); names must be unique")
            } else {
                byName[d.spec.name] = i
            }
        }
        let names = drafts.map(\.spec.name).filter { !$0.isEmpty }
        var referenced = Set<String>()
        // A suggestion compares a name with every other: only the first few unknown
        // names get one, so a file of thousands stays linear.
        var hintsLeft = Self.unknownNameHints
        for d in drafts {
            for key in [GestureKey.simultaneousWith, .requiresFailureOf, .after] {
                for (n, at) in d.references[key] ?? [] {
                    referenced.insert(n)
                    if n == d.spec.name {
                        log.error(at, "'\(key.rawValue)' names the gesture itself ('\(n)')")
                    } else if byName[n] == nil {
                        let hint = hintsLeft > 0 ? DidYouMean.hint(for: n, among: names) : ""
                        hintsLeft -= 1
                        log.error(at, "'\(key.rawValue)' names no gesture: '\(n)'\(hint)")
                    }
                }
            }
        }
        // A gesture naming itself is reported above; its cycles are the others'.
        func edges(_ names: (GestureSpec) -> [String]) -> [[Int]] {
            drafts.map { d in names(d.spec).compactMap { byName[$0] }.filter { drafts[$0].spec.name != d.spec.name } }
        }
        checkCycles(.requiresFailureOf, edges: edges(\.requiresFailureOf), "each would wait for the other forever")
        checkCycles(.after, edges: edges { $0.after.map { [$0] } ?? [] },
                    "none of them can ever fire, since each counts only right after another of them")
        for d in drafts where d.valid && d.binding.actions.isEmpty && d.binding.hold == nil && !referenced.contains(d.spec.name) {
            log.warning(d.mark, "gesture '\(d.spec.name)' runs no command; add 'command:' (or 'begin:'/'update:'/'end:')")
        }
        warnShadowed()
        warnSwipesWaitingForShapes()
        checkAccessibility()
        checkShortcutsUnique()
    }

    /// One shortcut runs one binding: two gestures on the same desktop with the same keys
    /// (the modifiers in any order, the key in any case) would each be grabbed, and GNOME
    /// refuses the second.
    mutating func checkShortcutsUnique() {
        var first: [String: Int] = [:]
        for (i, d) in drafts.enumerated() {
            guard let s = d.binding.shortcut else { continue }
            let keys = s.modifiers.sorted().joined(separator: "+") + "+" + s.key.lowercased()
            if let j = first[keys] {
                let a = Set(drafts[j].binding.desktops.map { $0.uppercased() }), b = Set(d.binding.desktops.map { $0.uppercased() })
                guard a.isEmpty || b.isEmpty || !a.isDisjoint(with: b) else { continue }
                log.error(d.marks[.shortcut] ?? d.mark, "shortcut \(s) is also '\(drafts[j].spec.name)''s (line \(drafts[j].mark.line)); a shortcut runs one gesture's binding")
            } else {
                first[keys] = i
            }
        }
    }

    /// Unknown gesture names that get a did-you-mean.
    static let unknownNameHints = 20

    /// `a requires-failure-of b` and `b requires-failure-of a` would wait on each other
    /// forever; `a after b` and `b after a` can never start. Linear in gestures and
    /// references (CycleSearch); a long cycle is shown by its ends.
    mutating func checkCycles(_ key: GestureKey, edges: [[Int]], _ consequence: String) {
        let names = drafts.map(\.spec.name)
        var found: [(at: SourceMark, cycle: [String])] = []
        CycleSearch.cycles(in: edges) { cycle in
            let shown = cycle.count <= 8 ? cycle.map { names[$0] }
                : cycle.prefix(3).map { names[$0] } + ["… \(cycle.count - 6) more"] + cycle.suffix(3).map { names[$0] }
            found.append((drafts[cycle.last!].marks[key] ?? drafts[cycle.last!].mark, shown + [names[cycle.first!]]))
            return true
        }
        for (at, cycle) in found {
            log.error(at, "'\(key.rawValue)' forms a cycle: \(cycle.joined(separator: " → ")); \(consequence)")
        }
    }

    /// An earlier gesture that recognizes everything a later one does wins every time
    /// (config order breaks ties). Earlier gestures are indexed by everything that
    /// must be equal (or absent) for one to shadow another, then by their direction
    /// and edge sets; a gesture looks up only the few entries that could shadow it,
    /// so the check stays linear in the number of gestures (it was quadratic: 2.2 s
    /// for 5,000 gestures of one kind).
    mutating func warnShadowed() {
        struct Key: Hashable {
            var kind: GestureKind, fingers: ClosedRange<Int>, taps: Int, axis: Axis?, after: String?
            var thresholds: [Double?]
            var deviceKind: DeviceKind?, glob: String?, region: [Double]?
        }
        var index: [Key: [Sets: [Int]]] = [:]
        for (j, b) in drafts.enumerated() where b.valid {
            let spec = b.spec
            let region = spec.region.map { [$0.x.lowerBound, $0.x.upperBound, $0.y.lowerBound, $0.y.upperBound] }
            let t = spec.thresholds
            let thresholds = [t.minDistanceMM, t.minVelocityMMPerS, t.maxAngleDeg, t.maxMovementMM, t.maxTapDuration,
                              t.maxTapInterval, t.minDuration, t.edgeZoneMM, t.minScale, t.minRotationDeg, t.minArcDeg]
            let own = Key(kind: spec.kind, fingers: spec.fingers, taps: spec.taps, axis: spec.axis, after: spec.after,
                          thresholds: thresholds, deviceKind: spec.devices.kind, glob: spec.devices.nameGlob, region: region)
            let sets = Sets(directions: Self.bits(spec.directions), edges: Self.bits(spec.edges))
            var shadower: Int?
            for deviceKind in Set([nil, own.deviceKind]) {
                for glob in Set([nil, own.glob]) {
                    for region in Set([nil, own.region]) {
                        var key = own
                        (key.deviceKind, key.glob, key.region) = (deviceKind, glob, region)
                        for (earlier, indices) in index[key] ?? [:] where Self.covers(earlier, sets) {
                            if let i = indices.first(where: { shadows(drafts[$0].spec, spec) }), shadower == nil || i < shadower! {
                                shadower = i
                            }
                        }
                    }
                }
            }
            if let i = shadower {
                let a = drafts[i]
                log.warning(b.mark, "gesture '\(spec.name)' can never fire: '\(a.spec.name)' (line \(a.mark.line)) is the same \(spec.kind.rawValue) and comes first; add 'simultaneous-with' or change one of them")
            }
            if spec.enabled { index[own, default: [:]][sets, default: []].append(j) }
        }
    }

    /// One bit per case of a set of directions or edges.
    private static func bits<T: CaseIterable & Hashable>(_ set: Set<T>) -> UInt16 {
        var out: UInt16 = 0
        for (bit, value) in T.allCases.enumerated() where set.contains(value) { out |= 1 << bit }
        return out
    }

    /// Whether an earlier gesture's directions and edges admit everything a later one's do
    /// (an empty set admits any).
    private static func covers(_ a: Sets, _ b: Sets) -> Bool {
        (a.directions == 0 || (b.directions != 0 && b.directions & ~a.directions == 0))
            && (a.edges == 0 || (b.edges != 0 && b.edges & ~a.edges == 0))
    }

    func shadows(_ a: GestureSpec, _ b: GestureSpec) -> Bool {
        // Per-app gestures take turns by the focused app (an app-specific one overrides).
        guard a.apps.isEmpty, b.apps.isEmpty, a.kind == b.kind, a.enabled, a.fingers == b.fingers, a.taps == b.taps,
              a.thresholds == b.thresholds, a.axis == b.axis, a.after == b.after,
              a.devices.kind == nil || a.devices.kind == b.devices.kind,
              a.devices.nameGlob == nil || a.devices.nameGlob == b.devices.nameGlob,
              a.region == nil || a.region == b.region,
              a.directions.isEmpty || (!b.directions.isEmpty && b.directions.isSubset(of: a.directions)),
              a.senses.isEmpty || (!b.senses.isEmpty && b.senses.isSubset(of: a.senses)),
              a.edges.isEmpty || (!b.edges.isEmpty && b.edges.isSubset(of: a.edges)),
              a.sides.isEmpty || (!b.sides.isEmpty && b.sides.isSubset(of: a.sides)),
              a.shapes.isEmpty || (!b.shapes.isEmpty && Set(b.shapes).isSubset(of: a.shapes)) else { return false }
        let related = a.simultaneousWith.contains(b.name) || b.simultaneousWith.contains(a.name)
            || b.requiresFailureOf.contains(a.name) || a.requiresFailureOf.contains(b.name)
        return !related
    }
}

/// A gesture's directions and edges, one bit per case (none set: any).
private struct Sets: Hashable {
    var directions: UInt16
    var edges: UInt16
}
