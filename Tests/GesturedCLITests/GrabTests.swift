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

/// `grab:` through the whole live path: a fake device read by the real libevdev and
/// grabbed with EVIOCGRAB (the fake remembers it), the engine, and the clone written
/// through the real uinput calls into a fake /dev/uinput, read back event by event.
/// What the clone carries is what the desktop sees.
@Suite(.serialized) struct GrabTests {
    typealias Record = FakeUinput.Record

    /// A 300 × 200 mm, 10-slot touchscreen.
    static let touchscreen: DeviceDescription = {
        let abs: [UInt16: AbsInfo] = [
            AbsCode.x: AbsInfo(minimum: 0, maximum: 3000, resolution: 10),
            AbsCode.y: AbsInfo(minimum: 0, maximum: 2000, resolution: 10),
            AbsCode.mtSlot: AbsInfo(minimum: 0, maximum: 9),
            AbsCode.mtPositionX: AbsInfo(minimum: 0, maximum: 3000, resolution: 10),
            AbsCode.mtPositionY: AbsInfo(minimum: 0, maximum: 2000, resolution: 10),
            AbsCode.mtTrackingID: AbsInfo(minimum: 0, maximum: 65535),
        ]
        return DeviceDescription(name: "Fake Touchscreen", id: InputID(bustype: 0x18, vendor: 0x4f3, product: 0x2c82),
                                 properties: [InputProperty.direct],
                                 codes: [EventType.key: [KeyCode.btnTouch], EventType.abs: Set(abs.keys)],
                                 absinfo: abs, udevProperties: ["ID_INPUT_TOUCHSCREEN": "1"])
    }()

    static func config(_ out: String, grab: String = "grab: {devices: [touchscreen, touchpad]}") -> String {
        """
        \(grab)
        gestures:
          - {name: next, gesture: swipe, fingers: 3, direction: right, command: echo next >> \(out)}
        """
    }

    /// A daemon grabbing per `config`, its clones written into a fake /dev/uinput.
    struct Rig {
        let dir = TempDir()
        let fake = FakeUinput()
        let log: LogPipe
        let daemon: Daemon
        var out: String { dir.path + "/out" }

        init(config: (String) -> String = { GrabTests.config($0) }) throws {
            log = try LogPipe()
            var options = Daemon.Options()
            options.openUinput = fake.open
            daemon = try LiveDeviceTests.makeDaemon(dir, config: config(dir.path + "/out"), options: options, logger: log.logger)
        }

        func spin(until done: () -> Bool) -> Bool { LiveDeviceTests.spin(daemon, until: done) }

        /// A fake device (the touchscreen unless given one), plugged into the daemon.
        func plug(_ device: FakeTouchpad? = nil) throws -> FakeTouchpad {
            let d = try device ?? FakeTouchpad(description: GrabTests.touchscreen)
            daemon.adopt(d.device, announce: true)
            _ = fake.events()  // the clone told the device's state at the grab (startsInTheDevicesState)
            return d
        }

        /// write(2)s to `device`'s clone since the state it was told at the grab.
        func frameWrites(_ device: FakeTouchpad) -> Int? { device.device.passthrough.map { $0.clone.writes - 1 } }

        /// Sends `frames` to `device` and reads the clone until as many events came as
        /// were sent: (what was sent, what the clone carried).
        func pass(_ frames: [[InputEvent]], through device: FakeTouchpad) -> (sent: [Record], seen: [Record]) {
            device.send(Array(frames.joined()))
            let sent = GrabTests.records(frames)
            var seen: [Record] = []
            _ = clone(atLeast: sent.count, &seen)
            return (sent, seen)
        }

        /// Reads the clone until `count` events came (or 5 s went by).
        func clone(atLeast count: Int, _ seen: inout [Record]) -> Bool {
            spin { seen += fake.events(); return seen.count >= count }
        }
    }

