import GestureConfig

/// The other tools' key names in gestured's: X keysyms (xdotool's and touchegg's
/// `Super_L`, `KP_Add`, `XF86Back`) and the kernel names fusuma's sendkey plugin
/// takes (`LEFTCTRL+T`). gestured's keys are key codes on the virtual keyboard, so
/// a keysym is the key that types it on a US layout (docs/IMPORT.md).
enum KeyTranslation {
    /// Keysyms whose kernel name is not the keysym itself (lower-case).
    static let keysyms: [String: String] = [
        "super_l": "super", "super_r": "rightmeta", "meta_l": "super", "meta_r": "rightmeta",
        "hyper_l": "super", "control_l": "ctrl", "control_r": "rightctrl", "alt_l": "alt",
        "alt_r": "altgr", "iso_level3_shift": "altgr", "shift_l": "shift", "shift_r": "rightshift",
        "kp_add": "kpplus", "kp_subtract": "kpminus", "kp_multiply": "kpasterisk", "kp_divide": "kpslash",
        "kp_enter": "kpenter", "kp_decimal": "kpdot", "bracketleft": "leftbrace", "bracketright": "rightbrace",
        "period": "dot", "next": "pagedown", "print": "sysrq", "caps_lock": "capslock",
        "xf86back": "back", "xf86forward": "forward", "xf86audioraisevolume": "volumeup",
        "xf86audiolowervolume": "volumedown", "xf86audiomute": "mute", "xf86audioplay": "playpause",
        "xf86audionext": "nextsong", "xf86audioprev": "previoussong", "xf86monbrightnessup": "brightnessup",
        "xf86monbrightnessdown": "brightnessdown", "xf86zoomin": "zoomin", "xf86zoomout": "zoomout",
    ]
    /// Characters typed with Shift on a US layout, which xdotool presses Shift for.
    static let shifted: [String: String] = [
        "plus": "shift+equal", "underscore": "shift+minus", "question": "shift+slash", "exclam": "shift+1",
        "at": "shift+2", "numbersign": "shift+3", "dollar": "shift+4", "percent": "shift+5",
        "asterisk": "shift+8", "parenleft": "shift+9", "parenright": "shift+0", "colon": "shift+semicolon",
        "less": "shift+comma", "greater": "shift+dot", "braceleft": "shift+leftbrace", "braceright": "shift+rightbrace",
    ]

    /// `ctrl+alt+Right` in gestured's names, or nil when a name has no key (then the
    /// caller keeps the original command, which still works where it did).
    static func chord(_ text: some StringProtocol) -> String? {
        let names = text.split(separator: "+", omittingEmptySubsequences: false)
        guard !names.isEmpty, names.count <= 8 else { return nil }
        var out: [String] = []
        for raw in names {
            let lower = raw.lowercased()
            if let s = shifted[lower] { out.append(s); continue }
            let name = keysyms[lower] ?? String(raw)
            guard !name.isEmpty, KeyLookup.code(for: name) != nil else { return nil }
            out.append(name)
        }
        // `ctrl+shift+shift+equal` from `ctrl+shift+plus`: each key once, in order.
        var seen: Set<String> = []
        return out.joined(separator: "+").split(separator: "+").filter { seen.insert($0.lowercased()).inserted }.joined(separator: "+")
    }

    /// What an `xdotool key …` or `xdotool click N` command does, as a built-in action;
    /// nil for any other command, or options it cannot carry (`--window`, `--delay`…).
    static func xdotool(_ command: String) -> ImportedAction? {
        let words = command.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        // What the shell would change (quotes, expansions) is left to the shell.
        guard !words.contains(where: { $0.contains("'") || $0.contains("\"") || $0.contains("$") }) else { return nil }
        return xdotool(words: words)
    }

    /// The same for a command's words as the program gets them.
    static func xdotool(words: [String]) -> ImportedAction? {
        var words = words
        guard words.count >= 3, words.removeFirst() == "xdotool" else { return nil }
        let verb = words.removeFirst()
        words.removeAll { $0 == "--clearmodifiers" }
        guard !words.isEmpty, !words.contains(where: { $0.hasPrefix("-") }) else { return nil }
        switch verb {
        case "key":
            let chords = words.map { chord($0) }
            guard chords.allSatisfy({ $0 != nil }) else { return nil }
            return .keys(chords.map { $0! })
        case "click":
            guard words.count == 1, let button = button(words[0]) else { return nil }
            return button
        default:
            return nil
        }
    }

    /// X's button numbers (xdotool's, touchegg's `MOUSE_CLICK`): 1 left, 2 middle,
    /// 3 right, 4–7 the wheel, 8 back, 9 forward.
    static func button(_ number: String) -> ImportedAction? {
        switch number {
        case "1": return .builtIn(key: "button", value: "left")
        case "2": return .builtIn(key: "button", value: "middle")
        case "3": return .builtIn(key: "button", value: "right")
        case "4": return .builtIn(key: "scroll", value: "up")
        case "5": return .builtIn(key: "scroll", value: "down")
        case "6": return .builtIn(key: "scroll", value: "left")
        case "7": return .builtIn(key: "scroll", value: "right")
        case "8": return .builtIn(key: "button", value: "back")
        case "9": return .builtIn(key: "button", value: "forward")
        default: return nil
        }
    }

    /// A command as gestured should run it: the built-in action it amounts to, or the
    /// command itself.
    static func action(for command: String) -> ImportedAction {
        xdotool(command) ?? .command(command)
    }
}
