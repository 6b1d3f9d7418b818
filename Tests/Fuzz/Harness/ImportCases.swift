import CLinux
import GestureTestSupport
import Glibc

/// `gestured import` cases (issue 35): the fixtures in Tests/Imports mutated in each
/// format's own syntax, besides the text-level mutations every input gets, and a
/// stricter verdict than "no crash, no hang": an import of a file it can read either
/// succeeds with a config `gestured check` takes, or refuses the file (exit 3). Exit 1
/// on such a file is the "bug in gestured import" path, a finding.
enum ImportCases {
    enum Format { case libinputGestures, fusuma, touchegg }

    static func format(of seed: Seed) -> Format {
        seed.name.hasPrefix("touchegg") ? .touchegg : seed.name.hasPrefix("fusuma") ? .fusuma : .libinputGestures
    }

    /// What commands and names may hold: each shell's syntax (libinput-gestures' words
    /// are quoted for sh; a quote shlex cannot close), escapes, and what a YAML or XML
    /// reader treats specially.
    static let hostileText = ["echo a; touch /tmp/gestured-fuzz-pwned", "$(touch /tmp/gestured-fuzz-pwned)", "`id`", "a|b", "c&d",
                              "#comment", "*", "~/bin/x", "~root/x", "$HOME/x", "${HOME", "${}", "$1x", "'unclosed", "\"unclosed",
                              "trailing\\", "'it''s'", "\"a\\\"b\"", "A=b c", "eval x", "if", "{", "!", "-x", "''", "\"\"",
                              "é\u{0301}", "\u{202E}rtl", "\u{FEFF}bom", "\u{00A0}nbsp", "\t\ttabs", "\\\\", "%s%n", "\u{7F}",
                              String(repeating: "w ", count: 3000), String(repeating: "x", count: 140_000)]

    /// One to three of the format's mutations, then perhaps one of every input's.
    static func mutate(_ seed: Seed, _ m: inout Mutator) -> (bytes: [UInt8], kinds: [String]) {
        var text = String(decoding: seed.bytes, as: UTF8.self)
        var kinds: [String] = []
        // Past the 4 MiB import reads, more only costs time here (a file past it is
        // refused unread).
        for _ in 0..<(1 + m.int(3)) where text.utf8.count < 5 << 20 {
            let kind: String
            switch format(of: seed) {
            case .libinputGestures: kind = libinputGestures(&text, &m)
            case .fusuma: kind = fusuma(&text, &m)
            case .touchegg: kind = touchegg(&text, &m)
            }
            kinds.append(kind)
        }
        switch m.int(8) {
        case 0: text = text.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\r\n"); kinds.append("crlf")
        case 1: text = text.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\r"); kinds.append("cr")
        case 2: text = "\u{FEFF}" + text; kinds.append("bom")
        default: break
        }
        var bytes = Array(text.utf8)
        if m.int(3) == 0 {
            let (mutated, more) = m.mutate(bytes, config: true)
            bytes = mutated
            kinds += more.map(\.rawValue)
        }
        if m.int(40) == 0 {
            bytes.insert(0, at: m.int(bytes.count + 1))
            kinds.append("nul")
        }
        return (bytes, kinds)
    }

    private static func insertLines(_ text: inout String, _ lines: [String], _ m: inout Mutator) {
        var all = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        all.insert(contentsOf: lines, at: m.int(all.count + 1))
        text = all.joined(separator: "\n")
    }

