import DaemonCore
import DaemonLoop
import GestureConfig
import GestureEngine
import JSON
import TouchModel

/// Record: the frames seen between start and stop, then what `replay --detect` would
/// say of them (every kind × finger count × direction, competing), best first, and the
/// YAML of a binding for the best, its thresholds from the frames (`BindingProposal`).
package struct GestureRecorder {
    /// A minute of a 1 kHz device; frames beyond are not kept.
    package static let maximumFrames = 60_000

    package private(set) var isRecording = false
    private var frames: [String: [TouchFrame]] = [:]

    package mutating func start() {
        frames.removeAll()
        isRecording = true
    }

    package mutating func add(_ frame: TouchFrame, device: String) {
        guard isRecording, frames[device, default: []].count < Self.maximumFrames else { return }
        frames[device, default: []].append(frame)
    }

    /// Stops and answers `{"detected":[…],"yaml":…}` for the device touched most.
    package mutating func stop(devices: [String: DeviceInfo]) -> String {
        isRecording = false
        defer { frames.removeAll() }
        guard let (path, list) = frames.max(by: { $0.value.count < $1.value.count }), let info = devices[path] else {
            return Self.answer([], yaml: nil)
        }
        return Self.detect(list, device: path, info: info)
    }

    package static func detect(_ list: [TouchFrame], device: String, info: DeviceInfo) -> String {
        let engine = GestureEngine(device: info, specs: DetectCatalogue.specs)
        var events: [GestureEvent] = []
        for f in list { engine.process(f, into: &events) }
        engine.timerFired(at: Timestamp(microseconds: .max), into: &events)
        var seen = Set<String>()
        var detected: [(event: GestureEvent, values: String)] = []
        var encoder = StreamEncoder()
        // What completed, in the order the arena let it: its winner first.
        for e in events where e.phase == .recognized || e.phase == .ended {
            let key = "\(e.kind.rawValue) \(e.fingers) \(e.directionWord ?? "")"
            guard seen.insert(key).inserted else { continue }
            encoder.removeAll()
            encoder.gesture(e, device: device, step: nil)
            detected.append((e, RecordingTimeline.line(encoder)))
        }
        // The proposal's thresholds are from where the best was recognized (a continuous
        // one's `began`), as for a replayed recording's card (`BindingProposal`).
        let specs = DetectCatalogue.specs
        let fired = detected.first.map { d in events.first { $0.name == d.event.name && ($0.phase == .recognized || $0.phase == .began) } ?? d.event }
        return answer(detected, yaml: fired.map { e in
            BindingProposal.yaml(for: e, spec: specs.indices.contains(e.index) ? specs[e.index] : nil, frames: list, device: info).text
        })
    }

    private static func answer(_ detected: [(event: GestureEvent, values: String)], yaml: String?) -> String {
        let items = detected.map { d in
            JSON.object([("kind", JSON.string(d.event.kind.rawValue)), ("fingers", String(d.event.fingers)),
                         ("direction", d.event.directionWord.map(JSON.string) ?? "null"), ("values", d.values)])
        }
        return JSON.object([("detected", "[" + items.joined(separator: ", ") + "]"), ("yaml", yaml.map(JSON.string) ?? "null")])
    }
}
