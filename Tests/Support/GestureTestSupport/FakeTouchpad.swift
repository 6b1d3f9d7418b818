import CEvdev
import CFakeEvdevDevice
import GestureInput
import Glibc
import TouchModel

/// The real libevdev code path, in-process: a pipe registered with the fake-device
/// ioctl interposer (Tests/Support/CFakeEvdevDevice) looks like a touchpad to
/// libevdev, which reads the events we write into it.
public final class FakeTouchpad {
    public let readFD: Int32
    public var writeFD: Int32
    public let device: EvdevDevice

    /// `slots: 0` makes a protocol-A pad (no `ABS_MT_SLOT`, contacts ended by
    /// `SYN_MT_REPORT`), which the decoder reads through libmtdev.
    public init(slots: Int32 = 5) throws {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw SystemError(errno) }
        _ = fcntl(fds[0], F_SETFL, O_NONBLOCK)
        readFD = fds[0]
        writeFD = fds[1]
        guard cfake_register(readFD, "Fake Touchpad", 0x18, 0x6cb, 0x1234) == 0 else { throw SystemError(EMFILE) }
        cfake_set_property(readFD, UInt32(InputProperty.pointer))
        cfake_set_property(readFD, UInt32(InputProperty.buttonpad))
        for key in [KeyCode.btnLeft, KeyCode.btnTouch, KeyCode.btnToolFinger, KeyCode.btnToolDoubleTap, KeyCode.btnToolTripleTap] {
            cfake_set_code(readFD, UInt32(EventType.key), UInt32(key))
        }
        cfake_set_absinfo(readFD, UInt32(AbsCode.x), 0, 1000, 10)
        cfake_set_absinfo(readFD, UInt32(AbsCode.y), 0, 600, 10)
        cfake_set_absinfo(readFD, UInt32(AbsCode.mtPositionX), 0, 1000, 10)
        cfake_set_absinfo(readFD, UInt32(AbsCode.mtPositionY), 0, 600, 10)
        if slots > 0 {
            cfake_set_absinfo(readFD, UInt32(AbsCode.mtSlot), 0, slots - 1, 0)
            cfake_set_absinfo(readFD, UInt32(AbsCode.mtTrackingID), 0, 65535, 0)
        } else {
            cfake_set_absinfo(readFD, UInt32(AbsCode.mtTouchMajor), 0, 255, 0)
        }
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

    /// Writes one event stamped 100 s + `usec`.
    public func send(_ type: UInt16, _ code: UInt16, _ value: Int32, usec: Int = 0) {
        send(type, code, value, at: Timestamp(microseconds: 100_000_000 + Int64(usec)))
    }

    /// Writes one event stamped `time` (CLOCK_MONOTONIC µs for a daemon reading it live).
    public func send(_ type: UInt16, _ code: UInt16, _ value: Int32, at time: Timestamp) {
        var ev = input_event()
        ev.time.tv_sec = Int(time.microseconds / 1_000_000)
        ev.time.tv_usec = Int(time.microseconds % 1_000_000)
        ev.type = type
        ev.code = code
        ev.value = value
        _ = withUnsafeBytes(of: &ev) { write(writeFD, $0.baseAddress, $0.count) }
    }

    public func read() -> (EvdevDevice.ReadResult, [TouchFrame]) {
        var frames: [TouchFrame] = []
        let result = device.readAvailable { frames.append($0) }
        return (result, frames)
    }
}

