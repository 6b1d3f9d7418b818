import YAMLTree
import GestureEngine
import TouchModel

/// Turns a YAML tree into a `Config`, reporting every problem it finds.
struct ConfigParser {
    var log: DiagnosticLog
    private var settings = Settings()
    private var drafts: [Draft] = []

    /// One gesture as read, with where its parts were written for cross-checks.
    struct Draft {
        var spec: GestureSpec
        var binding: Binding
        var mark: SourceMark
        var marks: [GestureKey: SourceMark] = [:]
        var stepQuantity: (Quantity, Double)?
        var within: Double?
        var references: [GestureKey: [(String, SourceMark)]] = [:]
        var reverseMark: SourceMark?
        var valid = true
    }

    init(file: String) { log = DiagnosticLog(file: file) }

    mutating func parse(_ root: YAMLNode?) -> Config? {
        if let root {
            if case .scalar(let s) = root.value, s.isEmpty {
                log.warning(root.mark, "the file is empty; no gestures are configured")
            } else if let pairs = mapping(root, TopKey.self, what: "the top level") {
                for (key, _, value) in pairs {
                    switch key {
                    case .settings: parseSettings(value)
                    case .gestures: parseGestures(value)
                    }
                }
            }
        } else if !log.hasErrors {
            log.warning(SourceMark(line: 1, column: 1), "the file is empty; no gestures are configured")
        }
        crossCheck()
        guard !log.hasErrors else { return nil }
        // After the whole file: `settings:` may come after `gestures:`.
        for i in drafts.indices where drafts[i].spec.after != nil {
            drafts[i].spec.sequenceWindow = drafts[i].within ?? settings.sequenceWindow
        }
        return Config(file: log.file, settings: settings, specs: drafts.map(\.spec), bindings: drafts.map(\.binding))
    }

    // MARK: Mappings and keys

    /// The pairs of a mapping whose keys are `K`'s cases; unknown and repeated keys are reported and skipped.
    private mutating func mapping<K: RawRepresentable & CaseIterable>(
        _ node: YAMLNode, _: K.Type, what: String
    ) -> [(K, SourceMark, YAMLNode)]? where K.RawValue == String {
        guard case .mapping(let pairs) = node.value else {
            log.error(node.mark, "expected a mapping of keys for \(what), found \(node.shape)")
            return nil
        }
        let names = K.allCases.map(\.rawValue)
        var seen: [String: SourceMark] = [:]
        var out: [(K, SourceMark, YAMLNode)] = []
        for (k, v) in pairs {
            guard let text = k.scalar else {
                log.error(k.mark, "a key must be a word, found \(k.shape)")
                continue
            }
            if let first = seen[text] {
                log.error(k.mark, "duplicate key '\(text)' in \(what) (first set at line \(first.line))")
                continue
            }
            seen[text] = k.mark
            guard let key = K(rawValue: text) else {
                let hint = DidYouMean.hint(for: text, among: names)
                log.error(k.mark, "unknown key '\(text)' in \(what)" + (hint.isEmpty ? "; expected one of: \(names.joined(separator: ", "))" : hint))
                continue
            }
            out.append((key, k.mark, v))
        }
        return out
    }

    // MARK: settings

    private mutating func parseSettings(_ node: YAMLNode) {
        if case .scalar(let s) = node.value, s.isEmpty { return }  // `settings:` with nothing under it
        guard let pairs = mapping(node, SettingsKey.self, what: "settings") else { return }
        for (key, _, value) in pairs {
            switch key {
            case .commandTimeout:
                if let t = positive(value, .duration, key.rawValue) { settings.commandTimeout = t }
            case .maxChildren:
                if let n = count(value, SettingsKey.countRange, key.rawValue) { settings.maxChildren = n }
            case .queueLength:
                if let n = count(value, SettingsKey.countRange, key.rawValue) { settings.queueLength = n }
            case .sequenceWindow:
                if let t = positive(value, .duration, key.rawValue) { settings.sequenceWindow = t }
            case .keyDelay:
                if let t = positive(value, .duration, key.rawValue, max: SettingsKey.maxKeyDelay) { settings.keyDelay = t }
            }
        }
    }

    // MARK: gestures

    private mutating func parseGestures(_ node: YAMLNode) {
        if case .scalar(let s) = node.value, s.isEmpty { return }  // `gestures:` with nothing under it
        guard case .sequence(let items) = node.value else {
            log.error(node.mark, "'gestures' must be a list of gestures (each starting with '- name:'), found \(node.shape)")
            return
        }
        for item in items { parseGesture(item) }
    }

