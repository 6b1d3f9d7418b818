import DaemonCore
import CLinux
import GestureInput
import GestureTestSupport
import Glibc
import LinuxSystem
import Testing
import TouchModel
@testable import Commands
@testable import DaemonLoop
import JSON
@testable import LiveView

/// The daemon's whole live path in-process: the real libevdev reading a fake device
/// (a pipe answered by the ioctl interposer), the decoder, the engine, the command
/// runner, and commands whose effects (files) are what we check.
@Suite(.serialized) struct LiveDeviceTests {
    /// A 3-finger horizontal swipe of `dx` mm on the fake 100 × 60 mm pad, stamped from
    /// half a second ago (within `Daemon.staleFrameAge`, so no frame is taken for a
    /// stall's backlog), so no deadline of a plain swipe lies in the future.
    /// `stillFor`: seconds the fingers rest before moving (a hold first; those frames
    /// may be stamped ahead of the clock, which the engine takes as it comes).
    static func swipe(_ pad: FakeTouchpad, dxMM: Int32, lift: Bool = true, stillFor: Double = 0) {
        var t = Timestamp(microseconds: clinux_monotonic_ns() / 1000 - 500_000)
        func send(_ type: UInt16, _ code: UInt16, _ value: Int32) { pad.send(type, code, value, at: t) }
        let xs: [Int32] = [300, 400, 500]
        for (slot, x) in xs.enumerated() {
            send(EventType.abs, AbsCode.mtSlot, Int32(slot))
            send(EventType.abs, AbsCode.mtTrackingID, Int32(100 + slot))
            send(EventType.abs, AbsCode.mtPositionX, x)
            send(EventType.abs, AbsCode.mtPositionY, 300)
        }
        send(EventType.key, KeyCode.btnTouch, 1)
        send(EventType.key, KeyCode.btnToolTripleTap, 1)
        send(EventType.syn, SynCode.report, 0)
        if stillFor > 0 {
            t = t.adding(seconds: stillFor)
            send(EventType.syn, SynCode.report, 0)
        }
        for step in 1...20 {
            t = t.adding(seconds: 0.01)
            for (slot, x) in xs.enumerated() {
                send(EventType.abs, AbsCode.mtSlot, Int32(slot))
                send(EventType.abs, AbsCode.mtPositionX, x + dxMM * 10 * Int32(step) / 20)
            }
            send(EventType.syn, SynCode.report, 0)
        }
        guard lift else { return }
        t = t.adding(seconds: 0.01)
        for slot in 0..<3 {
            send(EventType.abs, AbsCode.mtSlot, Int32(slot))
            send(EventType.abs, AbsCode.mtTrackingID, -1)
        }
        send(EventType.key, KeyCode.btnTouch, 0)
        send(EventType.key, KeyCode.btnToolTripleTap, 0)
        send(EventType.syn, SynCode.report, 0)
    }

    static func makeDaemon(_ dir: TempDir, config: String, options: Daemon.Options = Daemon.Options(),
                           logger: Logger = Logger(threshold: .warning, environment: [:]),
                           environment: [String: String] = [:], daemonsStaleBound: Bool = false) throws -> Daemon {
        var options = options
        // These tests stamp their frames half a second in the past; on two busy cores the
        // loop can come to the first of them later than the daemon's 1 s stale bound (a
        // fresh machine's GrabTests lost a stroke's first frame so). 3 s keeps them fresh
        // and a 5 s backlog stale; the watchdog's test keeps the daemon's own bound.
        if !daemonsStaleBound && options.staleFrameAge == Daemon.staleFrameAge { options.staleFrameAge = 3_000_000 }
        options.configPath = dir.write("config.yaml", config)
        let empty = dir.path + "/input"
        mkdir(empty, 0o700)
        options.inputDirectory = empty
        return try Daemon(options: options, logger: logger, environment: environment)
    }

    /// Runs the daemon's loop until `done` (bounded by `seconds`).
    static func spin(_ daemon: Daemon, seconds: Double = 30, until done: () -> Bool) -> Bool {
        let deadline = clinux_monotonic_ns() + Int64(seconds * 1e9)
        while !done() && clinux_monotonic_ns() < deadline { daemon.runOnce(timeoutMS: 20) }
        return done()
    }

