import PlainText
import TouchModel
import GestureEngine
import YAMLTree

/// fusuma's `config.yml`: `swipe: 3: left: command: …`, pinch, rotate and hold with
/// finger counts and directions, `begin:`/`update:`/`end:` events, `sendkey:` (the
/// sendkey plugin), `workspace:`/`window:` (the wmctrl plugin), `threshold:` and
/// `interval:`, and the appmatcher plugin's applications: `application:` sections, and
/// its documents after a `---` with `context: {application: NAME}`.
enum FusumaImport {
    /// fusuma's own base values (lib/fusuma/plugin/…): a repeating action runs at most
    /// every `interval` × 0.1 s; a hold begins after `threshold` × 0.7 s.
    static let repeatIntervalS = 0.1
    static let holdThresholdS = 0.7
    /// To turn fusuma's time between repeats into gestured's distance between steps:
    /// fingers moving at 100 mm/s, a brisk but deliberate pan on a touchpad.
    static let assumedSpeedMMPerS = 100.0
    /// A pinch's or rotation's step for a repeating `update:`, which fusuma times.
    static let pinchStep = "1.1x"
    static let rotateStep = "15deg"

    static let directions: [String: [String]] = [
        "swipe": ["left", "right", "up", "down"], "pinch": ["in", "out"],
        "rotate": ["clockwise", "counterclockwise"], "hold": [],
    ]
    static let events = ["begin", "update", "end", "cancelled"]

    /// `threshold:` and `interval:` at the top, by gesture.
    private struct Tuning {
        var threshold: [String: Double] = [:]
        var interval: [String: Double] = [:]
    }

    static func translate(_ bytes: [UInt8], file: String) throws(ImportError) -> ImportedConfig {
        let (documents, problem) = YAMLReader.readDocuments(bytes, fileKind: "fusuma's config.yml")
        if let problem { throw ImportError(file: file, line: problem.mark?.line, column: problem.mark?.column, problem.message) }
        for document in documents { try ImportFormat.refuseNUL(in: document, file: file) }
        // fusuma's default document is the one without a context:; a file that begins
        // with `---` and a context has none, and every document is an application's.
        let root = documents.first.flatMap { Self.hasContext($0) ? nil : $0 }
        var out = ImportedConfig(format: .fusuma)
        out.notes = [
            "fusuma acts on libinput's touchpad gestures; so do these (device: touchpad).",
            "fusuma runs a swipe, pinch or rotation once the fingers moved far and fast enough;",
            "gestured once it recognizes it. Commands run through /bin/sh -c, as in fusuma.",
        ]
        guard let root else {
            for document in documents { contextDocument(document, tuning: Tuning(), into: &out) }
            return out
        }
        guard case .mapping(let pairs) = root.value else {
            throw ImportError(file: file, line: root.mark.line, column: root.mark.column, "fusuma's config.yml is a mapping (swipe:, pinch:…), not \(root.shape)")
        }
        var tuning = Tuning()
        for (k, v) in pairs where k.scalar == "threshold" || k.scalar == "interval" {
            guard case .mapping(let entries) = v.value else { continue }
            for (g, n) in entries {
                guard let name = g.scalar, let value = factor(n) else { continue }
                if k.scalar == "threshold" { tuning.threshold[name] = value } else { tuning.interval[name] = value }
            }
        }
        section(pairs, apps: nil, tuning: tuning, into: &out)
        for document in documents.dropFirst() { contextDocument(document, tuning: tuning, into: &out) }
        return out
    }

    static func hasContext(_ document: YAMLNode) -> Bool {
        guard case .mapping(let pairs) = document.value else { return false }
        return pairs.contains { $0.key.scalar == "context" }
    }

