import CEvdev
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

/// Issue 26, items 1, 2 and the tv_sec trap: what a stalled daemon, a reload with
/// fingers down and a hostile timestamp do to what the user sees.
@Suite(.serialized) struct StallTests {
    /// Three fingers on the fake 100 × 60 mm pad, frame by frame, 10 ms apart from
    /// `start` (kernel µs): what a test needs to stop half-way and go on.
    final class Hand {
        let pad: FakeTouchpad
        var t: Timestamp
        var x: [Int32]
        /// The time of the last frame sent.
        private(set) var last = Timestamp(microseconds: 0)

        init(_ pad: FakeTouchpad, start: Timestamp = Timestamp(microseconds: clinux_monotonic_ns() / 1000 - 400_000)) {
            self.pad = pad
            t = start
            x = []
        }

        private func send(_ type: UInt16, _ code: UInt16, _ value: Int32) { pad.send(type, code, value, at: t) }

        func down(at xs: [Int32]) {
            x = xs
            for (slot, v) in xs.enumerated() {
                send(EventType.abs, AbsCode.mtSlot, Int32(slot))
                send(EventType.abs, AbsCode.mtTrackingID, Int32(200 + slot))
                send(EventType.abs, AbsCode.mtPositionX, v)
                send(EventType.abs, AbsCode.mtPositionY, 300)
            }
            send(EventType.key, KeyCode.btnTouch, 1)
            send(EventType.key, KeyCode.btnToolTripleTap, 1)
            send(EventType.syn, SynCode.report, 0)
        }

        /// `mm` along x in `steps` frames.
        func move(mm: Int32, steps: Int32 = 10) {
            for _ in 0..<steps {
                t = t.adding(seconds: 0.01)
                for slot in x.indices {
                    x[slot] += mm * 10 / steps
                    send(EventType.abs, AbsCode.mtSlot, Int32(slot))
                    send(EventType.abs, AbsCode.mtPositionX, x[slot])
                }
                send(EventType.syn, SynCode.report, 0)
            }
        }

        func lift() {
            t = t.adding(seconds: 0.01)
            for slot in x.indices {
                send(EventType.abs, AbsCode.mtSlot, Int32(slot))
                send(EventType.abs, AbsCode.mtTrackingID, -1)
            }
            send(EventType.key, KeyCode.btnTouch, 0)
            send(EventType.key, KeyCode.btnToolTripleTap, 0)
            send(EventType.syn, SynCode.report, 0)
            last = t
            t = t.adding(seconds: 0.05)
        }
    }

    static func lines(_ path: String) -> [String] {
        (LiveDeviceTests.read(path) ?? "").split(separator: "\n").map(String.init)
    }

    // MARK: Item 2: a reload while fingers are down

    /// One drag with one reload in the middle ran the swipe's command twice: the new
    /// engine took the fingers still down for a new sequence.
    @Test func aReloadWhileFingersAreDownDoesNotFireTheirGestureAgain() throws {
        let dir = TempDir()
        let out = dir.path + "/out"
        let daemon = try LiveDeviceTests.makeDaemon(dir, config: """
        gestures:
          - {name: left, gesture: swipe, fingers: 3, direction: left, command: echo left >> \(out)}
          - {name: right, gesture: swipe, fingers: 3, direction: right, command: echo right >> \(out)}
        """)
        let pad = try FakeTouchpad()
        daemon.adopt(pad.device, announce: true)
        let hand = Hand(pad)
        hand.down(at: [700, 800, 900])
        hand.move(mm: -30)
        #expect(LiveDeviceTests.spin(daemon) { Self.lines(out) == ["left"] }, "\(Self.lines(out))")
        #expect(daemon.reload(reason: "test"))
        hand.move(mm: -30)
        hand.lift()
        // A marker gesture after it: the drag's second run, if any, came before.
        hand.down(at: [300, 400, 500])
        hand.move(mm: 30)
        hand.lift()
        #expect(LiveDeviceTests.spin(daemon) { Self.lines(out).contains("right") && daemon.runningCommands == 0 })
        #expect(Self.lines(out) == ["left", "right"], "the drag ran its command once")
    }