    /// Frames of `fingers` fingers, 10 ms apart, stamped in the recent past: down at
    /// x = 100 + 200·i mm units, then `steps` moves of `stepX` units each, then (with
    /// `lift`) every finger up. The events exactly as a kernel would send them.
    static func stroke(fingers: Int, steps: Int, stepX: Int32, lift: Bool = true, touchpad: Bool = false,
                       firstID: Int32 = 100) -> [[InputEvent]] {
        var t = Timestamp(microseconds: clinux_monotonic_ns() / 1000 - 500_000)
        var frames: [[InputEvent]] = []
        var frame: [InputEvent] = []
        func add(_ type: UInt16, _ code: UInt16, _ value: Int32) { frame.append(InputEvent(time: t, type: type, code: code, value: value)) }
        func end() {
            add(EventType.syn, SynCode.report, 0)
            frames.append(frame)
            frame = []
            t = t.adding(seconds: 0.01)
        }
        let tool = touchpad ? [KeyCode.btnToolFinger, KeyCode.btnToolDoubleTap, KeyCode.btnToolTripleTap][fingers - 1] : nil
        for f in 0..<fingers {
            if f > 0 { add(EventType.abs, AbsCode.mtSlot, Int32(f)) }
            add(EventType.abs, AbsCode.mtTrackingID, firstID + Int32(f))
            add(EventType.abs, AbsCode.mtPositionX, 100 + 200 * Int32(f))
            add(EventType.abs, AbsCode.mtPositionY, 300)
        }
        add(EventType.key, KeyCode.btnTouch, 1)
        if let tool { add(EventType.key, tool, 1) }
        add(EventType.abs, AbsCode.x, 100)
        add(EventType.abs, AbsCode.y, 300)
        end()
        for step in 1...steps {
            for f in 0..<fingers {
                if fingers > 1 { add(EventType.abs, AbsCode.mtSlot, Int32(f)) }
                add(EventType.abs, AbsCode.mtPositionX, 100 + 200 * Int32(f) + stepX * Int32(step))
            }
            add(EventType.abs, AbsCode.x, 100 + stepX * Int32(step))
            end()
        }
        guard lift else { return frames }
        for f in (0..<fingers).reversed() {
            if fingers > 1 { add(EventType.abs, AbsCode.mtSlot, Int32(f)) }
            add(EventType.abs, AbsCode.mtTrackingID, -1)
        }
        add(EventType.key, KeyCode.btnTouch, 0)
        if let tool { add(EventType.key, tool, 0) }
        end()
        return frames
    }

    static func records(_ frames: [[InputEvent]]) -> [Record] {
        frames.joined().map { Record(type: $0.type, code: $0.code, value: $0.value) }
    }

    // MARK: The clone

    @Test func theCloneIsTheDeviceUnderANewName() throws {
        let rig = try Rig()
        let pad = try rig.plug(FakeTouchpad())
        #expect(pad.grabbed, "the touchpad is gestured's alone")
        #expect(rig.fake.created)
        #expect(rig.fake.name == "Fake Touchpad (gestured)")
        #expect(rig.fake.ids.map { [$0.bustype, $0.vendor, $0.product] } == [0x18, 0x6cb, 0x1234], "hwdb and quirks match by these")
        #expect(rig.fake.hasProperty(InputProperty.pointer) && rig.fake.hasProperty(InputProperty.buttonpad))
        #expect(!rig.fake.hasProperty(InputProperty.direct))
        for key in [KeyCode.btnLeft, KeyCode.btnTouch, KeyCode.btnToolFinger, KeyCode.btnToolDoubleTap, KeyCode.btnToolTripleTap] {
            #expect(rig.fake.declares(type: EventType.key, code: key), "key \(key)")
        }
        #expect(rig.fake.axis(AbsCode.mtPositionX)! == (0, 1000, 10), "range and resolution: libinput's size in mm")
        #expect(rig.fake.axis(AbsCode.mtPositionY)! == (0, 600, 10))
        #expect(rig.fake.axis(AbsCode.mtSlot)! == (0, 4, 0), "five slots")
        #expect(!rig.fake.declares(type: EventType.abs, code: AbsCode.mtToolType), "a touchpad's clone adds nothing")
        #expect(rig.log.text.contains("grabbed fake:\(pad.readFD) (Fake Touchpad): the desktop reads \"Fake Touchpad (gestured)\""), "\(rig.log.text)")
    }

    @Test func aTouchscreensCloneCanTurnATouchIntoAPalm() throws {
        let rig = try Rig()
        let screen = try rig.plug()
        #expect(screen.grabbed)
        #expect(rig.fake.hasProperty(InputProperty.direct))
        #expect(rig.fake.axis(AbsCode.mtToolType)! == (0, MTTool.palm, 0), "ABS_MT_TOOL_TYPE up to MT_TOOL_PALM")
        #expect(rig.fake.axis(AbsCode.mtSlot)! == (0, 9, 0))
    }

