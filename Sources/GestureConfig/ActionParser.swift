import YAMLTree

/// The value of `command:`, `begin:`, `update:`, `end:` and `cancel:`: a shell
/// command as text, or a built-in action as a one-key mapping
/// (`{keys: super+Page_Down}`, `{button: middle}`, `{scroll: down 3}`,
/// `{workspace: next}`, `{overview: toggle}`), which on
/// `update:` with `every:` may add `reverse:` for steps the other way.
enum ActionParser {
    /// An action and, for `update:`, the one for steps the other way.
    struct Parsed {
        var action: Action
        var reverse: Action?
        var reverseMark: SourceMark?
    }

    /// A built-in action (a command, as text, is the parser's `text()` to read).
    static func parse(_ v: YAMLNode, log: inout DiagnosticLog) -> Parsed? {
        switch v.value {
        case .mapping(let pairs):
            return builtIn(v, pairs, log: &log)
        case .scalar, .sequence:
            log.error(v.mark, "expected a command, or a built-in action like {keys: super+Page_Down}, found \(v.shape)")
            return nil
        }
    }

    private static func builtIn(_ v: YAMLNode, _ pairs: [(YAMLNode, YAMLNode)], log: inout DiagnosticLog) -> Parsed? {
        var main: (ActionKey, YAMLNode)?
        var reverse: (SourceMark, YAMLNode)?
        let names = ActionKey.allCases.map(\.rawValue)
        for (k, value) in pairs {
            guard let text = k.scalar, let key = ActionKey(rawValue: text) else {
                let word = k.scalar ?? ""
                let hint = DidYouMean.hint(for: word, among: names)
                log.error(k.mark, "unknown action '\(word)'" + (hint.isEmpty ? "; expected one of: \(names.joined(separator: ", "))" : hint))
                return nil
            }
            if key == .reverse {
                reverse = (k.mark, value)
            } else if let (first, _) = main {
                log.error(k.mark, "one action per key: '\(first.rawValue)' and '\(text)' are both given; use 'keys:' with a list for several, or another gesture phase")
                return nil
            } else {
                main = (key, value)
            }
        }
        guard let (key, value) = main else {
            log.error(v.mark, "a built-in action needs one of: " + ActionKey.allCases.filter { $0 != .reverse }.map(\.rawValue).joined(separator: ", "))
            return nil
        }
        guard let action = action(key, value, log: &log) else { return nil }
        var parsed = Parsed(action: action)
        if let (mark, r) = reverse {
            guard let back = Self.action(key, r, log: &log) else { return nil }
            parsed.reverse = back
            parsed.reverseMark = mark
        }
        return parsed
    }

    private static func action(_ key: ActionKey, _ v: YAMLNode, log: inout DiagnosticLog) -> Action? {
        switch key {
        case .keys:
            if case .sequence(let items) = v.value {
                guard !items.isEmpty else {
                    log.error(v.mark, "'keys' has an empty list")
                    return nil
                }
                let chords = items.map { chord($0, log: &log) }
                return chords.contains { $0 == nil } ? nil : .keys(chords.compactMap { $0 })
            }
            return chord(v, log: &log).map { .keys([$0]) }
        case .button:
            guard let s = v.scalar, let b = MouseButton(rawValue: s.lowercased()) else {
                let s = v.scalar ?? ""
                let options = MouseButton.allCases.map(\.rawValue)
                log.error(v.mark, "unknown button '\(s)', expected one of: \(options.joined(separator: ", "))\(DidYouMean.hint(for: s, among: options))")
                return nil
            }
            return .button(b)
        case .scroll:
            return scroll(v, log: &log).map { .scroll($0) }
        case .workspace, .moveWindow, .overview, .showDesktop:
            return desktop(key.desktop!, v, log: &log).map { .desktop($0) }
        case .reverse:
            preconditionFailure("reverse is read beside its action")
        }
    }

    /// `super+Page_Down`: key names joined by `+`.
    static func chord(_ v: YAMLNode, log: inout DiagnosticLog) -> KeyChord? {
        guard let s = v.scalar, !s.trimmingSpaces().isEmpty else {
            log.error(v.mark, "expected keys like super+Page_Down, found \(v.shape)")
            return nil
        }
        var keys: [Key] = []
        for part in s.split(separator: "+", omittingEmptySubsequences: false) {
            let name = String(part).trimmingSpaces()
            guard !name.isEmpty else {
                log.error(v.mark, "'\(s)' has an empty key name; join keys with a single '+' (the + key itself is 'equal' with shift, or 'kpplus')")
                return nil
            }
            guard let code = KeyLookup.code(for: name) else {
                log.error(v.mark, "unknown key '\(name)'\(KeyLookup.hint(for: name)) (key names are the kernel's KEY_* names, like Page_Down, super, ctrl, F5, volumeup)")
                return nil
            }
            if keys.contains(where: { $0.code == code }) {
                log.error(v.mark, "'\(s)' names the same key twice")
                return nil
            }
            keys.append(Key(name: name, code: code))
        }
        return KeyChord(keys)
    }

