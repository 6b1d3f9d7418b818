import PlainText

/// libinput-gestures runs a command without a shell: it splits the command into words
/// with Python's `shlex.split` (POSIX rules, no comments), expands `~` and `$VAR` in
/// the first word only (`os.path.expanduser`, `os.path.expandvars`), and executes the
/// words (`subprocess.Popen(list)`). gestured runs a command through `/bin/sh -c`, so
/// an imported command is those same words, each quoted for sh: `;`, `|`, `&`, `$()`,
/// `#`, globs and redirections in them stay the plain characters they were.
enum ShellWords {
    /// What `shlex.split` refuses, in its words.
    struct SplitError: Error, Equatable {
        var message: String
    }

    /// The words of `command` as `shlex.split(command)` gives them: split at space, tab,
    /// CR and LF; `'…'` literal; `"…"` literal but for `\"` and `\\`; a backslash
    /// outside quotes takes the next character as it is; `''` is an empty word.
    static func split(_ command: String) throws(SplitError) -> [String] {
        var words: [String] = []
        var word = String.UnicodeScalarView()
        var inWord = false
        var it = command.unicodeScalars.makeIterator()
        while let c = it.next() {
            if c == " " || c == "\t" || c == "\r" || c == "\n" {
                if inWord { words.append(String(word)); word = .init(); inWord = false }
                continue
            }
            inWord = true
            switch c {
            case "\\":
                guard let next = it.next() else { throw SplitError(message: "No escaped character") }
                word.append(next)
            case "'":
                while true {
                    guard let next = it.next() else { throw SplitError(message: "No closing quotation") }
                    if next == "'" { break }
                    word.append(next)
                }
            case "\"":
                while true {
                    guard let next = it.next() else { throw SplitError(message: "No closing quotation") }
                    if next == "\"" { break }
                    guard next == "\\" else { word.append(next); continue }
                    guard let escaped = it.next() else { throw SplitError(message: "No escaped character") }
                    if escaped != "\"" && escaped != "\\" { word.append("\\") }
                    word.append(escaped)
                }
            default:
                word.append(c)
            }
        }
        if inWord { words.append(String(word)) }
        return words
    }

    /// `words` as one `/bin/sh -c` command that runs them as libinput-gestures did:
    /// the first word's `~`, `~user`, `$NAME` and `${NAME}` expanded by the shell,
    /// every other character quoted where sh would give it a meaning. A first word that
    /// sh would answer itself (`eval`, `echo`, `if`, an assignment `A=b`, or whatever an
    /// expansion yields) goes after `exec`, which runs the program the PATH finds, as
    /// Popen did, and never a builtin; a plain first word needs none (and such a
    /// command runs without the shell at all: `CommandSpawner.plainArgv`).
    static func command(_ words: [String]) -> String {
        guard let first = words.first else { return "" }
        let (program, expands) = commandWord(first)
        let plain = !expands && !first.isEmpty && first.unicodeScalars.allSatisfy(ShellSyntax.isPlain)
            && !first.contains("=") && !ShellSyntax.ownWords.contains(first)
        return ((plain ? [] : ["exec"]) + [program] + words.dropFirst().map { ShellSyntax.quote($0) }).joined(separator: " ")
    }

    /// The first word, expanded as `os.path.expandvars(os.path.expanduser(word))` does:
    /// a leading `~` or `~user` (up to the first `/`) is the home directory, then each
    /// `$NAME` or `${NAME}` the variable's value. Those are left to sh, the rest quoted;
    /// and whether anything is expanded.
    static func commandWord(_ word: String) -> (text: String, expands: Bool) {
        var out = ""
        var rest = Substring(word)
        if rest.hasPrefix("~") {
            let user = rest.dropFirst().prefix { $0 != "/" }
            if user.isEmpty {
                out = "\"$HOME\""
                rest = rest.dropFirst()
            } else if !user.hasPrefix("-"), user.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }) {
                // sh expands `~user` only while the slash after it is unquoted.
                out = "~" + user
                rest = rest.dropFirst(1 + user.count)
                if rest.hasPrefix("/") { out += "/"; rest = rest.dropFirst() }
            }
        }
        var literal = ""
        while let dollar = rest.firstIndex(of: "$") {
            literal += rest[..<dollar]
            let after = rest[rest.index(after: dollar)...]
            let name: Substring, length: Int
            if after.hasPrefix("{"), let close = after.firstIndex(of: "}") {
                name = after[after.index(after: after.startIndex)..<close]
                length = name.count + 2
            } else {
                name = after.prefix { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
                length = name.count
            }
            // A name sh cannot take (`$1x`, `${a b}`) is no variable in any environment:
            // expandvars leaves it as written, and so does this.
            if let first = name.first, !first.isNumber, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) {
                if !literal.isEmpty { out += ShellSyntax.quote(literal); literal = "" }
                out += "\"${" + name + "}\""
            } else {
                literal += "$" + after.prefix(length)
            }
            rest = after.dropFirst(length)
        }
        literal += rest
        let expands = !out.isEmpty
        if !literal.isEmpty || !expands { out += ShellSyntax.quote(literal) }
        return (out, expands)
    }
}
