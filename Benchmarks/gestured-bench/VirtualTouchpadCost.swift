import CFakeEvdevDevice
import GestureActions
import Glibc
import TouchModel

/// The virtual touchpad's share of a `follow` frame (issue 34): `move(to:at:)` to its
/// frame written (one write(2), to /dev/null registered with the fake uinput, which
/// answers the UI_* ioctls in-process), and the heap allocations per frame once warm.
/// Each gesture is 4 fingers landing and pre-rolling, 100 moves a 120 Hz source apart
/// (36 mm/s: no frame is held back), and a spring-back.
struct VirtualTouchpadCost {
    var microseconds: [Double] = []
    var frames = 0
    var allocations: UInt64 = 0
    var allocationsPerFrame: Double { Double(allocations) / Double(max(frames, 1)) }

    static let movesPerGesture = 100
    static let warmGestures = 5

    static func report(gestures: Int) {
        say("== virtual touchpad (follow, issue 34): move(to:at:) → its frame written to the fake uinput (in-process)")
        let c = measure(gestures: gestures)
        say("\(c.microseconds.count) moves, \(c.frames) frames: p50 \(median(c.microseconds).fixed(2)) µs, p99 \(percentile(c.microseconds, 99).fixed(2)) µs; "
            + "allocations/frame \(c.allocationsPerFrame.fixed(4))")
    }

    static func measure(gestures: Int) -> VirtualTouchpadCost {
        let fd = open("/dev/null", O_WRONLY | O_CLOEXEC)
        guard fd >= 0, cfake_uinput_register(fd) == 0 else { fail("cannot make the fake uinput device") }
        defer { cfake_uinput_unregister(fd); close(fd) }
        let pad: VirtualTouchpad
        do { pad = try VirtualTouchpad(open: { _ in fd }) } catch { fail("VirtualTouchpad: \(error)") }
        var out = VirtualTouchpadCost()
        out.microseconds.reserveCapacity(gestures * movesPerGesture)
        var time = Timestamp(microseconds: 1_000_000)
        func runTimer() {
            while let due = pad.deadline {
                time = due
                pad.timerFired(at: due)
            }
        }
        for g in 0..<(warmGestures + gestures) {
            let counted = g >= warmGestures
            pad.begin(fingers: 4, axis: .horizontal, sign: .plus, at: time)
            runTimer()
            let writes = pad.writes
            let before = mallocs()
            for k in 1...movesPerGesture {
                time.microseconds += 8_333
                let t0 = nowNS()
                pad.move(to: 0.3 * Double(k), at: time)
                let t1 = nowNS()
                if counted { out.microseconds.append(Double(t1 - t0) / 1e3) }
            }
            if counted {
                out.allocations += mallocs() - before
                out.frames += pad.writes - writes
            }
            pad.end(commit: false, at: time)
            runTimer()
            time.microseconds += 100_000
        }
        if pad.failure != nil { fail("VirtualTouchpad: \(pad.failure!)") }
        return out
    }
}