    /// A document after a `---`: appmatcher's `context: {application: NAME}` (or a list
    /// of names) and that application's gestures. Another context (thumbsense, a
    /// keypress) has no gestured equivalent and is kept as a comment.
    private static func contextDocument(_ document: YAMLNode, tuning: Tuning, into out: inout ImportedConfig) {
        guard case .mapping(let pairs) = document.value else {
            out.keep(document.mark.line, "--- …", "a document that is not a mapping of gestures")
            return
        }
        let context = pairs.first { $0.key.scalar == "context" }
        guard let context, case .mapping(let entries) = context.value.value else {
            out.keep(document.mark.line, "--- …", "a document without a context: has no meaning in fusuma")
            return
        }
        let application = entries.first { $0.key.scalar == "application" }?.value
        var names: [String]
        switch application?.value {
        case .scalar(let name)?: names = [name]
        case .sequence(let items)?: names = items.compactMap(\.scalar)
        default: names = []
        }
        names.removeAll { $0.trimmingWhitespace.isEmpty }
        guard !names.isEmpty, entries.count == 1 else {
            let keys = entries.compactMap { $0.key.scalar?.printable }.joined(separator: ", ")
            out.keep(context.key.mark.line, "context: \(keys)", "only appmatcher's application: context has a gestured equivalent (apps:)")
            return
        }
        let global = names.contains { $0.lowercased() == "global" }
        section(pairs.filter { $0.key.scalar != "context" }, apps: global ? nil : names, tuning: tuning, into: &out)
    }

    /// The gestures of the top level, or of one `application:` entry.
    private static func section(_ pairs: [(key: YAMLNode, value: YAMLNode)], apps: [String]?, tuning: Tuning, into out: inout ImportedConfig) {
        for (k, v) in pairs {
            let key = k.scalar ?? ""
            switch key {
            case "swipe", "pinch", "rotate", "hold":
                gesture(key, v, apps: apps, tuning: tuning, into: &out)
            case "threshold", "interval":
                if apps != nil { out.keep(k.mark.line, key + ": …", "appmatcher reads no \(key): inside an application") }
            case "application" where apps == nil:
                guard case .mapping(let entries) = v.value else { out.keep(k.mark.line, "application:", "not a mapping of application names"); continue }
                for (name, body) in entries {
                    guard let app = name.scalar, case .mapping(let inner) = body.value else { continue }
                    guard !app.trimmingWhitespace.isEmpty else { out.keep(name.mark.line, "'\(app.printable)':", "no application's name: it matches no window"); continue }
                    let global = app.lowercased() == "global"
                    section(inner, apps: global ? nil : [app], tuning: tuning, into: &out)
                }
            case "plugin":
                out.keep(k.mark.line, "plugin: …", "fusuma's plugin settings have no gestured equivalent (gestured picks devices with device-name:)")
            default:
                out.keep(k.mark.line, key.printable + ": …", "fusuma has no gesture '\(key.printable)'")
            }
        }
    }

    /// `swipe:` and its finger counts; a direction or event without a count is bound
    /// for each count fusuma supports that the section does not name.
    private static func gesture(_ kind: String, _ node: YAMLNode, apps: [String]?, tuning: Tuning, into out: inout ImportedConfig) {
        guard case .mapping(let pairs) = node.value else { return }
        let supported = kind == "swipe" ? [3, 4] : kind == "hold" ? [1, 2, 3, 4] : [2, 3, 4]
        let explicit = Set(pairs.compactMap { $0.key.scalar.flatMap(Int.init) })
        var bare: [(key: YAMLNode, value: YAMLNode)] = []
        for (k, v) in pairs {
            guard let n = k.scalar.flatMap(Int.init) else { bare.append((k, v)); continue }
            guard (1...5).contains(n) else { out.keep(k.mark.line, "\(kind): \(n):", "gestured takes 1 to 5 fingers"); continue }
            fingers(kind, n, v, apps: apps, tuning: tuning, anyCount: false, into: &out)
        }
        guard !bare.isEmpty else { return }
        let anyNode = YAMLNode(mark: bare[0].key.mark, value: .mapping(bare))
        for n in supported where !explicit.contains(n) && (kind != "hold" || n >= 3) {
            fingers(kind, n, anyNode, apps: apps, tuning: tuning, anyCount: true, into: &out)
        }
    }