    private static func libinputGestures(_ text: inout String, _ m: inout Mutator) -> String {
        let gestures = ["swipe", "pinch", "hold", "drag", "tap", "SWIPE", ""]
        let motions = ["up", "down", "left", "right", "left_up", "right_down", "in", "out", "clockwise", "anticlockwise",
                       "on", "on+1.5", "on+0", "on+1e308", "on+nan", "on+-1", "on+", "sideways", "UP"]
        let counts = ["", "1 ", "2 ", "3 ", "4 ", "5 ", "9 ", "0 ", "10 ", "-1 ", "3.5 "]
        func command(_ m: inout Mutator) -> String {
            switch m.int(4) {
            case 0: return "xdotool key " + m.pick(["super+Right", "ctrl+alt+Left", "KP_Add", "plus", "Nonsense", "super+", "+", "a+b+c+d+e+f+g+h+i"])
            case 1: return "_internal " + m.pick(["ws_up", "ws_down", "-w ws_up", "--cols 3 ws_left", "", "ws_up extra"])
            case 2: return "xdotool click " + m.pick(["1", "3", "9", "10", "-1", ""])
            default: return m.pick(["notify-send ", "echo ", "", "/usr/bin/env "]) + m.pick(hostileText)
            }
        }
        switch m.int(5) {
        case 0:
            let n = 1 + m.int(20)
            let lines = (0..<n).map { _ in "gesture \(m.pick(gestures)) \(m.pick(motions)) \(m.pick(counts))\(command(&m))" }
            insertLines(&text, lines, &m)
            return "gesture-lines"
        case 1:
            // Thousands of lines for one gesture: each later one keeps the earlier as a
            // comment (the issue's 190,000-line file), up to the 4 MiB input cap.
            let line = "gesture swipe up \(m.pick(counts))\(m.pick(["ls", "xdotool key super+Up", "echo $(id)"]))"
            insertLines(&text, Array(repeating: line, count: m.pick([100, 1_000, 5_000, 40_000, 120_000])), &m)
            return "repeated-gesture"
        case 2:
            let lines = [m.pick(["device ", "device: ", "swipe_threshold ", "timeout ", "swipe_threshold: "])
                         + m.pick(["all", "/dev/input/event3", "DLL0665:01 06CB:76AD Touchpad", "*?[", "", "-1", "393701", "1e308", "nan",
                                   "9223372036854775808", String(repeating: "d", count: 70_000)])]
            insertLines(&text, lines, &m)
            return "setting-line"
        case 3:
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if let i = lines.indices.filter({ lines[$0].hasPrefix("gesture") }).randomElement(using: &m.rng) {
                lines[i] += " " + m.pick(hostileText)
            }
            text = lines.joined(separator: "\n")
            return "hostile-command"
        default:
            insertLines(&text, [m.pick(["frobnicate 3", "gesture", "gesture swipe", "gesture swipe up", "#", ":", "gesture: swipe: up: 3 ls"])], &m)
            return "odd-line"
        }
    }