    @Test func gesturedNeverReadsItsOwnClones() throws {
        let rig = try Rig()
        let clone = try FakeTouchpad(name: "Fake Touchpad (gestured)")
        rig.daemon.adopt(clone.device, announce: true)
        #expect(rig.daemon.sessions.isEmpty)
        #expect(!clone.grabbed)
    }

    @Test(arguments: ["grab: {device-names: 'Fake Touch*'}", "grab: {devices: touchpad}"])
    func aDeviceIsGrabbedByKindOrName(_ grab: String) throws {
        let rig = try Rig { GrabTests.config($0, grab: grab) }
        let pad = try FakeTouchpad()
        let screen = try FakeTouchpad(description: Self.touchscreen)
        rig.daemon.adopt(pad.device, announce: true)
        rig.daemon.adopt(screen.device, announce: true)
        #expect(pad.grabbed)
        #expect(screen.grabbed == grab.contains("device-names"))
    }

    // MARK: Passthrough

    @Test func aOneFingerDragPassesUnchangedInOneWritePerFrame() throws {
        let rig = try Rig()
        let screen = try rig.plug()
        let frames = Self.stroke(fingers: 1, steps: 30, stepX: 20)
        let (sent, seen) = rig.pass(frames, through: screen)
        #expect(seen == sent)
        #expect(rig.frameWrites(screen) == frames.count, "one write(2) per SYN_REPORT frame")
    }

    @Test func anUnboundTwoFingerScrollOnATouchpadPassesUnchanged() throws {
        let rig = try Rig()
        let pad = try rig.plug(FakeTouchpad())
        let (sent, seen) = rig.pass(Self.stroke(fingers: 2, steps: 20, stepX: 15, touchpad: true), through: pad)
        #expect(seen == sent)
        #expect(pad.device.passthrough?.cancelled == 0)
    }

