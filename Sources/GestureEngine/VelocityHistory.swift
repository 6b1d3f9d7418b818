import TouchModel

/// Velocities are measured over this much recent history (libinput keeps the last
/// few events for the same reason: one frame's delta is too noisy).
let velocityWindow = 0.050 // s
/// Frames further apart than this while fingers move mean they rested in between:
/// velocity then counts from one frame interval before the motion resumed, not from
/// the start of the rest. Touch devices report at 60–250 Hz while fingers move.
let maxMotionFrameGap = 0.025 // s

/// The last 16 frames' accumulated translation, scale and rotation, in a fixed ring
/// (no allocation), and where a velocity should be measured from.
struct VelocityHistory {
    private struct Sample {
        var time: Timestamp
        var value: TouchTracker.Accumulated
    }

    private static let capacity = 16
    /// Ring positions wrap with a mask, not `%` with overflow checks (a third of a
    /// search's instructions were those checks).
    private static let mask = 15
    private var samples = InlineArray<16, Sample>(repeating: Sample(time: Timestamp(microseconds: 0),
                                                                    value: TouchTracker.Accumulated()))
    private var head = 0
    private var count = 0
    /// Where the last `base(at:)` found its sample (1-based from the newest): time
    /// moves forward, so the next search starts there and moves a step or two, instead
    /// of walking back through the whole window.
    private var lastK = 1

    mutating func record(_ time: Timestamp, _ value: TouchTracker.Accumulated) {
        samples[head] = Sample(time: time, value: value)
        head = (head &+ 1) & Self.mask
        count = min(count &+ 1, Self.capacity)
        lastK = min(lastK &+ 1, count)  // the same sample is one older now
    }

    mutating func clear() {
        count = 0
        lastK = 1
    }

    /// The values velocities at `now` are measured from, and the seconds since: the
    /// newest sample at least `velocityWindow` old (else the oldest kept). After a rest
    /// (a gap longer than `maxMotionFrameGap` before the next sample) the seconds count
    /// from one frame interval before the motion resumed.
    ///
    /// `mutating` though it changes nothing: Swift 6.3 copies the whole InlineArray for
    /// every element read through a borrowed `self` (640 bytes, k + 3 times a frame);
    /// through `inout self` it reads in place (gestured-bench, callgrind).
    mutating func base(at now: Timestamp) -> (TouchTracker.Accumulated, Double)? {
        guard count > 0 else { return nil }
        let cutoff = now.adding(seconds: -velocityWindow)
        // k: the newest sample at or before `cutoff`, else the oldest. Samples are in
        // time order, so those at or before it are all k from some k0 on, and the two
        // walks find k0 from wherever they start (the last answer: a step or two away).
        var k = min(max(lastK, 1), count)
        while k < count && sample(k).time > cutoff { k &+= 1 }
        while k > 1 && sample(k &- 1).time <= cutoff { k &-= 1 }
        lastK = k
        let old = sample(k)
        guard k > 1 else { return (old.value, now.seconds(since: old.time)) }
        let next = sample(k &- 1), newest = sample(1)
        guard next.time.seconds(since: old.time) > maxMotionFrameGap else {
            return (old.value, now.seconds(since: old.time))
        }
        let interval = k > 2 ? newest.time.seconds(since: next.time) / Double(k - 2) : 0.01
        let resumed = next.time.adding(seconds: -min(interval, maxMotionFrameGap))
        return (old.value, now.seconds(since: resumed))
    }

    /// The `k`-th newest sample, 1-based (k in 1...16).
    @inline(__always)
    private mutating func sample(_ k: Int) -> Sample { samples[(head &- k) & Self.mask] }
}
