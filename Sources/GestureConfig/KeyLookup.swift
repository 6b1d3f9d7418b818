/// Key names as `keys:` and `hold:` accept them: the kernel's `KEY_*` names
/// (generated into KeyNames.swift), case-insensitive, with or without `KEY_`, with
/// or without underscores (so X11's `Page_Down` is `KEY_PAGEDOWN`), and the aliases
/// people reach for first.
///
/// Names are key codes, not characters: `KEY_Q` is the key where a US keyboard has
/// Q, which types A on a French layout. Named keys (Page_Down, Tab, F5) do not move.
public enum KeyLookup {
    /// Words for keys whose kernel name few would guess, lower-case.
    static let aliases: [(name: String, code: UInt16)] = [
        ("super", 125), ("meta", 125), ("win", 125), ("logo", 125), ("windows", 125),  // KEY_LEFTMETA
        ("ctrl", 29), ("control", 29),       // KEY_LEFTCTRL
        ("alt", 56),                         // KEY_LEFTALT
        ("altgr", 100),                      // KEY_RIGHTALT
        ("shift", 42),                       // KEY_LEFTSHIFT
        ("prior", 104),                      // KEY_PAGEUP (X11's other name for it)
        ("return", 28),                      // KEY_ENTER
        ("escape", 1),                       // KEY_ESC
        ("del", 111), ("ins", 110),          // KEY_DELETE, KEY_INSERT
        ("printscreen", 99),                 // KEY_SYSRQ, the Print Screen key
        ("menu", 127),                       // KEY_COMPOSE, the context-menu key
    ]

    /// Every name with underscores and dashes dropped, aliases first (so `menu` is
    /// the context-menu key, not the rarely-present KEY_MENU).
    private static let table: [String: UInt16] = {
        var t: [String: UInt16] = [:]
        for (name, code) in aliases + kernelKeyNames where t[squash(name)] == nil { t[squash(name)] = code }
        return t
    }()

    /// What did-you-mean suggests from.
    static let spellings: [String] = aliases.map(\.name) + kernelKeyNames.map(\.name)

    /// The key `name` means, or nil.
    public static func code(for name: String) -> UInt16? {
        var n = name.lowercased()
        if n.hasPrefix("key_") { n.removeFirst(4) }
        return table[squash(n)]
    }

    /// `; did you mean 'pagedown'?` or the empty string.
    static func hint(for name: String) -> String {
        var n = name.lowercased()
        if n.hasPrefix("key_") { n.removeFirst(4) }
        return DidYouMean.hint(for: n, among: spellings)
    }

    private static func squash(_ s: String) -> String {
        String(s.unicodeScalars.filter { $0 != "_" && $0 != "-" }.map(Character.init))
    }
}
