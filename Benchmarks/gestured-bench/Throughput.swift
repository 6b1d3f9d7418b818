import CBenchFloor
import DaemonCore
import GestureActions
import GestureConfig
import GestureEngine
import GestureInput
import TouchModel

/// A set of workloads looped until at least `targetEvents` events have gone through.
struct EventStream {
    let name: String
    let workloads: [Workload]
    let passes: Int
    var eventsPerPass: Int { workloads.reduce(0) { $0 + $1.events.count } }
    var totalEvents: Int { eventsPerPass * passes }

    init(name: String, workloads: [Workload], targetEvents: Int) {
        self.name = name
        self.workloads = workloads
        let perPass = workloads.reduce(0) { $0 + $1.events.count }
        passes = max(1, (targetEvents + perPass - 1) / perPass)
    }
}

/// What one timed run did: its time, the events and frames it handled, and a
/// checksum that keeps the work from being optimised away.
struct Run {
    var ns: Int64 = 0
    var events = 0
    var frames = 0
    var gestureEvents = 0
    var invocations = 0
    var checksum = 0.0
    var nsPerEvent: Double { Double(ns) / Double(max(events, 1)) }
    var eventsPerSecond: Double { Double(events) / (Double(ns) / 1e9) }
}

/// The stages measured, each over the same events.
enum Stage: String, CaseIterable {
    /// C: TouchDecoder's work as a plain C loop (floor.c), its check of each event
    /// against the device's declared codes included.
    case cFloor = "C floor (decode to slot state + frame)"
    /// The same without that check, as the floor was before issue 10 made the decoder
    /// check: kept so the ratios stay comparable with earlier figures.
    case cFloorUnchecked = "C floor without the declared-code check"
    case decoder = "TouchDecoder"
    /// Decoder + GestureEngine (20 gestures), deadlines fired as the daemon's timer would.
    case pipeline = "decoder + engine"
    /// The same plus ActionMapper building each command's invocation (none is run).
    case pipelineMapper = "decoder + engine + mapper"
    /// Decoder + engine with issue 36's accessibility profile (`timing-scale: 2.5`,
    /// `tremor-filter: true`): the 1€ filter on every contact of every frame.
    case pipelineTremor = "decoder + engine, tremor filter on"
}

/// The profile `.pipelineTremor` runs with (issue 36's example).
let benchAccessibilityProfile: AccessibilityProfile = {
    var p = AccessibilityProfile()
    p.timingScale = 2.5
    p.tremorFilter = TremorFilterSettings()
    return p
}()

struct Throughput {
    let config: Config

    func run(_ stage: Stage, _ stream: EventStream) -> Run {
        switch stage {
        case .cFloor: return cFloor(stream, checked: true)
        case .cFloorUnchecked: return cFloor(stream, checked: false)
        case .decoder: return decoderOnly(stream)
        case .pipeline: return pipeline(stream, mapper: false)
        case .pipelineMapper: return pipeline(stream, mapper: true)
        case .pipelineTremor: return pipeline(stream, mapper: false, profile: benchAccessibilityProfile)
        }
    }

    func cFloor(_ stream: EventStream, checked: Bool) -> Run {
        let floors = Floors(stream)
        var r = Run()
        let start = nowNS()
        for pass in 0..<stream.passes { floors.feed(pass: pass, checked: checked, into: &r) }
        r.ns = nowNS() - start
        r.events = stream.totalEvents
        return r
    }

    func decoderOnly(_ stream: EventStream) -> Run {
        let decoders = stream.workloads.map { $0.makeDecoder() }
        var r = Run()
        let start = nowNS()
        for pass in 0..<stream.passes {
            for (w, workload) in stream.workloads.enumerated() {
                let decoder = decoders[w]
                let offset = Int64(pass) * workload.passSpan
                var frames = 0, sum = 0.0
                for var e in workload.events {
                    e.time.microseconds += offset
                    if decoder.feed(e) {
                        frames += 1
                        sum += frameChecksum(decoder.framePointer)
                    }
                }
                r.frames += frames
                r.checksum += sum
            }
        }
        r.ns = nowNS() - start
        r.events = stream.totalEvents
        return r
    }

    func pipeline(_ stream: EventStream, mapper withMapper: Bool, profile: AccessibilityProfile = AccessibilityProfile()) -> Run {
        var lanes = stream.workloads.map { Lane(workload: $0, config: config, profile: profile) }
        var r = Run()
        let start = nowNS()
        for pass in 0..<stream.passes {
            for w in lanes.indices {
                lanes[w].replay(pass: pass, mapper: withMapper, into: &r)
            }
        }
        r.ns = nowNS() - start
        r.events = stream.totalEvents
        return r
    }
}