    private mutating func parseGesture(_ node: YAMLNode) {
        let errorsBefore = log.errorCount
        guard let pairs = mapping(node, GestureKey.self, what: "a gesture") else { return }
        var d = Draft(spec: GestureSpec(name: "", kind: .tap, fingers: 1...1),
                      binding: Binding(name: "", kind: .tap, line: node.mark.line), mark: node.mark)
        // The kind decides which keys apply and the defaults, so it is read first.
        var kind: GestureKind?
        if let (_, _, v) = pairs.first(where: { $0.0 == .gesture }) {
            kind = oneOf(v, GestureKind.self, "gesture kind")
        } else {
            log.error(node.mark, "this gesture has no 'gesture:' key (the recognizer: \(Schema.kindList(GestureKind.allCases)))")
        }
        if let kind { applyDefaults(kind, &d) } else { d.valid = false }
        for (key, keyMark, value) in pairs {
            d.marks[key] = keyMark
            if let kind, !key.kinds.contains(kind) {
                log.error(keyMark, notApplicable(key, kind))
                continue
            }
            read(key, value, into: &d)
        }
        if d.marks[.name] == nil {
            log.error(node.mark, "this gesture has no 'name:'; every gesture needs a unique name")
            d.valid = false
        }
        if let kind { checkGesture(kind, &d) }
        if log.errorCount > errorsBefore { d.valid = false }
        drafts.append(d)
    }

    private func notApplicable(_ key: GestureKey, _ kind: GestureKind) -> String {
        var m = "'\(key.rawValue)' does not apply to a \(kind.rawValue) gesture; it applies to: \(Schema.kindList(key.kinds))"
        if kind.isDiscrete, [.begin, .update, .end, .cancel].contains(key) {
            m += "; a \(kind.rawValue) is discrete: use 'command:'"
        }
        return m
    }

    private func applyDefaults(_ kind: GestureKind, _ d: inout Draft) {
        d.spec.kind = kind
        d.binding.kind = kind
        switch kind {
        case .tap, .hold, .swipe, .edgePan, .scrub: d.spec.fingers = 1...1
        case .pinch, .rotate: d.spec.fingers = 2...2
        case .pan: d.spec.fingers = 1...5
        case .transform: d.spec.fingers = 2...5
        }
        if kind == .edgePan { d.spec.devices.kind = .touchscreen }
    }

    private mutating func read(_ key: GestureKey, _ v: YAMLNode, into d: inout Draft) {
        let k = key.rawValue
        switch key {
        case .name:
            if let s = name(v, k) { d.spec.name = s; d.binding.name = s } else { d.valid = false }
        case .gesture:
            break  // read first, above
        case .fingers:
            if let f = fingers(v, kind: d.spec.kind) { d.spec.fingers = f }
        case .direction:
            if let set = list(v, Direction.self, "direction") { d.spec.directions = Set(set) }
        case .axis:
            if let a = oneOf(v, Axis.self, "axis") { d.spec.axis = a }
        case .edge:
            if let set = list(v, Edge.self, "edge") { d.spec.edges = Set(set) }
        case .taps:
            if let n = count(v, 1...5, k) { d.spec.taps = n }
        case .device:
            if let s = text(v, k) {
                if s == "any" { d.spec.devices.kind = nil }
                else if let kind = DeviceKind(rawValue: s) { d.spec.devices.kind = kind }
                else {
                    let options = DeviceKind.allCases.map(\.rawValue) + ["any"]
                    log.error(v.mark, "unknown device kind '\(s)', expected one of: \(options.joined(separator: ", "))\(DidYouMean.hint(for: s, among: options))")
                }
            }
        case .deviceName:
            if let s = text(v, k) { d.spec.devices.nameGlob = s }
        case .region:
            if let r = region(v) { d.spec.region = r }
        case .minDistance: d.spec.thresholds.minDistanceMM = positive(v, .distance, k)
        case .minVelocity: d.spec.thresholds.minVelocityMMPerS = positive(v, .speed, k)
        case .maxAngle: d.spec.thresholds.maxAngleDeg = positive(v, .angle, k, max: 90)
        case .maxMovement: d.spec.thresholds.maxMovementMM = positive(v, .distance, k)
        case .maxDuration: d.spec.thresholds.maxTapDuration = positive(v, .duration, k)
        case .maxInterval: d.spec.thresholds.maxTapInterval = positive(v, .duration, k)
        case .minDuration: d.spec.thresholds.minDuration = positive(v, .duration, k)
        case .edgeZone: d.spec.thresholds.edgeZoneMM = positive(v, .distance, k)
        case .minScale:
            if let s = positive(v, .scale, k) {
                if s <= 1 { log.error(v.mark, "'min-scale' must be more than 1x (1x is no change), like 1.1x") }
                else { d.spec.thresholds.minScale = s }
            }
        case .minRotation: d.spec.thresholds.minRotationDeg = positive(v, .angle, k, max: 180)
        case .simultaneousWith, .requiresFailureOf, .after:
            let refs = key == .after ? name(v, k).map { [($0, v.mark)] } ?? [] : names(v, k)
            d.references[key] = refs
            let list = refs.map(\.0)
            switch key {
            case .simultaneousWith: d.spec.simultaneousWith = list
            case .requiresFailureOf: d.spec.requiresFailureOf = list
            default: d.spec.after = list.first
            }
        case .within: d.within = positive(v, .duration, k)
        case .enabled: if let b = bool(v, k) { d.spec.enabled = b }
        case .command: command(v, d.spec.kind.isDiscrete ? .recognized : .began, &d)
        case .begin: command(v, .began, &d)
        case .update: command(v, .changed, &d)
        case .end: command(v, .ended, &d)
        case .cancel: command(v, .cancelled, &d)
        case .every: d.stepQuantity = step(v)
        case .hold: d.binding.hold = ActionParser.chord(v, log: &log)
        case .desktop: d.binding.desktops = names(v, k).map(\.0)
        }
    }

