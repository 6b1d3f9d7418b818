import GestureConfig
import GestureEngine
import GestureInput
import TouchModel

/// Heap allocations per frame once warm: every buffer has grown to its working size,
/// and the counting passes then replay the same workloads with later timestamps.
struct AllocationCount {
    var frames = 0
    var gestureEvents = 0
    var decoder: UInt64 = 0
    var decoderEngine: UInt64 = 0
    var decoderEngineMapper: UInt64 = 0
    /// Decoder + engine with the tremor filter on (`benchAccessibilityProfile`).
    var decoderEngineTremor: UInt64 = 0

    func perFrame(_ n: UInt64) -> Double { Double(n) / Double(max(frames, 1)) }
    /// Allocations of the engine alone: decoder + engine less decoder.
    var engine: UInt64 { decoderEngine &- decoder }
    var mapper: UInt64 { decoderEngineMapper &- decoderEngine }
    /// Allocations of the engine with the tremor filter: decoder + engine (filter on) less decoder.
    var engineTremor: UInt64 { decoderEngineTremor &- decoder }

    static let warmPasses = 3
    static let countedPasses = 20

    static func measure(_ workloads: [Workload], config: Config) -> AllocationCount {
        var out = AllocationCount()
        // Decoder alone.
        let decoders = workloads.map { $0.makeDecoder() }
        var sum = 0.0
        for pass in 0..<(warmPasses + countedPasses) {
            let before = mallocs()
            for (w, workload) in workloads.enumerated() {
                let offset = Int64(pass) * workload.passSpan
                for var e in workload.events {
                    e.time.microseconds += offset
                    if decoders[w].feed(e) { sum += frameChecksum(decoders[w].framePointer) }
                }
            }
            if pass >= warmPasses { out.decoder += mallocs() - before }
        }
        // Decoder + engine, then with the mapper, then with the tremor filter on.
        for (withMapper, profile) in [(false, AccessibilityProfile()), (true, AccessibilityProfile()), (false, benchAccessibilityProfile)] {
            var lanes = workloads.map { Lane(workload: $0, config: config, profile: profile) }
            var r = Run()
            var counted: UInt64 = 0
            for pass in 0..<(warmPasses + countedPasses) {
                if pass == warmPasses { r = Run() }
                let before = mallocs()
                for w in lanes.indices { lanes[w].replay(pass: pass, mapper: withMapper, into: &r) }
                if pass >= warmPasses { counted += mallocs() - before }
            }
            if !profile.isOff { out.decoderEngineTremor = counted } else if withMapper { out.decoderEngineMapper = counted } else {
                out.decoderEngine = counted
                out.frames = r.frames
                out.gestureEvents = r.gestureEvents
            }
        }
        if sum.isNaN { say("(checksum \(sum))") }
        return out
    }
}
