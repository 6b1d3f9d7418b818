import PlainText
import TouchModel
/// touchegg's `touchegg.conf`: `<application name="All">` (or a comma-separated list
/// of window classes) holding `<gesture type="SWIPE" fingers="3" direction="LEFT">`,
/// each with an `<action type="…">` whose settings are child elements.
enum ToucheggImport {
    /// touchegg's repeat step is a share of the gesture's full length (`times`, 10 %
    /// by default) and that length comes from the device's size: its
    /// `start_threshold` (5 % of the shorter side) plus `finish_threshold` (40 % of
    /// the side along the swipe), as src/gesture-gatherer/libinput-device-handler.cpp
    /// computes them for a touchpad. Assumed: a 100 × 65 mm touchpad, no pointer
    /// acceleration.
    static let assumedSizeMM = (width: 100.0, height: 65.0)
    static let defaultStepPercent = 10.0
    /// A pinch's percentage is its scale change (1.1 is 10 %): gestured's steps are
    /// ratios, so 10 % becomes 1.1x.
    static let maximumBytes = 4 << 20

    static func translate(_ bytes: [UInt8], file: String) throws(ImportError) -> ImportedConfig {
        let root: XMLElement
        do throws(XMLProblem) { root = try XMLReader.parse(bytes) } catch {
            throw ImportError(file: file, line: error.line, column: error.column, error.message)
        }
        guard root.name == "touchégg" || root.name == "touchegg" else {
            throw ImportError(file: file, line: root.line, column: root.column, "the root element is '<\(root.name.printable)>', not touchegg's '<touchégg>'")
        }
        var out = ImportedConfig(format: .touchegg)
        out.notes = ["touchegg's animations have no equivalent in gestured: the actions run without them."]
        for element in root.children {
            switch element.name {
            case "settings":
                for p in element.children where p.name == "property" {
                    let name = p.attribute("name") ?? ""
                    if name == "action_execute_threshold" {
                        out.notes.append("action_execute_threshold \(p.text.trimmingWhitespace.printable) % (line \(p.line)): gestured runs an action once its gesture is recognized")
                    }
                }
            case "application":
                let names = (element.attribute("name") ?? "All").split(separator: ",").map { $0.trimmingWhitespace }.filter { !$0.isEmpty }
                guard !names.isEmpty else { out.keep(element.line, "<application name=\"…\">", "no application's name: it matches no window"); continue }
                let apps = names.contains { $0.lowercased() == "all" } ? nil : names
                for g in element.children where g.name == "gesture" { gesture(g, apps: apps, into: &out) }
            default:
                out.keep(element.line, "<\(element.name)>", "touchegg has no '<\(element.name)>' here")
            }
        }
        return out
    }

