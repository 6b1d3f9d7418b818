import PlainText
import TouchModel
import GestureEngine

/// libinput-gestures' `libinput-gestures.conf`: one setting per line,
/// `gesture swipe left 3 xdotool key super+Right`, `device NAME`, `swipe_threshold N`,
/// `timeout S`; lines starting with `#` are comments (docs/IMPORT.md has the table).
enum LibinputGesturesImport {
    /// The settings it reads (each may end with `:`, its original format).
    static let keywords: Set<String> = ["gesture", "device", "swipe_threshold", "timeout"]
    /// Lines longer than any setting; a file of one huge line is refused at its place.
    static let maximumLineBytes = 64 << 10

    /// Without a finger count a gesture runs for any count; gestured binds one count
    /// per gesture, so it is bound for these (libinput reports swipes and holds of
    /// 3 or 4 fingers on most touchpads, pinches of 2 and more).
    static func fingers(for gesture: String) -> [Int] {
        gesture == "pinch" ? [2, 3, 4] : [3, 4]
    }

    private struct Line {
        var number: Int
        var text: String
        var gesture: String
        var motion: String
        var fingers: Int?
        var command: String
    }

    static func translate(_ bytes: [UInt8], file: String) throws(ImportError) -> ImportedConfig {
        var out = ImportedConfig(format: .libinputGestures)
        out.notes = [
            "libinput-gestures acts when the fingers lift; gestured acts as soon as a swipe is",
            "recognized, while the fingers still move, and on a pinch at the lift, as libinput-gestures.",
            "Commands run through /bin/sh -c here: libinput-gestures ran them without a shell, so each is written",
            "as the words libinput-gestures split it into, quoted where sh would give a character a meaning.",
        ]
        var lines: [Line] = []
        var device: String?
        var sawDevice = false
        var swipeThreshold: (line: Int, dots: Int)?
        var number = 0
        for raw in textLines(bytes) {
            number += 1
            guard raw.count <= maximumLineBytes else {
                throw ImportError(file: file, line: number, column: 1, "a line of \(raw.count) bytes; libinput-gestures.conf lines are far shorter")
            }
            guard let text = String(validating: raw, as: UTF8.self) else {
                throw ImportError(file: file, line: number, column: 1, "not UTF-8 text")
            }
            let line = text.trimmingWhitespace
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            var words = line.split(maxSplits: 1, whereSeparator: { $0.isWhitespace })
            var keyword = String(words.removeFirst())
            if keyword.hasSuffix(":") { keyword.removeLast() }
            let rest = words.first.map { $0.trimmingWhitespace } ?? ""
            switch keyword {
            case "gesture":
                let fields = rest.split(maxSplits: 2, whereSeparator: { $0.isWhitespace })
                guard fields.count == 3 else { out.keep(number, line, "a gesture line needs a gesture, a motion and a command"); continue }
                var command = String(fields[2])
                var count: Int?
                let first = command.split(maxSplits: 1, whereSeparator: { $0.isWhitespace })
                if let f = first.first, f.count == 1, let n = Int(f) {
                    count = n
                    command = first.count > 1 ? String(first[1]).trimmingWhitespace : ""
                }
                lines.append(Line(number: number, text: line, gesture: fields[0].lowercased(), motion: fields[1].lowercased(),
                                  fingers: count, command: command))
            case "device":
                // The first device line counts (libinput-gestures' conf_device keeps it).
                guard !sawDevice else { out.keep(number, line, "a second device line: libinput-gestures uses the first"); continue }
                sawDevice = true
                guard !rest.isEmpty else { out.keep(number, line, "a device line without a name (libinput-gestures refuses it)"); continue }
                if rest != "all" { device = rest }
                if rest.hasPrefix("/") { out.keep(number, line, "gestured picks devices by name, not by path: see gestured list-devices, then add device-name: to the gestures") }
            case "swipe_threshold":
                // At most 10 m of travel: beyond any touchpad, and gestured's largest distance.
                guard let dots = Int(rest), (0...393_700).contains(dots) else { out.keep(number, line, "not a number of dots from 0 to 393700 (10 m)"); continue }
                swipeThreshold = (number, dots)
            case "timeout":
                out.keep(number, line, "gestured has no time limit on a gesture from start to end")
            default:
                out.keep(number, line, "libinput-gestures has no setting '\(keyword.printable)'")
            }
        }
        let explicit = Set(lines.compactMap { l in l.fingers.map { "\(l.gesture) \(l.motion) \($0)" } })
        // A later line for the same gesture replaces an earlier one (its table is keyed
        // by gesture, motion and count); in gestured the earlier would win instead.
        var last: [String: Int] = [:]
        for l in lines { last["\(l.gesture) \(l.motion) \(l.fingers.map(String.init) ?? "")"] = l.number }
        for l in lines {
            if let later = last["\(l.gesture) \(l.motion) \(l.fingers.map(String.init) ?? "")"], later != l.number {
                out.keep(l.number, l.text, "line \(later) sets the same gesture, and libinput-gestures takes the last")
                continue
            }
            translate(l, explicit: explicit, device: device.flatMap { $0.hasPrefix("/") ? nil : $0 },
                      swipeThreshold: swipeThreshold, into: &out)
        }
        return out
    }