    private mutating func command(_ v: YAMLNode, _ phase: GesturePhase, _ d: inout Draft) {
        guard let parsed = ActionParser.parse(v, log: &log) else { return }
        if d.binding.actions[phase] != nil {
            log.error(v.mark, "'command:' and 'begin:' both run when a \(d.spec.kind.rawValue) begins; keep one")
            return
        }
        d.binding.actions[phase] = parsed.action
        if let reverse = parsed.reverse {
            if phase == .changed { d.binding.reverse = reverse; d.reverseMark = parsed.reverseMark }
            else { log.error(parsed.reverseMark, "'reverse' belongs to 'update:' with 'every:' (what a step the other way does)") }
        }
    }

    /// Checks that need the whole gesture.
    private mutating func checkGesture(_ kind: GestureKind, _ d: inout Draft) {
        let line = d.mark
        if let (q, size) = d.stepQuantity {
            let at = d.marks[.every] ?? line
            if d.binding.actions[.changed] == nil {
                log.error(at, "'every:' steps the 'update:' command, and this gesture has none")
            }
            switch (q, kind) {
            case (.distance, .pan), (.distance, .edgePan):
                if let axis = stepAxis(d.spec) { d.binding.step = .distance(mm: size, axis: axis) }
                else if d.marks[.axis] == nil, d.marks[.direction] == nil, d.marks[.edge] == nil {
                    log.error(at, kind == .pan
                        ? "a distance step needs an axis to measure along; add 'axis: vertical' or 'axis: horizontal', or a direction on one axis"
                        : "a distance step on an edge pan needs its 'edge:' on one axis (left/right or top/bottom)")
                }
            case (.angle, .rotate), (.angle, .transform): d.binding.step = .angle(degrees: size)
            case (.scale, .pinch), (.scale, .transform):
                if size <= 1 { log.error(at, "a scale step must be more than 1x, like 1.25x") }
                else { d.binding.step = .scale(factor: size) }
            default:
                let fits: String
                switch kind {
                case .pan, .edgePan: fits = "a distance like 10mm"
                case .rotate: fits = "an angle like 15deg"
                case .pinch: fits = "a scale like 1.25x"
                default: fits = "an angle like 15deg or a scale like 1.25x"
                }
                log.error(at, "\(q.withArticle) step does not fit a \(kind.rawValue) gesture; expected \(fits)")
            }
        }
        if d.binding.reverse != nil, d.stepQuantity == nil {
            log.error(d.reverseMark ?? line, "'reverse' needs 'every:': only a stepped update has steps the other way")
        }
        if d.within != nil, d.spec.after == nil {
            log.error(d.marks[.within] ?? line, "'within:' needs 'after:' (the gesture this one must follow)")
        }
        if d.spec.region != nil, d.marks[.device] == nil { d.spec.devices.kind = .touchscreen }
        if kind == .edgePan, d.spec.devices.kind != .touchscreen {
            log.error(d.marks[.device] ?? line, "an edge pan starts at a screen edge: it needs 'device: touchscreen'")
        }
        if d.spec.region != nil, d.spec.devices.kind == .touchpad {
            log.error(d.marks[.region] ?? line, "'region:' is a part of a touchscreen; it does not apply with 'device: touchpad'")
        }
        if d.spec.thresholds.maxTapInterval != nil, d.spec.taps == 1 {
            log.warning(d.marks[.maxInterval] ?? line, "'max-interval' has no effect with 'taps: 1'; set 'taps:' to 2 or more")
        }
        if d.spec.thresholds.edgeZoneMM != nil, d.spec.edges.isEmpty, kind != .edgePan {
            log.warning(d.marks[.edgeZone] ?? line, "'edge-zone' has no effect without 'edge:'")
        }
        if d.spec.devices.kind == .touchpad, d.spec.fingers.lowerBound <= 2, [.pan, .swipe].contains(kind) {
            log.warning(d.marks[.fingers] ?? line, "\(d.spec.fingers.lowerBound)-finger motion on a touchpad also moves the pointer or scrolls; 3 or more fingers avoid the clash")
        }
        if let a = d.spec.axis, !d.spec.directions.isEmpty, !d.spec.directions.allSatisfy({ on(axis: a, $0) }) {
            log.error(d.marks[.direction] ?? line, "a direction is off the pan's \(a.rawValue) axis; it could never be seen")
        }
        warnImplausible(d)
    }