    static func read(_ path: String) -> String? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buf = [UInt8](repeating: 0, count: 4096)
        let n = Glibc.read(fd, &buf, buf.count)
        return n > 0 ? String(decoding: buf[0..<n], as: UTF8.self) : ""
    }

    @Test func aSwipeOnTheDeviceRunsItsCommandWithTheGestureInItsEnvironment() throws {
        let dir = TempDir()
        let out = dir.path + "/swiped"
        let daemon = try Self.makeDaemon(dir, config: """
        gestures:
          - name: next
            gesture: swipe
            fingers: 3
            direction: left
            command: echo "$GESTURE_NAME $GESTURE_FINGERS $GESTURE_DIRECTION" > \(out)
        """)
        let pad = try FakeTouchpad()
        daemon.adopt(pad.device, announce: true)
        Self.swipe(pad, dxMM: -40)
        #expect(Self.spin(daemon) { Self.read(out) == "next 3 left\n" }, "\(Self.read(out) ?? "no file")")
    }

    @Test func aCommandThatHangsDoesNotDelayTheNextGesture() throws {
        let dir = TempDir()
        let out = dir.path + "/right"
        let daemon = try Self.makeDaemon(dir, config: """
        settings:
          command-timeout: 60s
        gestures:
          - name: hang
            gesture: swipe
            fingers: 3
            direction: left
            command: sleep 60
          - name: mark
            gesture: swipe
            fingers: 3
            direction: right
            command: echo right > \(out)
        """)
        let pad = try FakeTouchpad()
        daemon.adopt(pad.device, announce: true)
        Self.swipe(pad, dxMM: -40)
        #expect(Self.spin(daemon) { daemon.runningCommands == 1 }, "the hanging command started")
        let t0 = clinux_monotonic_ns()
        Self.swipe(pad, dxMM: 40)
        #expect(Self.spin(daemon) { Self.read(out) == "right\n" })
        #expect(daemon.runningCommands >= 1, "the first command is still hanging")
        let ms = Double(clinux_monotonic_ns() - t0) / 1e6
        #expect(ms < 2000, "the second gesture's command ran \(ms) ms later")
    }

    @Test func aDeviceThatVanishesMidGestureCancelsIt() throws {
        let dir = TempDir()
        let log = dir.path + "/log"
        let daemon = try Self.makeDaemon(dir, config: """
        gestures:
          - name: drag
            gesture: pan
            fingers: 3
            begin: echo begin >> \(log)
            cancel: echo cancel >> \(log)
            end: echo end >> \(log)
        """)
        let pad = try FakeTouchpad()
        daemon.adopt(pad.device, announce: true)
        Self.swipe(pad, dxMM: -40, lift: false)
        #expect(Self.spin(daemon) { Self.read(log) == "begin\n" })
        daemon.remove(pad.device.path, reason: "unplugged")
        #expect(daemon.sessions.isEmpty)
        #expect(Self.spin(daemon) { Self.read(log) == "begin\ncancel\n" }, "\(Self.read(log) ?? "")")
    }

    @Test func aReloadSwapsTheGesturesOfADeviceInPlace() throws {
        let dir = TempDir()
        let out = dir.path + "/after-reload"
        let daemon = try Self.makeDaemon(dir, config: """
        gestures:
          - name: before
            gesture: swipe
            fingers: 3
            direction: up
            command: echo before > \(out)
        """)
        let pad = try FakeTouchpad()
        daemon.adopt(pad.device, announce: true)
        dir.write("config.yaml", """
        gestures:
          - name: after
            gesture: swipe
            fingers: 3
            direction: left
            command: echo "$GESTURE_NAME" > \(out)
        """)
        #expect(Self.spin(daemon) { daemon.reloadCount == 1 })
        Self.swipe(pad, dxMM: -40)
        #expect(Self.spin(daemon) { Self.read(out) == "after\n" })
    }

    /// What `watch` and `--explain` show: the arena's transitions and the reasons.
    @Test func watchSeesEveryTransitionAndWhyTheOthersFailed() throws {
        let dir = TempDir()
        var seen: [String] = []
        var gestures: [String] = []
        var options = Daemon.Options()
        options.runCommands = false
        options.onDecisions = { _, decisions in seen += decisions.map(DecisionTrace.transition) }
        options.onGesture = { _, event in gestures.append(GestureText.line(event)) }
        let daemon = try Self.makeDaemon(dir, config: """
        gestures:
          - name: left
            gesture: swipe
            fingers: 3
            direction: left
            command: "true"
          - name: two-finger-tap
            gesture: tap
            fingers: 2
            command: "true"
        """, options: options)
        let pad = try FakeTouchpad()
        daemon.adopt(pad.device, announce: true)
        Self.swipe(pad, dxMM: -40)
        #expect(Self.spin(daemon) { !gestures.isEmpty && seen.contains { $0.hasPrefix("two-finger-tap:") && $0.contains("failed") } })
        #expect(gestures.first?.hasPrefix("left  swipe recognized  3 fingers  left") == true, "\(gestures)")
        #expect(seen.contains { $0.hasPrefix("left: possible → ") && $0.hasSuffix("recognized") }, "\(seen)")
        #expect(seen.contains { $0.hasPrefix("two-finger-tap: possible → ") && $0.contains("(3 fingers, needs 2)") }, "\(seen)")
        #expect(daemon.runningCommands == 0, "watch runs no commands")
    }

    // MARK: Issue 10, on the live path

    /// A daemon with the fake touchpad adopted, its log in a pipe, and a file its
    /// commands write to (`config` gets that file's path).
    struct Live {
        let dir = TempDir()
        let log: LogPipe
        let daemon: Daemon
        let pad: FakeTouchpad
        var out: String { dir.path + "/out" }

        init(config: (String) -> String) throws {
            log = try LogPipe()
            daemon = try LiveDeviceTests.makeDaemon(dir, config: config(dir.path + "/out"), logger: log.logger)
            pad = try FakeTouchpad()
            daemon.adopt(pad.device, announce: true)
        }

        func write(_ config: (String) -> String) { dir.write("config.yaml", config(out)) }
        func spin(until done: () -> Bool) -> Bool { LiveDeviceTests.spin(daemon, until: done) }
        var output: String? { LiveDeviceTests.read(out) }
    }

    static func panConfig(every step: String) -> (String) -> String {
        { out in "gestures:\n  - name: scrub\n    gesture: pan\n    fingers: 3\n    axis: horizontal\n    every: \(step)\n    update: echo \"$GESTURE_STEPS\" >> \(out)\n" }
    }

    static func swipeConfig(_ direction: String) -> (String) -> String {
        { out in "gestures:\n  - {name: next, gesture: swipe, fingers: 3, direction: \(direction), command: echo next >> \(out)}\n" }
    }

    /// Finding 1: `every: 1e-17mm` trapped the daemon at the first pan. The smallest
    /// step `check` now accepts runs (at most the per-event cap) without a trap, and a
    /// save that brings the old value back is refused with its place in the file while
    /// the running config keeps working.
    @Test func theSmallestStepRunsAndANonsensicalOneIsRefusedOnReload() throws {
        let live = try Live(config: Self.panConfig(every: "0.01mm"))
        Self.swipe(live.pad, dxMM: 20)
        #expect(live.spin { live.output?.hasPrefix("1\n2\n") == true }, "\(live.output ?? "no file")")
        #expect(live.output?.split(separator: "\n").allSatisfy { Int($0) != nil } == true)

        live.write(Self.panConfig(every: "1e-17mm"))
        #expect(live.spin { live.log.text.contains("still running the previous one") })
        #expect(live.log.text.contains("config.yaml:6:12: error: 'every' must be at least 0.01mm (less is finer than any touch sensor resolves), found '1e-17mm'"), "\(live.log.text)")
        #expect(live.daemon.config.bindings.first?.step == .distance(mm: 0.01, axis: .horizontal))
    }

    /// Finding 5: a FIFO renamed over the config blocked the reload in open(), and the
    /// daemon with it. Now it is refused at once and the device's gestures go on.
    @Test func aFIFORenamedOverTheConfigIsRefusedAndGesturesGoOn() throws {
        let live = try Live(config: Self.swipeConfig("left"))
        let fifo = live.dir.path + "/fifo"
        try #require(mkfifo(fifo, 0o600) == 0)
        try #require(rename(fifo, live.dir.path + "/config.yaml") == 0)
        #expect(live.spin { live.log.text.contains("still running the previous one") })
        #expect(live.log.text.contains("config.yaml: error: refusing a FIFO (named pipe): a config must be a regular file"), "\(live.log.text)")
        Self.swipe(live.pad, dxMM: -40)
        #expect(live.spin { live.output == "next\n" })
    }

    /// Finding 11: an editor that truncates, closes, then writes in place left the
    /// daemon with 0 gestures. The empty file is now taken for a write in progress.
    @Test func anEmptyFileAfterAGoodOneKeepsTheGesturesRunning() throws {
        let live = try Live(config: Self.swipeConfig("left"))
        live.write { _ in "" }
        #expect(live.spin { live.log.text.contains("likely an editor's write caught half-way") })
        #expect(live.daemon.config.specs.count == 1)
        Self.swipe(live.pad, dxMM: -40)
        #expect(live.spin { live.output == "next\n" })
        live.write(Self.swipeConfig("right"))
        #expect(live.spin { live.daemon.reloadCount == 1 })
        #expect(live.daemon.config.specs.first?.directions == [.right])
    }
}

/// A logger writing into a pipe the test reads back.
final class LogPipe {
    let logger: Logger
    private let pipe: Pipe
    private var collected = ""

    init() throws {
        pipe = try Pipe(flags: O_NONBLOCK)
        logger = Logger(threshold: .info, environment: [:], fd: pipe.writeEnd.descriptor)
    }

    /// Everything logged so far.
    var text: String {
        var buf = [UInt8](repeating: 0, count: 65536)
        while let n = try? pipe.readEnd.descriptor.read(into: &buf), n > 0 {
            collected += String(decoding: buf[0..<n], as: UTF8.self)
        }
        return collected
    }
}
