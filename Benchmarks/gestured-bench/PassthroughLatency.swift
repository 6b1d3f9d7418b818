import CFakeEvdevDevice
import GestureConfig
import GestureEngine
import GestureInput
import GestureTestSupport
import Glibc
import TouchModel

/// A grabbed device's frame, from libevdev reading its first event to the clone's
/// write(2) of it returning: EvdevDevice.readAvailable → decoder → engine (the bench's
/// 20 gestures) → Passthrough → CloneDevice, the daemon's path with `grab:` on. The
/// device is the fake one the tests use (the real libevdev reading a pipe whose ioctls
/// are answered in-process), the clone writes to /dev/null registered with the fake
/// uinput. Each sample is one readAvailable over one frame written to the pipe just
/// before, so it also holds the read(2) that finds the pipe drained. Only frames
/// passed to the clone count (a claimed sequence writes nothing until its lift).
struct PassthroughLatency {
    let recording: Workload
    let config: Config

    /// Microseconds per frame passed through, over `frames` frames of the recording
    /// played again and again (each pass later than the one before).
    func measure(frames count: Int) -> [Double] {
        let pad: FakeTouchpad
        do { pad = try FakeTouchpad(description: recording.device) } catch { fail("fake device: \(error)") }
        let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
        guard null >= 0, cfake_uinput_register(null) == 0 else { fail("cannot make the fake uinput device") }
        defer {
            cfake_uinput_unregister(null)
            close(null)
        }
        let device = pad.device
        do {
            try device.grab { d throws(CloneDevice.Failure) in try CloneDevice(of: d, open: { _ in null }) }
        } catch { fail("grab: \(error)") }
        guard let passthrough = device.passthrough else { fail("no passthrough after the grab") }
        defer { device.ungrab() }
        let engine = GestureEngine(device: device.info, specs: config.specs)
        var gestures: [GestureEvent] = []
        gestures.reserveCapacity(16)
        let frames = Self.frames(recording.events)
        var out: [Double] = []
        out.reserveCapacity(count)
        var pass: Int64 = 0
        while out.count < count {
            for frame in frames where out.count < count {
                pad.send(frame.map { var e = $0; e.time = Timestamp(microseconds: e.time.microseconds + pass * recording.passSpan); return e })
                let writes = passthrough.clone.writes
                let t0 = nowNS()
                _ = device.readAvailable { touch in
                    engine.process(touch, into: &gestures)
                    if gestures.contains(where: { $0.phase == .began || $0.phase == .recognized }) { passthrough.claim() }
                    gestures.removeAll(keepingCapacity: true)
                }
                let t1 = nowNS()
                if passthrough.clone.writes > writes { out.append(Double(t1 - t0) / 1e3) }
            }
            pass += 1
        }
        return out
    }

    /// The recording cut at each SYN_REPORT.
    static func frames(_ events: [InputEvent]) -> [[InputEvent]] {
        var out: [[InputEvent]] = []
        var frame: [InputEvent] = []
        for e in events {
            frame.append(e)
            if e.type == EventType.syn && e.code == SynCode.report {
                out.append(frame)
                frame = []
            }
        }
        return out
    }
}
