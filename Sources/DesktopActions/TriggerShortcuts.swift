import GestureConfig

extension Desktop {
    /// How to bind `shortcut` to `gestured trigger NAME` in `detected`'s own shortcut
    /// config, where gestured does not bind `shortcut:` itself (everywhere but GNOME):
    /// the line for sway and i3 (`bindsym`), Hyprland (`bind`) and niri, the place in KDE
    /// Plasma's settings, else the command alone. docs/ACCESSIBILITY.md shows the same.
    public static func triggerBinding(_ detected: Detected, name: String, shortcut: Shortcut) -> String {
        let command = "gestured trigger \(name)"
        func keys(_ spelling: [String: String], key: String = shortcut.key, joiner: String = "+") -> String {
            (shortcut.modifiers.map { spelling[$0] ?? $0 } + [key]).joined(separator: joiner)
        }
        guard case .desktop(let desktop) = detected else { return "in the desktop's keyboard shortcut settings, the command `\(command)`" }
        switch desktop {
        case .i3IPC:
            return "`bindsym \(keys(["Super": "Mod4", "Alt": "Mod1", "Control": "Ctrl", "Meta": "Mod4", "Hyper": "Mod3"])) exec \(command)` in its config"
        case .hyprland:
            let mods = shortcut.modifiers.map { ["Control": "CTRL", "Meta": "SUPER"][$0] ?? $0.uppercased() }.joined(separator: " ")
            return "`bind = \(mods), \(shortcut.key), exec, \(command)` in hyprland.conf"
        case .niri:
            return "`\(keys(["Control": "Ctrl", "Meta": "Super"])) { spawn \"gestured\" \"trigger\" \"\(name)\"; }` in the binds section of niri's config"
        case .kde:
            return "System Settings → Keyboard → Shortcuts → Add New → Command or Script: `\(command)`, then the keys \(keys(["Super": "Meta", "Control": "Ctrl"]))"
        case .gnome:
            return "`shortcut: \(shortcut)` (gestured's extension grabs it)"
        case .x11, .extWorkspace:
            return "in \(desktop.name)'s keyboard shortcut settings, the command `\(command)` on \(keys([:]))"
        }
    }
}
