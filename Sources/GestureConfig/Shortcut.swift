/// `shortcut: <Super><Alt>w`: a keyboard shortcut that runs a gesture's binding without
/// the gesture (docs/ACCESSIBILITY.md). Written in GTK's accelerator syntax, which is
/// what GNOME's own keybindings and `Meta.Display.grab_accelerator` read (Mutter's
/// `meta_parse_accelerator`): modifiers in angle brackets, then one keysym name. On
/// GNOME gestured's extension grabs it (docs/GNOME.md); elsewhere the desktop's own
/// shortcut config runs `gestured trigger NAME`.
public struct Shortcut: Sendable, Equatable, CustomStringConvertible {
    /// The modifiers, each spelled as `modifierNames` does, in the order written.
    public var modifiers: [String]
    /// The keysym's name as X11 and xkbcommon spell it (`w`, `F5`, `Page_Down`, `XF86AudioPlay`).
    public var key: String

    /// `<Super><Alt>w`: what the extension is given.
    public var description: String { modifiers.map { "<\($0)>" }.joined() + key }

    /// Longest text accepted: the longest real one (`<Shift><Control><Alt><Super>` and a
    /// keysym of 27 characters) is well under it, and GNOME is not handed more than this.
    public static let maximumLength = 100

    /// The modifiers GNOME's parser knows, by how `shortcut:` spells them, with the
    /// other spellings it accepts for each (any case). Mutter's `<Release>` and
    /// `<Mod1>`…`<Mod5>` are left out: no desktop shortcut is written with them.
    static let modifierNames: [(name: String, aliases: [String])] = [
        ("Shift", ["shft"]), ("Control", ["ctrl", "ctl", "primary"]), ("Alt", []),
        ("Super", []), ("Meta", []), ("Hyper", []),
    ]

    /// Keysyms that are modifiers themselves: grabbing one would take it from every shortcut.
    static let modifierKeys: Set<String> = [
        "shift_l", "shift_r", "control_l", "control_r", "alt_l", "alt_r", "super_l", "super_r",
        "meta_l", "meta_r", "hyper_l", "hyper_r", "caps_lock", "shift_lock", "iso_level3_shift", "num_lock",
    ]

    /// Every keysym name, and the one spelling kept for each lower-cased name
    /// (xkbcommon's case-insensitive lookup prefers the lower-case keysym: `w`, not `W`).
    static let keysyms: [String: String] = {
        var byLower: [String: String] = [:]
        for name in keysymNameText.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init) {
            let lower = name.lowercased()
            if let kept = byLower[lower], kept == lower { continue }
            if byLower[lower] == nil || name == lower { byLower[lower] = name }
        }
        return byLower
    }()

    /// Why `text` is not a shortcut GNOME would grab, or the shortcut.
    public static func parse(_ text: String) -> Result<Shortcut, Problem> {
        let example = "write it as GNOME does, like <Super><Alt>w or <Control><Shift>F5"
        guard text.count <= maximumLength else {
            return .failure(Problem("the shortcut is \(text.count) characters; at most \(maximumLength)"))
        }
        var rest = Substring(text.trimmingSpaces())
        guard !rest.isEmpty else { return .failure(Problem("the shortcut is empty; \(example)")) }
        var modifiers: [String] = []
        while rest.first == "<" {
            guard let close = rest.firstIndex(of: ">") else {
                return .failure(Problem("'\(text)' has a '<' with no '>'; \(example)"))
            }
            let word = String(rest[rest.index(after: rest.startIndex)..<close])
            rest = rest[rest.index(after: close)...]
            guard let name = modifierNames.first(where: { $0.name.lowercased() == word.lowercased() || $0.aliases.contains(word.lowercased()) })?.name else {
                let names = modifierNames.map(\.name)
                return .failure(Problem("unknown modifier '<\(word)>'; GNOME's are \(names.map { "<\($0)>" }.joined(separator: ", "))"
                                        + DidYouMean.hint(for: word, among: names)))
            }
            guard !modifiers.contains(name) else { return .failure(Problem("'\(text)' names <\(name)> twice")) }
            modifiers.append(name)
        }
        let key = String(rest)
        guard !key.isEmpty else {
            return .failure(Problem("'\(text)' names no key after its modifiers; \(example)"))
        }
        if modifiers.isEmpty, key.contains("+") {
            return .failure(Problem("'\(text)' is not GNOME's syntax: modifiers go in angle brackets, like <Super><Alt>w, not joined with '+'"))
        }
        guard let keysym = keysyms[key.lowercased()] else {
            let hint = key.count <= DidYouMean.maxWordLength ? DidYouMean.hint(for: key, among: Array(keysyms.values)) : ""
            return .failure(Problem("unknown key '\(key)': the key is an X keysym name, like w, F5, Page_Down, space, XF86AudioPlay\(hint)"))
        }
        if modifierKeys.contains(keysym.lowercased()) {
            return .failure(Problem("'\(keysym)' is a modifier key; a shortcut ends with the key pressed with the modifiers, like <Super><Alt>w"))
        }
        if modifiers.isEmpty, !takesNoModifier(keysym) {
            return .failure(Problem("'\(keysym)' with no modifier would take that key from every application; add one, like <Super>\(keysym) "
                                    + "(function keys and media keys may stand alone)"))
        }
        return .success(Shortcut(modifiers: modifiers, key: keysym))
    }

    /// F1…F35 and the XF86 media keys type nothing, so a shortcut may be the key alone.
    static func takesNoModifier(_ keysym: String) -> Bool {
        if keysym.hasPrefix("XF86") { return true }
        guard keysym.first == "F", let n = Int(keysym.dropFirst()) else { return false }
        return (1...35).contains(n)
    }

    public struct Problem: Error, Equatable {
        public var message: String
        init(_ message: String) { self.message = message }
    }
}