    private static func gesture(_ g: XMLElement, apps: [String]?, into out: inout ImportedConfig) {
        let type = (g.attribute("type") ?? "").uppercased()
        let direction = (g.attribute("direction") ?? "").lowercased()
        let tag = "<gesture type=\"\(g.attribute("type") ?? "")\" fingers=\"\(g.attribute("fingers") ?? "")\"\(g.attribute("direction").map { " direction=\"\($0)\"" } ?? "")>"
        guard let fingers = g.attribute("fingers").flatMap(Int.init), (1...5).contains(fingers) else {
            out.keep(g.line, tag, "fingers must be 1 to 5"); return
        }
        let kind: String
        switch (type, direction) {
        case ("SWIPE", "up"), ("SWIPE", "down"), ("SWIPE", "left"), ("SWIPE", "right"): kind = "swipe"
        case ("PINCH", "in"), ("PINCH", "out"): kind = "pinch"
        case ("TAP", _): kind = "tap"
        default: out.keep(g.line, tag, "touchegg has no gesture \(type.printable) \(direction.printable)"); return
        }
        for a in g.children where a.name == "action" {
            action(a, kind: kind, fingers: fingers, direction: kind == "tap" ? nil : direction, apps: apps, tag: tag, line: g.line, into: &out)
        }
    }

    /// The setting `name` of an action (a child element's text).
    private static func setting(_ a: XMLElement, _ name: String) -> String? {
        a.child(name).map { $0.text.trimmingWhitespace }
    }

    private static func action(_ a: XMLElement, kind: String, fingers: Int, direction: String?, apps: [String]?, tag: String, line: Int,
                               into out: inout ImportedConfig) {
        let type = a.attribute("type") ?? ""
        let shown = "\(tag) \(type)"
        let repeating = setting(a, "repeat") == "true"
        let on = setting(a, "on") ?? "begin"
        var step: (forward: ImportedAction, back: ImportedAction?, hold: String?)?
        var once: ImportedAction?
        switch type {
        case "RUN_COMMAND":
            guard let command = setting(a, "command"), !command.isEmpty else { out.keep(a.line, shown, "no <command>"); return }
            if repeating {
                step = (.command(stepCommand(command, back: setting(a, "decreaseCommand"))), nil, nil)
            } else {
                once = .command(command)
            }
        case "SEND_KEYS":
            let modifiers = setting(a, "modifiers").flatMap { $0.isEmpty ? nil : $0 }
            guard let keysText = setting(a, "keys"), let keys = KeyTranslation.chord(keysText) else {
                out.keep(a.line, shown + " " + (setting(a, "keys") ?? "").printable, "no <keys> gestured knows"); return
            }
            let held = modifiers.flatMap { KeyTranslation.chord($0) }
            if modifiers != nil && held == nil { out.keep(a.line, shown, "modifiers gestured does not know: \(modifiers!.printable)"); return }
            if repeating {
                let back = setting(a, "decreaseKeys").flatMap { KeyTranslation.chord($0) }
                step = (.keys([keys], reverse: back.map { [$0] }), nil, held)
            } else {
                once = .keys([held.map { $0 + "+" + keys } ?? keys])
            }
        case "CHANGE_DESKTOP":
            guard let target = desktop(setting(a, "direction") ?? "auto", swipe: direction) else {
                out.keep(a.line, shown + " " + (setting(a, "direction") ?? "").printable, "gestured's {workspace:} goes to the next or previous workspace only")
                return
            }
            once = .builtIn(key: "workspace", value: target)
        case "SHOW_DESKTOP":
            once = .builtIn(key: "show-desktop", value: "toggle")
        case "MOUSE_CLICK":
            guard on != "begin-and-end" else { out.keep(a.line, shown, "a button held through the gesture: gestured's hold: takes keys only"); return }
            guard let b = setting(a, "button").flatMap(KeyTranslation.button) else { out.keep(a.line, shown, "a <button> other than 1, 2, 3, 8, 9"); return }
            once = b
        case "MAXIMIZE_RESTORE_WINDOW", "MINIMIZE_WINDOW", "TILE_WINDOW", "FULLSCREEN_WINDOW", "CLOSE_WINDOW":
            out.keep(a.line, shown, "gestured has no window actions; bind your desktop's shortcut for it with {keys: …}")
            return
        default:
            out.keep(a.line, shown, "touchegg has no action '\(type.printable)'")
            return
        }
        var keys: [(String, String)] = []
        var actions: [(String, ImportedAction)] = []
        var notes: [String] = []
        var gesturedKind = kind
        if let direction { keys.append(("direction", direction)) }
        if kind == "tap" { keys.append(("device", "touchscreen")); notes.append("touchegg's taps are touchscreen-only") }
        if let apps { keys.append(("apps", "[" + apps.map { LibinputGesturesImport.glob($0).quoted }.joined(separator: ", ") + "]")) }
        if let step {
            guard kind != "tap" else { out.keep(a.line, shown, "a repeating action on a tap"); return }
            if kind == "swipe" {
                gesturedKind = "pan"
                keys.append(("axis", direction == "left" || direction == "right" ? "horizontal" : "vertical"))
            }
            // touchegg clamps `times` (std::stoi) to 2…15.
            let times = setting(a, "times").flatMap { Int($0) }.map { Double(min(max($0, 2), 15)) }
            let percent = times.map { (100 / $0).rounded(.down) } ?? defaultStepPercent
            let every: String
            if kind == "pinch" {
                every = "\(trimmed(1 + percent / 100))x"
                notes.append("touchegg repeats every \(trimmed(percent)) % of scale change; here every \(every)")
            } else {
                let along = direction == "left" || direction == "right" ? assumedSizeMM.width : assumedSizeMM.height
                let length = 0.05 * min(assumedSizeMM.width, assumedSizeMM.height) + 0.40 * along
                every = mmText(length * percent / 100)
                notes.append("touchegg repeats every \(trimmed(percent)) % of the gesture; on an assumed \(trimmed(assumedSizeMM.width)) × \(trimmed(assumedSizeMM.height)) mm touchpad that is \(every)")
            }
            keys.append(("every", every))
            if let held = step.hold { keys.append(("hold", held.quoted)) }
            actions.append(("update", step.forward))
            if case .keys(_, nil) = step.forward { notes.append("no <decreaseKeys>: gestured sends the keys for steps either way") }
        } else if let once {
            switch (kind, on) {
            case (_, "begin"), ("tap", _):
                actions.append(("command", once))
            case ("swipe", "end"):
                actions.append(("command", once))
                notes.append("touchegg runs this at the lift; gestured once the swipe is recognized")
            case ("swipe", _):
                gesturedKind = "pan"
                keys.append(("axis", direction == "left" || direction == "right" ? "horizontal" : "vertical"))
                actions += [("begin", once), ("end", once)]
            case (_, "end"):
                actions.append(("end", once))
            default:
                actions += [("begin", once), ("end", once)]
            }
        }
        if type == "CHANGE_DESKTOP", (setting(a, "direction") ?? "auto") == "auto" {
            notes.append("direction auto: taken as natural scrolling does it (left and up: the next desktop)")
        }
        if setting(a, "animate") == "true" { notes.append("touchegg's animation has no equivalent") }
        let name = ((apps?.first.map { [$0] } ?? []) + [gesturedKind] + (direction.map { [$0] } ?? []) + ["\(fingers)"]).joined(separator: "-")
        out.add(ImportedGesture(name: name, line: line, kind: gesturedKind, fingers: fingers, keys: keys, actions: actions, notes: notes))
    }

    /// A repeated command and its `decreaseCommand` as one `update:`: gestured's steps
    /// carry their sign in `GESTURE_STEP`, and touchegg runs nothing for steps back
    /// when no decreaseCommand is given.
    static func stepCommand(_ forward: String, back: String?) -> String {
        guard let back, !back.isEmpty else { return "if [ \"$GESTURE_STEP\" = 1 ]; then \(forward)\nfi" }
        return "if [ \"$GESTURE_STEP\" = 1 ]; then \(forward)\nelse \(back)\nfi"
    }

    /// CHANGE_DESKTOP's direction as `next`/`previous`. `auto` follows the swipe as
    /// natural scrolling does (the default on GNOME and KDE): left and up show the next.
    static func desktop(_ direction: String, swipe: String?) -> String? {
        switch direction {
        case "next": return "next"
        case "previous": return "previous"
        case "auto":
            switch swipe {
            case "left", "up": return "next"
            case "right", "down": return "previous"
            default: return nil
            }
        default: return nil
        }
    }
}
