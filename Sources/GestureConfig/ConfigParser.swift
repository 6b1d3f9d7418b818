import YAMLTree
import GestureEngine
import TouchModel

/// Turns a YAML tree into a `Config`, reporting every problem it finds.
struct ConfigParser {
    var log: DiagnosticLog
    var settings = Settings()
    var grab = GrabSelection()
    var rotation = RotationSettings()
    var drafts: [Draft] = []
    /// Shapes: where the user's shape files are (nil: none), the names read so far and
    /// their templates, which every shape gesture knows (`ShapeFile`).
    var shapeDirectory: String?
    var loadedShapes: Set<String> = []
    var userShapes: [ShapeTemplate] = []

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
        /// `distance:` and `reverse:` of a follow, applied to it once the gesture is read.
        var followDistance: Double?
        var followReversed: Bool?
        var valid = true
    }

    init(file: String) { log = DiagnosticLog(file: file) }

    mutating func parse(_ root: YAMLNode?) -> Config? {
        if let root {
            refuseTags(root)
            if case .scalar(let s) = root.value, s.isEmpty {
                log.warning(root.mark, "the file is empty; no gestures are configured")
            } else if let pairs = mapping(root, TopKey.self, what: "the top level") {
                for (key, _, value) in pairs {
                    switch key {
                    case .settings: parseSettings(value)
                    case .grab: parseGrab(value)
                    case .rotation: parseRotation(value)
                    case .gestures: parseGestures(value)
                    }
                }
            }
        } else if !log.hasErrors {
            log.warning(SourceMark(line: 1, column: 1), "the file is empty; no gestures are configured")
        }
        crossCheck()
        guard !log.hasErrors else { return nil }
        // After the whole file: `settings:` may come after `gestures:`. A gesture's own
        // `within:` is taken as written; the settings' window, for every gesture, is
        // scaled by the accessibility profile's `timing-scale` as the engine's defaults are.
        for i in drafts.indices where drafts[i].spec.after != nil {
            drafts[i].spec.sequenceWindow = drafts[i].within ?? settings.sequenceWindow * settings.accessibility.timingScale
        }
        for i in drafts.indices where drafts[i].spec.kind.traits.parameters.contains(.shape) { drafts[i].spec.shapeTemplates = userShapes }
        var config = Config(file: log.file, settings: settings, grab: grab, specs: drafts.map(\.spec), bindings: drafts.map(\.binding))
        config.rotation = rotation
        return config
    }

    // MARK: Mappings and keys

    /// The pairs of a mapping whose keys are `K`'s cases; unknown and repeated keys are reported and skipped.
    mutating func mapping<K: RawRepresentable & CaseIterable>(
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

    /// The pairs of a top-level mapping (`settings:`, `grab:`); none when the key has
    /// nothing under it.
    mutating func section<K: RawRepresentable & CaseIterable>(
        _ node: YAMLNode, _: K.Type, what: String
    ) -> [(K, SourceMark, YAMLNode)] where K.RawValue == String {
        if case .scalar(let s) = node.value, s.isEmpty { return [] }
        return mapping(node, K.self, what: what) ?? []
    }

    // MARK: settings

    private mutating func parseSettings(_ node: YAMLNode) {
        for (key, _, value) in section(node, SettingsKey.self, what: "settings") {
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
            case .followFingers:
                if let n = count(value, 3...4, key.rawValue) { settings.followFingers = n }
            case .accessibility:
                parseAccessibility(value)
            }
        }
    }

    private mutating func parseAccessibility(_ node: YAMLNode) {
        for (key, _, value) in section(node, AccessibilityKey.self, what: "accessibility") {
            switch key {
            case .timingScale:
                if let x = number(value, key.rawValue, in: 1...AccessibilityKey.maxTimingScale) { settings.accessibility.timingScale = x }
            case .tremorFilter:
                if case .mapping = value.value {
                    var filter = TremorFilterSettings()
                    for (k, _, v) in section(value, TremorFilterKey.self, what: "tremor-filter") {
                        switch k {
                        case .minCutoff: if let x = number(v, k.rawValue, in: 0.01...100) { filter.minCutoff = x }
                        case .beta: if let x = number(v, k.rawValue, in: 0...10) { filter.beta = x }
                        case .derivativeCutoff: if let x = number(v, k.rawValue, in: 0.01...100) { filter.derivativeCutoff = x }
                        }
                    }
                    settings.accessibility.tremorFilter = filter
                } else if let on = bool(value, key.rawValue) {
                    settings.accessibility.tremorFilter = on ? TremorFilterSettings() : nil
                }
            case .holdToAccept:
                if let t = window(value, key.rawValue) { settings.accessibility.holdToAccept = t }
            case .ignoreRepeats:
                if let t = window(value, key.rawValue) { settings.accessibility.ignoreRepeats = t }
            case .tapAt:
                if let p = oneOf(value, TapPoint.self, key.rawValue) { settings.accessibility.tapAt = p }
            }
        }
    }

    // MARK: grab

    private mutating func parseGrab(_ node: YAMLNode) {
        for (key, _, value) in section(node, GrabKey.self, what: "grab") {
            switch key {
            case .devices:
                if let kinds = list(value, DeviceKind.self, "device kind") { grab.kinds = Set(kinds) }
            case .deviceNames:
                grab.nameGlobs = globs(value, key.rawValue, example: "a device name or glob like 'ELAN*' (gestured list-devices shows the names)")
            case .holdBack:
                if let t = positive(value, .duration, key.rawValue, max: GrabKey.maxHoldBack) { grab.holdBack = t }
            }
        }
    }

    // MARK: rotation

    private mutating func parseRotation(_ node: YAMLNode) {
        for (key, _, value) in section(node, RotationKey.self, what: "rotation") {
            switch key {
            case .devices:
                if case .sequence(let items) = value.value, items.isEmpty { rotation.kinds = []; continue }
                if let kinds = list(value, DeviceKind.self, "device kind") { rotation.kinds = Set(kinds) }
            case .deviceNames:
                rotation.nameGlobs = globs(value, key.rawValue, example: "a device name or glob like 'ELAN*' (gestured list-devices shows the names)")
            case .sensor:
                if let on = bool(value, key.rawValue) { rotation.sensor = on }
            case .orientation:
                guard let word = text(value, key.rawValue) else { continue }
                guard let o = Orientation(name: word) else {
                    log.error(value.mark, "unknown orientation '\(word)', expected one of: \(Orientation.names)")
                    continue
                }
                rotation.orientation = o
            case .output:
                guard case .mapping(let pairs) = value.value else {
                    rotation.output = text(value, key.rawValue)
                    continue
                }
                rotation.deviceOutputs = pairs.compactMap { device, output in
                    guard let glob = text(device, "a device name or glob"), let name = text(output, "the output of '\(glob)'") else { return nil }
                    return (glob, name)
                }
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
        for item in items.prefix(Config.maximumGestures) { parseGesture(item) }
        if items.count > Config.maximumGestures {
            log.error(items[Config.maximumGestures].mark, "this is gesture \(Config.maximumGestures + 1) of \(items.count); a config may have at most \(Config.maximumGestures) gestures (each one is a recognizer every touch goes through)")
        }
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
        d.spec.fingers = kind.traits.fingers
        if kind.traits.touchscreenOnly { d.spec.devices.kind = .touchscreen }
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
            switch d.spec.kind.traits.directions {
            case .pinch, .rotation:
                if let set = senses(v, kind: d.spec.kind) { d.spec.senses = set }
            case .compass, .none:
                // .none: the kind is unknown (a known one without directions never gets
                // here); still check the words, as for a swipe.
                if let set = list(v, Direction.self, "direction") { d.spec.directions = Set(set) }
            }
        case .axis:
            if let a = oneOf(v, Axis.self, "axis") { d.spec.axis = a }
        case .edge:
            if let set = list(v, Edge.self, "edge") { d.spec.edges = Set(set) }
        case .taps:
            if let n = count(v, 1...5, k) { d.spec.taps = n }
        case .side:
            if let set = list(v, Side.self, "side") { d.spec.sides = Set(set) }
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
        case .minScale: d.spec.thresholds.minScale = positive(v, .scale, k)
        case .minRotation: d.spec.thresholds.minRotationDeg = positive(v, .angle, k, max: 180)
        case .minArc: d.spec.thresholds.minArcDeg = positive(v, .angle, k, max: 1080)
        case .shape: shapes(v, into: &d)
        case .minScore: d.spec.thresholds.minScore = fraction(v, k)
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
        case .apps: d.spec.apps.only = globs(v, k)
        case .exceptApps: d.spec.apps.except = globs(v, k)
        case .command: command(v, d.spec.kind.isDiscrete ? .recognized : .began, &d)
        case .begin: command(v, .began, &d)
        case .update: command(v, .changed, &d)
        case .end: command(v, .ended, &d)
        case .cancel: command(v, .cancelled, &d)
        case .every: d.stepQuantity = step(v)
        case .hold: d.binding.hold = ActionParser.chord(v, log: &log)
        case .desktop: d.binding.desktops = names(v, k).map(\.0)
        case .distance: d.followDistance = positive(v, .distance, k)
        case .reverse: if let b = bool(v, k) { d.followReversed = b }
        case .shortcut:
            guard let s = text(v, k) else { return }
            switch Shortcut.parse(s) {
            case .success(let shortcut): d.binding.shortcut = shortcut
            case .failure(let problem): log.error(v.mark, "shortcut: \(problem.message)")
            }
        }
    }

    private mutating func command(_ v: YAMLNode, _ phase: GesturePhase, _ d: inout Draft) {
        let parsed: ActionParser.Parsed
        if v.scalar != nil {
            guard let s = text(v, "a command") else { return }
            parsed = ActionParser.Parsed(action: .command(s))
        } else {
            guard let p = ActionParser.parse(v, log: &log) else { return }
            parsed = p
        }
        if case .command(let s) = parsed.action, s.utf8.count > Binding.maximumCommandBytes {
            log.error(v.mark, "the command is \(s.utf8.count) bytes; the kernel refuses one argument of more than \(Binding.maximumCommandBytes) (MAX_ARG_STRLEN), so it could never run: put it in a script and run that")
            return
        }
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
    /// `{workspace: follow}`, `{overview: follow}`: on a pan's `command:` (or `begin:`),
    /// which then moves the desktop's transition at every change until it ends; its
    /// `distance:` and `reverse:` go into it.
    private mutating func checkFollow(_ kind: GestureKind, _ d: inout Draft) {
        var found: (GesturePhase, Follow)?
        for (phase, action) in d.binding.actions {
            guard case .desktop(.follow(let f)) = action else { continue }
            if kind == .swipe, phase == .recognized, followsAsPan(&d, f) {
                found = (.began, f)
                continue
            }
            if kind != .pan {
                log.error(d.marks[.command] ?? d.mark, "'\(f.transition.rawValue): follow' moves the desktop's transition with the fingers, so it needs a gesture that follows them: a pan or a swipe, not a \(kind.rawValue)")
                d.valid = false
                return
            }
            guard phase == .began else {
                let key: GestureKey = switch phase {
                case .changed: .update
                case .ended: .end
                case .cancelled: .cancel
                default: .command
                }
                log.error(d.marks[key] ?? d.mark, "'\(f.transition.rawValue): follow' goes in 'command:' (or 'begin:'): it follows the pan from its beginning to its end by itself")
                d.valid = false
                return
            }
            found = (phase, f)
        }
        guard let (phase, f) = found else {
            for key in [GestureKey.distance, .reverse] where d.marks[key] != nil {
                log.error(d.marks[key]!, "'\(key.rawValue):' belongs to a follow ('command: {workspace: follow}' or '{overview: follow}'), and this gesture has none")
            }
            return
        }
        var follow = f
        follow.distanceMM = d.followDistance
        follow.reversed = d.followReversed ?? false
        d.binding.actions[phase] = .desktop(.follow(follow))
    }

    /// A swipe's follow moves with the fingers from the moment they start along the
    /// swipe's axis, so its gesture is a pan: the swipe's fingers and directions, the
    /// axis they lie on, its `min-distance` to begin; whether it was fast enough is the
    /// desktop's to judge at the lift, as for its own touchpad swipe. False (and said)
    /// when its directions lie on no one axis.
    private mutating func followsAsPan(_ d: inout Draft, _ f: Follow) -> Bool {
        let directions = d.spec.directions
        let horizontal: Set<Direction> = [.left, .right], vertical: Set<Direction> = [.up, .down]
        let axis: Axis
        if !directions.isEmpty, directions.isSubset(of: horizontal) { axis = .horizontal }
        else if !directions.isEmpty, directions.isSubset(of: vertical) { axis = .vertical }
        else {
            log.error(d.marks[.direction] ?? d.marks[.command] ?? d.mark, "a swipe's '\(f.transition.rawValue): follow' moves along the swipe's direction: give it 'direction:' left or right, or up or down (or use a pan with its 'axis:')")
            d.valid = false
            return false
        }
        d.spec.kind = .pan
        d.binding.kind = .pan
        d.spec.axis = axis
        d.spec.thresholds.minVelocityMMPerS = nil
        d.binding.actions[.began] = d.binding.actions.removeValue(forKey: .recognized)
        return true
    }

    private mutating func checkGesture(_ kind: GestureKind, _ d: inout Draft) {
        let line = d.mark
        checkFollow(kind, &d)
        if let (q, size) = d.stepQuantity {
            let at = d.marks[.every] ?? line
            if d.binding.actions[.changed] == nil {
                log.error(at, "'every:' steps the 'update:' command, and this gesture has none")
            }
            let steps = kind.traits.steps
            switch (q, kind) {
            case (.distance, _) where steps.contains(.distance):
                if let axis = stepAxis(d.spec) { d.binding.step = .distance(mm: size, axis: axis) }
                else if d.marks[.axis] == nil, d.marks[.direction] == nil, d.marks[.edge] == nil {
                    log.error(at, kind == .pan
                        ? "a distance step needs an axis to measure along; add 'axis: vertical' or 'axis: horizontal', or a direction on one axis"
                        : "a distance step on an edge pan needs its 'edge:' on one axis (left/right or top/bottom)")
                }
            case (.angle, _) where steps.contains(.angle): d.binding.step = .angle(degrees: size)
            case (.scale, _) where steps.contains(.scale): d.binding.step = .scale(factor: size)
            default:
                let fits = kind.traits.steps.map { q -> String in
                    switch q {
                    case .distance: return "a distance like 10mm"
                    case .angle: return "an angle like 15deg"
                    case .scale: return "a scale like 1.25x"
                    }
                }.joined(separator: " or ")
                log.error(at, "\(q.withArticle) step does not fit a \(kind.rawValue) gesture; expected \(fits)")
            }
        }
        if d.binding.reverse != nil, d.stepQuantity == nil {
            log.error(d.reverseMark ?? line, "'reverse' needs 'every:': only a stepped update has steps the other way")
        }
        if d.within != nil, d.spec.after == nil {
            log.error(d.marks[.within] ?? line, "'within:' needs 'after:' (the gesture this one must follow)")
        }
        // Issue 24: a pinch or rotation bound with `command:` alone fires once, at the
        // lift, on its net change (`KindTraits.commandAtLift`): its command becomes the
        // recognized one's, as a discrete gesture's is.
        if kind.traits.commandAtLift, d.marks[.command] != nil,
           [GestureKey.begin, .update, .end, .cancel, .every, .hold].allSatisfy({ d.marks[$0] == nil }),
           let action = d.binding.actions.removeValue(forKey: .began) {
            d.spec.decidesAtLift = true
            d.binding.actions[.recognized] = action
        }
        if d.spec.region != nil, d.marks[.device] == nil { d.spec.devices.kind = .touchscreen }
        if kind.traits.touchscreenOnly, d.spec.devices.kind != .touchscreen {
            let why = kind.traits.startsAtEdge ? "an edge pan starts at a screen edge" : "a \(kind.rawValue) works on touchscreens only"
            log.error(d.marks[.device] ?? line, "\(why): it needs 'device: touchscreen'")
        }
        if d.spec.region != nil, d.spec.devices.kind == .touchpad {
            log.error(d.marks[.region] ?? line, "'region:' is a part of a touchscreen; it does not apply with 'device: touchpad'")
        }
        if d.spec.thresholds.maxTapInterval != nil, d.spec.taps == 1 {
            log.warning(d.marks[.maxInterval] ?? line, "'max-interval' has no effect with 'taps: 1'; set 'taps:' to 2 or more")
        }
        if d.spec.thresholds.edgeZoneMM != nil, d.spec.edges.isEmpty, !kind.traits.startsAtEdge {
            log.warning(d.marks[.edgeZone] ?? line, "'edge-zone' has no effect without 'edge:'")
        }
        if d.spec.devices.kind == .touchpad, d.spec.fingers.lowerBound <= 2, kind.traits.movesPointer {
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
        if s.kind.traits.startsAtEdge {
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
}