    /// Forwarded until the swipe is recognized, then each touch turns into a palm
    /// (libinput: TOUCH_CANCEL) and lifts with its tool a finger again; nothing more
    /// of the sequence, not even its lift; the next touch passes, as a whole state.
    @Test func aClaimedTouchscreenSwipeIsCancelledAsPalmsThenHeldBackUntilLift() throws {
        let rig = try Rig()
        let screen = try rig.plug()
        screen.send(Array(Self.stroke(fingers: 3, steps: 30, stepX: 20).joined()))
        #expect(rig.spin { LiveDeviceTests.read(rig.out) == "next\n" })
        var seen: [Record] = []
        _ = rig.spin { seen += rig.fake.events(); return !seen.isEmpty && screen.device.passthrough?.state == .resyncing }
        let palm = Record(type: EventType.abs, code: AbsCode.mtToolType, value: MTTool.palm)
        let firstPalm = try #require(seen.firstIndex(of: palm), "\(seen)")
        #expect(firstPalm > 0, "the first frames passed before recognition")
        #expect(!seen[..<firstPalm].contains(Record(type: EventType.abs, code: AbsCode.mtTrackingID, value: -1)), "no touch lifted before the cancel")
        let syn = Record(type: EventType.syn, code: SynCode.report, value: 0)
        func abs(_ code: UInt16, _ v: Int32) -> Record { Record(type: EventType.abs, code: code, value: v) }
        let cancel = Array(seen[(firstPalm - 1)...])
        #expect(cancel == [abs(AbsCode.mtSlot, 0), palm, abs(AbsCode.mtSlot, 1), palm, abs(AbsCode.mtSlot, 2), palm, syn,
                           abs(AbsCode.mtSlot, 0), abs(AbsCode.mtToolType, 0), abs(AbsCode.mtTrackingID, -1),
                           abs(AbsCode.mtSlot, 1), abs(AbsCode.mtToolType, 0), abs(AbsCode.mtTrackingID, -1),
                           abs(AbsCode.mtSlot, 2), abs(AbsCode.mtToolType, 0), abs(AbsCode.mtTrackingID, -1),
                           Record(type: EventType.key, code: KeyCode.btnTouch, value: 0), syn],
                "the whole cancel, and nothing after it: \(cancel)")
        #expect(screen.device.passthrough?.cancelled == 1)

        // The next touch goes through whole: every slot (slot 0 first: the clone was
        // left on slot 2), its id, its position, even where the device sent no change.
        screen.send(Array(Self.stroke(fingers: 1, steps: 2, stepX: 0, lift: false, firstID: 200).joined()))
        var next: [Record] = []
        #expect(rig.clone(atLeast: 1, &next))
        _ = rig.spin { next += rig.fake.events(); return next.filter { $0 == syn }.count >= 3 }
        let resync = Array(next.prefix { $0 != syn }) + [syn]
        #expect(Array(resync.prefix(4)) == [abs(AbsCode.mtSlot, 0), abs(AbsCode.mtTrackingID, 200), abs(AbsCode.mtPositionX, 100),
                                            abs(AbsCode.mtPositionY, 300)], "\(resync)")
        #expect(Array(resync.suffix(5)) == [abs(AbsCode.x, 100), abs(AbsCode.y, 300), abs(AbsCode.mtSlot, 0),
                                            Record(type: EventType.key, code: KeyCode.btnTouch, value: 1), syn], "\(resync)")
        #expect(resync.contains(abs(AbsCode.mtPositionX, 500 + 20 * 30)) && resync.contains(abs(AbsCode.mtTrackingID, -1)),
                "the other slots too, each where the device left it: \(resync)")
        #expect(screen.device.passthrough?.state == .forwarding)
    }

    @Test func aClaimedTouchpadSwipeLiftsItsFingers() throws {
        let rig = try Rig()
        let pad = try rig.plug(FakeTouchpad())
        pad.send(Array(Self.stroke(fingers: 3, steps: 30, stepX: 20, lift: false, touchpad: true).joined()))
        #expect(rig.spin { LiveDeviceTests.read(rig.out) == "next\n" })
        var seen: [Record] = []
        _ = rig.spin { seen += rig.fake.events(); return pad.device.passthrough?.state == .suppressing }
        _ = rig.spin { seen += rig.fake.events(); return seen.last?.type == EventType.syn && seen.count > 20 }
        func abs(_ code: UInt16, _ v: Int32) -> Record { Record(type: EventType.abs, code: code, value: v) }
        func key(_ code: UInt16, _ v: Int32) -> Record { Record(type: EventType.key, code: code, value: v) }
        let lift = [abs(AbsCode.mtSlot, 0), abs(AbsCode.mtTrackingID, -1), abs(AbsCode.mtSlot, 1), abs(AbsCode.mtTrackingID, -1),
                    abs(AbsCode.mtSlot, 2), abs(AbsCode.mtTrackingID, -1),
                    key(KeyCode.btnTouch, 0), key(KeyCode.btnToolTripleTap, 0), Record(type: EventType.syn, code: SynCode.report, value: 0)]
        #expect(Array(seen.suffix(lift.count)) == lift, "\(seen)")
        #expect(!seen.contains(abs(AbsCode.mtToolType, MTTool.palm)), "no palm on a touchpad")
        #expect(pad.device.passthrough?.state == .suppressing, "the fingers are still down: nothing more passes")
    }

    // MARK: Never locked out

    enum WayOut: String, CaseIterable { case shutdown, reloadWithoutGrab, unplugged }

    @Test(arguments: WayOut.allCases)
    func theDeviceIsGivenBackAndTheCloneRemoved(_ way: WayOut) throws {
        let rig = try Rig()
        let pad = try rig.plug(FakeTouchpad())
        #expect(pad.grabbed && rig.fake.created)
        switch way {
        case .shutdown: rig.daemon.shutdown()
        case .reloadWithoutGrab:
            rig.dir.write("config.yaml", Self.config(rig.out, grab: ""))
            #expect(rig.daemon.reload(reason: "test"))
        case .unplugged: rig.daemon.remove(pad.device.path, reason: "unplugged")
        }
        #expect(!pad.grabbed, "the desktop reads the device again")
        #expect(!rig.fake.created, "the clone is gone")
        #expect(rig.log.text.contains("released fake:\(pad.readFD) (Fake Touchpad)"), "\(rig.log.text)")
    }

    @Test func aDevicePluggedInAgainIsGrabbedAgain() throws {
        let rig = try Rig()
        let pad = try rig.plug(FakeTouchpad())
        rig.daemon.remove(pad.device.path, reason: "unplugged")
        #expect(!pad.grabbed)
        let again = try FakeTouchpad()
        rig.daemon.adopt(again.device, announce: true)
        #expect(again.grabbed && rig.fake.created)
        #expect(rig.fake.opened.count == 2)
    }

    @Test func aReloadThatAddsTheDeviceGrabsIt() throws {
        let rig = try Rig { GrabTests.config($0, grab: "") }
        let pad = try FakeTouchpad()
        rig.daemon.adopt(pad.device, announce: true)
        #expect(!pad.grabbed && !rig.fake.created)
        rig.dir.write("config.yaml", Self.config(rig.out))
        #expect(rig.daemon.reload(reason: "test"))
        #expect(pad.grabbed && rig.fake.created)
    }

    /// No uinput, no grab: a grabbed device without its clone would be dead to the desktop.
    @Test func withoutAClonethereIsNoGrab() throws {
        let rig = try Rig()
        rig.fake.openError = EACCES
        let pad = try FakeTouchpad()
        rig.daemon.adopt(pad.device, announce: true)
        #expect(!pad.grabbed)
        #expect(rig.daemon.sessions.count == 1, "gestures still work")
        #expect(rig.log.text.contains("not grabbed, the desktop keeps reading it: open /dev/uinput: EACCES"), "\(rig.log.text)")
    }

    @Test func aGrabRefusedLeavesNoClone() throws {
        let rig = try Rig()
        let pad = try FakeTouchpad()
        pad.failGrab(EBUSY)
        rig.daemon.adopt(pad.device, announce: true)
        #expect(!pad.grabbed)
        #expect(!rig.fake.created, "the clone made for it is destroyed again")
        #expect(rig.log.text.contains("EVIOCGRAB fake:\(pad.readFD): EBUSY"), "\(rig.log.text)")
        #expect(rig.log.text.contains("another program holds it"))
    }

    /// A clone that cannot be written (its uinput descriptor broken) lets go of the device.
    @Test func aCloneThatFailsGivesTheDeviceBack() throws {
        let rig = try Rig()
        let pad = try rig.plug(FakeTouchpad())
        let (read, _) = try #require(rig.fake.opened.first)
        close(read)  // the clone's writes now fail with EPIPE
        Signals.ignoreBrokenPipe()
        pad.send(Array(Self.stroke(fingers: 1, steps: 2, stepX: 10).joined()))
        #expect(rig.spin { !pad.grabbed })
        #expect(rig.log.text.contains("its clone failed (write Fake Touchpad (gestured): EPIPE"), "\(rig.log.text)")
        #expect(rig.daemon.sessions.count == 1, "the device is still read for gestures")
    }

    @Test func watchAndDryRunNeverGrab() throws {
        for dry in [true, false] {
            let dir = TempDir()
            let fake = FakeUinput()
            var options = Daemon.Options()
            options.openUinput = fake.open
            if dry { options.dryRun = true } else { options.runCommands = false }
            let daemon = try LiveDeviceTests.makeDaemon(dir, config: Self.config(dir.path + "/out"), options: options)
            let pad = try FakeTouchpad()
            daemon.adopt(pad.device, announce: true)
            #expect(!pad.grabbed && !fake.created)
        }
    }
}