    /// The running gesture ends as the old config says: its `cancel` runs, once.
    @Test func aReloadCancelsTheRunningPanWithTheOldConfigsCancel() throws {
        let dir = TempDir()
        let out = dir.path + "/out"
        let daemon = try LiveDeviceTests.makeDaemon(dir, config: """
        gestures:
          - {name: drag, gesture: pan, fingers: 3, begin: echo begin >> \(out), cancel: echo cancel >> \(out), end: echo end >> \(out)}
        """)
        let pad = try FakeTouchpad()
        daemon.adopt(pad.device, announce: true)
        let hand = Hand(pad)
        hand.down(at: [300, 400, 500])
        hand.move(mm: 20)
        #expect(LiveDeviceTests.spin(daemon) { Self.lines(out) == ["begin"] })
        #expect(daemon.reload(reason: "test"))
        hand.move(mm: 20)
        hand.lift()
        hand.down(at: [300, 400, 500])
        hand.move(mm: 20)
        hand.lift()
        #expect(LiveDeviceTests.spin(daemon) { Self.lines(out).count >= 4 && daemon.runningCommands == 0 })
        #expect(Self.lines(out) == ["begin", "cancel", "begin", "end"], "the touches down at the reload began nothing new")
    }

    // MARK: Item 3: keys that keep up with the fingers, live

