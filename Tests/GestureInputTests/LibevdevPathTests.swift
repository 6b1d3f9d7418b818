import CEvdev
import CFakeEvdevDevice
import GestureInput
import Glibc
import Testing
import TouchModel

/// The real libevdev code path, in-process: a pipe registered with the fake-device
/// ioctl interposer (Tests/Support/CFakeEvdevDevice) looks like a touchpad to
/// libevdev, which reads the events we write into it.
final class FakeTouchpad {
    let readFD: Int32
    var writeFD: Int32
    let device: EvdevDevice

    init(slots: Int32 = 5) throws {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        _ = fcntl(fds[0], F_SETFL, O_NONBLOCK)
        readFD = fds[0]
        writeFD = fds[1]
        try #require(cfake_register(readFD, "Fake Touchpad", 0x18, 0x6cb, 0x1234) == 0)
        cfake_set_property(readFD, UInt32(InputProperty.pointer))
        cfake_set_property(readFD, UInt32(InputProperty.buttonpad))
        for key in [KeyCode.btnLeft, KeyCode.btnTouch, KeyCode.btnToolFinger, KeyCode.btnToolDoubleTap, KeyCode.btnToolTripleTap] {
            cfake_set_code(readFD, UInt32(EventType.key), UInt32(key))
        }
        cfake_set_absinfo(readFD, UInt32(AbsCode.x), 0, 1000, 10)
        cfake_set_absinfo(readFD, UInt32(AbsCode.y), 0, 600, 10)
        cfake_set_absinfo(readFD, UInt32(AbsCode.mtSlot), 0, slots - 1, 0)
        cfake_set_absinfo(readFD, UInt32(AbsCode.mtPositionX), 0, 1000, 10)
        cfake_set_absinfo(readFD, UInt32(AbsCode.mtPositionY), 0, 600, 10)
        cfake_set_absinfo(readFD, UInt32(AbsCode.mtTrackingID), 0, 65535, 0)
        do {
            device = try EvdevDevice(adopting: readFD, path: "fake:\(readFD)", udevProperties: ["ID_INPUT_TOUCHPAD": "1"])
        } catch {
            cfake_unregister(readFD)
            close(writeFD)
            throw error
        }
    }

    deinit {
        cfake_unregister(readFD)
        if writeFD >= 0 { close(writeFD) }
    }

    func send(_ type: UInt16, _ code: UInt16, _ value: Int32, usec: Int = 0) {
        var ev = input_event()
        ev.time.tv_sec = 100
        ev.time.tv_usec = usec
        ev.type = type
        ev.code = code
        ev.value = value
        _ = withUnsafeBytes(of: &ev) { write(writeFD, $0.baseAddress, $0.count) }
    }

    func read() -> (EvdevDevice.ReadResult, [TouchFrame]) {
        var frames: [TouchFrame] = []
        let result = device.readAvailable { frames.append($0) }
        return (result, frames)
    }
}

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