extension GrabTests {
    /// A claim after the lift (a tap recognized on its timeout) has nothing to cancel
    /// and must not swallow the next touch sequence.
    @Test func aClaimWithNothingDownChangesNothing() throws {
        let rig = try Rig()
        let screen = try rig.plug()
        let first = rig.pass(Self.stroke(fingers: 1, steps: 3, stepX: 10), through: screen)
        #expect(first.seen == first.sent)
        let p = try #require(screen.device.passthrough)
        p.claim()
        #expect(p.state == .forwarding && p.cancelled == 0 && rig.fake.events().isEmpty)
        let next = rig.pass(Self.stroke(fingers: 1, steps: 3, stepX: 10, firstID: 300), through: screen)
        #expect(next.seen == next.sent)
    }

    @Test func checkWarnsWhenGrabCannotCloneAnything() throws {
        guard access("/dev/uinput", F_OK) != 0 else { return }
        let dir = TempDir()
        let path = dir.write("config.yaml", Self.config(dir.path + "/out"))
        let r = try Gestured.run(["check", path])
        #expect(r.status == 0)
        #expect(r.stdout.contains("warning: grab: no device will be grabbed (each needs a copy made through uinput): open /dev/uinput: ENOENT"), "\(r.stdout)")
    }
}

/// `grab: hold-back:`: the start of a sequence that may still become a gesture is kept
/// back, for at most the hold-back.
extension GrabTests {
    static func holdBackConfig(_ out: String) -> String {
        config(out, grab: "grab: {devices: [touchscreen], hold-back: 50ms}")
    }

