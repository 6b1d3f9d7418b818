import TouchModel

/// The 1€ filter (Casiez, Roussel, Vogel, "1€ Filter: A Simple Speed-based Low-pass
/// Filter for Noisy Input in Interactive Systems", CHI 2012) for one contact's
/// position, mm, written from the paper's equations:
///
/// ```
///  τ = 1 / (2π f_c)              α(T_e, f_c) = 1 / (1 + τ / T_e)
///  ẋ_i  = (x_i − x̂_{i−1}) / T_e       ẋ̂_i = α(T_e, d_cutoff) ẋ_i + (1 − α) ẋ̂_{i−1}
///  f_c  = min_cutoff + β |ẋ̂_i|         x̂_i = α(T_e, f_c) x_i + (1 − α) x̂_{i−1}
/// ```
///
/// A first-order low-pass whose cutoff rises with the (itself smoothed) speed: a
/// finger held still with a tremor is smoothed hard (cutoff `min_cutoff`), a fast
/// stroke passes with little lag (cutoff up by β per mm/s). T_e is the interval
/// between the frames' kernel timestamps, so the filter reads no clock and follows
/// the device's own rate, however uneven.
///
/// One choice of ours: the paper filters each coordinate on its own; here the cutoff
/// comes from the speed of the point (the length of the 2-D velocity), and both axes
/// share it. Per-axis cutoffs lag the slower axis more than the faster one, which
/// turns a diagonal stroke's direction toward its faster axis while it accelerates.
struct OneEuroFilter {
    let settings: TremorFilterSettings
    /// x̂_{i−1} and ẋ̂_{i−1} (mm, mm/s), and when the last sample came.
    private(set) var position = Point.zero
    private var velocity = Point.zero
    private var time = Timestamp(microseconds: 0)
    /// 2π times the cutoffs, where α needs them (`alpha`).
    private let twoPiMinCutoff: Double
    private let twoPiBeta: Double
    private let twoPiDerivativeCutoff: Double

    init(_ settings: TremorFilterSettings) {
        self.settings = settings
        twoPiMinCutoff = 2 * Double.pi * settings.minCutoff
        twoPiBeta = 2 * Double.pi * settings.beta
        twoPiDerivativeCutoff = 2 * Double.pi * settings.derivativeCutoff
    }

    /// Starts over at `p` (the finger has just landed): no history, no lag.
    mutating func reset(to p: Point, at t: Timestamp) {
        position = p
        velocity = .zero
        time = t
    }

    /// The filtered position for the raw `p` at `t`. A sample no later than the last
    /// one (a repeated timestamp) changes nothing: T_e would be 0.
    mutating func filter(_ p: Point, at t: Timestamp) -> Point {
        let us = t.microseconds &- time.microseconds
        guard us > 0 else { return position }
        time = t
        let te = Double(us) * 1e-6
        let raw = (p - position) * (1 / te)
        velocity = velocity + (raw - velocity) * Self.alpha(te * twoPiDerivativeCutoff)
        position = position + (p - position) * Self.alpha(te * (twoPiMinCutoff + twoPiBeta * velocity.length))
        return position
    }

    /// α = 1 / (1 + τ / T_e) with τ = 1 / (2π f_c) (the paper's eq. 3), written as
    /// `w / (1 + w)` with `w = 2π f_c T_e`: one division, where the paper's form takes
    /// three, for every contact of every frame.
    @inline(__always)
    static func alpha(_ w: Double) -> Double { w / (1 + w) }
}

/// A 1€ filter per contact, for the engine's tremor filter: each contact of a frame
/// is smoothed by the filter that followed it in the frames before, found by its
/// tracking id, and a contact that has just landed (an id not seen in the previous
/// frame) starts a filter afresh at its landing point. Every frame must pass through
/// `smooth`, those without contacts too, for "the previous frame" to be the one before. Fixed storage for
/// `ContactList.capacity` contacts: nothing is allocated per frame. A class, so the
/// engine holds it by reference: with the filter off, the engine's one test for it is
/// a pointer's, where an optional of its ~1 KB of state cost a copy on every frame.
final class ContactSmoother {
    @exclusivity(unchecked) private var filters: InlineArray<10, OneEuroFilter>
    /// The tracking id each filter follows (-1: free), and the frame that last used it.
    @exclusivity(unchecked) private var ids = InlineArray<10, Int32>(repeating: -1)
    @exclusivity(unchecked) private var used = InlineArray<10, UInt32>(repeating: .max)
    @exclusivity(unchecked) private var frameNumber: UInt32 = 0
    /// The frame as recognition sees it: the device's, copied in and smoothed; allocated
    /// once, so the engine reads it in place as it reads the decoder's.
    private let smoothed: UnsafeMutablePointer<TouchFrame>

    init(_ settings: TremorFilterSettings) {
        filters = InlineArray(repeating: OneEuroFilter(settings))
        smoothed = .allocate(capacity: 1)
        smoothed.initialize(to: TouchFrame(time: Timestamp(microseconds: 0)))
    }

    deinit {
        smoothed.deinitialize(count: 1)
        smoothed.deallocate()
    }

    /// `frame` smoothed: a copy the smoother keeps until the next call, so the
    /// caller's frame is left as the device reported it.
    func smoothed(_ frame: UnsafePointer<TouchFrame>) -> UnsafePointer<TouchFrame> {
        smoothed.pointee = frame.pointee
        smooth(&smoothed.pointee)
        return UnsafePointer(smoothed)
    }

    /// Smooths the positions (mm) of `frame`'s contacts in place; their `normalized`
    /// positions (edge zones, regions: read where a touch lands, which the filter does
    /// not move) stay as the device reported them.
    func smooth(_ frame: inout TouchFrame) {
        frameNumber &+= 1
        let n = min(frame.contacts.count, 10)
        // Two passes: contacts that were down already keep their filters, then the
        // ones that landed take the filters no contact of this frame follows.
        var fresh: UInt16 = 0
        for i in 0..<n {
            let c = frame.contacts[i]
            if let k = slot(following: c.id) {
                used[k] = frameNumber
                frame.contacts[i].position = filters[k].filter(c.position, at: frame.time)
            } else {
                fresh |= 1 << UInt16(i)
            }
        }
        guard fresh != 0 else { return }
        for i in 0..<n where fresh & (1 << UInt16(i)) != 0 {
            let c = frame.contacts[i]
            var k = 0
            while k < 9 && used[k] == frameNumber { k += 1 }
            ids[k] = c.id
            used[k] = frameNumber
            filters[k].reset(to: c.position, at: frame.time)
        }
    }

    /// The filter that followed contact `id` in the previous frame, if any: a contact
    /// absent from it has landed since (even with an id seen before), and starts over.
    @inline(__always)
    private func slot(following id: Int32) -> Int? {
        for k in 0..<10 where ids[k] == id && used[k] == frameNumber &- 1 { return k }
        return nil
    }
}
