import GestureInput
import Glibc
import TouchModel

/// A recording as a person with a motor impairment performs the same gestures
/// (issue 36): every instant `slowdown` times further from the first frame, and a hand
/// tremor added: every contact of the hand moved together by `amplitudeMM` along one
/// slanted axis, `sin(2π f t + phase)` at `hz`, rounded to whole device units (the
/// device's resolution) as the device would report it.
///
/// A slowed hand on a real device is still sampled at the device's rate, so frames
/// are added where the stretch opened gaps: while fingers are down, one every original
/// frame interval (the recording's median), each contact placed on the straight line
/// between its positions in the frames around it (a contact only in the earlier frame
/// stays where it was). The tremor is added to every frame, the added ones too.
public struct SlowShakyHand: Sendable {
    public var slowdown = 2.5
    public var hz = 5.0
    public var amplitudeMM = 1.0
    /// Fixed, so every run sees the same hand.
    public var phase = 0.7
    /// The tremor's axis, degrees from +x (+y down): a hand shakes along no one axis
    /// of the pad.
    public var axisDegrees = 30.0

    public init() {}

    /// The frames of `recording`, slowed and shaking.
    public func frames(of recording: Recording) throws -> [TouchFrame] {
        let decoder = try TouchDecoder(description: recording.device)
        let original = try Recordings.framesOf(recording)
        return transform(original, xUnitsPerMM: decoder.capabilities.xUnitsPerMM, yUnitsPerMM: decoder.capabilities.yUnitsPerMM)
    }

    public func transform(_ original: [TouchFrame], xUnitsPerMM: Double, yUnitsPerMM: Double) -> [TouchFrame] {
        guard let first = original.first else { return [] }
        let start = first.time.microseconds
        let interval = Self.medianInterval(original)
        func stretched(_ t: Timestamp) -> Int64 { start + Int64((Double(t.microseconds - start) * slowdown).rounded()) }
        var out: [TouchFrame] = []
        for (i, f) in original.enumerated() {
            var frame = f
            frame.time = Timestamp(microseconds: stretched(f.time))
            out.append(shaken(frame, xUnitsPerMM, yUnitsPerMM, start))
            guard i + 1 < original.count, f.fingerCount > 0, f.flags.isEmpty else { continue }
            let next = original[i + 1], nextTime = stretched(next.time)
            var t = frame.time.microseconds + interval
            while t < nextTime - interval / 2 {
                var added = f
                added.time = Timestamp(microseconds: t)
                let share = Double(t - frame.time.microseconds) / Double(nextTime - frame.time.microseconds)
                for k in added.contacts.indices {
                    guard let later = next.contacts.contact(withID: added.contacts[k].id) else { continue }
                    let p = added.contacts[k].position
                    added.contacts[k].position = p + (later.position - p) * share
                }
                out.append(shaken(added, xUnitsPerMM, yUnitsPerMM, start))
                t += interval
            }
        }
        return out
    }

    /// The frame with the tremor's displacement at its instant added to every contact.
    private func shaken(_ f: TouchFrame, _ xUnitsPerMM: Double, _ yUnitsPerMM: Double, _ start: Int64) -> TouchFrame {
        var f = f
        let t = Double(f.time.microseconds - start) / 1_000_000
        let d = amplitudeMM * sin(2 * Double.pi * hz * t + phase)
        let angle = axisDegrees * Double.pi / 180
        // Whole device units, as the device would report the displaced finger.
        let dx = (d * cos(angle) * xUnitsPerMM).rounded() / xUnitsPerMM
        let dy = (d * sin(angle) * yUnitsPerMM).rounded() / yUnitsPerMM
        for k in f.contacts.indices { f.contacts[k].position = f.contacts[k].position + Point(x: dx, y: dy) }
        return f
    }

    /// The recording's usual frame interval while fingers move, µs (at least 4 ms, at
    /// most 25 ms: a touch device's report rate).
    static func medianInterval(_ frames: [TouchFrame]) -> Int64 {
        var gaps: [Int64] = []
        for i in 1..<max(1, frames.count) where frames[i - 1].fingerCount > 0 {
            gaps.append(frames[i].time.microseconds - frames[i - 1].time.microseconds)
        }
        gaps.sort()
        let median = gaps.isEmpty ? 10_000 : gaps[gaps.count / 2]
        return min(max(median, 4_000), 25_000)
    }
}
