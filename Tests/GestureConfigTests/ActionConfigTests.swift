import Testing
@testable import GestureConfig

/// Built-in actions in place of commands: what the YAML means and what a mistake says.
@Suite struct ActionConfigTests {
    private func first(_ yaml: String) -> String? {
        ConfigLoader.parse(yaml, file: "config.yaml").1.map(\.description).first { $0.contains(": error: ") }
    }

    private func action(_ value: String, _ key: String = "command") throws -> Action? {
        let (c, d) = ConfigLoader.parse("gestures:\n  - {name: a, gesture: tap, \(key): \(value)}\n", file: "c.yaml")
        #expect(d.map(\.description) == [])
        return try #require(c).bindings[0].actions[.recognized]
    }

    @Test(arguments: [
        ("super+Page_Down", [125, 109]), ("KEY_LEFTMETA+KEY_PAGEDOWN", [125, 109]), ("Super + page_down", [125, 109]),
        ("meta+prior", [125, 104]), ("win+pageup", [125, 104]), ("logo+Page_Up", [125, 104]),
        ("ctrl+alt+Delete", [29, 56, 111]), ("altgr+e", [100, 18]), ("shift+Tab", [42, 15]),
        ("enter", [28]), ("Return", [28]), ("esc", [1]), ("volumeup", [115]), ("playpause", [164]),
        ("brightnessdown", [224]), ("Brightness_Down", [224]), ("F5", [63]), ("key_f24", [194]),
    ])
    func keyNamesAnyCaseWithOrWithoutPrefix(_ text: String, _ codes: [Int]) throws {
        guard case .keys(let chords)? = try action("{keys: \"\(text)\"}") else { Issue.record("not keys"); return }
        #expect(chords.count == 1)
        #expect(chords[0].keys.map { Int($0.code) } == codes)
    }

    @Test func listsButtonsAndScrolls() throws {
        guard case .keys(let chords)? = try action("{keys: [ctrl+c, ctrl+v]}") else { Issue.record("not keys"); return }
        #expect(chords.map(\.description) == ["ctrl+c", "ctrl+v"])
        #expect(try action("{button: middle}") == .button(.middle))
        #expect(try action("{button: Back}") == .button(.back))
        #expect(try action("{scroll: down}") == .scroll(Scroll(.down)))
        #expect(try action("{scroll: left 2.5}") == .scroll(Scroll(.left, clicks: 2.5)))
        #expect(try action("{scroll: up 3}")?.description == "scroll up 3")
        #expect(try action("\"xdotool key super+Page_Down\"") == .command("xdotool key super+Page_Down"))
    }

    @Test func heldKeysAndReverseStepsOnAPan() throws {
        // Flow style reads as well as block style.
        let (c, d) = ConfigLoader.parse("""
            gestures:
              - {name: switcher, gesture: pan, fingers: 3, axis: horizontal, every: 20mm, hold: alt, update: {keys: tab, reverse: shift+tab}}
            """, file: "c.yaml")
        #expect(d.map(\.description) == [])
        let b = try #require(c).bindings[0]
        #expect(b.hold?.description == "alt")
        #expect(b.actions[.changed]?.description == "keys tab")
        #expect(b.reverse?.description == "keys shift+tab")
        #expect(b.needsInput)
    }

    @Test(arguments: [
        ("{keys: super+Page_Dwn}", "config.yaml:2:45: error: unknown key 'Page_Dwn'; did you mean 'pagedown'? (key names are the kernel's KEY_* names, like Page_Down, super, ctrl, F5, volumeup)"),
        ("{keys: supr+Page_Down}", "config.yaml:2:45: error: unknown key 'supr'; did you mean 'super'? (key names are the kernel's KEY_* names, like Page_Down, super, ctrl, F5, volumeup)"),
        ("{keys: [ctrl+c, KEY_VOLUMUP]}", "config.yaml:2:54: error: unknown key 'KEY_VOLUMUP'; did you mean 'volumeup'? (key names are the kernel's KEY_* names, like Page_Down, super, ctrl, F5, volumeup)"),
        ("{keys: ctrl++}", "config.yaml:2:45: error: 'ctrl++' has an empty key name; join keys with a single '+' (the + key itself is 'equal' with shift, or 'kpplus')"),
        ("{keys: ctrl+control+c}", "config.yaml:2:45: error: 'ctrl+control+c' names the same key twice"),
        ("{keys: []}", "config.yaml:2:45: error: 'keys' has an empty list"),
        ("{key: tab}", "config.yaml:2:39: error: unknown action 'key'; did you mean 'keys'?"),
        ("{button: centre}", "config.yaml:2:47: error: unknown button 'centre', expected one of: left, right, middle, back, forward"),
        ("{button: midle}", "config.yaml:2:47: error: unknown button 'midle', expected one of: left, right, middle, back, forward; did you mean 'middle'?"),
        ("{scroll: sideways}", "config.yaml:2:47: error: unknown scroll direction 'sideways', expected one of: up, down, left, right"),
        ("{scroll: down lots}", "config.yaml:2:47: error: the scroll amount must be a number of clicks from more than 0 to 100, found 'lots'"),
        ("{keys: tab, button: left}", "config.yaml:2:50: error: one action per key: 'keys' and 'button' are both given; use 'keys:' with a list for several, or another gesture phase"),
        ("{reverse: tab}", "config.yaml:2:38: error: a built-in action needs one of: keys, button, scroll, workspace, move-window, overview, show-desktop"),
        ("{keys: tab, reverse: shift+tab}", "config.yaml:2:50: error: 'reverse' belongs to 'update:' with 'every:' (what a step the other way does)"),
    ])
    func mistakesNameTheirPlace(_ value: String, _ expected: String) {
        #expect(first("gestures:\n  - {name: a, gesture: tap, command: \(value)}\n") == expected)
    }

    @Test func reverseNeedsASteppedUpdateAndHoldAContinuousGesture() {
        #expect(first("gestures:\n  - {name: a, gesture: pan, update: {keys: tab, reverse: shift+tab}}\n")
                == "config.yaml:2:49: error: 'reverse' needs 'every:': only a stepped update has steps the other way")
        #expect(first("gestures:\n  - {name: a, gesture: tap, hold: alt, command: x}\n")
                == "config.yaml:2:29: error: 'hold' does not apply to a tap gesture; it applies to: hold, pan, pinch, rotate, edgepan, transform, circle")
        #expect(first("gestures:\n  - {name: a, gesture: pan, hold: altt, end: x}\n")
                == "config.yaml:2:35: error: unknown key 'altt'; did you mean 'alt'? (key names are the kernel's KEY_* names, like Page_Down, super, ctrl, F5, volumeup)")
    }

    @Test func keyDelaySetting() {
        #expect(ConfigLoader.parse("settings: {key-delay: 5ms}\n", file: "c.yaml").0?.settings.keyDelay == 0.005)
        #expect(first("settings: {key-delay: 1s}\n") == "config.yaml:1:23: error: 'key-delay' must be at most 0.2s, found '1s'")
    }
}
