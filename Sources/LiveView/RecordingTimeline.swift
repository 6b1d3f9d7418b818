import DaemonCore
import DaemonLoop
import GestureConfig
import GestureEngine
import GestureInput
import JSON
import TouchModel

/// A recording as the page's scrubber shows it (docs/UI.md, "Recording timeline"): each
/// frame's contacts and every recognizer's state at that frame, and the stream's
/// `state` and `gesture` lines in order, all from `ReplayPipeline` (the decoder and the
/// engine, on recorded time) and `StreamEncoder` (the daemon's own lines).
///
/// One clock: every `t` in it, the frames' and the lines' alike, is seconds from the
/// recording's first event. Recordings stamp their events with whatever clock the
/// kernel used (CLOCK_MONOTONIC from 0, or the epoch: evemu's older files say
/// 1382570952.5), and a page comparing a frame's time with an event's must not have
/// to know which.
package struct RecordingTimeline {
    /// More frames than this are decimated (every k-th, and every change of finger count).
    package static let maximumFrames = 20_000

    package let recording: Recording
    package let specs: [GestureSpec]
    package let bindings: [Binding]
    package var maximumFrames = RecordingTimeline.maximumFrames

    /// The timeline JSON, and with `mapper`, the gesture lines that would run something,
    /// each with its `"commands"` (what Try shows for a recording; in the timeline's
    /// `events` too, so that the page's Timeline says what each would run).
    package func build(mapper given: ActionMapper? = nil) throws -> (json: String, fired: [String]) {
        var mapper = given
        let pipeline = try ReplayPipeline(recording: recording, specs: specs)
        let start = recording.events.first?.time ?? Timestamp(microseconds: 0)
        let device = Self.fileName(recording.path)
        let kinds = Dictionary(specs.map { ($0.name, $0.kind) }, uniquingKeysWith: { a, _ in a })
        let steps = Dictionary(bindings.compactMap { b in b.step.map { (b.name, $0) } }, uniquingKeysWith: { a, _ in a })
        // Room for every change of finger count; the rest of the budget, evenly spread.
        let (total, changes) = countFrames()
        let budget = max(1, maximumFrames - changes)
        let keepEvery = total <= maximumFrames ? 1 : max(1, (total + budget - 1) / budget)

        var frames: [String] = [], events: [String] = [], fired: [String] = []
        var states = Dictionary(specs.map { ($0.name, FrameState()) }, uniquingKeysWith: { a, _ in a })
        var pending: TouchFrame?
        var index = 0, lastFingers = -1
        var end = start
        var encoder = StreamEncoder()
        var invocations: [Invocation] = []
        func finishFrame() {
            guard let f = pending else { return }
            defer { pending = nil; index += 1; lastFingers = f.fingerCount }
            guard (index % keepEvery == 0 || f.fingerCount != lastFingers), frames.count < maximumFrames else { return }
            // A gesture still possible shows how far it is toward its threshold, as the
            // daemon's `progress` lines do (one that began: its events' progress).
            var shown = states
            pipeline.engine.forEachProgress { i, p in
                let name = pipeline.engine.specs[i].name
                if shown[name]?.state == .possible { shown[name]?.progress = p }
            }
            frames.append(Self.frame(f, since: start, states: shown))
            for name in states.keys { states[name]?.settle() }
        }
        pipeline.run(onFrame: { f in
            finishFrame()
            end = f.time
            pending = f
        }, onDecisions: { decisions in
            for var d in decisions {
                states[d.name]?.apply(d)
                d.time = Self.since(start, d.time)
                encoder.removeAll()
                encoder.state(d, kind: kinds[d.name], device: device)
                events.append(Self.line(encoder))
            }
        }, onEvents: { list in
            for e in list {
                var shown = e
                shown.time = Self.since(start, e.time)
                encoder.removeAll()
                encoder.gesture(shown, device: device, step: steps[e.name])
                var line = Self.line(encoder)
                if case .number(let p)? = JSONValue.parse(Array(line.utf8))?["progress"] { states[e.name]?.progress = p }
                if mapper != nil {
                    mapper?.map(e, device: pipeline.device, into: &invocations)
                    if !invocations.isEmpty {
                        line = Self.adding(line, ("commands", "[" + invocations.map { JSON.string($0.command) }.joined(separator: ",") + "]"))
                        fired.append(line)
                    }
                    invocations.removeAll(keepingCapacity: true)
                }
                events.append(line)
            }
        })
        finishFrame()
        let info = pipeline.device
        let duration = end.seconds(since: start)
        var fields: [(String, String)] = [
            ("name", JSON.string(device)),
            ("device", JSON.object([("name", JSON.string(info.name)), ("kind", JSON.string(info.kind.rawValue)),
                                    ("width_mm", JSON.number(info.size.width, 1)), ("height_mm", JSON.number(info.size.height, 1)),
                                    ("slots", String(info.maxFingers))])),
            ("start", JSON.number(start.seconds(since: Timestamp(microseconds: 0)), 6)),
            ("duration", JSON.number(duration, 6)),
            ("gestures", Self.gestureList(specs)),
            ("frames", "[" + frames.joined(separator: ",") + "]"),
            ("events", "[" + events.joined(separator: ",") + "]"),
        ]
        if keepEvery > 1 { fields.append(("decimated", "true")) }
        return (JSON.object(fields), fired)
    }

    /// One recognizer's state as a frame shows it: the last state it reached during the
    /// frame, so that a gesture that ended and reset on the lift still shows "ended" there.
    package struct FrameState {
        package var state = RecognizerState.possible
        package var reason: String?
        package var progress: Double?
        /// Reset to possible during the frame (shown from the next one).
        private var resetPending = false

        package mutating func apply(_ d: ArenaDecision) {
            guard !d.refused else { return }
            if d.transition == .reset {
                resetPending = true
                return
            }
            state = d.to
            reason = d.reason?.text
        }

        package mutating func settle() {
            guard resetPending else { return }
            resetPending = false
            state = .possible
            reason = nil
            progress = nil
        }
    }

    /// `time` on the timeline's clock: from the recording's first event.
    private static func since(_ start: Timestamp, _ time: Timestamp) -> Timestamp {
        Timestamp(microseconds: time.microseconds - start.microseconds)
    }

    private static func frame(_ f: TouchFrame, since start: Timestamp, states: [String: FrameState]) -> String {
        let contacts = f.contacts.map { c in
            JSON.object([("id", String(c.id)), ("x", JSON.number(c.position.x, 2)), ("y", JSON.number(c.position.y, 2)),
                         ("nx", JSON.number(c.normalized.x, 4)), ("ny", JSON.number(c.normalized.y, 4))])
        }
        let s = states.sorted { $0.key < $1.key }.map { name, st in
            (name, JSON.object([("state", JSON.string(st.state.rawValue)), ("reason", st.reason.map(JSON.string) ?? "null"),
                                ("progress", st.progress.map { JSON.number($0, 3) } ?? "null")]))
        }
        return JSON.object([("t", JSON.number(f.time.seconds(since: start), 6)), ("fingers", String(f.fingerCount)),
                            ("contacts", "[" + contacts.joined(separator: ",") + "]"), ("states", JSON.object(s))])
    }

    /// The decoder's frames, and how many change the finger count, for the decimation
    /// step (a pass without the engine).
    private func countFrames() -> (frames: Int, changes: Int) {
        guard let decoder = try? TouchDecoder(description: recording.device) else { return (0, 0) }
        var n = 0, changes = 0, last = -1
        for e in recording.events where decoder.feed(e) {
            n += 1
            let fingers = decoder.framePointer.pointee.fingerCount
            if fingers != last { changes += 1 }
            last = fingers
        }
        return (n, changes)
    }

    /// The encoder's one line, without its newline.
    package static func line(_ e: StreamEncoder) -> String { String(decoding: e.bytes.dropLast(), as: UTF8.self) }

    /// A stream line (a JSON object) with one more member.
    package static func adding(_ line: String, _ field: (String, String)) -> String {
        String(line.dropLast()) + "," + JSON.string(field.0) + ":" + field.1 + "}"
    }

    /// `hello`'s `gestures` array for these specs, as the encoder writes it. It is cut
    /// from a hello line: inside the JSON's strings every quote is escaped, so the
    /// unescaped `,"devices":` that follows the array cannot occur within it.
    package static func gestureList(_ specs: [GestureSpec]) -> String {
        var e = StreamEncoder()
        e.hello(StreamLine.Hello(version: Gestured.version, pid: 0, config: "", dryRun: true, rate: 0,
                                 gestures: specs.map { ($0, true) }, devices: [], focus: nil))
        let text = line(e)
        guard let from = text.firstRange(of: "\"gestures\":"), let to = text.firstRange(of: ",\"devices\":") else { return "[]" }
        return String(text[from.upperBound..<to.lowerBound])
    }

    package static func fileName(_ path: String) -> String { path.split(separator: "/").last.map(String.init) ?? path }
}
