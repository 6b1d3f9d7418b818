import Glibc
import Testing
@testable import ConfigImport
import GestureConfig
import GestureEngine

/// libinput-gestures runs a command without a shell (Python's `shlex.split`, then
/// `Popen(words)`); gestured runs one through `/bin/sh -c`. An imported command must
/// give the program the same words, and no shell syntax in them may come alive.
@Suite struct ImportedCommandTests {
    /// `/bin/sh -c command`, as the daemon runs a command: its exit status and output,
    /// waited for at most 10 s. `BIN=/bin` is in its environment.
    static func runShell(_ command: String) throws -> (status: Int32, stdout: String) {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        posix_spawn_file_actions_addclose(&actions, fds[0])
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = ["/bin/sh", "-c", command].map { (s: String) in strdup(s) } + [nil]
        defer { argv.forEach { free($0) } }
        let envp: [UnsafeMutablePointer<CChar>?] = ["PATH=/usr/bin:/bin", "HOME=/nonexistent", "BIN=/bin"].map { (s: String) in strdup(s) } + [nil]
        defer { envp.forEach { free($0) } }
        let spawned = posix_spawn(&pid, "/bin/sh", &actions, nil, argv, envp)
        close(fds[1])
        defer { close(fds[0]) }
        try #require(spawned == 0)
        var out: [UInt8] = [], buf = [UInt8](repeating: 0, count: 4096)
        var p = pollfd(fd: fds[0], events: Int16(POLLIN), revents: 0)
        let deadline = time(nil) + 10
        while time(nil) < deadline, poll(&p, 1, 1000) >= 0 {
            guard p.revents != 0 else { continue }
            let n = read(fds[0], &buf, buf.count)
            guard n > 0 else { break }
            out += buf[..<n]
        }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == 0 { kill(pid, SIGKILL); waitpid(pid, &status, 0) }
        return ((status >> 8) & 0xff, String(decoding: out, as: UTF8.self))
    }

    /// The command the daemon would run for the one gesture `line` imports, read back
    /// from the imported config as `gestured check` reads it.
    static func importedCommand(_ line: String) throws -> String {
        let imported = try ImportFormat.libinputGestures.translate(Array((line + "\n").utf8), file: "l.conf")
        let (config, diagnostics) = ConfigLoader.parse(imported.yaml(source: "l.conf"), file: "x.yaml")
        try #require(diagnostics.filter(\.isError).isEmpty, "\(diagnostics)")
        let binding = try #require(config?.bindings.first)
        guard case .command(let command)? = binding.actions[.recognized] else {
            Issue.record("no command: \(String(describing: binding.actions))")
            return ""
        }
        return command
    }

