import TouchModel

/// Velocities are measured over this much recent history (libinput keeps the last
/// few events for the same reason: one frame's delta is too noisy).
let velocityWindow = 0.050 // s
/// Frames further apart than this while fingers move mean they rested in between:
/// velocity then counts from one frame interval before the motion resumed, not from
/// the start of the rest. Touch devices report at 60–250 Hz while fingers move.
let maxMotionFrameGapMicroseconds: Int64 = 25_000

/// The last 16 frames' accumulated translation, scale and rotation, in a fixed ring
/// (no allocation), and where a velocity should be measured from.
///
/// Samples are numbered from the last `clear()` (sample `j` lives at `j & 15`), so
/// the search below steps through plain numbers; times and values are kept apart,
/// so it reads only the times.
struct VelocityHistory {
    private static let capacity = 16
    /// Ring positions wrap with a mask, not `%` with overflow checks.
    private static let mask = 15
    private var times = InlineArray<16, Timestamp>(repeating: Timestamp(microseconds: 0))
    private var values = InlineArray<16, TouchTracker.Accumulated>(repeating: TouchTracker.Accumulated())
    /// Samples recorded since the last `clear()`; the newest is `total - 1`.
    private var total = 0
    /// Samples kept: the oldest is `total - count`.
    private var count = 0
    /// The sample the last `base(at:)` found: time moves forward, so the next search
    /// starts there and moves a step or two, instead of walking back through the
    /// whole window.
    private var last = -1
    @inline(__always)
    mutating func record(_ time: Timestamp, _ value: TouchTracker.Accumulated) {
        let slot = total & Self.mask
        times[slot] = time
        values[slot] = value
        total &+= 1
        count = min(count &+ 1, Self.capacity)
        last = max(last, total &- count)  // unless it dropped out of the ring
    }

    mutating func clear() {
        total = 0
        count = 0
        last = -1
    }

    /// The values velocities at `now` are measured from, and the microseconds since: the
    /// newest sample at least the window old (else the oldest kept). After a rest
    /// (a gap longer than the rest gap before the next sample) the interval counts
    /// from one frame interval before the motion resumed. Microseconds, so that the
    /// rate is one division (`1_000_000 / µs`), not two (seconds, then their inverse).
    ///
    /// `mutating` though it changes nothing but the search's start: Swift 6.3 copies
    /// the whole InlineArray for every element read through a borrowed `self`; through
    /// `inout self` it reads in place (gestured-bench, callgrind).
    @inline(__always)
    /// `timing`: the window and the rest gap, as the engine's timing scales them (the
    /// tracker's; kept out of this struct, whose layout the per-frame search is tuned to).
    mutating func base(at now: Timestamp, _ timing: EngineTiming) -> (TouchTracker.Accumulated, Double)? {
        guard count > 0 else { return nil }
        let cutoff = now.adding(microseconds: -timing.velocitySpanMicroseconds)
        let newest = total &- 1, oldest = total &- count
        // j: the newest sample at or before `cutoff`, else the oldest. Samples are in
        // time order, so those at or before it are all up to some j0, and the two
        // walks find j0 from wherever they start (the last answer: a step or two away).
        var j = min(max(last, oldest), newest)
        while j > oldest && times[j & Self.mask] > cutoff { j &-= 1 }
        while j < newest && times[(j &+ 1) & Self.mask] <= cutoff { j &+= 1 }
        last = j
        let oldTime = times[j & Self.mask], old = values[j & Self.mask]
        guard j < newest else { return (old, Double(now.microseconds &- oldTime.microseconds)) }
        let nextTime = times[(j &+ 1) & Self.mask]
        // In whole microseconds: the same test as in seconds (the gap is a whole number
        // of them), without a division.
        guard nextTime.microseconds &- oldTime.microseconds > timing.restGapMicroseconds else {
            return (old, Double(now.microseconds &- oldTime.microseconds))
        }
        let k = total &- j  // how many samples back, the newest being 1
        let interval = k > 2 ? times[newest & Self.mask].seconds(since: nextTime) / Double(k - 2) : 0.01
        let resumed = nextTime.adding(seconds: -min(interval, Double(timing.restGapMicroseconds) / 1_000_000))
        return (old, Double(now.microseconds &- resumed.microseconds))
    }
}