extension Throughput {
    /// The checked C floor and decoder + engine over the same stream, a pass of one and
    /// then a pass of the other in turn, each timed on its own: both sample the
    /// machine's speed at the same moments, where a run of each (a second or so apart)
    /// can land on a faster or slower stretch of a shared machine. Returns their time
    /// per event over the whole stream. `profile`: the engine's accessibility profile.
    func interleaved(_ stream: EventStream, profile: AccessibilityProfile = AccessibilityProfile()) -> (floor: Double, pipeline: Double) {
        let floors = Floors(stream)
        var lanes = stream.workloads.map { Lane(workload: $0, config: config, profile: profile) }
        var floorRun = Run(), ours = Run()
        var floorNS: Int64 = 0, oursNS: Int64 = 0
        for pass in 0..<stream.passes {
            var start = nowNS()
            floors.feed(pass: pass, checked: true, into: &floorRun)
            floorNS += nowNS() - start
            start = nowNS()
            for w in lanes.indices { lanes[w].replay(pass: pass, mapper: false, into: &ours) }
            oursNS += nowNS() - start
        }
        let events = Double(stream.totalEvents)
        return (Double(floorNS) / events, Double(oursNS) / events)
    }
}

/// One C floor per workload of a stream (floor.c), freed with it.
final class Floors {
    let stream: EventStream
    private let floors: [OpaquePointer]

    init(_ stream: EventStream) {
        self.stream = stream
        var axes = stream.workloads.map { $0.floorAxes() }
        floors = axes.indices.map { bench_floor_new(&axes[$0])! }
    }

    deinit { floors.forEach { bench_floor_free($0) } }

    /// Every workload's events once, as pass `pass` (its timestamps moved on by that
    /// many pass spans), through the checked floor or the one without the check.
    func feed(pass: Int, checked: Bool, into r: inout Run) {
        let feed = checked ? bench_floor_feed : bench_floor_feed_unchecked
        for (w, workload) in stream.workloads.enumerated() {
            let offset = Int64(pass) * workload.passSpan
            workload.events.withUnsafeBufferPointer { buf in
                buf.withMemoryRebound(to: bench_event.self) { events in
                    r.frames += Int(feed(floors[w], events.baseAddress, events.count, offset, &r.checksum))
                }
            }
        }
    }
}

/// The same sum the C floor takes of each frame.
@inline(__always)
func frameChecksum(_ f: UnsafePointer<TouchFrame>) -> Double {
    var sum = Double(f.pointee.fingerCount)
    for i in 0..<f.pointee.contacts.count { sum += f.pointee.contacts[i].position.x + f.pointee.contacts[i].normalized.y }
    return sum
}

/// One device's pipeline as the daemon runs it: decoder → engine → mapper, with the
/// engine's deadlines fired before the frame that passes them (DeviceSession and
/// ReplayPipeline do the same).
struct Lane {
    let workload: Workload
    let decoder: TouchDecoder
    let engine: GestureEngine
    var mapper: ActionMapper
    var events: [GestureEvent] = []
    var invocations: [Invocation] = []

    init(workload: Workload, config: Config, profile: AccessibilityProfile = AccessibilityProfile()) {
        self.workload = workload
        decoder = workload.makeDecoder()
        // As the daemon runs it without --explain or watch: no decision log.
        engine = GestureEngine(device: decoder.capabilities.deviceInfo(name: workload.device.name), specs: config.specs,
                               explains: false, profile: profile)
        mapper = ActionMapper(config: config)
    }

    mutating func replay(pass: Int, mapper withMapper: Bool, into r: inout Run) {
        let offset = Int64(pass) * workload.passSpan
        for var e in workload.events {
            e.time.microseconds += offset
            guard decoder.feed(e) else { continue }
            r.frames += 1
            engine.process(decoder.framePointer, into: &events)
            if !events.isEmpty { flush(withMapper, &r) }
        }
        // Pending deadlines fire in the 1 s pause between passes.
        engine.timerFired(at: Timestamp(microseconds: (workload.events.last?.time.microseconds ?? 0) + offset + 999_999), into: &events)
        if !events.isEmpty { flush(withMapper, &r) }
    }

    private mutating func flush(_ withMapper: Bool, _ r: inout Run) {
        r.gestureEvents += events.count
        if withMapper {
            for e in events { mapper.map(e, device: engine.device, into: &invocations) }
            r.invocations += invocations.count
            invocations.removeAll(keepingCapacity: true)
        }
        events.removeAllKeepingCapacity()
    }
}
