/// What `/bin/sh` makes of a command's words: the one place that knows which
/// characters it leaves alone and which first words it answers itself. The command
/// runner skips the shell for commands it would pass through untouched;
/// `gestured import` quotes words so that the shell passes them through.
public enum ShellSyntax {
    /// Characters sh gives no meaning anywhere in a word (Python's `shlex.quote`
    /// leaves the same unquoted). `=` is plain but in a first word, where `A=b` is an
    /// assignment.
    public static func isPlain(_ c: Unicode.Scalar) -> Bool {
        switch c {
        case "a"..."z", "A"..."Z", "0"..."9", "_", ".", "/", ":", "+", ",", "@", "%", "=", "-": return true
        default: return false
        }
    }

    /// First words the shell answers itself, differently from any program of that
    /// name, so that skipping the shell would change what the command does:
    /// - reserved words (POSIX's, and bash's: /bin/sh may be bash);
    /// - special and regular builtins with no program at all (`cd`, `export`, …);
    /// - builtins that do have a program in /bin, which behaves differently: dash's
    ///   `echo` interprets `\n` and has no `-e` (`echo -e hello` prints `-e hello`),
    ///   coreutils' does the opposite; `printf`, `test`/`[` and `kill` differ in
    ///   options and escapes; `pwd` reads $PWD (-L) where /bin/pwd resolves links (-P).
    /// `true` and `false` are builtins too, but behave the same either way.
    public static let ownWords: Set<String> = [
        // reserved words
        "!", "{", "}", "case", "do", "done", "elif", "else", "esac", "fi", "for", "if", "in", "then", "until",
        "while", "[[", "]]", "function", "select", "time", "coproc",
        // builtins with no program
        ".", ":", "alias", "bg", "break", "cd", "chdir", "command", "continue", "eval", "exec", "exit", "export",
        "fc", "fg", "getopts", "hash", "jobs", "local", "read", "readonly", "return", "set", "shift", "source",
        "times", "trap", "type", "ulimit", "umask", "unalias", "unset", "wait",
        // builtins whose /bin program differs
        "echo", "printf", "test", "[", "kill", "pwd",
    ]

    /// A word sh passes through as it is: itself when every character is plain, else
    /// in single quotes (a `'` in it as `'\''`: close, an escaped quote, reopen).
    public static func quote(_ word: some StringProtocol) -> String {
        guard word.isEmpty || !word.unicodeScalars.allSatisfy(isPlain) else { return String(word) }
        return "'" + word.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }
}
