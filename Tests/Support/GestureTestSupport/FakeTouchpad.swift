import CEvdev
import CFakeEvdevDevice
import GestureInput
import Glibc
import LinuxSystem
import TouchModel

/// The real libevdev code path, in-process: a pipe registered with the fake-device
/// ioctl interposer (Tests/Support/CFakeEvdevDevice) looks like a touchpad to
/// libevdev, which reads the events we write into it.
public final class FakeTouchpad {
    public let readFD: Int32
    public var writeFD: Int32
    public let device: EvdevDevice

    /// A 100 × 60 mm clickpad with `slots` slots, named `name`.
    public convenience init(slots: Int32 = 5, name: String = "Fake Touchpad") throws {
        let abs: [UInt16: AbsInfo] = [
            AbsCode.x: AbsInfo(minimum: 0, maximum: 1000, resolution: 10),
            AbsCode.y: AbsInfo(minimum: 0, maximum: 600, resolution: 10),
            AbsCode.mtSlot: AbsInfo(minimum: 0, maximum: slots - 1),
            AbsCode.mtPositionX: AbsInfo(minimum: 0, maximum: 1000, resolution: 10),
            AbsCode.mtPositionY: AbsInfo(minimum: 0, maximum: 600, resolution: 10),
            AbsCode.mtTrackingID: AbsInfo(minimum: 0, maximum: 65535),
        ]
        try self.init(description: DeviceDescription(
            name: name, id: InputID(bustype: 0x18, vendor: 0x6cb, product: 0x1234),
            properties: [InputProperty.pointer, InputProperty.buttonpad],
            codes: [EventType.key: [KeyCode.btnLeft, KeyCode.btnTouch, KeyCode.btnToolFinger,
                                    KeyCode.btnToolDoubleTap, KeyCode.btnToolTripleTap],
                    EventType.abs: Set(abs.keys)],
            absinfo: abs, udevProperties: ["ID_INPUT_TOUCHPAD": "1"]))
    }

    /// Any device as a description gives it (a recording's header): libevdev sees its
    /// name, ids, properties, codes and axes.
    public init(description d: DeviceDescription) throws {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw Errno.current }
        _ = fcntl(fds[0], F_SETFL, O_NONBLOCK)
        readFD = fds[0]
        writeFD = fds[1]
        guard cfake_register(readFD, d.name, d.id.bustype, d.id.vendor, d.id.product) == 0 else { throw Errno.tooManyOpenFiles }
        for p in d.properties { cfake_set_property(readFD, UInt32(p)) }
        for (type, codes) in d.codes where type != EventType.abs && type != EventType.syn {
            for code in codes { cfake_set_code(readFD, UInt32(type), UInt32(code)) }
        }
        for (code, a) in d.absinfo where d.hasAbs(code) {
            cfake_set_absinfo(readFD, UInt32(code), a.minimum, a.maximum, a.resolution)
            cfake_set_absinfo_noise(readFD, UInt32(code), a.fuzz, a.flat)
        }
        do {
            device = try EvdevDevice(adopting: OwnedFileDescriptor(adopting: readFD), path: "fake:\(readFD)", udevProperties: d.udevProperties)
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
        send([InputEvent(time: time, type: type, code: code, value: value)])
    }

    /// Writes an event stream in one go (the pipe grows to hold it, up to the system's
    /// pipe-max-size): a reader sees all of it in one readable wake-up.
    public func send(_ events: [InputEvent]) {
        let bytes = events.count * MemoryLayout<input_event>.size
        if bytes > fcntl(writeFD, 1032 /* F_GETPIPE_SZ */) {
            _ = fcntl(writeFD, 1031 /* F_SETPIPE_SZ */, Int32(min(bytes, 1 << 20)))
        }
        let raw = events.map(\.kernelEvent)
        raw.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = write(writeFD, buffer.baseAddress! + offset, buffer.count - offset)
                guard n > 0 else { return }
                offset += n
            }
        }
    }

    /// Whether an EVIOCGRAB holds the device now.
    public var grabbed: Bool { cfake_grabbed(readFD) == 1 }

    /// EVIOCGRAB fails with `err` from now on (EBUSY: another program has it); 0 clears.
    public func failGrab(_ err: Int32) { cfake_set_grab_error(readFD, err) }

    public func read() -> (EvdevDevice.ReadResult, [TouchFrame]) {
        var frames: [TouchFrame] = []
        let result = device.readAvailable { frames.append($0.pointee) }
        return (result, frames)
    }
}

