import CLinux
import Glibc
import Testing

/// `gestured run` as a process: start-up, signals, hot reload, sd_notify.
@Suite struct DaemonLifecycleTests {
    static let validConfig = """
    gestures:
      - name: left
        gesture: swipe
        fingers: 3
        direction: left
        command: echo left
    """
    static let otherValidConfig = """
    gestures:
      - name: right
        gesture: swipe
        fingers: 3
        direction: right
        command: echo right
      - name: pinch
        gesture: pinch
        fingers: 2
        update: echo pinch
    """

    private func start(_ dir: TempDir, config: String, environment: [String] = []) throws -> Gestured.Process {
        let empty = dir.path + "/input"
        mkdir(empty, 0o700)
        return try Gestured.Process(["run", "--config", config, "--input-dir", empty], environment: environment)
    }

    /// How fast is the benchmark's to say (a timed unit test fails on busy cores: 128 ms
    /// under a loaded `make test`); this says it exits, cleanly and saying why.
    @Test func sigtermExitsCleanly() throws {
        let dir = TempDir()
        let config = dir.write("config.yaml", Self.validConfig)
        let p = try start(dir, config: config)
        #expect(p.waitForLog("started: config \(config), 1 gesture, 0 devices"))
        kill(p.pid, SIGTERM)
        #expect(p.wait() == 0)
        #expect(p.stderr.contains("received SIGTERM, exiting") && p.stderr.contains("stopped"), "\(p.stderr.suffix(300))")
    }

    @Test func withNoTouchDeviceItSaysItWaitsForOne() throws {
        let dir = TempDir()
        let config = dir.write("config.yaml", Self.validConfig)
        let p = try start(dir, config: config)
        #expect(p.waitForLog("waiting for one to be plugged in"))
        #expect(!p.stderr.contains("hotplug unavailable"))
        kill(p.pid, SIGTERM)
        #expect(p.wait() == 0)
    }

    /// No /dev/input and no udevd (a container): a device plugged in later would go
    /// unseen, so the daemon says so and what to do instead of promising to wait.
    /// (Where udevd runs, its monitor sees devices whatever the directory.)
    @Test(.enabled(if: access("/run/udev/control", F_OK) != 0, "udevd runs here: hotplug is available"))
    func whereHotplugCannotWorkItSaysSoAndWhatToDo() throws {
        let dir = TempDir()
        let config = dir.write("config.yaml", Self.validConfig)
        let p = try Gestured.Process(["run", "--config", config, "--input-dir", dir.path + "/no-such-dir"])
        #expect(p.waitForLog("started:"))
        #expect(p.waitForLog("restart gestured"))
        #expect(p.stderr.contains("hotplug unavailable"))
        #expect(!p.stderr.contains("waiting for one to be plugged in"), "no promise to wait: \(p.stderr)")
        kill(p.pid, SIGTERM)
        #expect(p.wait() == 0)
    }

    @Test func aConfigRenamedIntoPlaceIsReloaded() throws {
        let dir = TempDir()
        let config = dir.write("config.yaml", Self.validConfig)
        let p = try start(dir, config: config)
        #expect(p.waitForLog("started:"))
        // What editors do: write a temporary file, then rename it over the original.
        let temp = dir.write(".config.yaml.swp", Self.otherValidConfig)
        #expect(rename(temp, config) == 0)
        #expect(p.waitForLog("reloaded (\(config) changed): 2 gestures"))
        kill(p.pid, SIGTERM)
        #expect(p.wait() == 0)
    }

    @Test func anInvalidEditIsReportedAndTheOldConfigKeepsRunning() throws {
        let dir = TempDir()
        let config = dir.write("config.yaml", Self.validConfig)
        let p = try start(dir, config: config)
        #expect(p.waitForLog("started:"))
        dir.write("config.yaml", "gestures:\n  - name: broken\n    gesture: swipe\n    fingers: three\n")
        #expect(p.waitForLog("still running the previous one"))
        #expect(p.stderr.contains("\(config):4:"), "the error names file:line:col: \(p.stderr)")
        #expect(p.poll() == nil, "the daemon is still running")
        // A fixed file is picked up again: nothing was lost.
        dir.write("config.yaml", Self.otherValidConfig)
        #expect(p.waitForLog("reloaded (\(config) changed): 2 gestures"))
        kill(p.pid, SIGTERM)
        #expect(p.wait() == 0)
    }