    @Test func withHoldBackARecognizedGestureNeverReachesTheDesktop() throws {
        let rig = try Rig { GrabTests.config($0, grab: "grab: {devices: [touchscreen], hold-back: 100ms}") }
        let screen = try rig.plug()
        // 10 mm a frame: a swipe well within 100 ms.
        screen.send(Array(Self.stroke(fingers: 3, steps: 20, stepX: 100).joined()))
        #expect(rig.spin { LiveDeviceTests.read(rig.out) == "next\n" })
        _ = rig.spin { screen.device.passthrough?.state == .resyncing }
        #expect(rig.fake.events().isEmpty, "not a frame of the swipe, so nothing to cancel")
        #expect(screen.device.passthrough?.cancelled == 1)
        #expect(rig.frameWrites(screen) == 0)
    }

    /// What reaches the desktop with 50 ms of hold-back and 10 ms frames: every event,
    /// in fewer writes where frames were held.
    enum HeldStroke: String, CaseIterable {
        /// The first six frames go out together when the sixth arrives, the rest one by one.
        case drag
        /// Down, two frames and the lift, in one write at the lift.
        case tap
        /// No gesture takes four fingers: nothing held.
        case fourFingers

        var frames: [[InputEvent]] {
            switch self {
            case .drag: return GrabTests.stroke(fingers: 1, steps: 30, stepX: 5)
            case .tap: return GrabTests.stroke(fingers: 1, steps: 2, stepX: 0)
            case .fourFingers: return GrabTests.stroke(fingers: 4, steps: 3, stepX: 5)
            }
        }

        var writes: Int {
            switch self {
            case .drag: return frames.count - 5
            case .tap: return 1
            case .fourFingers: return frames.count
            }
        }
    }

    @Test(arguments: HeldStroke.allCases)
    func withHoldBackEveryEventPassesLate(_ stroke: HeldStroke) throws {
        let rig = try Rig(config: Self.holdBackConfig)
        let screen = try rig.plug()
        let (sent, seen) = rig.pass(stroke.frames, through: screen)
        #expect(seen == sent)
        #expect(rig.frameWrites(screen) == stroke.writes)
    }

    @Test func withHoldBackATouchAtRestIsReleasedByTheTimer() throws {
        let rig = try Rig(config: Self.holdBackConfig)
        let screen = try rig.plug()
        let down = Self.stroke(fingers: 1, steps: 1, stepX: 0, lift: false)
        screen.send(down[0])
        var seen: [Record] = []
        #expect(rig.clone(atLeast: down[0].count, &seen), "no frame comes after the first: the daemon's timer releases it")
        #expect(seen == Self.records([down[0]]))
    }
}

extension GrabTests {
    @Test func listDevicesCallsACopyGesturedsOwn() throws {
        let screen = try FakeTouchpad(description: Self.touchscreen)
        let caps = try TouchCapabilities(screen.device.description)
        let reports = [DeviceReport(path: "/dev/input/event5", name: "Fake Touchscreen", status: .used(caps)),
                       DeviceReport(path: "/dev/input/event9", name: "Fake Touchscreen (gestured)", status: .used(caps))]
        let text = ListDevicesCommand.text(reports.map(ListDevicesCommand.ownTouchDevices))
        #expect(text.contains("/dev/input/event5  touchscreen  \"Fake Touchscreen\""))
        #expect(text.contains("/dev/input/event9  not used  \"Fake Touchscreen (gestured)\": gestured's copy of a grabbed device (grab:): the desktop reads it, gestured reads the device itself"), "\(text)")
    }

    @Test func listDevicesCallsTheVirtualTouchpadGesturedsOwn() throws {
        let pad = try FakeTouchpad()
        let caps = try TouchCapabilities(pad.device.description)
        let reports = [DeviceReport(path: "/dev/input/event7", name: "gestured virtual touchpad", status: .used(caps))]
        let text = ListDevicesCommand.text(reports.map(ListDevicesCommand.ownTouchDevices))
        #expect(text.contains("/dev/input/event7  not used  \"gestured virtual touchpad\": gestured's own virtual touchpad: it plays follow bindings here as the desktop's touchpad swipes (not read)"), "\(text)")
    }
}