    private func on(axis: Axis, _ dir: Direction) -> Bool {
        axis == .vertical ? (dir == .up || dir == .down) : (dir == .left || dir == .right)
    }

    private func stepAxis(_ s: GestureSpec) -> Axis? {
        if let a = s.axis { return a }
        if s.kind == .edgePan {
            if !s.edges.isEmpty, s.edges.isSubset(of: [.left, .right]) { return .horizontal }
            if !s.edges.isEmpty, s.edges.isSubset(of: [.top, .bottom]) { return .vertical }
            return nil
        }
        for axis in [Axis.vertical, .horizontal] where !s.directions.isEmpty && s.directions.allSatisfy({ on(axis: axis, $0) }) {
            return axis
        }
        return nil
    }

    /// Valid values no device can deliver, or that make a gesture nearly impossible.
    private mutating func warnImplausible(_ d: Draft) {
        let t = d.spec.thresholds
        // The largest touchpads (Apple's Force Touch) are about 160 mm wide.
        if let m = t.minDistanceMM, m > 150, d.spec.devices.kind != .touchscreen {
            log.warning(d.marks[.minDistance], "min-distance \(format(m))mm is larger than most touchpads (about 100-160mm wide); this gesture may never fire there")
        }
        if let m = t.minDuration, m > 10 {
            log.warning(d.marks[.minDuration], "min-duration \(format(m))s is a very long hold; did you mean milliseconds ('ms')?")
        }
        if let m = t.maxTapDuration, m < 0.05 {
            log.warning(d.marks[.maxDuration], "max-duration \(format(m * 1000))ms is shorter than a human tap (about 100ms)")
        }
        if case .distance(let mm, _)? = d.binding.step, mm < 1 {
            log.warning(d.marks[.every], "a step of \(format(mm))mm is below touch sensor noise; each tremor would run 'update'")
        }
    }

    // MARK: Across gestures

    private mutating func crossCheck() {
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
        for d in drafts where d.valid && d.binding.actions.isEmpty && d.binding.hold == nil && !referenced.contains(d.spec.name) {
            log.warning(d.mark, "gesture '\(d.spec.name)' runs no command; add 'command:' (or 'begin:'/'update:'/'end:')")
        }
        warnShadowed()
    }