    /// The issue's example: `echo a; touch X` ran `echo` with the words `a;`, `touch`
    /// and `X`. Imported, it prints that and creates nothing; the same for `$()`,
    /// backquotes, `|`, `&`, `#`, globs and redirections. The program gets exactly
    /// the words `shlex.split` gave it (quotes removed, `"` escapes kept as Python does).
    @Test func shellSyntaxInAnImportedCommandStaysText() throws {
        var template = Array("/tmp/gestured-import-XXXXXX".utf8CString)
        let dir = String(cString: mkdtemp(&template))
        defer { _ = unlink(dir + "/X"); _ = unlink(dir + "/Y"); _ = unlink(dir + "/Z"); _ = unlink(dir + "/W"); rmdir(dir) }
        let issue = try Self.importedCommand("gesture swipe up 3 echo a; touch \(dir)/X")
        let r = try Self.runShell(issue)
        #expect(r.stdout == "a; touch \(dir)/X\n", "\(issue)")
        #expect(access(dir + "/X", F_OK) != 0, "`touch X` ran: \(issue)")

        let line = "gesture swipe up 3 /usr/bin/printf <%s> $(touch \(dir)/Y) `touch \(dir)/Z` a|b c&d #e * >\(dir)/W "
            + #""q w" 'it''s' "\"x\\y" $HOME ~ 'i\j'"#
        let command = try Self.importedCommand(line)
        let printed = try Self.runShell(command)
        #expect(printed.status == 0)
        #expect(printed.stdout == "<$(touch><\(dir)/Y)><`touch><\(dir)/Z`><a|b><c&d><#e><*><>\(dir)/W><q w><its><\"x\\y><$HOME><~><i\\j>", "\(command)")
        for f in ["Y", "Z", "W"] { #expect(access(dir + "/" + f, F_OK) != 0, "\(f) was created: \(command)") }
    }

    /// libinput-gestures expands `~` and `$VAR` in the first word only, and runs a
    /// program, never a shell builtin: `eval`, `A=b` and reserved words run nothing.
    @Test func theFirstWordIsAProgramWithItsHomeAndVariablesExpanded() throws {
        #expect(try Self.importedCommand("gesture swipe up 3 ~/bin/x $HOME") == #"exec "$HOME"/bin/x '$HOME'"#)
        #expect(try Self.importedCommand("gesture swipe up 3 ${HOME}/bin/y") == #"exec "${HOME}"/bin/y"#)
        #expect(try Self.importedCommand("gesture swipe up 3 notify-send hi") == "notify-send hi")
        #expect(try Self.runShell(try Self.importedCommand("gesture swipe up 3 $BIN/echo ok $BIN")).stdout == "ok $BIN\n")
        for line in ["eval echo\\ ran", "A=b echo ran", "if true; then echo ran; fi", "'echo' ran"] {
            let command = try Self.importedCommand("gesture swipe up 3 " + line)
            let r = try Self.runShell(command)
            #expect(!r.stdout.contains("ran") || line.hasPrefix("'echo'"), "\(line) → \(command): \(r.stdout)")
            if line.hasPrefix("'echo'") { #expect(r.stdout == "ran\n") }  // /bin/echo, as Popen found it
        }
    }

    /// Each gesture whose command was quoted says so, with the words; a command that
    /// needed nothing says nothing.
    @Test func aQuotedCommandCarriesANote() throws {
        let text = "gesture swipe up 3 echo a; touch X\ngesture swipe down 3 notify-send down\n"
        let imported = try ImportFormat.libinputGestures.translate(Array(text.utf8), file: "l.conf")
        #expect(imported.gestures[0].notes.first?.hasPrefix("libinput-gestures ran this without a shell, as the words «echo» «a;» «touch» «X»") == true)
        #expect(imported.gestures[1].notes.isEmpty)
    }

    /// What `shlex.split` says (its outputs, from Python 3), and what it refuses: such a
    /// line never ran in libinput-gestures, and is kept as a comment.
    @Test(arguments: [
        (#"a\ b "c\"d" "e\f" "g\\h" 'i\j' k\\"#, ["a b", "c\"d", "e\\f", "g\\h", "i\\j", "k\\"]),
        ("x \"\" '' y", ["x", "", "", "y"]),
        ("a\"b\"c'd'e", ["abcde"]),
        ("tab\there", ["tab", "here"]),
    ])
    func wordsAreSplitAsShlexSplitsThem(command: String, words: [String]) throws {
        #expect(try ShellWords.split(command) == words)
    }

    @Test func aCommandShlexRefusesIsKept() throws {
        let imported = try ImportFormat.libinputGestures.translate(Array("gesture swipe up 3 echo \"unclosed\n".utf8), file: "l.conf")
        #expect(imported.gestures.isEmpty)
        #expect(imported.yaml(source: "l.conf").contains("# not imported, l.conf:1: libinput-gestures refuses this command: Python's shlex says \"No closing quotation\""))
    }

    /// fusuma (Ruby's `spawn`, which uses sh when the command has shell syntax) and
    /// touchegg (`system(3)`) run commands through the shell: theirs stay as written.
    @Test func fusumaAndToucheggCommandsStayAsWritten() throws {
        let fusuma = try ImportFormat.fusuma.translate(Array("swipe:\n  3:\n    up:\n      command: 'echo a; touch X'\n".utf8), file: "f")
        #expect(fusuma.gestures.first?.action("command") == .command("echo a; touch X"))
        let touchegg = "<touchégg><application name=\"All\"><gesture type=\"SWIPE\" fingers=\"3\" direction=\"UP\">"
            + "<action type=\"RUN_COMMAND\"><command>echo a; touch X</command></action></gesture></application></touchégg>"
        #expect(try ImportFormat.touchegg.translate(Array(touchegg.utf8), file: "t").gestures.first?.action("command") == .command("echo a; touch X"))
    }
}
