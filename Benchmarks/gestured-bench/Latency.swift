import DaemonCore
import GestureActions
import GestureConfig
import GestureEngine
import GestureInput
import Glibc
import TouchModel

/// From handing the SYN_REPORT that completes a gesture to the decoder (and so the
/// engine), to the bound command's process running: decoder → engine → ActionMapper →
/// the real CommandRunner (posix_spawn of `/bin/sh -c COMMAND`). The command is
/// gestured-bench-clock, whose main() prints CLOCK_MONOTONIC first thing; the runner
/// pipes that line back into its log, where we read it.
struct Latency {
    let recording: Workload
    let config: Config
    let clockHelper: String
    /// One runner for every sample, as the daemon has; its log lines land in `output`.
    private let runner: CommandRunner
    private let output = Lines()

    private final class Lines { var lines: [String] = [] }

    init(recording: Workload, config: Config, clockHelper: String) {
        self.recording = recording
        self.config = config
        self.clockHelper = clockHelper
        let output = self.output
        do {
            runner = try CommandRunner(settings: config.settings, log: { _, line in output.lines.append(line) })
        } catch { fail("CommandRunner: \(error)") }
    }

    static let gestureName = "latency-swipe"

    /// A 4-finger swipe down, the gesture of the recording we replay.
    static func configText(helper: String) -> String {
        """
        settings:
          command-timeout: 5s
        gestures:
          - name: \(gestureName)
            gesture: swipe
            fingers: 4
            direction: down
            command: \(helper)

        """
    }

    struct Sample {
        var ms: Double
        /// The helper's parent: our own pid when sh exec'd the command in place.
        var shellExecdInPlace: Bool
    }

    func measure(iterations: Int) -> [Sample] {
        var samples: [Sample] = []
        for _ in 0..<iterations {
            output.lines.removeAll()
            guard let (t0, _) = Self.replayUntilAction(recording, config, into: runner) else { fail("the recording fired no \(Self.gestureName)") }
            waitIdle(runner)
            guard let reply = output.lines.compactMap(Self.parse).first else { fail("no output from \(clockHelper): \(output.lines)") }
            samples.append(Sample(ms: Double(reply.ns - t0) / 1e6, shellExecdInPlace: reply.ppid == getpid()))
        }
        return samples
    }

    /// Replays the recording through a fresh decoder, engine and mapper; at the first
    /// invocation submits it to `sink` and returns the instant its SYN_REPORT was handed
    /// over and the instant `submit` returned.
    static func replayUntilAction(_ recording: Workload, _ config: Config, into sink: InvocationSink) -> (Int64, Int64)? {
        let decoder = recording.makeDecoder()
        let engine = GestureEngine(device: decoder.capabilities.deviceInfo(name: recording.device.name), specs: config.specs,
                                   explains: false)
        var mapper = ActionMapper(config: config)
        var events: [GestureEvent] = []
        var invocations: [Invocation] = []
        for e in recording.events {
            let t0 = nowNS()
            guard decoder.feed(e) else { continue }
            let frame = decoder.frame
            engine.process(frame, into: &events)
            for g in events { mapper.map(g, device: engine.device, into: &invocations) }
            events.removeAllKeepingCapacity()
            guard !invocations.isEmpty else { continue }
            for inv in invocations { sink.submit(inv) }
            return (t0, nowNS())
        }
        return nil
    }

    /// Runs the runner's events until the command has exited and its output is read.
    private func waitIdle(_ runner: CommandRunner) {
        let deadline = nowNS() + 5_000_000_000
        while !runner.isIdle {
            var pfd = pollfd(fd: runner.fd.rawValue, events: Int16(POLLIN), revents: 0)
            _ = poll(&pfd, 1, 100)
            runner.handleEvents()
            if nowNS() > deadline { fail("the command did not finish within 5 s") }
        }
    }

    /// The floor under the figure: the same command started by a bare posix_spawn of
    /// `/bin/sh -c COMMAND` (no decoder, engine, mapper or runner), timed the same way;
    /// with `viaShell` false, of the command itself, no shell.
    func spawnFloor(iterations: Int, viaShell: Bool = true) -> [Double] {
        var out: [Double] = []
        for _ in 0..<iterations {
            var pipe: [Int32] = [0, 0]
            guard Glibc.pipe(&pipe) == 0 else { fail("pipe: \(String(cString: strerror(errno)))") }
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            posix_spawn_file_actions_adddup2(&actions, pipe[1], 1)
            posix_spawn_file_actions_addclose(&actions, pipe[0])
            var pid: pid_t = 0
            let argv = viaShell ? ["/bin/sh", "-c", clockHelper] : [clockHelper]
            let t0 = nowNS()
            let rc = withCStrings(argv) { a in posix_spawn(&pid, argv[0], &actions, nil, a, environ) }
            posix_spawn_file_actions_destroy(&actions)
            close(pipe[1])
            guard rc == 0 else { fail("posix_spawn \(argv[0]): \(String(cString: strerror(rc)))") }
            var bytes: [UInt8] = []
            var buf = [UInt8](repeating: 0, count: 256)
            while true {
                let n = read(pipe[0], &buf, buf.count)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                bytes += buf[0..<n]
            }
            close(pipe[0])
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            let words = String(decoding: bytes, as: UTF8.self).split(whereSeparator: { $0 == " " || $0 == "\n" })
            guard let ns = words.first.flatMap({ Int64($0) }) else { fail("no output from \(clockHelper)") }
            out.append(Double(ns - t0) / 1e6)
        }
        return out
    }

    /// "[latency-swipe] NS PID PPID" → the helper's clock reading and parent pid.
    static func parse(_ line: String) -> (ns: Int64, ppid: pid_t)? {
        guard line.hasPrefix("[\(gestureName)] ") else { return nil }
        let words = line.dropFirst(gestureName.count + 3).split(separator: " ")
        guard words.count == 3, let ns = Int64(words[0]), let ppid = pid_t(words[2]) else { return nil }
        return (ns, ppid)
    }
}