extension GrabTests {
    @Test func statusSaysWhichDevicesAreGrabbed() throws {
        let rig = try Rig { GrabTests.config($0, grab: "grab: {devices: [touchscreen]}") }
        let screen = try rig.plug()
        let pad = try rig.plug(FakeTouchpad())
        let text = rig.daemon.statusText()
        #expect(text.contains("  \(screen.device.path): touchscreen \"Fake Touchscreen\", grabbed: the desktop reads \"Fake Touchscreen (gestured)\"\n"), "\(text)")
        #expect(text.contains("  \(pad.device.path): touchpad \"Fake Touchpad\"\n"), "\(text)")
        let json = rig.daemon.statusJSON()
        #expect(json.contains("\"grabbed_as\": \"Fake Touchscreen (gestured)\"") || json.contains("\"grabbed_as\":\"Fake Touchscreen (gestured)\""), "\(json)")
        #expect(json.contains("\"grabbed_as\": null") || json.contains("\"grabbed_as\":null"), "\(json)")
    }
}

extension GrabTests {
    /// The kernel sends only what changed: a clone that started from zeros would put a
    /// touch at the same place as the device's last one at y = 0. At the grab the
    /// clone is told where each slot was left.
    @Test func theCloneStartsInTheDevicesState() throws {
        let rig = try Rig { GrabTests.config($0, grab: "") }
        let screen = try rig.plug()
        screen.send(Array(Self.stroke(fingers: 2, steps: 3, stepX: 10).joined()))
        #expect(rig.spin { screen.device.passthrough == nil && (try? screen.read()) != nil })
        rig.dir.write("config.yaml", Self.config(rig.out))
        #expect(rig.daemon.reload(reason: "test"))
        let sync = rig.fake.events()
        func abs(_ code: UInt16, _ v: Int32) -> Record { Record(type: EventType.abs, code: code, value: v) }
        #expect(Array(sync.prefix(4)) == [abs(AbsCode.mtSlot, 0), abs(AbsCode.mtTrackingID, -1), abs(AbsCode.mtPositionX, 130),
                                          abs(AbsCode.mtPositionY, 300)], "\(sync)")
        #expect(sync.contains(abs(AbsCode.mtPositionX, 330)), "slot 1 where the second finger lifted: \(sync)")
        #expect(sync.last == Record(type: EventType.syn, code: SynCode.report, value: 0))
        #expect(!sync.contains(Record(type: EventType.key, code: KeyCode.btnTouch, value: 1)), "nothing is down")
    }
}

extension GrabTests {
    /// Protocol A (no slots, contacts as SYN_MT_REPORT groups): the claimed touches
    /// lift as an empty frame with the buttons up, and nothing follows.
    @Test func aClaimedProtocolASwipeEndsInAnEmptyFrame() throws {
        let rig = try Rig()
        let pad = try rig.plug(FakeTouchpad(description: HostileDeviceTests.protocolAPad))
        var t = Timestamp(microseconds: clinux_monotonic_ns() / 1000 - 500_000)
        for step in 0...20 {
            HostileDeviceTests.frame(pad, [300, 400, 500].map { $0 + Int32(step) * 20 }, at: t)
            t = t.adding(seconds: 0.01)
        }
        HostileDeviceTests.frame(pad, [], at: t)
        #expect(rig.spin { LiveDeviceTests.read(rig.out) == "next\n" })
        var seen: [Record] = []
        _ = rig.spin { seen += rig.fake.events(); return pad.device.passthrough?.state == .resyncing }
        seen += rig.fake.events()
        let cancel = [Record(type: EventType.syn, code: SynCode.mtReport, value: 0),
                      Record(type: EventType.key, code: KeyCode.btnTouch, value: 0),
                      Record(type: EventType.key, code: KeyCode.btnToolTripleTap, value: 0),
                      Record(type: EventType.syn, code: SynCode.report, value: 0)]
        #expect(Array(seen.suffix(4)) == cancel, "\(seen)")
        #expect(seen.count > 4, "the frames before recognition passed")
        #expect(pad.device.passthrough?.cancelled == 1)
    }
}