    @Test func sighupReloadsAndADeletedThenRecreatedFileToo() throws {
        let dir = TempDir()
        let config = dir.write("config.yaml", Self.validConfig)
        let p = try start(dir, config: config)
        #expect(p.waitForLog("started:"))
        kill(p.pid, SIGHUP)
        #expect(p.waitForLog("reloaded (SIGHUP): 1 gestures"))
        unlink(config)
        p.pump(ms: 100)
        #expect(!p.stderr.contains("still running the previous one"), "a deletion alone changes nothing")
        dir.write("config.yaml", Self.otherValidConfig)
        #expect(p.waitForLog("reloaded (\(config) changed): 2 gestures"))
        kill(p.pid, SIGTERM)
        #expect(p.wait() == 0)
    }

    @Test func aBrokenConfigAtStartExits3WithTheErrors() throws {
        let dir = TempDir()
        let config = dir.write("config.yaml", "gestures:\n  - name: x\n    gesture: swiped\n")
        let p = try start(dir, config: config)
        #expect(p.wait() == 3)
        #expect(p.stderr.contains("\(config):3:"))
        #expect(p.stderr.contains("not starting"))
    }

    @Test func aConfigOthersCanWriteIsRefused() throws {
        let dir = TempDir()
        let config = dir.write("config.yaml", Self.validConfig, mode: 0o666)
        let p = try start(dir, config: config)
        #expect(p.wait() == 3)
        #expect(p.stderr.contains(config))
    }

    @Test func journalPrioritiesAndReadinessReachSystemd() throws {
        let dir = TempDir()
        let config = dir.write("config.yaml", Self.validConfig)
        let notify = try NotifySocket(in: dir)
        let p = try start(dir, config: config, environment: ["NOTIFY_SOCKET=\(notify.path)", "JOURNAL_STREAM=8:1234"])
        #expect(p.waitForLog("<5>started:"), "journald priority prefixes: \(p.stderr)")
        kill(p.pid, SIGHUP)
        #expect(p.waitForLog("reloaded (SIGHUP)"))
        kill(p.pid, SIGTERM)
        #expect(p.wait() == 0)
        let messages = notify.received()
        #expect(messages.first?.hasPrefix("READY=1\nSTATUS=0 devices, 1 gestures") == true, "\(messages)")
        #expect(messages.contains { $0.hasPrefix("RELOADING=1\nMONOTONIC_USEC=") })
        #expect(messages.last == "STOPPING=1")
    }

    /// Finding 10 of issue 10: a log reader that goes away (journald restarted, the
    /// terminal closed) used to kill the daemon with SIGPIPE at its next log line.
    @Test func aLogReaderThatGoesAwayDoesNotKillTheDaemon() throws {
        let dir = TempDir()
        let config = dir.write("config.yaml", Self.validConfig)
        let notify = try NotifySocket(in: dir)
        let p = try start(dir, config: config, environment: ["NOTIFY_SOCKET=\(notify.path)"])
        #expect(notify.waitFor("READY=1"))
        p.closeStderr()
        kill(p.pid, SIGHUP)  // a reload, which logs
        #expect(notify.waitFor("READY=1"), "the daemon finished reloading after logging into the broken pipe")
        #expect(p.poll() == nil, "still running")
        kill(p.pid, SIGTERM)
        #expect(p.wait() == 0, "a clean exit, not death by SIGPIPE (141)")
    }

    // MARK: Issue 10

    /// Finding 1: `every: 1e-17mm` started, then trapped at the first pan.
    @Test func aNonsensicalStepStopsTheStartWithItsPlace() throws {
        let dir = TempDir()
        let config = dir.write("config.yaml", "gestures:\n  - {name: v, gesture: pan, axis: vertical, every: 1e-17mm, update: x}\n")
        let p = try start(dir, config: config)
        #expect(p.wait() == 3)
        #expect(p.stderr.contains("\(config):2:52: error: 'every' must be at least 0.01mm"), "\(p.stderr)")
    }

    /// Finding 5: a FIFO hung `check` in open(), and the daemon's reload too, deaf to SIGTERM.
    @Test func aFIFOHangsNeitherCheckNorTheDaemon() throws {
        let dir = TempDir()
        let fifo = dir.path + "/fifo.yaml"
        try #require(mkfifo(fifo, 0o600) == 0)
        let r = try Gestured.run(["check", "--config", fifo])
        #expect(r.status == 3)
        #expect(r.stdout.contains("\(fifo): error: refusing a FIFO (named pipe): a config must be a regular file"), "\(r.stdout)")

        let config = dir.write("config.yaml", Self.validConfig)
        let p = try start(dir, config: config)
        #expect(p.waitForLog("started:"))
        try #require(rename(fifo, config) == 0)
        #expect(p.waitForLog("still running the previous one"))
        kill(p.pid, SIGTERM)
        #expect(p.wait() == 0)
    }

