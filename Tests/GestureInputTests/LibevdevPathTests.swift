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
