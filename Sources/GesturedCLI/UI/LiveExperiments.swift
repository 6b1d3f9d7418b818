import DaemonCore
import GestureActions
import GestureConfig
import GestureEngine
import TouchModel

/// Try: the edited config, in dry run, beside the running one, on the live stream's
/// frames rebuilt into `TouchFrame`s. One engine per device, as the daemon has; its
/// lines are the daemon's (`StreamEncoder`) with `"source":"try"` added, and the
/// actions it would run are `action` lines with outcome `dry-run`; `progress` lines, as
/// the daemon's, each time a possible gesture's way toward its threshold changes.
final class TryRun {
    let config: Config
    private var engines: [String: GestureEngine] = [:]
    private var traces: [String: DecisionTrace] = [:]
    /// Per device, each gesture's last progress sent, in thousandths (-1: none yet).
    private var progress: [String: [Int]] = [:]
    private var mapper: ActionMapper
    private var encoder = StreamEncoder()
    private var events: [GestureEvent] = []
    private var invocations: [Invocation] = []
    private let kinds: [String: GestureKind]
    private let steps: [String: Step]

    init(config: Config) {
        self.config = config
        mapper = ActionMapper(config: config)
        kinds = Dictionary(config.specs.map { ($0.name, $0.kind) }, uniquingKeysWith: { a, _ in a })
        steps = Dictionary(config.bindings.compactMap { b in b.step.map { (b.name, $0) } }, uniquingKeysWith: { a, _ in a })
    }

    /// The lines one frame of `device` makes.
    func process(_ frame: TouchFrame, device: String, info: DeviceInfo) -> [String] {
        let engine = engines[device] ?? {
            let e = GestureEngine(device: info, specs: config.specs)
            engines[device] = e
            return e
        }()
        engine.process(frame, into: &events)
        return lines(device, engine) + progressLines(device, engine, at: frame.time)
    }

    /// A line for each possible gesture whose progress changed (by a thousandth or more).
    private func progressLines(_ device: String, _ engine: GestureEngine, at time: Timestamp) -> [String] {
        var sent = progress[device] ?? []
        if sent.count != engine.specs.count { sent = Array(repeating: -1, count: engine.specs.count) }
        var out: [String] = []
        engine.forEachProgress { index, p in
            let q = Int((p * 1000).rounded())
            guard sent[index] != q else { return }
            sent[index] = q
            encoder.removeAll()
            encoder.progress(engine.specs[index], thousandths: q, time: time, device: device)
            out.append(tagged())
        }
        progress[device] = sent
        return out
    }

    /// The lines due at `now` (holds, tap timeouts), on every device.
    func timerFired(at now: Timestamp) -> [String] {
        engines.sorted { $0.key < $1.key }.flatMap { device, engine in
            engine.timerFired(at: now, into: &events)
            return lines(device, engine)
        }
    }

    /// A device that went: what it had in flight is cancelled.
    func remove(_ device: String, at now: Timestamp) -> [String] {
        guard let engine = engines.removeValue(forKey: device) else { return [] }
        progress[device] = nil
        engine.cancelAll(at: now, into: &events)
        return lines(device, engine)
    }

    var nextDeadline: Timestamp? { engines.values.compactMap(\.nextDeadline).min() }

    private func lines(_ device: String, _ engine: GestureEngine) -> [String] {
        var out: [String] = []
        for d in traces[device, default: DecisionTrace()].take(from: engine) {
            encoder.removeAll()
            encoder.state(d, kind: kinds[d.name], device: device)
            out.append(tagged())
        }
        for e in events {
            encoder.removeAll()
            encoder.gesture(e, device: device, step: steps[e.name])
            out.append(tagged())
            mapper.map(e, device: engine.device, into: &invocations)
            for inv in invocations {
                encoder.removeAll()
                encoder.action(StreamLine.Action(gesture: inv.gesture, phase: e.phase, action: inv.action, outcome: .dryRun))
                out.append(tagged())
            }
            invocations.removeAll(keepingCapacity: true)
        }
        events.removeAllKeepingCapacity()
        return out
    }

    private func tagged() -> String { RecordingTimeline.adding(RecordingTimeline.line(encoder), ("source", "\"try\"")) }
}

/// Record: the frames seen between start and stop, then what `replay --detect` would
/// say of them (every kind × finger count × direction, competing), best first, and the
/// YAML of a binding for the best.
struct GestureRecorder {
    /// A minute of a 1 kHz device; frames beyond are not kept.
    static let maximumFrames = 60_000

    private(set) var isRecording = false
    private var frames: [String: [TouchFrame]] = [:]

    mutating func start() {
        frames.removeAll()
        isRecording = true
    }

    mutating func add(_ frame: TouchFrame, device: String) {
        guard isRecording, frames[device, default: []].count < Self.maximumFrames else { return }
        frames[device, default: []].append(frame)
    }

    /// Stops and answers `{"detected":[…],"yaml":…}` for the device touched most.
    mutating func stop(devices: [String: DeviceInfo]) -> String {
        isRecording = false
        defer { frames.removeAll() }
        guard let (path, list) = frames.max(by: { $0.value.count < $1.value.count }), let info = devices[path] else {
            return Self.answer([], yaml: nil)
        }
        return Self.detect(list, device: path, info: info)
    }

    static func detect(_ list: [TouchFrame], device: String, info: DeviceInfo) -> String {
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
        return answer(detected, yaml: detected.first.map { yaml(for: $0.event) })
    }

    private static func answer(_ detected: [(event: GestureEvent, values: String)], yaml: String?) -> String {
        let items = detected.map { d in
            JSON.object([("kind", JSON.string(d.event.kind.rawValue)), ("fingers", String(d.event.fingers)),
                         ("direction", d.event.directionWord.map(JSON.string) ?? "null"), ("values", d.values)])
        }
        return JSON.object([("detected", "[" + items.joined(separator: ", ") + "]"), ("yaml", yaml.map(JSON.string) ?? "null")])
    }

    /// A binding for what was recognized, to paste into the config: kind, fingers,
    /// direction, and a command to replace.
    static func yaml(for e: GestureEvent) -> String {
        let name = [e.kind.rawValue, String(e.fingers), e.directionWord].compactMap { $0 }.joined(separator: "-")
        var s = "- name: \(name)\n  gesture: \(e.kind.rawValue)\n  fingers: \(e.fingers)\n"
        if let d = e.directionWord { s += "  direction: \(d)\n" }
        s += (e.kind.traits.discrete ? "  command: " : "  end: ") + "notify-send 'gestured' '\(name)'\n"
        return s
    }
}
