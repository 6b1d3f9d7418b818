/// Which lines one reader of the event stream gets, at the rate it asked for
/// (docs/CONTROL.md, "Rates, slow readers and caps"): per device, a frame once 1/rate s
/// of the frames' own time has passed since the last one it got, and always one whose
/// finger count changed or that carries flags; a gesture's `changed` line only with
/// its frame; a gesture's progress only with a frame it got, and only when it changed
/// since the last it got. The daemon's JSON subscribers and a shared reader
/// (`SharedStreamReader`) each keep one, so both get the same lines.
package struct StreamPacing {
    /// Least time between two frames of one device, µs.
    package let interval: Int64
    private var clocks: [Clock] = []

    private struct Clock {
        var device: String
        var sentAt: Int64
        var fingers: Int
        var newest: Int64
        var tookNewest: Bool
        /// Per spec index, the progress last sent, in thousandths (0 until one is).
        var progress: [Int] = []
    }

    package init(rate: Int) { interval = 1_000_000 / Int64(max(1, rate)) }

    /// Whether the reader gets this frame (and counts it as the device's newest).
    package mutating func takes(time t: Int64, fingers: Int, flagged: Bool, device: String) -> Bool {
        guard let i = clocks.firstIndex(where: { $0.device == device }) else {
            clocks.append(Clock(device: device, sentAt: t, fingers: fingers, newest: t, tookNewest: true))
            return true
        }
        // In place: a copy of the clock (its device, its progress) cost more than the rest.
        let interval = interval
        return clocks.withUnsafeMutableBufferPointer { b in
            let take = fingers != b[i].fingers || flagged || t - b[i].sentAt >= interval || t < b[i].sentAt
            b[i].newest = t
            b[i].tookNewest = take
            if take {
                b[i].sentAt = t
                b[i].fingers = fingers
            }
            return take
        }
    }

    /// Whether the device's newest frame is the one at `t`, and the reader got it.
    package func took(device: String, at t: Int64) -> Bool {
        clocks.contains { $0.device == device && $0.newest == t && $0.tookNewest }
    }

    /// Whether a `changed` gesture line at `t` is left out: its frame came and the
    /// reader did not get it.
    package func skipsChange(device: String, at t: Int64) -> Bool {
        clocks.contains { $0.device == device && $0.newest == t && !$0.tookNewest }
    }

    /// Whether the progress `q` (thousandths) of the gesture at `index` of `count`
    /// differs from the last one the reader got, for the frame at `t`, which it must
    /// have got. A different `count` is a new engine: everything starts from 0.
    package mutating func progressIsNew(device: String, at t: Int64, index: Int, count: Int, q: Int) -> Bool {
        guard let c = clocks.firstIndex(where: { $0.device == device }), clocks[c].newest == t, clocks[c].tookNewest,
              index >= 0, index < count else { return false }
        if clocks[c].progress.count != count { clocks[c].progress = Array(repeating: 0, count: count) }
        return clocks[c].progress[index] != q
    }

    /// The reader got the progress `q` of the gesture at `index` (after `progressIsNew`).
    package mutating func sent(progress q: Int, device: String, index: Int) {
        guard let c = clocks.firstIndex(where: { $0.device == device }), index < clocks[c].progress.count else { return }
        clocks[c].progress[index] = q
    }
}