    private static func translate(_ l: Line, explicit: Set<String>, device: String?, swipeThreshold: (line: Int, dots: Int)?,
                                  into out: inout ImportedConfig) {
        guard let (kind, direction, phase, holdDelay) = motion(l.gesture, l.motion) else {
            out.keep(l.number, l.text, l.gesture == "drag"
                     ? "gestured has no drag (holding a mouse button while the fingers move)"
                     : "libinput-gestures has no gesture '\(l.gesture) \(l.motion)'")
            return
        }
        if l.fingers == 2 && kind == "swipe" {
            out.keep(l.number, l.text, "libinput reports no 2-finger swipes (they scroll), so this never ran; gestured would run it")
            return
        }
        let words: [String]
        do throws(ShellWords.SplitError) { words = try ShellWords.split(l.command) } catch {
            out.keep(l.number, l.text, "libinput-gestures refuses this command: Python's shlex says \"\(error.message)\"")
            return
        }
        guard let action = action(for: words) else {
            out.keep(l.number, l.text, words.isEmpty ? "no command" : "_internal with a grid of workspaces (--cols, left/right): gestured's {workspace:} goes to the next or previous one only")
            return
        }
        var quoting: String?
        if case .command(let c) = action, c != l.command {
            quoting = "libinput-gestures ran this without a shell, as the words " + words.map { "«\($0)»" }.joined(separator: " ")
                + ": each is quoted for sh, so no ; | & $ ` # * or quote in them does anything more"
        }
        let counts = l.fingers.map { [$0] } ?? fingers(for: l.gesture).filter { !explicit.contains("\(l.gesture) \(l.motion) \($0)") }
        for n in counts {
            var keys: [(String, String)] = []
            if let direction { keys.append(("direction", direction)) }
            keys.append(("device", "touchpad"))
            if let device { keys.append(("device-name", glob(device).quoted)) }
            var notes = quoting.map { [$0] } ?? []
            if l.fingers == nil { notes.append("'\(l.gesture) \(l.motion)' without a finger count: bound for \(n) fingers") }
            if let holdDelay {
                keys.append(("min-duration", holdDelay))
                notes.append("as in libinput-gestures, this runs when the fingers lift after the hold")
            }
            if kind == "swipe", let t = swipeThreshold, t.dots > 0 {
                let mm = Double(t.dots) * 25.4 / 1000
                if mm > defaultSwipeMinDistanceMM {
                    keys.append(("min-distance", mmText(mm)))
                    notes.append("swipe_threshold \(t.dots) (line \(t.line)): libinput's dots are 1/1000 inch, so \(mmText(mm))")
                } else {
                    notes.append("swipe_threshold \(t.dots) (line \(t.line)) is \(mmText(mm)): shorter than gestured's \(mmText(defaultSwipeMinDistanceMM)), which is kept")
                }
            }
            out.add(ImportedGesture(name: ([kind] + (direction.map { [$0] } ?? []) + ["\(n)"]).joined(separator: "-"), line: l.number,
                                    kind: kind, fingers: n, keys: keys, actions: [(phase, action)], notes: notes))
        }
    }

    /// (gestured's kind, direction, the key its action goes under, a hold's duration).
    private static func motion(_ gesture: String, _ motion: String) -> (String, String?, String, String?)? {
        switch (gesture, motion) {
        case ("swipe", "up"), ("swipe", "down"), ("swipe", "left"), ("swipe", "right"):
            return ("swipe", motion, "command", nil)
        case ("swipe", "left_up"), ("swipe", "left_down"), ("swipe", "right_up"), ("swipe", "right_down"):
            let parts = motion.split(separator: "_")
            return ("swipe", "\(parts[1])-\(parts[0])", "command", nil)
        case ("pinch", "in"), ("pinch", "out"):
            return ("pinch", motion, "command", nil)
        case ("pinch", "clockwise"):
            return ("rotate", "clockwise", "command", nil)
        case ("pinch", "anticlockwise"):
            return ("rotate", "counterclockwise", "command", nil)
        case ("hold", "on"):
            return ("hold", nil, "end", nil)
        case ("hold", _) where motion.hasPrefix("on+"):
            guard let s = Double(motion.dropFirst(3)), s >= 0.001, s <= 86400 else { return nil }
            return ("hold", nil, "end", "\(trimmed(s))s")
        default:
            return nil
        }
    }

    /// The action of a command's words (`ShellWords.split`): a built-in one, or the
    /// words as a command for sh; nil for an `_internal` that gestured cannot do.
    static func action(for words: [String]) -> ImportedAction? {
        guard let first = words.first else { return nil }
        guard first == "_internal" else { return KeyTranslation.xdotool(words: words) ?? .command(ShellWords.command(words)) }
        // `_internal [-w|--wrap] ws_up|ws_down`: wmctrl's next or previous workspace
        // (ws_up is the next: it adds 1 to the row of a one-column grid).
        let rest = words.dropFirst().filter { $0 != "-w" && $0 != "--wrap" }
        switch rest {
        case ["ws_up"]: return .builtIn(key: "workspace", value: "next")
        case ["ws_down"]: return .builtIn(key: "workspace", value: "previous")
        default: return nil
        }
    }

    /// A device name as a glob that matches just that name.
    static func glob(_ name: String) -> String {
        String(name.flatMap { "*?[]\\".contains($0) ? ["\\", $0] : [$0] })
    }
}

func mmText(_ mm: Double) -> String { "\(trimmed(mm))mm" }

/// `1.5`, `20`, `0.25`: at most two decimals, no trailing zeros. Callers pass values
/// they have bounded; anything else is written as Swift prints it (and check refuses it).
func trimmed(_ v: Double) -> String {
    guard v.isFinite, abs(v) < 1e12 else { return "\(v)" }
    let hundredths = Int((v * 100).rounded())
    let whole = hundredths / 100, frac = hundredths % 100
    guard frac != 0 else { return "\(whole)" }
    return frac % 10 == 0 ? "\(whole).\(frac / 10)" : "\(whole).\(frac < 10 ? "0" : "")\(frac)"
}

extension StringProtocol {
    var trimmingWhitespace: String {
        guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(self[first...last])
    }
}