    /// The issue's case through the whole daemon: `hold: alt`, `every: 0.5mm`, Tab per
    /// step, a 45 mm drag. Alt comes up within the bound after the lift is read, and the
    /// Tabs typed are those the key delay let out in time, not a queue of 90.
    @Test func aFastAltTabPanTypesWhatKeepsUpAndAltComesUpSoonAfterTheLift() throws {
        let dir = TempDir()
        let (daemon, fake) = try HeldKeyTests.daemonWithFakeUinput(dir, config: """
        gestures:
          - {name: switcher, gesture: pan, fingers: 3, axis: horizontal, every: 0.5mm, hold: alt, update: {keys: tab}}
        """)
        let pad = try FakeTouchpad()
        daemon.adopt(pad.device, announce: true)
        let hand = Hand(pad)
        hand.down(at: [200, 300, 400])
        hand.move(mm: 45, steps: 45)
        hand.lift()
        #expect(LiveDeviceTests.spin(daemon) { pad.device.decoder.frame.time == hand.last }, "the daemon read the drag")
        let read = clinux_monotonic_ns()
        var keys: [String] = []
        #expect(LiveDeviceTests.spin(daemon) {
            keys += fake.events().filter { $0.type == 1 }.map { "\($0.value == 1 ? "+" : "-")\($0.code)" }
            return keys.last == "-56"
        }, "Alt never came up: \(keys.suffix(4))")
        let altUpMS = (clinux_monotonic_ns() - read) / 1_000_000
        let tabs = keys.filter { $0 == "+15" }.count
        // The bound and a key delay, plus room for a busy machine (it was 2 s and more).
        #expect(altUpMS < 400, "Alt came up \(altUpMS) ms after the lift was read (\(tabs) Tabs)")
        #expect(tabs <= 100 / 24 + 2, "\(tabs) Tabs typed for a drag read at once")
        #expect(keys.first == "+56" && keys.filter { $0 == "-15" }.count == tabs, "every Tab pressed and released, inside Alt: \(keys)")
    }

    // MARK: Item 1: a stall's backlog

    /// A swipe whose frames waited 5 s in the kernel (the daemon was stopped) fires
    /// nothing, and its frames never reach the desktop through the clone; the next one works.
    @Test func aStallsBacklogFiresNothingAndIsNotReplayedToTheDesktop() throws {
        let rig = try GrabTests.Rig()
        let pad = try rig.plug(FakeTouchpad())
        let old = Hand(pad, start: Timestamp(microseconds: clinux_monotonic_ns() / 1000 - 5_000_000))
        old.down(at: [300, 400, 500])
        old.move(mm: 40)
        old.lift()
        #expect(rig.spin { pad.device.decoder.frame.time == old.last }, "the daemon read the backlog")
        // The clone is written as frames are read: what it got, it has now.
        var seen = rig.fake.events()
        #expect(seen.isEmpty, "the backlog reached the clone: \(seen.count) events")
        #expect(LiveDeviceTests.read(rig.out) == nil && rig.daemon.runningCommands == 0, "a gesture fired from stale frames")
        #expect(rig.frameWrites(pad) == 0)
        let fresh = Hand(pad)
        fresh.down(at: [300, 400, 500])
        fresh.move(mm: 40)
        fresh.lift()
        #expect(rig.spin { LiveDeviceTests.read(rig.out) == "next\n" })
        _ = rig.clone(atLeast: 1, &seen)
        #expect(seen.first == GrabTests.Record(type: EventType.abs, code: AbsCode.mtSlot, value: 0),
                "the first fresh frame tells the clone the device's whole state, slot by slot: \(seen.prefix(4))")
    }

    /// The watchdog child for real (the built gestured), on the fake device: input left
    /// unread past the bound makes it give the device back (EVIOCGRAB 0 fails on the
    /// fake's pipe, which the child logs) and lift everything on the clone; the daemon,
    /// running again, lets go of the clone, drops the backlog and grabs again at the lift.
    @Test func theWatchdogLetsGoOfAStalledGrabAndTheDaemonGrabsAgainOnceFingersAreUp() throws {
        let rig = try WatchdogRig()
        defer { withExtendedLifetime(rig) {} }  // its watchdog log stays open until the end
        let (dir, fake, log, daemon, pad) = (rig.dir, rig.fake, rig.log, rig.daemon, rig.pad)
        let watchdog = try #require(pad.device.passthrough?.watchdog)
        #expect(pad.grabbed)
        _ = fake.events()
        // The daemon "stalls": input arrives, and nobody runs the loop.
        let hand = Hand(pad)
        hand.down(at: [300, 400, 500])
        hand.move(mm: 40)
        let started = clinux_monotonic_ns()
        let exited = try Poll.ready([watchdog.exitDescriptor], timeoutMS: 30_000)[0]
        let waitedMS = (clinux_monotonic_ns() - started) / 1_000_000
        #expect(exited, "the watchdog never gave the device back")
        #expect(waitedMS < 2_500, "it took \(waitedMS) ms")
        let said = LiveDeviceTests.read(dir.path + "/watchdog.log") ?? ""
        #expect(said.contains("grab watchdog: gestured (pid \(getpid())) left input from fake:\(pad.readFD) unread for 1.5 s"), "\(said)")
        let lifted = fake.events(of: 0)
        #expect(lifted.contains(GrabTests.Record(type: EventType.key, code: KeyCode.btnTouch, value: 0)), "the clone's touch came up")
        #expect(lifted.contains(GrabTests.Record(type: EventType.abs, code: AbsCode.mtTrackingID, value: -1)))
        // The daemon runs again: it lets go and, the fingers still down, does not grab yet.
        #expect(LiveDeviceTests.spin(daemon) { !pad.grabbed })
        #expect(log.text.contains("the grab watchdog gave it back to the desktop while gestured was stalled"), "\(log.text)")
        #expect(fake.events(of: 0).isEmpty, "nothing of the backlog reached the old clone")
        hand.move(mm: 10)
        hand.lift()
        #expect(LiveDeviceTests.spin(daemon) { pad.grabbed && pad.device.passthrough?.watchdog != nil }, "grabbed again at the lift, with a new watchdog")
        #expect(fake.opened.count == 2, "a new clone")
        #expect(LiveDeviceTests.read(dir.path + "/out") == nil, "nothing fired from the stalled swipe")
    }

    /// The daemon and its watchdog stopped together (SIGSTOP to both, as `pkill -STOP
    /// gestured` does, matching `gestured-grabwd` too; a frozen cgroup is the same to
    /// them): nothing runs that could give the device back, and the grab holds past the
    /// watchdog's bound. The recovery docs/INPUT.md gives: the watchdog alone continued
    /// (`pkill -CONT -x gestured-grabwd`) gives it back within its bound, the daemon
    /// still stopped.
    @Test func aWatchdogStoppedWithTheDaemonHoldsTheGrabUntilItAloneIsContinued() throws {
        let rig = try WatchdogRig()
        defer { withExtendedLifetime(rig) {} }  // its watchdog log stays open until the end
        let (fake, pad) = (rig.fake, rig.pad)
        let watchdog = try #require(pad.device.passthrough?.watchdog)
        _ = fake.events()
        #expect(kill(watchdog.pid, SIGSTOP) == 0)
        defer { kill(watchdog.pid, SIGCONT) }
        // The daemon "stalls" too: input arrives, and nobody runs the loop.
        let hand = Hand(pad)
        hand.down(at: [300, 400, 500])
        hand.move(mm: 40)
        // Twice the watchdog's bound, and the stopped child has not let go.
        #expect(try Poll.ready([watchdog.exitDescriptor], timeoutMS: 3_000)[0] == false, "a stopped watchdog gave the device back")
        #expect(pad.grabbed)
        let started = clinux_monotonic_ns()
        #expect(kill(watchdog.pid, SIGCONT) == 0)
        #expect(try Poll.ready([watchdog.exitDescriptor], timeoutMS: 30_000)[0], "continued, the watchdog never gave the device back")
        let waitedMS = (clinux_monotonic_ns() - started) / 1_000_000
        #expect(waitedMS < 2_500, "it took \(waitedMS) ms")
        #expect(fake.events(of: 0).contains(GrabTests.Record(type: EventType.key, code: KeyCode.btnTouch, value: 0)), "the clone's touch came up")
    }

    /// The other side: a daemon that reads keeps its grab. Fingers moving for 2.5 s,
    /// twice the watchdog's bound, read as they come: the heartbeats keep the child
    /// quiet, and the device stays grabbed.
    @Test func aDaemonThatReadsKeepsItsGrabPastTheWatchdogsBound() throws {
        let rig = try WatchdogRig()
        defer { withExtendedLifetime(rig) {} }  // its watchdog log stays open until the end
        let (dir, fake, log, daemon, pad) = (rig.dir, rig.fake, rig.log, rig.daemon, rig.pad)
        let watchdog = try #require(pad.device.passthrough?.watchdog)
        let hand = Hand(pad, start: Timestamp(microseconds: clinux_monotonic_ns() / 1000))
        hand.down(at: [300, 400, 500])
        let end = clinux_monotonic_ns() + 2_500_000_000
        var up = true
        while clinux_monotonic_ns() < end {
            hand.t = Timestamp(microseconds: clinux_monotonic_ns() / 1000)
            hand.move(mm: up ? 1 : -1, steps: 1)  // back and forth: a pan, no swipe
            up.toggle()
            _ = daemon.runOnce(timeoutMS: 20)  // reads the frame
            _ = daemon.runOnce(timeoutMS: 10)  // and waits a little, as between frames
            _ = fake.events()  // the desktop reads the clone
        }
        #expect(watchdog.check() == nil, "the watchdog gave up on a daemon that reads: \(log.text)")
        #expect(pad.grabbed)
        #expect(!log.text.contains("grab watchdog"), "\(log.text)")
        #expect((LiveDeviceTests.read(dir.path + "/watchdog.log") ?? "").isEmpty)
    }

    /// The real watchdog child (the built gestured) beside a daemon grabbing the fake
    /// touchpad through the fake uinput; the child's log in `dir`/watchdog.log.
    final class WatchdogRig {
        let dir = TempDir()
        let fake = FakeUinput()
        let log: LogPipe
        /// The child's standard error, held open while the rig lives.
        let stderr: OwnedFileDescriptor
        let daemon: Daemon
        let pad: FakeTouchpad

        init() throws {
            // As the daemon does (Daemon.start): a write to a watchdog that is gone fails with EPIPE.
            Signals.ignoreBrokenPipe()
            log = try LogPipe()
            var options = Daemon.Options()
            options.openUinput = fake.open
            stderr = try OwnedFileDescriptor(opening: dir.path + "/watchdog.log", O_WRONLY | O_CREAT | O_TRUNC, mode: 0o600)
            options.grabWatchdog = GrabWatchdog.Launcher(program: Gestured.path, environment: [], log: stderr.descriptor)
            daemon = try LiveDeviceTests.makeDaemon(dir, config: GrabTests.config(dir.path + "/out", grab: "grab: {devices: touchpad}"),
                                                    options: options, logger: log.logger, daemonsStaleBound: true)
            pad = try FakeTouchpad()
            daemon.adopt(pad.device, announce: true)
        }
    }

    // MARK: Item 10: a reload storm, a resting thumb

    /// A reload storm that toggles `grab:` made a new clone (a uinput device the desktop
    /// adds and removes) at every reload: now at most one per `recloneInterval`, and the
    /// last word of the storm still holds once it is over.
    @Test func aReloadStormTogglingTheGrabMakesAtMostOneCloneAnInterval() throws {
        let rig = try GrabTests.Rig()
        let pad = try rig.plug(FakeTouchpad())
        #expect(rig.fake.opened.count == 1)
        for i in 0..<20 {
            rig.dir.write("config.yaml", GrabTests.config(rig.out, grab: i % 2 == 0 ? "" : "grab: {devices: touchpad}"))
            #expect(rig.daemon.reload(reason: "storm"))
        }
        #expect(rig.fake.opened.count == 1, "\(rig.fake.opened.count) clones for 20 reloads")
        #expect(!pad.grabbed, "the grab the storm ended with waits for the interval")
        #expect(rig.spin { pad.grabbed }, "then it is taken, on the timer")
        #expect(rig.fake.opened.count == 2)
        #expect(rig.log.text.contains("grabbed again in"), "\(rig.log.text)")
    }

    /// Decided (docs/INPUT.md): a claimed sequence is the desktop's again only once every
    /// finger is up, a thumb resting on the pad included. Ending it when the gesture's
    /// fingers lift would hand the desktop the late last finger of a swipe as a new touch:
    /// a tap to libinput (a click), or pointer motion. So the pad stays quiet for the
    /// desktop while the thumb rests, and works again the moment it lifts.
    @Test func aThumbRestingAfterAClaimedSwipeKeepsItForGesturedUntilItLifts() throws {
        let rig = try GrabTests.Rig()
        let pad = try rig.plug(FakeTouchpad())
        var t = Timestamp(microseconds: clinux_monotonic_ns() / 1000 - 400_000)
        func send(_ type: UInt16, _ code: UInt16, _ value: Int32) { pad.send(type, code, value, at: t) }
        func thumb(x: Int32) {
            send(EventType.abs, AbsCode.mtSlot, 3)
            send(EventType.abs, AbsCode.mtPositionX, x)
            send(EventType.syn, SynCode.report, 0)
            t = t.adding(seconds: 0.01)
        }
        send(EventType.abs, AbsCode.mtSlot, 3)
        send(EventType.abs, AbsCode.mtTrackingID, 300)
        send(EventType.abs, AbsCode.mtPositionX, 500)
        send(EventType.abs, AbsCode.mtPositionY, 590)
        send(EventType.key, KeyCode.btnTouch, 1)
        send(EventType.key, KeyCode.btnToolFinger, 1)
        send(EventType.syn, SynCode.report, 0)
        t = t.adding(seconds: 0.05)
        let hand = Hand(pad, start: t)
        hand.down(at: [300, 400, 500])
        hand.move(mm: 40)
        hand.lift()
        t = hand.t
        #expect(rig.spin { LiveDeviceTests.read(rig.out) == "next\n" })
        _ = rig.fake.events()
        for x in [510, 520, 530] { thumb(x: Int32(x)) }
        #expect(rig.spin { pad.device.decoder.frame.time >= t.adding(seconds: -0.01) })
        #expect(rig.fake.events().isEmpty, "the resting thumb reached the desktop")
        #expect(pad.device.passthrough?.state == .suppressing)
        send(EventType.abs, AbsCode.mtSlot, 3)
        send(EventType.abs, AbsCode.mtTrackingID, -1)
        send(EventType.key, KeyCode.btnTouch, 0)
        send(EventType.key, KeyCode.btnToolFinger, 0)
        send(EventType.syn, SynCode.report, 0)
        t = t.adding(seconds: 0.05)
        send(EventType.abs, AbsCode.mtSlot, 0)
        send(EventType.abs, AbsCode.mtTrackingID, 400)
        send(EventType.abs, AbsCode.mtPositionX, 200)
        send(EventType.abs, AbsCode.mtPositionY, 200)
        send(EventType.key, KeyCode.btnTouch, 1)
        send(EventType.key, KeyCode.btnToolFinger, 1)
        send(EventType.syn, SynCode.report, 0)
        var seen: [GrabTests.Record] = []
        #expect(rig.clone(atLeast: 1, &seen), "the next touch after the thumb lifted reaches the desktop")
        #expect(seen.contains(GrabTests.Record(type: EventType.abs, code: AbsCode.mtTrackingID, value: 400)))
    }

    // MARK: Item 10: a timestamp no clock reaches

    /// `tv_sec` ≥ 9.22e12 overflowed the µs conversion and trapped the daemon.
    @Test(arguments: [Int.max, Int.max / 1_000_000 + 1, Int.min])
    func aTimestampBeyondAnyClockDoesNotCrashTheReader(_ seconds: Int) throws {
        let pad = try FakeTouchpad()
        var events: [input_event] = [
            input_event(time: timeval(tv_sec: seconds, tv_usec: 999_999), type: EventType.abs, code: AbsCode.mtTrackingID, value: 1),
            input_event(time: timeval(tv_sec: seconds, tv_usec: 999_999), type: EventType.syn, code: SynCode.report, value: 0),
        ]
        _ = events.withUnsafeMutableBytes { write(pad.writeFD, $0.baseAddress, $0.count) }
        let (result, frames) = pad.read()
        #expect(result == .drained)
        #expect(frames.count == 1)
        #expect(frames.first?.time == Timestamp(microseconds: seconds < 0 ? .min : .max))
    }
}
