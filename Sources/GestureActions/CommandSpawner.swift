import DaemonCore
import Glibc
import LinuxSystem
import PlainText

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
    /// to the shell as to the program of that name (`ShellSyntax.ownWords`). Such a
    /// command runs without `/bin/sh`: one process start instead of two (the shell,
    /// then the command), which is most of the gesture-to-command latency. Anything
    /// else goes through `sh -c`, as written.
    static func plainArgv(_ command: String) -> [String]? {
        guard !command.isEmpty, command.utf8.count <= 4096 else { return nil }
        var words: [String] = []
        for word in command.split(whereSeparator: { $0 == " " || $0 == "\t" }) {
            guard word.unicodeScalars.allSatisfy(ShellSyntax.isPlain) else { return nil }
            words.append(String(word))
        }
        guard let first = words.first, !first.contains("="), !ShellSyntax.ownWords.contains(first) else { return nil }
        return words
    }

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