    /// `a requires-failure-of b` and `b requires-failure-of a` would wait on each other
    /// forever. Depth-first with an explicit stack: a hostile file's long chain cannot
    /// overflow the call stack.
    private mutating func checkFailureCycles(_ byName: [String: Int]) {
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
    private mutating func warnShadowed() {
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

    private func shadows(_ a: GestureSpec, _ b: GestureSpec) -> Bool {
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

    // MARK: Values

    private mutating func text(_ v: YAMLNode, _ what: String) -> String? {
        guard let s = v.scalar else {
            log.error(v.mark, "expected text for \(what), found \(v.shape)")
            return nil
        }
        guard !s.trimmingSpaces().isEmpty else {
            log.error(v.mark, "\(what) is empty")
            return nil
        }
        return s
    }

    private mutating func name(_ v: YAMLNode, _ what: String) -> String? {
        guard let s = text(v, what) else { return nil }
        let ok = s.unicodeScalars.allSatisfy { c in
            c.properties.isAlphabetic || ("0"..."9").contains(c) || c == "-" || c == "_" || c == "."
        }
        guard ok else {
            log.error(v.mark, "'\(s)' is not a usable name; expected letters, digits, '-', '_' or '.'")
            return nil
        }
        return s
    }

    /// One name or a list of them, each with where it is written.
    private mutating func names(_ v: YAMLNode, _ what: String) -> [(String, SourceMark)] {
        let nodes: [YAMLNode]
        if case .sequence(let items) = v.value { nodes = items } else { nodes = [v] }
        return nodes.compactMap { n in name(n, what).map { ($0, n.mark) } }
    }

    private mutating func oneOf<T: RawRepresentable & CaseIterable>(_ v: YAMLNode, _: T.Type, _ what: String) -> T? where T.RawValue == String {
        guard let s = text(v, what) else { return nil }
        if let t = T(rawValue: s) { return t }
        let options = T.allCases.map(\.rawValue)
        log.error(v.mark, "unknown \(what) '\(s)', expected one of: \(options.joined(separator: ", "))\(DidYouMean.hint(for: s, among: options))")
        return nil
    }

    private mutating func list<T: RawRepresentable & CaseIterable>(_ v: YAMLNode, _: T.Type, _ what: String) -> [T]? where T.RawValue == String {
        if case .sequence(let items) = v.value {
            let values = items.map { oneOf($0, T.self, what) }
            return values.contains { $0 == nil } ? nil : values.compactMap { $0 }
        }
        return oneOf(v, T.self, what).map { [$0] }
    }

    private mutating func bool(_ v: YAMLNode, _ what: String) -> Bool? {
        switch v.scalar {
        case "true": return true
        case "false": return false
        default:
            log.error(v.mark, "'\(what)' takes true or false, found \(v.shape)")
            return nil
        }
    }

    private mutating func count(_ v: YAMLNode, _ range: ClosedRange<Int>, _ what: String) -> Int? {
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

    private mutating func fingers(_ v: YAMLNode, kind: GestureKind) -> ClosedRange<Int>? {
        guard let s = v.scalar?.trimmingSpaces() else {
            log.error(v.mark, "'fingers' takes a count like 3 (or a range like 2-4 for pan and transform), found \(v.shape)")
            return nil
        }
        let parts = s.split(separator: "-", omittingEmptySubsequences: false).map { Int(String($0).trimmingSpaces()) }
        guard (parts.count == 1 || parts.count == 2), let lo = parts.first!, let hi = parts.last! else {
            log.error(v.mark, "'fingers' takes a count like 3 (or a range like 2-4 for pan and transform), found '\(s)'")
            return nil
        }
        guard (1...5).contains(lo), (1...5).contains(hi), lo <= hi else {
            log.error(v.mark, "'fingers' must be from 1 to 5\(parts.count == 2 ? ", the smaller first" : ""), found '\(s)'")
            return nil
        }
        if lo != hi, kind != .pan, kind != .transform {
            log.error(v.mark, "a \(kind.rawValue) takes one finger count, found the range '\(s)'; ranges are for pan and transform")
            return nil
        }
        if kind == .pinch || kind == .rotate || kind == .transform, lo < 2 {
            log.error(v.mark, "a \(kind.rawValue) needs at least 2 fingers, found '\(s)'")
            return nil
        }
        return lo...hi
    }

    private mutating func quantity(_ v: YAMLNode, _ q: Quantity, _ what: String) -> Double? {
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

    private mutating func positive(_ v: YAMLNode, _ q: Quantity, _ what: String, max: Double? = nil) -> Double? {
        guard let x = quantity(v, q, what) else { return nil }
        guard x > 0 else {
            log.error(v.mark, "'\(what)' must be more than zero, found '\(v.scalar ?? "")'")
            return nil
        }
        let limit = max ?? q.ceiling
        if x > limit {
            log.error(v.mark, "'\(what)' must be at most \(format(limit))\(q.baseSuffix), found '\(v.scalar ?? "")'")
            return nil
        }
        return x
    }

    /// `every:` takes whichever quantity its unit names.
    private mutating func step(_ v: YAMLNode) -> (Quantity, Double)? {
        guard let s = v.scalar else {
            log.error(v.mark, "'every' takes a step like 10mm, 15deg or 1.25x, found \(v.shape)")
            return nil
        }
        for q in [Quantity.distance, .angle, .scale] {
            if case .success(let x) = q.parse(s) {
                guard x > 0, x <= q.ceiling else {
                    log.error(v.mark, "'every' must be more than zero and at most \(format(q.ceiling))\(q.baseSuffix), found '\(s)'")
                    return nil
                }
                return (q, x)
            }
        }
        log.error(v.mark, "'every' takes a step like 10mm, 15deg or 1.25x, found '\(s)'")
        return nil
    }

    private mutating func region(_ v: YAMLNode) -> Region? {
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

    private mutating func fraction(_ v: YAMLNode, _ what: String) -> Double? {
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
