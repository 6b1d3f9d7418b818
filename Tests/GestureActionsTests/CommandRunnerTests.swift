@testable import GestureActions
import GestureConfig
import Glibc
import Testing

/// Real processes through /bin/sh. Each test ends by checking that every process the
/// runner started is gone from /proc: reaped, no zombie left.
@Suite(.serialized) struct CommandRunnerTests {
    @Test func exitStatusesAreLoggedWithTheGestureName() throws {
        let log = LogLines()
        let runner = try makeRunner(log)
        runner.submit(invocation("ok", "true"))
        runner.submit(invocation("fails", "exit 3"))
        runner.submit(invocation("killed", "kill -TERM $$"))
        #expect(runner.runningCount == 3)
        #expect(pumpUntilIdle(runner))
        #expect(log.texts(at: .warning).sorted() == [
            "[fails] 'command' command exited with status 3",
            "[killed] 'command' command was killed by signal 15 (SIGTERM)",
        ])
        let exits = log.texts(at: .debug).filter { $0.contains("exited") }
        #expect(exits.count == 1)
        #expect(exits.first?.hasPrefix("[ok] 'command' command exited successfully after ") == true)
        #expect(spawnedPIDs(log).count == 3)
        #expect(leftovers(log) == [])
    }

    @Test func gestureValuesArriveInTheEnvironmentNeverInTheCommand() throws {
        let log = LogLines()
        let runner = try makeRunner(log, environment: ["PATH=/usr/bin:/bin", "KEEP=daemon", "GESTURE_NAME=stale"])
        let hostile = "x'; touch /tmp/gestured-pwned; echo '$(id)`id`"
        runner.submit(invocation("env", #"printf '%s|%s|%s\n' "$GESTURE_NAME" "$KEEP" "$GESTURE_DX_MM""#,
                                 env: [("GESTURE_NAME", hostile), ("GESTURE_DX_MM", "-12.50")]))
        #expect(pumpUntilIdle(runner))
        #expect(log.texts(at: .info) == ["[env] \(hostile)|daemon|-12.50"])
        #expect(access("/tmp/gestured-pwned", F_OK) != 0)
        #expect(leftovers(log) == [])
    }

    @Test func childStartsCleanInItsOwnProcessGroup() throws {
        // The daemon blocks signals for its signalfd and ignores SIGPIPE; children must not inherit either.
        var block = sigset_t(), old = sigset_t()
        sigemptyset(&block)
        sigaddset(&block, SIGUSR1)
        pthread_sigmask(SIG_BLOCK, &block, &old)
        let oldPipe = signal(SIGPIPE, SIG_IGN)
        defer {
            pthread_sigmask(SIG_SETMASK, &old, nil)
            signal(SIGPIPE, oldPipe)
        }
        let log = LogLines()
        let runner = try makeRunner(log)
        runner.submit(invocation("clean", """
            grep -E '^SigBlk' /proc/$$/status | tr -s '\\t' ' '
            ign=$(sed -n 's/^SigIgn:\\t//p' /proc/$$/status)
            echo "ignored standard signals: $(( 0x$ign & 0x7fffffff ))"
            [ "$(cut -d' ' -f5 /proc/$$/stat)" = "$$" ] && echo own-group
            readlink /proc/$$/fd/0
            i=3; while [ $i -lt 1024 ]; do [ -e /proc/$$/fd/$i ] && echo "leaked fd $i"; i=$((i + 1)); done; echo fds-checked
            """))
        #expect(pumpUntilIdle(runner))
        #expect(log.texts(at: .info) == [
            "[clean] SigBlk: 0000000000000000",
            // glibc's internal real-time signals (32, 33) are beyond posix_spawn's reach.
            "[clean] ignored standard signals: 0",
            "[clean] own-group",
            "[clean] /dev/null",
            "[clean] fds-checked",  // stdin, stdout, stderr and nothing else
        ])
        #expect(leftovers(log) == [])
    }

    @Test func commandsOfOneGestureRunInOrder() throws {
        let log = LogLines()
        let runner = try makeRunner(log)
        // Earlier commands sleep longer: run concurrently, they would print in reverse.
        for i in 1...5 {
            runner.submit(invocation("steps", "sleep 0.0\(6 - i); echo \(i)"))
            #expect(runner.runningCount == 1)
        }
        runner.submit(invocation("other", "echo other"))
        #expect(runner.runningCount == 2)
        #expect(pumpUntilIdle(runner))
        #expect(log.texts(at: .info).filter { $0.hasPrefix("[steps]") } == (1...5).map { "[steps] \($0)" })
        #expect(leftovers(log) == [])
    }

    @Test func timeoutKillsTheWholeProcessGroup() throws {
        let log = LogLines()
        let runner = try makeRunner(log, timeout: 0.3)
        // The shell starts a grandchild, prints its pid, and waits for it.
        runner.submit(invocation("hang", "sleep 60 & echo $!; wait"))
        let pid = try #require(runner.runningPIDs.first)
        #expect(pump(runner) { log.texts(at: .info).count == 1 })
        let grandchild = try #require(Int32(log.texts(at: .info)[0].dropFirst("[hang] ".count)))
        #expect(procStat(grandchild)?.pgrp == pid)
        let started = monotonicMS()
        #expect(pumpUntilIdle(runner, timeoutMS: 30_000))
        #expect(monotonicMS() - started < 3000)
        #expect(log.texts(at: .warning) == ["[hang] 'command' command still running after 300ms; sent SIGTERM to its process group"])
        #expect(isDead(pid))
        #expect(waitUntilDead(grandchild), "the grandchild outlived its killed process group")
        #expect(leftovers(log) == [])
    }

    @Test func aCommandThatIgnoresSIGTERMIsKilledAfterTheGrace() throws {
        let log = LogLines()
        let runner = try makeRunner(log, timeout: 0.3, killGrace: 0.3)
        // Ignored signals stay ignored across exec: the grandchild shrugs SIGTERM off too.
        runner.submit(invocation("stubborn", "trap '' TERM; sleep 60 & echo $!; wait"))
        let pid = try #require(runner.runningPIDs.first)
        #expect(pump(runner) { log.texts(at: .info).count == 1 })
        let grandchild = try #require(Int32(log.texts(at: .info)[0].dropFirst("[stubborn] ".count)))
        let started = monotonicMS()
        #expect(pumpUntilIdle(runner, timeoutMS: 30_000))
        #expect(monotonicMS() - started >= 250, "SIGKILL waited for the grace")
        #expect(log.texts(at: .warning) == [
            "[stubborn] 'command' command still running after 300ms; sent SIGTERM to its process group",
            "[stubborn] 'command' command ignored SIGTERM for 300ms; killed its process group",
        ])
        #expect(isDead(pid))
        #expect(waitUntilDead(grandchild), "the grandchild outlived its killed process group")
        #expect(leftovers(log) == [])
    }

    @Test func concurrencyCapDropsExcessWithAWarning() throws {
        let log = LogLines()
        let runner = try makeRunner(log, maxChildren: 2)
        runner.submit(invocation("a", "sleep 0.2"))
        runner.submit(invocation("b", "sleep 0.2"))
        runner.submit(invocation("c", "echo never"))
        #expect(runner.runningCount == 2)
        #expect(log.texts(at: .warning) == ["[c] 2 commands already running (max-children); dropped its 'command' command"])
        #expect(pumpUntilIdle(runner))
        #expect(!log.texts.contains("[c] never"))
        #expect(leftovers(log) == [])
    }

    @Test func queueOfOneGestureIsBounded() throws {
        let log = LogLines()
        let runner = try makeRunner(log, queueLength: 2)
        for i in 1...4 { runner.submit(invocation("q", "echo \(i)")) }
        #expect(log.texts(at: .warning) == ["[q] 2 commands already waiting (queue-length); dropped its 'command' command"])
        #expect(pumpUntilIdle(runner))
        #expect(log.texts(at: .info) == ["[q] 1", "[q] 2", "[q] 3"])
        #expect(leftovers(log) == [])
    }

    @Test func aBurstOfDropsLogsOneWarningAndACount() throws {
        let log = LogLines()
        let runner = try makeRunner(log, queueLength: 1)
        for i in 1...10 { runner.submit(invocation("pan", "echo \(i)")) }
        #expect(log.texts(at: .warning) == ["[pan] 1 command already waiting (queue-length); dropped its 'command' command"])
        #expect(pumpUntilIdle(runner))
        runner.submit(invocation("pan", "echo again"))
        #expect(pumpUntilIdle(runner))
        #expect(log.texts(at: .warning) == [
            "[pan] 1 command already waiting (queue-length); dropped its 'command' command",
            "[pan] 7 more of its commands were dropped while it was busy",
        ])
        #expect(log.texts(at: .info) == ["[pan] 1", "[pan] 2", "[pan] again"])
        #expect(leftovers(log) == [])
    }

    @Test func outputIsCapturedLineByLine() throws {
        let log = LogLines()
        let runner = try makeRunner(log)
        let long = String(repeating: "y", count: 3000)
        runner.submit(invocation("out", #"printf 'one\ntwo\r\n'; echo oops >&2; printf '\033[31mred\n'; echo \#(long); printf 'no newline'"#))
        #expect(pumpUntilIdle(runner))
        #expect(log.texts(at: .info) == [
            "[out] one", "[out] two", #"[out] \u001b[31mred"#,
            "[out] " + String(repeating: "y", count: 1024) + " […]", "[out] no newline",
        ])
        #expect(log.texts(at: .notice) == ["[out] oops"])
        #expect(leftovers(log) == [])
    }

    @Test func outputFloodIsRateLimited() throws {
        let log = LogLines()
        // A frozen clock: every line falls in the same one-second window.
        let runner = try makeRunner(log, clock: { 42 })
        runner.submit(invocation("flood", "yes flood | head -n 100000"))
        #expect(pumpUntilIdle(runner))
        #expect(log.texts(at: .info).count == 50)
        #expect(log.texts(at: .warning) == ["[flood] 99950 lines of output suppressed (more than 50 a second)"])
        #expect(leftovers(log) == [])
    }

    @Test func missingCommandIsReportedFromTheShell() throws {
        let log = LogLines()
        let runner = try makeRunner(log)
        runner.submit(invocation("typo", "no-such-command-gestured"))
        #expect(pumpUntilIdle(runner))
        #expect(log.texts(at: .warning) == ["[typo] 'command' command exited with status 127 (command not found)"])
        #expect(log.texts(at: .notice).count == 1)
        #expect(log.texts(at: .notice).first?.contains("not found") == true)
        #expect(leftovers(log) == [])
    }

    @Test func missingShellIsAnErrorNotACrash() throws {
        let log = LogLines()
        let runner = try makeRunner(log, shell: "/nonexistent/sh")
        // Shell syntax: these need the shell (a plain `true` would run without one).
        runner.submit(invocation("x", "true; true"))
        runner.submit(invocation("x", "true; true"))
        #expect(runner.isIdle)
        #expect(log.texts(at: .error) == Array(repeating: "[x] cannot run its 'command' command: posix_spawn /nonexistent/sh: ENOENT (No such file or directory)", count: 2))
        #expect(leftovers(log) == [])
    }

    @Test func aPlainCommandRunsWithoutAShellAndShellSyntaxWithOne() throws {
        let log = LogLines()
        let runner = try makeRunner(log)
        // The command's parent is the runner's process itself when no shell stands between.
        runner.submit(invocation("plain", "grep PPid: /proc/self/status"))
        #expect(pumpUntilIdle(runner))
        runner.submit(invocation("shell", "grep PPid: /proc/self/status | cat"))
        #expect(pumpUntilIdle(runner))
        let lines = log.texts(at: .info)
        #expect(lines.first == "[plain] PPid:\t\(getpid())")
        #expect(lines.count == 2 && lines[1] != "[shell] PPid:\t\(getpid())", "\(lines)")
        #expect(leftovers(log) == [])
    }

    @Test(arguments: [
        ("xdotool key super+Page_Down", ["xdotool", "key", "super+Page_Down"]),
        ("hyprctl dispatch workspace e+1", ["hyprctl", "dispatch", "workspace", "e+1"]),
        ("swaymsg workspace next_on_output", ["swaymsg", "workspace", "next_on_output"]),
        ("echo $GESTURE_STEP", nil), ("echo 'a b'", nil), ("a; b", nil), ("a | b", nil), ("a > f", nil),
        ("FOO=1 cmd", nil), ("cd /tmp", nil), ("ls *", nil), ("ls ~", nil), ("a && b", nil), ("", nil),
        ("echo `id`", nil), ("wpctl set-volume @DEFAULT_AUDIO_SINK@ 5%+", ["wpctl", "set-volume", "@DEFAULT_AUDIO_SINK@", "5%+"]),
        // Builtins whose /bin program behaves differently, and reserved words: the shell's.
        ("echo -e hello", nil), ("echo hello", nil), ("printf %s x", nil), ("test -n x", nil), ("kill -l", nil),
        ("pwd", nil), ("time ls", nil), ("type ls", nil), ("command -v ls", nil), ("true", ["true"]),
    ] as [(String, [String]?)])
    func whatCountsAsPlain(command: String, argv: [String]?) {
        #expect(CommandSpawner.plainArgv(command) == argv)
    }

    /// dash's `echo` has no `-e` and prints it; coreutils' /bin/echo takes it as an
    /// option. A command must do what `/bin/sh -c` does with it, shortcut or not.
    @Test func echoBehavesAsTheShellsOwn() throws {
        let log = LogLines()
        let runner = try makeRunner(log)
        runner.submit(invocation("x", "echo -e hello"))
        runner.submit(invocation("x", "echo -e hello;"))  // `;`: certainly through the shell
        #expect(pumpUntilIdle(runner))
        let lines = log.texts(at: .info)
        #expect(lines.count == 2 && lines.first == lines.last, "\(lines)")
        #expect(leftovers(log) == [])
    }

    @Test func terminateAllKillsAndReapsEverything() throws {
        let log = LogLines()
        let runner = try makeRunner(log)
        runner.submit(invocation("a", "sleep 60"))
        runner.submit(invocation("b", "sleep 60 & wait"))
        runner.submit(invocation("b", "echo queued"))
        let pids = runner.runningPIDs
        #expect(pids.count == 2)
        runner.terminateAll()
        #expect(runner.isIdle)
        #expect(pids.allSatisfy(isDead))
        #expect(leftovers(log) == [])
        #expect(!log.texts.contains("[b] queued"))
    }

    @Test func backgroundedGrandchildDoesNotHoldUpTheQueue() throws {
        let log = LogLines()
        let runner = try makeRunner(log)
        runner.submit(invocation("bg", "sleep 0.5 & echo started"))
        runner.submit(invocation("bg", "echo next"))
        #expect(pump(runner) { log.texts(at: .info).contains("[bg] next") })
        #expect(log.texts(at: .info) == ["[bg] started", "[bg] next"])
        #expect(pumpUntilIdle(runner))
        #expect(leftovers(log) == [])
    }
}