    /// One finger count: its directions (each a one-shot action, or events) and its
    /// own events.
    private static func fingers(_ kind: String, _ n: Int, _ node: YAMLNode, apps: [String]?, tuning: Tuning, anyCount: Bool,
                                into out: inout ImportedConfig) {
        guard case .mapping(let pairs) = node.value else { return }
        var own: [(key: YAMLNode, value: YAMLNode)] = []
        for (k, v) in pairs {
            let key = k.scalar ?? ""
            if directions[kind]!.contains(key) {
                direction(kind, n, key, k.mark.line, v, apps: apps, tuning: tuning, anyCount: anyCount, into: &out)
            } else {
                own.append((k, v))
            }
        }
        guard !own.isEmpty else { return }
        binding(kind, n, direction: nil, line: own[0].key.mark.line, own, apps: apps, tuning: tuning, anyCount: anyCount, into: &out)
    }

    private static func direction(_ kind: String, _ n: Int, _ dir: String, _ line: Int, _ node: YAMLNode, apps: [String]?, tuning: Tuning,
                                  anyCount: Bool, into out: inout ImportedConfig) {
        guard case .mapping(let pairs) = node.value else { out.keep(line, "\(kind): \(n): \(dir):", "not a mapping"); return }
        binding(kind, n, direction: dir, line: line, pairs, apps: apps, tuning: tuning, anyCount: anyCount, into: &out)
    }

    /// One binding from a direction's (or a finger count's) keys: an action there is
    /// one-shot (a swipe, pinch, rotation or hold that runs once); `begin:`,
    /// `update:`, `end:` make it continuous (a pan for a swipe).
    private static func binding(_ kind: String, _ n: Int, direction: String?, line: Int, _ pairs: [(key: YAMLNode, value: YAMLNode)],
                                apps: [String]?, tuning: Tuning, anyCount: Bool, into out: inout ImportedConfig) {
        var actions: [(String, ImportedAction)] = []
        var notes: [String] = []
        var threshold = tuning.threshold[kind], interval = tuning.interval[kind]
        var isContinuous = kind == "hold" && pairs.contains { events.contains($0.key.scalar ?? "") }
        // A key given twice: Ruby's YAML, which fusuma reads with, keeps the last.
        func set(_ phase: String, _ a: ImportedAction) {
            actions.removeAll { $0.0 == phase }
            actions.append((phase, a))
        }
        for (k, v) in pairs {
            let key = k.scalar ?? ""
            switch key {
            case "threshold": threshold = factor(v)
            case "interval": interval = factor(v)
            case "begin", "update", "end", "cancelled":
                guard case .mapping(let inner) = v.value else { continue }
                if let i = inner.first(where: { $0.key.scalar == "interval" }).flatMap({ factor($0.value) }) { interval = i }
                switch action(inner, line: k.mark.line, into: &out) {
                case .some(let a): set(key == "cancelled" ? "cancel" : key, a); isContinuous = true
                case .none: break
                }
            case "keypress":
                out.keep(k.mark.line, "keypress: …", "gestured has no gestures that depend on keys held on the keyboard")
            default:
                if let a = action([(k, v)], line: k.mark.line, into: &out) { set("command", a) }
            }
        }
        guard !actions.isEmpty else { return }
        var gesturedKind = kind
        var keys: [(String, String)] = []
        if kind == "swipe" && isContinuous {
            gesturedKind = "pan"
            if let direction {
                keys.append(("direction", direction))
                keys.append(("axis", direction == "left" || direction == "right" ? "horizontal" : "vertical"))
            }
        } else if let direction {
            keys.append(("direction", direction))
        }
        keys.append(("device", "touchpad"))
        // appmatcher compares names whole; gestured's apps: are globs, so `*`, `?`, `[` are escaped.
        if let apps { keys.append(("apps", "[" + apps.map { LibinputGesturesImport.glob($0).quoted }.joined(separator: ", ") + "]")) }
        if kind == "hold" {
            let s = (threshold ?? 1) * holdThresholdS
            keys.append(("min-duration", "\(trimmed(max(s, 0.01)))s"))
            notes.append("fusuma's hold threshold \(trimmed(threshold ?? 1)) × its 0.7 s base: \(trimmed(s)) s")
        } else if threshold != nil && !isContinuous {
            notes.append("threshold \(trimmed(threshold!)) is fusuma's speed in libinput's units, with no mm equivalent: gestured's own thresholds apply")
        }
        if actions.contains(where: { $0.0 == "update" }) {
            let every: String
            switch gesturedKind {
            case "pinch": every = pinchStep
            case "rotate": every = rotateStep
            default:
                let mm = (interval ?? 1) * repeatIntervalS * assumedSpeedMMPerS
                every = mmText(max(mm, 0.01))
            }
            if gesturedKind == "pan" && direction == nil {
                // gestured counts a pan's steps along one axis, which a direction names.
                actions.removeAll { $0.0 == "update" }
                out.keep(line, "swipe: \(n): update:", "an update: without a direction: gestured steps a swipe along the axis of its direction (left:, up:…)")
            } else if gesturedKind != "hold" {
                keys.append(("every", every))
                notes.append(gesturedKind == "pan"
                             ? "fusuma repeats update: at most every \(trimmed((interval ?? 1) * repeatIntervalS)) s; at an assumed \(trimmed(assumedSpeedMMPerS)) mm/s that is every \(every)"
                             : "fusuma repeats update: by time; here once per \(every)")
            } else {
                actions.removeAll { $0.0 == "update" }
                out.keep(line, "hold: \(n): update:", "a hold has no updates in fusuma or gestured")
            }
        } else if pairs.contains(where: { $0.key.scalar == "interval" }) && !isContinuous {
            notes.append("interval: gestured runs a one-shot gesture once per touch, so fusuma's time between repeats does not apply")
        }
        guard !actions.isEmpty else { return }
        if anyCount { notes.append("\(kind) without a finger count: bound for \(n) fingers") }
        let name = ((apps?.first.map { [$0] } ?? []) + [gesturedKind] + (direction.map { [$0] } ?? []) + ["\(n)"]).joined(separator: "-")
        out.add(ImportedGesture(name: name, line: line, kind: gesturedKind, fingers: n, keys: keys, actions: actions, notes: notes))
    }