    /// Finding 11: an editor that truncates and writes in place. Nothing is read
    /// until the writer closes the file; an empty file closed half-way is not taken.
    @Test func anInPlaceRewriteNeverLeavesZeroGestures() throws {
        let dir = TempDir()
        let config = dir.write("config.yaml", Self.validConfig)
        let p = try start(dir, config: config)
        #expect(p.waitForLog("started:"))
        // One open: truncate, a pause, then the text, then close.
        let fd = open(config, O_WRONLY | O_TRUNC)
        try #require(fd >= 0)
        p.pump(ms: 100)
        _ = Self.otherValidConfig.withCString { Glibc.write(fd, $0, strlen($0)) }
        p.pump(ms: 100)
        close(fd)
        #expect(p.waitForLog("reloaded (\(config) changed): 2 gestures"))
        #expect(!p.stderr.contains("error"), "\(p.stderr)")
        // Two opens: truncate and close, then write.
        dir.write("config.yaml", "")
        #expect(p.waitForLog("likely an editor's write caught half-way; still running the previous 2 gestures"))
        dir.write("config.yaml", Self.validConfig)
        #expect(p.waitForLog("reloaded (\(config) changed): 1 gestures"))
        #expect(!p.stderr.contains(": 0 gestures"))
        // SIGHUP means it: an empty file is then taken.
        dir.write("config.yaml", "")
        #expect(p.waitForLog("still running the previous 1 gesture "))
        kill(p.pid, SIGHUP)
        #expect(p.waitForLog("reloaded (SIGHUP): 0 gestures"))
        kill(p.pid, SIGTERM)
        #expect(p.wait() == 0)
    }

    /// Finding 12: after the config's directory was deleted and made again,
    /// reload-on-save silently stopped.
    @Test func aConfigDirectoryRemovedAndMadeAgainIsWatchedAgain() throws {
        let dir = TempDir()
        let sub = dir.path + "/gestured"
        mkdir(sub, 0o700)
        let config = dir.write("gestured/config.yaml", Self.validConfig)
        let p = try start(dir, config: config)
        #expect(p.waitForLog("started:"))
        unlink(config)
        rmdir(sub)
        #expect(p.waitForLog("the config directory \(sub) was removed or moved; reload-on-save waits for it to come back"))
        mkdir(sub, 0o700)
        #expect(p.waitForLog("the config directory \(sub) is back; watching it for changes again"))
        dir.write("gestured/config.yaml", Self.otherValidConfig)
        #expect(p.waitForLog("reloaded (\(config) changed): 2 gestures"))
        // And once more, moved away and a new one moved in with the file already there.
        #expect(rename(sub, dir.path + "/old") == 0)
        #expect(p.waitForLog("was removed or moved"))
        mkdir(dir.path + "/new", 0o700)
        dir.write("new/config.yaml", Self.validConfig)
        #expect(rename(dir.path + "/new", sub) == 0)
        #expect(p.waitForLog("reloaded (\(config) changed): 1 gestures"))
        kill(p.pid, SIGTERM)
        #expect(p.wait() == 0)
    }
}

/// Running without --config from /etc or the built-in default, the user's first own
/// config is picked up as soon as it is saved, as a restart would.
@Suite struct UserConfigAppearsTests {
    @Test func aUserConfigMadeWhileRunningTakesOver() throws {
        let dir = TempDir()
        let xdg = dir.path + "/xdg"
        mkdir(xdg, 0o700)
        mkdir(dir.path + "/input", 0o700)
        let user = xdg + "/gestured/config.yaml"
        let p = try Gestured.Process(["run", "--input-dir", dir.path + "/input"],
                                     environment: ["XDG_CONFIG_HOME=\(xdg)", "XDG_CURRENT_DESKTOP=sway"])
        #expect(p.waitForLog("started:"))
        // The way a user starts one: make the directory, then save the file in it.
        mkdir(xdg + "/gestured", 0o700)
        dir.write("xdg/gestured/config.yaml", DaemonLifecycleTests.otherValidConfig)
        #expect(p.waitForLog("\(user) was created; it replaces "))
        #expect(p.waitForLog("reloaded (\(user) created): 2 gestures"))
        // From then on it is the config: an edit reloads it.
        dir.write("xdg/gestured/config.yaml", DaemonLifecycleTests.validConfig)
        #expect(p.waitForLog("reloaded (\(user) changed): 1 gestures"))
        kill(p.pid, SIGTERM)
        #expect(p.wait() == 0)
    }
}