    private static func fusuma(_ text: inout String, _ m: inout Mutator) -> String {
        let scalars = ["\"echo \\0 x\"", "\"\\x00\"", "\"\\u0000\"", "\"\\e[31m\"", "'echo a; touch x'", "~", "null", "[a, b]", "{a: b}",
                       "!!binary aGk=", "*nope", "&a x", "1e308", "-1", ".nan", "0x10", "'" + String(repeating: "y", count: 140_000) + "'"]
        switch m.int(5) {
        case 0:
            let kind = m.pick(["swipe", "pinch", "rotate", "hold", "tap", "Swipe"])
            let fingers = m.pick(["3", "4", "2", "1", "5", "0", "6", "99", "-1", "3.5", "'3'"])
            let dir = m.pick(["left", "right", "up", "down", "in", "out", "clockwise", "counterclockwise", "begin", "update", "end", "cancelled", "sideways"])
            let key = m.pick(["command", "sendkey", "shortcut", "workspace", "window", "threshold", "interval", "keypress", "begin", "update"])
            insertLines(&text, ["\(kind):", "  \(fingers):", "    \(dir):", "      \(key): \(m.pick(scalars + ["next", "prev", "LEFTCTRL+T", "super+Nonsense"]))"], &m)
            return "gesture-block"
        case 1:
            let names = m.pick(["Google-chrome", "Global", "[a, b]", "\"a\\0b\"", "''", "~"])
            insertLines(&text, ["---", "context:", "  application: \(names)", m.pick(["swipe:", "pinch:"]), "  3:", "    left:", "      command: \(m.pick(scalars))"], &m)
            return "context-document"
        case 2:
            insertLines(&text, ["application:", "  \(m.pick(["Firefox", "\"a,b\"", "Global", "\"\\u0000\""])):", "    swipe:", "      3:", "        up:",
                                "          command: \(m.pick(scalars))"], &m)
            return "application-section"
        case 3:
            insertLines(&text, [m.pick(["threshold:", "interval:"]), "  \(m.pick(["swipe", "pinch", "hold", "rotate"])): \(m.pick(scalars))"], &m)
            return "tuning"
        default:
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if let i = lines.indices.filter({ lines[$0].contains(":") }).randomElement(using: &m.rng), let colon = lines[i].firstIndex(of: ":") {
                lines[i] = String(lines[i][...colon]) + " " + m.pick(scalars)
            }
            text = lines.joined(separator: "\n")
            return "value"
        }
    }

    private static func touchegg(_ text: inout String, _ m: inout Mutator) -> String {
        let values = ["&amp;", "&#0;", "&#x110000;", "&#xD800;", "&#10;", "&bogus;", "&", "<![CDATA[a]]>", "<![CDATA[never", "<!-- c -->",
                      "<!-- never", "<?pi x?>", "echo a; touch x", "\u{0}", String(repeating: "z", count: 140_000)]
        func action(_ m: inout Mutator) -> String {
            let type = m.pick(["RUN_COMMAND", "SEND_KEYS", "CHANGE_DESKTOP", "SHOW_DESKTOP", "MOUSE_CLICK", "MAXIMIZE_RESTORE_WINDOW", "NOPE", ""])
            let body = [("repeat", ["true", "false", "maybe"]), ("times", ["0", "-1", "1e308", "nan", "2", "99999999999"]),
                        ("command", values), ("decreaseCommand", values), ("modifiers", ["Control_L", "Super_L+Shift_L", "Nope", ""]),
                        ("keys", ["KP_Add", "A", "plus", ""]), ("decreaseKeys", ["KP_Subtract", ""]), ("direction", ["next", "previous", "auto", "up", "x"]),
                        ("button", ["1", "3", "9", "0", "10"]), ("on", ["begin", "end", "begin-and-end", "never"]), ("animate", ["true", "false"])]
            let parts = (0..<(1 + m.int(5))).map { _ -> String in
                let (tag, options) = m.pick(body)
                return "<\(tag)>\(m.pick(options))</\(tag)>"
            }
            return "<action type=\"\(type)\">" + parts.joined() + "</action>"
        }
        switch m.int(4) {
        case 0:
            let type = m.pick(["SWIPE", "PINCH", "TAP", "DRAG", "swipe", ""])
            let fingers = m.pick(["3", "4", "2", "5", "0", "6", "-1", "x"])
            let direction = m.pick(["UP", "DOWN", "LEFT", "RIGHT", "IN", "OUT", "", "SIDEWAYS"])
            let app = m.pick(["All", "Google-chrome,Firefox", "", ",,,", "a&amp;b", String(repeating: "a,", count: 500)])
            insertLines(&text, ["<application name=\"\(app)\">",
                                "<gesture type=\"\(type)\" fingers=\"\(fingers)\" direction=\"\(direction)\">" + action(&m) + "</gesture>",
                                "</application>"], &m)
            return "gesture-element"
        case 1:
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if let i = lines.indices.filter({ lines[$0].contains("<command>") || lines[$0].contains("<keys>") }).randomElement(using: &m.rng),
               let close = lines[i].firstRange(of: "</") {
                lines[i].insert(contentsOf: m.pick(values), at: close.lowerBound)
            }
            text = lines.joined(separator: "\n")
            return "hostile-text"
        case 2:
            insertLines(&text, [m.pick(["<!DOCTYPE x [<!ENTITY a \"b\">]>", "<a b=\"1\" b=\"2\"/>", "<a b=c/>", "</application>", "<application>",
                                        "<settings><property name=\"action_execute_threshold\">\(m.pick(["-1", "1e308", "nan", "20"]))</property></settings>",
                                        String(repeating: "<a>", count: 40), "<touchégg>", "<![CDATA[", "<?xml version=\"1.0\"?>"])], &m)
            return "markup"
        default:
            // Many applications, each with the same gestures: more gestures than a config holds.
            let block = "<application name=\"app\"><gesture type=\"SWIPE\" fingers=\"3\" direction=\"UP\">"
                + "<action type=\"RUN_COMMAND\"><command>ls</command></action></gesture></application>"
            insertLines(&text, Array(repeating: block, count: m.pick([10, 300, 1500])), &m)
            return "many-applications"
        }
    }

    /// The verdict beyond crashes and hangs, or nil: exit 1 on a file import can read
    /// (a regular file within its 4 MiB), or a written config `check` refuses (run
    /// here, as a user would, with the same time limit).
    static func finding(_ c: Case, exitCode: Int32?, binary: String, timeoutNS: Int64) -> String? {
        var st = stat()
        guard stat(c.file, &st) == 0 else { return nil }
        if exitCode == 1 && st.st_size <= 4 << 20 {
            return "import failed (status 1, 'a bug in gestured import') on a file it can read"
        }
        guard exitCode == 0 else { return nil }
        switch runBounded(binary, ["check", "--config", c.file + ".yaml"], timeoutNS: timeoutNS) {
        case 0?: return nil
        case nil: return "check of the imported config hung"
        case let status?: return "the imported config fails check (status \(status))"
        }
    }

    /// `binary args` with no output, killed at the limit: its exit status, or nil if it
    /// ran out of time or died by a signal.
    static func runBounded(_ binary: String, _ args: [String], timeoutNS: Int64) -> Int32? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd: Int32 in 0...2 { posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0) }
        guard case .success(let pid) = spawnChild(binary, args, actions: &actions) else { return nil }
        let pidFD = clinux_pidfd_open(pid)
        defer { if pidFD >= 0 { close(pidFD) } }
        var fds = [pollfd(fd: pidFD, events: Int16(POLLIN), revents: 0)]
        let deadline = clinux_monotonic_ns() + timeoutNS
        var hung = false
        while pidFD >= 0 && fds[0].revents & Int16(POLLIN) == 0 {
            let left = deadline - clinux_monotonic_ns()
            guard left > 0 else { kill(pid, SIGKILL); hung = true; break }
            _ = poll(&fds, 1, Int32(min(left / 1_000_000 + 1, 1000)))
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        guard !hung, status & 0x7f == 0 else { return nil }
        return (status >> 8) & 0xff
    }
}