    /// A `threshold:` or `interval:`: a factor of fusuma's base value, so a positive
    /// number, and at most 1000 (more would be hours, or beyond any touchpad); nil
    /// otherwise, and fusuma's default applies.
    static func factor(_ node: YAMLNode) -> Double? {
        guard let v = node.scalar.flatMap(Double.init), v.isFinite, v > 0, v <= 1000 else { return nil }
        return v
    }

    /// The action among a node's keys (`command:`, `sendkey:`, `shortcut:`,
    /// `workspace:`, `window:`), or nil; what cannot be carried is kept as a comment.
    private static func action(_ pairs: [(key: YAMLNode, value: YAMLNode)], line: Int, into out: inout ImportedConfig) -> ImportedAction? {
        for (k, v) in pairs {
            let key = k.scalar ?? ""
            guard let text = v.scalar, !v.isNull, !text.isEmpty else {
                if ["command", "sendkey", "shortcut", "workspace", "window"].contains(key) && v.scalar == nil {
                    out.keep(k.mark.line, "\(key): …", "fusuma's \(key) with options has no gestured equivalent")
                }
                continue
            }
            switch key {
            case "command":
                return KeyTranslation.action(for: text)
            case "sendkey", "shortcut":
                if let chord = KeyTranslation.chord(text) { return .keys([chord]) }
                out.keep(k.mark.line, "\(key): \(text)", "a key gestured does not know")
                return nil
            case "workspace", "window":
                let target = text == "next" ? "next" : text == "prev" ? "previous" : nil
                if let target { return .builtIn(key: key == "workspace" ? "workspace" : "move-window", value: target) }
                out.keep(k.mark.line, "\(key): \(text)", "gestured's {workspace:} and {move-window:} go to the next or previous workspace only")
                return nil
            default:
                continue
            }
        }
        return nil
    }
}
