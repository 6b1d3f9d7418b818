import DaemonCore
import Glibc
import LinuxSystem

/// How one command becomes a process: its argv (`/bin/sh -c COMMAND`, or the words
/// themselves for a plain command: see `plainArgv`), its environment, the pipes for
/// its output, and the spawn (`LinuxSystem.Process.spawn`: own process group, empty
/// signal mask, default dispositions, stdin from /dev/null, no inherited descriptors).
/// What runs when, and for how long, is `CommandRunner`'s business.
struct CommandSpawner {
    /// The interpreter of `-c COMMAND`.
    let shell: String
    /// `NAME=value` entries every command inherits (no `GESTURE_*`: those are per invocation).
    let baseEnvironment: [String]

    init(shell: String, environment: [String]) {
        self.shell = shell
        baseEnvironment = environment.filter { !$0.hasPrefix("GESTURE_") }
    }

    /// A started command: its pid, the pidfd that polls readable when it exits, and
    /// the (non-blocking) read ends of its stdout and stderr.
    struct Spawned: ~Copyable {
        var pid: pid_t
        var pidfd: OwnedFileDescriptor
        var stdout: OwnedFileDescriptor
        var stderr: OwnedFileDescriptor
    }

    func spawn(_ inv: Invocation) throws(SystemCallError) -> Spawned {
        let out = try Self.pipe(), err = try Self.pipe()
        let (program, argv, envp) = commandLine(inv)
        let pid: pid_t
        do throws(Errno) {
            pid = try Process.spawn(program, arguments: argv, environment: envp,
                                    stdout: out.writeEnd.descriptor, stderr: err.writeEnd.descriptor, newProcessGroup: true)
        } catch {
            throw SystemCallError("posix_spawn \(program)", error)
        }
        let pidfd: OwnedFileDescriptor
        do throws(Errno) {
            pidfd = try Process.descriptor(of: pid)
        } catch {
            Process.signalGroup(pid, SIGKILL)
            _ = try? Process.reap(pid, blocking: true)
            throw SystemCallError("pidfd_open", error)
        }
        // The write ends close here, in the parent: the child holds its own copies.
        let stdout = out.keepingReadEnd(), stderr = err.keepingReadEnd()
        try? stdout.descriptor.setNonBlocking()
        try? stderr.descriptor.setNonBlocking()
        return Spawned(pid: pid, pidfd: pidfd, stdout: stdout, stderr: stderr)
    }

    private static func pipe() throws(SystemCallError) -> Pipe {
        do throws(Errno) { return try Pipe() } catch { throw SystemCallError("pipe2", error) }
    }

    /// The program to start, its argv and its environment. A plain command skips the
    /// shell (see `plainArgv`); one the PATH cannot find goes through the shell after
    /// all, which reports it as users expect ("not found", 127).
    func commandLine(_ inv: Invocation) -> (program: String, argv: [String], environment: [String]) {
        let envp = baseEnvironment + inv.environment.map { "\($0.name)=\($0.value)" }
        if let words = Self.plainArgv(inv.command), let path = Self.resolve(words[0], environment: envp) {
            return (path, words, envp)
        }
        return (shell, [shell, "-c", inv.command], envp)
    }

    /// Words a shell would pass through untouched: no quoting, expansion, globbing,
    /// redirection, operators or assignments, and a first word that means the same
    /// to the shell as to the program of that name (see `shellOnlyWords`). Such a
    /// command runs without `/bin/sh`: one process start instead of two (the shell,
    /// then the command), which is most of the gesture-to-command latency. Anything
    /// else goes through `sh -c`, as written.
    static func plainArgv(_ command: String) -> [String]? {
        guard !command.isEmpty, command.utf8.count <= 4096 else { return nil }
        var words: [String] = []
        for word in command.split(whereSeparator: { $0 == " " || $0 == "\t" }) {
            guard word.unicodeScalars.allSatisfy(isPlain) else { return nil }
            words.append(String(word))
        }
        guard let first = words.first, !first.contains("="), !shellOnlyWords.contains(first) else { return nil }
        return words
    }

    private static func isPlain(_ c: Unicode.Scalar) -> Bool {
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
    static let shellOnlyWords: Set<String> = [
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

    /// The executable `name` names, searched on the command's own PATH as the shell would.
    static func resolve(_ name: String, environment: [String]) -> String? {
        if name.contains("/") { return FileSystem.isExecutable(name) ? name : nil }
        let path = environment.last { $0.hasPrefix("PATH=") }.map { String($0.dropFirst(5)) } ?? "/usr/local/bin:/usr/bin:/bin"
        for dir in path.split(separator: ":", omittingEmptySubsequences: false) {
            let candidate = (dir.isEmpty ? "." : String(dir)) + "/" + name
            if FileSystem.isExecutable(candidate) { return candidate }
        }
        return nil
    }
}
