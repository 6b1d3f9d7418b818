import Testing
@testable import GestureConfig

/// `shortcut:`: GNOME's accelerator syntax, read to what the extension is given, and
/// every way to get it wrong named at its place in the file.
@Suite struct ShortcutConfigTests {
    private func yaml(_ line: String, kind: String = "swipe", phase: String = "command") -> String {
        "gestures:\n  - name: next\n    gesture: \(kind)\n    \(phase): touch /tmp/x\n    \(line)\n"
    }

    @Test(arguments: [
        ("<Super><Alt>w", "<Super><Alt>w"),
        ("<super><alt>W", "<Super><Alt>w"),
        ("<Ctrl><Shift>F5", "<Control><Shift>F5"),
        ("<Primary>page_down", "<Control>Page_Down"),
        ("F9", "F9"),
        ("XF86AudioPlay", "XF86AudioPlay"),
        ("'<Super>space'", "<Super>space"),
    ])
    func acceleratorsAreRead(written: String, given: String) throws {
        let (config, diagnostics) = ConfigLoader.parse(yaml("shortcut: \(written)"), file: "s.yaml")
        #expect(diagnostics.map(\.description) == [])
        #expect(try #require(config).bindings[0].shortcut?.description == given)
    }

    @Test func aContinuousGestureTakesOneToo() throws {
        let config = try #require(parse(yaml("shortcut: <Super><Alt>p", kind: "pan", phase: "begin")))
        #expect(config.bindings[0].shortcut == Shortcut(modifiers: ["Super", "Alt"], key: "p"))
    }

    @Test(arguments: [
        ("shortcut: super+alt+w", "s.yaml:5:15: error: shortcut: 'super+alt+w' is not GNOME's syntax: modifiers go in angle brackets, like <Super><Alt>w, not joined with '+'"),
        ("shortcut: <Supr><Alt>w", "s.yaml:5:15: error: shortcut: unknown modifier '<Supr>'; GNOME's are <Shift>, <Control>, <Alt>, <Super>, <Meta>, <Hyper>; did you mean 'Super'?"),
        ("shortcut: <Super><Alt>", "s.yaml:5:15: error: shortcut: '<Super><Alt>' names no key after its modifiers; write it as GNOME does, like <Super><Alt>w or <Control><Shift>F5"),
        ("shortcut: <Super<Alt>w", "s.yaml:5:15: error: shortcut: unknown modifier '<Super<Alt>'; GNOME's are <Shift>, <Control>, <Alt>, <Super>, <Meta>, <Hyper>"),
        ("shortcut: <Super><Alt", "s.yaml:5:15: error: shortcut: '<Super><Alt' has a '<' with no '>'; write it as GNOME does, like <Super><Alt>w or <Control><Shift>F5"),
        ("shortcut: <Super><Super>w", "s.yaml:5:15: error: shortcut: '<Super><Super>w' names <Super> twice"),
        ("shortcut: <Super>Pgae_Down", "s.yaml:5:15: error: shortcut: unknown key 'Pgae_Down': the key is an X keysym name, like w, F5, Page_Down, space, XF86AudioPlay; did you mean 'Page_Down'?"),
        ("shortcut: <Super>Super_L", "s.yaml:5:15: error: shortcut: 'Super_L' is a modifier key; a shortcut ends with the key pressed with the modifiers, like <Super><Alt>w"),
        ("shortcut: w", "s.yaml:5:15: error: shortcut: 'w' with no modifier would take that key from every application; add one, like <Super>w (function keys and media keys may stand alone)"),
        ("shortcut: [a]", "s.yaml:5:15: error: expected text for shortcut, found a list"),
        ("shortcut: \"\"", "s.yaml:5:15: error: shortcut is empty"),
    ])
    func mistakesNameTheirPlace(line: String, expected: String) {
        let (config, diagnostics) = ConfigLoader.parse(yaml(line), file: "s.yaml")
        #expect(config == nil)
        #expect(diagnostics.map(\.description) == [expected])
    }

    /// Hostile input: a long text is refused by its length before any lookup.
    @Test func aLongShortcutIsRefusedByItsLength() {
        let long = "<Super>" + String(repeating: "w", count: 5000)
        let (config, diagnostics) = ConfigLoader.parse(yaml("shortcut: \(long)"), file: "s.yaml")
        #expect(config == nil)
        #expect(diagnostics.map(\.description) == ["s.yaml:5:15: error: shortcut: the shortcut is 5007 characters; at most 100"])
    }

    @Test func oneShortcutRunsOneBinding() {
        let text = """
            gestures:
              - name: a
                gesture: swipe
                direction: left
                command: x
                shortcut: <Super><Alt>w
              - name: b
                gesture: swipe
                direction: right
                command: y
                shortcut: <Alt><Super>W
              - name: c
                gesture: swipe
                direction: up
                desktop: sway
                command: z
                shortcut: <Super>x
              - name: d
                gesture: swipe
                direction: down
                desktop: GNOME
                command: z
                shortcut: <Super>x
            """
        #expect(check(text) == ["config.yaml:11:5: error: shortcut <Alt><Super>w is also 'a''s (line 2); a shortcut runs one gesture's binding"])
    }
}
