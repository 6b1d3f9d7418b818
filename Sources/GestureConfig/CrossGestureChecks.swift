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
        for d in drafts {
            for key in [GestureKey.simultaneousWith, .requiresFailureOf, .after] {
                for (n, at) in d.references[key] ?? [] {
                    referenced.insert(n)
                    if n == d.spec.name {
                        log.error(at, "'\(key.rawValue)' names the gesture itself ('\(n)')")
                    } else if byName[n] == nil {
                        log.error(at, "'\(key.rawValue)' names no gesture: '\(n)'\(DidYouMean.hint(for: n, among: names))")
                    }
                }
            }
        }
        checkFailureCycles(byName)
        for d in drafts where d.valid && d.binding.commands.isEmpty && !referenced.contains(d.spec.name) {
            log.warning(d.mark, "gesture '\(d.spec.name)' runs no command; add 'command:' (or 'begin:'/'update:'/'end:')")
        }
        warnShadowed()
    }

    /// `a requires-failure-of b` and `b requires-failure-of a` would wait on each other
    /// forever. Depth-first with an explicit stack: a hostile file's long chain cannot
    /// overflow the call stack.
    mutating func checkFailureCycles(_ byName: [String: Int]) {
        let edges = drafts.map { $0.spec.requiresFailureOf.compactMap { byName[$0] } }
        var state = [UInt8](repeating: 0, count: drafts.count)  // 0 unvisited, 1 on the path, 2 done
        for root in drafts.indices where state[root] == 0 {
            var path: [(node: Int, next: Int)] = [(root, 0)]
            state[root] = 1
            while let (i, e) = path.last {
                guard e < edges[i].count else {
                    state[i] = 2
                    path.removeLast()
                    continue
                }
                path[path.count - 1].next += 1
                let j = edges[i][e]
                if state[j] == 1 {
                    let cycle = path.map(\.node).drop(while: { $0 != j }).map { drafts[$0].spec.name } + [drafts[j].spec.name]
                    log.error(drafts[i].marks[.requiresFailureOf] ?? drafts[i].mark,
                              "'requires-failure-of' forms a cycle: \(cycle.joined(separator: " → ")); each would wait for the other forever")
                } else if state[j] == 0 {
                    state[j] = 1
                    path.append((j, 0))
                }
            }
        }
    }

    /// An earlier gesture that recognizes everything a later one does wins every time
    /// (config order breaks ties). Candidates are bucketed by what must be equal, so a
    /// huge file stays linear rather than comparing every pair.
    mutating func warnShadowed() {
        struct Bucket: Hashable {
            var kind: GestureKind, fingers: ClosedRange<Int>, taps: Int, glob: String?
        }
        var buckets: [Bucket: [Int]] = [:]
        for (j, b) in drafts.enumerated() where b.valid {
            var key = Bucket(kind: b.spec.kind, fingers: b.spec.fingers, taps: b.spec.taps, glob: nil)
            var candidates = buckets[key] ?? []
            if let glob = b.spec.devices.nameGlob {
                key.glob = glob
                candidates += buckets[key] ?? []
            }
            if let i = candidates.filter({ shadows(drafts[$0].spec, b.spec) }).min() {
                let a = drafts[i]
                log.warning(b.mark, "gesture '\(b.spec.name)' can never fire: '\(a.spec.name)' (line \(a.mark.line)) is the same \(b.spec.kind.rawValue) and comes first; add 'simultaneous-with' or change one of them")
            }
            buckets[key, default: []].append(j)
        }
    }

    func shadows(_ a: GestureSpec, _ b: GestureSpec) -> Bool {
        guard a.kind == b.kind, a.enabled, a.fingers == b.fingers, a.taps == b.taps,
              a.thresholds == b.thresholds, a.axis == b.axis, a.after == b.after,
              a.devices.kind == nil || a.devices.kind == b.devices.kind,
              a.devices.nameGlob == nil || a.devices.nameGlob == b.devices.nameGlob,
              a.region == nil || a.region == b.region,
              a.directions.isEmpty || (!b.directions.isEmpty && b.directions.isSubset(of: a.directions)),
              a.edges.isEmpty || (!b.edges.isEmpty && b.edges.isSubset(of: a.edges)) else { return false }
        let related = a.simultaneousWith.contains(b.name) || b.simultaneousWith.contains(a.name)
            || b.requiresFailureOf.contains(a.name) || a.requiresFailureOf.contains(b.name)
        return !related
    }
}