    /// `next`, `previous`, `3` for a workspace; `toggle`, `on`, `off` for a switch.
    private static func desktop(_ key: DesktopActionKey, _ v: YAMLNode, log: inout DiagnosticLog) -> DesktopAction? {
        let word = (v.scalar ?? "").trimmingSpaces().lowercased()
        if word == "follow", key == .workspace || key == .overview {
            return .follow(Follow(transition: key == .workspace ? .workspace : .overview))
        }
        let switches = key.switches
        guard switches.isEmpty else {
            let options = switches.map(\.rawValue)
            guard let s = DesktopAction.Switch(rawValue: word), switches.contains(s) else {
                let follow = key == .overview ? ", or follow (on a pan: the overview moves with the fingers)" : ""
                log.error(v.mark, "'\(key.rawValue)' takes \(options.joined(separator: ", "))\(follow), found '\(v.scalar ?? v.shape)'\(DidYouMean.hint(for: word, among: options + (follow.isEmpty ? [] : ["follow"])))")
                return nil
            }
            return key == .overview ? .overview(s) : .showDesktop(s)
        }
        let target: WorkspaceTarget
        switch word {
        case "next": target = .next
        case "previous", "prev": target = .previous
        default:
            guard let n = Int(word), (1...WorkspaceTarget.maxNumber).contains(n) else {
                let follow = key == .workspace ? ", or follow (on a pan: the workspaces move with the fingers)" : ""
                log.error(v.mark, "'\(key.rawValue)' takes next, previous or a workspace number from 1 to \(WorkspaceTarget.maxNumber)\(follow), found '\(v.scalar ?? v.shape)'\(DidYouMean.hint(for: word, among: ["next", "previous"] + (follow.isEmpty ? [] : ["follow"])))")
                return nil
            }
            target = .number(n)
        }
        return key == .workspace ? .workspace(target) : .moveWindow(target)
    }

    /// `down`, `down 3`, `up 0.5`.
    private static func scroll(_ v: YAMLNode, log: inout DiagnosticLog) -> Scroll? {
        let words = (v.scalar ?? "").split(separator: " ").map(String.init)
        let options = Scroll.Direction.allCases.map(\.rawValue)
        guard let first = words.first, words.count <= 2 else {
            log.error(v.mark, "'scroll' takes a direction and an optional number of clicks, like 'down' or 'down 3'")
            return nil
        }
        guard let direction = Scroll.Direction(rawValue: first.lowercased()) else {
            log.error(v.mark, "unknown scroll direction '\(first)', expected one of: \(options.joined(separator: ", "))\(DidYouMean.hint(for: first, among: options))")
            return nil
        }
        guard words.count == 2 else { return Scroll(direction) }
        guard let clicks = Double(words[1]), clicks > 0, clicks <= Scroll.maxClicks else {
            log.error(v.mark, "the scroll amount must be a number of clicks from more than 0 to \(Int(Scroll.maxClicks)), found '\(words[1])'")
            return nil
        }
        return Scroll(direction, clicks: clicks)
    }
}

extension Scroll {
    /// Most wheel clicks one action may scroll: far past any page, low enough that
    /// 120 units per click stays well inside the kernel's 32-bit value.
    public static let maxClicks: Double = 100
}

/// The keys of a built-in action mapping (docs/CONFIG.md's action table).
enum ActionKey: String, CaseIterable {
    case keys, button, scroll
    case workspace
    case moveWindow = "move-window"
    case overview
    case showDesktop = "show-desktop"
    case reverse

    /// The desktop action this key names, if it is one.
    var desktop: DesktopActionKey? {
        switch self {
        case .keys, .button, .scroll, .reverse: return nil
        case .workspace: return .workspace
        case .moveWindow: return .moveWindow
        case .overview: return .overview
        case .showDesktop: return .showDesktop
        }
    }

    var entry: Schema.Entry {
        func e(_ type: String, _ summary: String) -> Schema.Entry {
            .init(key: rawValue, type: type, appliesTo: "", defaultValue: "—", summary: summary)
        }
        switch self {
        case .keys: return e("keys, or a list of them", "Presses a key combination and releases it, like `super+Page_Down`; a list is sent in order. Names are the kernel's `KEY_*` names, any case, with or without `KEY_`, plus `super`, `ctrl`, `alt`, `altgr`, `shift`, `Page_Up`, `prior`, `return`, `esc`.")
        case .button: return e(MouseButton.allCases.map { "`\($0.rawValue)`" }.joined(separator: ", "), "Clicks a mouse button.")
        case .scroll: return e("direction, clicks", "Turns the wheel: `up`, `down`, `left` or `right`, and how many clicks (default 1; fractions scroll in high resolution).")
        case .workspace: return e("`next`, `previous`, or a number from 1", "Switches to the next or previous workspace (on the same screen, where the desktop has one per screen) or to workspace N, through the desktop's own interface (see Desktop actions).")
        case .moveWindow: return e("`next`, `previous`, or a number from 1", "Moves the focused window to that workspace, and follows it there.")
        case .overview: return e("`toggle`, `on`, `off`", "Shows or hides the overview (GNOME's Activities, KDE Plasma's Overview).")
        case .showDesktop: return e("`toggle`", "Shows the desktop, or brings the windows back.")
        case .reverse: return e("as its action", "On `update:` with `every:` only: what steps the other way do (left, down, anticlockwise, pinching in), e.g. `{keys: tab, reverse: shift+tab}`. Without it every step does the same.")
        }
    }
}
