import CEvdev
import CFakeEvdevDevice
import GestureInput
import GestureTestSupport
import Glibc
import Testing
import TouchModel

/// The real libevdev code path, in-process, through `FakeTouchpad`.
@Suite(.serialized) struct LibevdevPathTests {
    @Test func libevdevDescribesTheFakeDevice() throws {
        let pad = try FakeTouchpad()
        #expect(cfake_ioctl_count(pad.readFD) > 10, "libevdev queried the device through ioctl")
        #expect(pad.device.description.name == "Fake Touchpad")
        #expect(pad.device.info.kind == .touchpad)
        #expect(pad.device.info.isClickpad)
        #expect(pad.device.info.size == Size(width: 100, height: 60))
        #expect(pad.device.decoder.capabilities.slotCount == 5)
    }

    @Test func framesComeThroughLibevdev() throws {
        let pad = try FakeTouchpad()
        pad.send(EventType.abs, AbsCode.mtSlot, 0)
        pad.send(EventType.abs, AbsCode.mtTrackingID, 1)
        pad.send(EventType.abs, AbsCode.mtPositionX, 300)
        pad.send(EventType.abs, AbsCode.mtPositionY, 200)
        pad.send(EventType.key, KeyCode.btnTouch, 1)
        pad.send(EventType.syn, SynCode.report, 0)
        pad.send(EventType.abs, AbsCode.mtPositionX, 350, usec: 10_000)
        pad.send(EventType.syn, SynCode.report, 0, usec: 10_000)
        let (result, frames) = pad.read()
        #expect(result == .drained)
        #expect(frames.count == 2)
        #expect(frames.map(\.fingerCount) == [1, 1])
        #expect(frames[1].contacts[0].position == Point(x: 35, y: 20))
        #expect(frames[1].time == Timestamp(microseconds: 100_010_000))
    }

    @Test func synDroppedMakesLibevdevResyncAndFlagsTheFrame() throws {
        let pad = try FakeTouchpad()
        pad.send(EventType.abs, AbsCode.mtSlot, 0)
        pad.send(EventType.abs, AbsCode.mtTrackingID, 1)
        pad.send(EventType.abs, AbsCode.mtPositionX, 300)
        pad.send(EventType.abs, AbsCode.mtPositionY, 200)
        pad.send(EventType.syn, SynCode.report, 0)
        _ = pad.read()
        // While events were lost the finger moved and a second one landed: the kernel
        // state the fake now reports is what libevdev must resync to.
        cfake_set_slot_value(pad.readFD, 0, UInt32(AbsCode.mtTrackingID), 1)
        cfake_set_slot_value(pad.readFD, 0, UInt32(AbsCode.mtPositionX), 500)
        cfake_set_slot_value(pad.readFD, 0, UInt32(AbsCode.mtPositionY), 200)
        cfake_set_slot_value(pad.readFD, 1, UInt32(AbsCode.mtTrackingID), 2)
        cfake_set_slot_value(pad.readFD, 1, UInt32(AbsCode.mtPositionX), 700)
        cfake_set_slot_value(pad.readFD, 1, UInt32(AbsCode.mtPositionY), 300)
        pad.send(EventType.syn, SynCode.dropped, 0, usec: 50_000)
        let (result, frames) = pad.read()
        #expect(result == .drained)
        let synced = try #require(frames.last)
        #expect(synced.flags.contains(.resynced))
        #expect(synced.fingerCount == 2)
        #expect(synced.contacts.map(\.position.x).sorted() == [50, 70])
    }

    @Test func aClosedPipeIsNotATrap() throws {
        let pad = try FakeTouchpad()
        close(pad.writeFD)
        pad.writeFD = -1
        let (result, frames) = pad.read()
        #expect(frames.isEmpty)
        #expect(result == .drained)
    }
}

/// `gestured record`'s path: raw events from libevdev, written as libinput-record YAML,
/// read back as the same events.
@Suite(.serialized) struct RecordPathTests {
    @Test func whatIsRecordedReplaysAsTheSameEvents() throws {
        let pad = try FakeTouchpad()
        pad.send(EventType.abs, AbsCode.mtSlot, 0)
        pad.send(EventType.abs, AbsCode.mtTrackingID, 9)
        pad.send(EventType.abs, AbsCode.mtPositionX, 250)
        pad.send(EventType.abs, AbsCode.mtPositionY, 120)
        pad.send(EventType.syn, SynCode.report, 0)
        pad.send(EventType.abs, AbsCode.mtTrackingID, -1, usec: 30_000)
        pad.send(EventType.syn, SynCode.report, 0, usec: 30_000)
        var text = RecordingWriter.header(for: pad.device.description, node: "/dev/input/event9")
        var writer = RecordingWriter()
        var raw: [InputEvent] = []
        #expect(pad.device.readRaw { e in
            raw.append(e)
            if let group = writer.add(e) { text += group }
        } == .drained)
        #expect(raw.count == 7)
        let path = "/tmp/gestured-record-\(getpid()).yaml"
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        _ = text.withCString { write(fd, $0, strlen($0)) }
        close(fd)
        defer { unlink(path) }
        let back = try Recording.load(path: path)
        #expect(back.device.name == "Fake Touchpad")
        #expect(back.device.udevProperties == ["ID_INPUT_TOUCHPAD": "1"])
        #expect(back.events.map { [$0.type, $0.code] } == raw.map { [$0.type, $0.code] })
        #expect(back.events.map(\.value) == raw.map(\.value))
        #expect(Array(back.events).last!.time.microseconds == 30_000)
        let frames = try Recordings.framesOf(back)
        #expect(frames.map(\.fingerCount) == [1, 0])
        #expect(frames[0].contacts[0].position == Point(x: 25, y: 12))
    }
}
