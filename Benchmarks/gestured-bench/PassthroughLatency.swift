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

    /// The grabbed fake device, its engine, and a frame-at-a-time feed: the daemon's
    /// per-frame path with nothing else around it.
    private final class Grabbed {
        let pad: FakeTouchpad
        let null: Int32
        let passthrough: Passthrough
        let engine: GestureEngine
        var gestures: [GestureEvent] = []

        init(_ recording: Workload, _ config: Config) {
            do { pad = try FakeTouchpad(description: recording.device) } catch { fail("fake device: \(error)") }
            null = open("/dev/null", O_WRONLY | O_CLOEXEC)
            guard null >= 0, cfake_uinput_register(null) == 0 else { fail("cannot make the fake uinput device") }
            let null = self.null
            do {
                try pad.device.grab { d throws(CloneDevice.Failure) in try CloneDevice(of: d, open: { _ in null }) }
            } catch { fail("grab: \(error)") }
            guard let p = pad.device.passthrough else { fail("no passthrough after the grab") }
            passthrough = p
            engine = GestureEngine(device: pad.device.info, specs: config.specs, explains: false)
            gestures.reserveCapacity(16)
        }

        deinit {
            pad.device.ungrab()
            cfake_uinput_unregister(null)
            close(null)
        }

        /// One frame through: read, decoded, seen by the engine (a claim as the daemon
        /// makes it), passed on or not.
        func feed(_ frame: [InputEvent]) {
            pad.send(frame)
            _ = pad.device.readAvailable { touch in
                engine.process(touch, into: &gestures)
                if gestures.contains(where: { $0.phase == .began || $0.phase == .recognized }) { passthrough.claim() }
                gestures.removeAll(keepingCapacity: true)
            }
        }
    }

    /// The recording's frames, pass after pass, each pass later than the one before.
    private func frames(passes: ClosedRange<Int64>) -> some Sequence<[InputEvent]> {
        let frames = Self.frames(recording.events)
        return passes.lazy.flatMap { pass in
            frames.lazy.map { $0.map { var e = $0; e.time = Timestamp(microseconds: e.time.microseconds + pass * recording.passSpan); return e } }
        }
    }

    /// Microseconds per frame passed through, over `frames` frames of the recording
    /// played again and again.
    func measure(frames count: Int) -> [Double] {
        let g = Grabbed(recording, config)
        var out: [Double] = []
        out.reserveCapacity(count)
        for frame in frames(passes: 0...Int64.max) {
            guard out.count < count else { break }
            let writes = g.passthrough.clone.writes
            let t0 = nowNS()
            g.feed(frame)
            let t1 = nowNS()
            if g.passthrough.clone.writes > writes { out.append(Double(t1 - t0) / 1e3) }
        }
        return out
    }

    /// What `hold-back:` costs the touches that are not gestures: for each frame the
    /// desktop gets, how much later (ms, in the recording's time) it is written than
    /// without hold-back. A hold-back ending between frames is released at its
    /// deadline, as the daemon's timer does. One pass of the recording; frames of a
    /// claimed sequence are not counted.
    func holdBackDelays(milliseconds: Int) -> (delays: [Double], frames: Int) {
        let g = Grabbed(recording, config)
        g.passthrough.holdBack = Passthrough.HoldBack(microseconds: Int64(milliseconds) * 1000,
                                                      maxFingers: config.maximumFingers(on: g.pad.device.info))
        var delays: [Double] = []
        var pending: [Int64] = []
        var count = 0
        func written(at t: Int64) {
            delays += pending.map { Double(t - $0) / 1000 }
            pending.removeAll()
        }
        for frame in frames(passes: 0...0) {
            let t = frame.last!.time.microseconds
            if let due = g.passthrough.deadline, due.microseconds <= t {
                g.passthrough.timerFired(at: due)
                written(at: due.microseconds)
            }
            let writes = g.passthrough.clone.writes
            g.feed(frame)
            count += 1
            pending.append(t)
            if g.passthrough.clone.writes > writes {
                written(at: t)
            } else if g.passthrough.deadline == nil {
                pending.removeAll()  // claimed: never written
            }
        }
        return (delays, count)
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
