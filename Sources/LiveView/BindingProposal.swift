import DaemonLoop
import GestureConfig
import GestureEngine
import GestureInput
import PlainText
import TouchModel

/// A binding proposed from what a recording did (docs/UI.md, "Propose a binding"): the
/// gesture's kind, fingers and direction as recognized, and its thresholds chosen from
/// the recording, each with a margin on the side that lets the same motion through
/// again. Record (a gesture performed live) and a recognized card of a replayed
/// recording both come here.
///
/// The rule, per threshold:
/// - a minimum the gesture had to reach (`min-distance`, `min-scale`, `min-rotation`,
///   `min-arc`, `min-duration`) is `underMargin` of what the recording had reached when
///   the gesture was recognized (began, for a continuous one): the same motion crosses
///   it a little earlier, and a repeat that falls a fifth short still does;
/// - a maximum the touches had to stay within (a tap's `max-duration`, `max-movement`,
///   `max-interval`) is `overMargin` of what the recording's touches did, and at least
///   the floor beside it: one quick tap is no measure of how long the next one lasts.
///
/// Rounded away from the recording too (a minimum down, a maximum up), so that the
/// printed number never undoes the margin. The proposal is then replayed on the same
/// frames, alone; if it does not fire there, the minimums are tried again at
/// `fallbackMargins` (a lower `min-distance` decides a diagonal stroke's direction
/// earlier, while it still pointed nearer another: bcm5974's two-finger up-left swipe
/// is `up` at 80 % and 90 % of its distance, and is proposed at 100 %). Kinds or
/// values not listed (a swipe's speed and angle, a scrub's strokes, a transform's
/// three, a shape's score) keep the recognizer's defaults: the recording gave no single
/// value that names them.
package enum BindingProposal {
    /// A minimum is this fraction of what the recording reached: a person repeating a
    /// gesture does not repeat it exactly, and a threshold at the recorded value fails
    /// about half the repeats. A judgement, not a measurement (docs/UI.md).
    package static let underMargin = 0.8
    /// The minimums' margins tried, in order, until the proposal fires on its recording.
    package static let fallbackMargins = [underMargin, 0.9, 1.0]
    /// A maximum is this multiple of what the touches did, and at least the floors below.
    package static let overMargin = 1.5
    package static let durationFloorS = 0.05
    package static let movementFloorMM = 1.0

    /// What a tap's touches did: its longest touch, s, its longest pause between two
    /// touches, s (nil for one touch), and the farthest a finger moved from where it
    /// landed, mm.
    package struct Touches: Equatable {
        package var longest: Double
        package var longestPause: Double?
        package var movement: Double
    }

    /// The YAML of a binding for `e` (an event of `spec`, which the engine ran on
    /// `device`), measuring the touches from `frames` (the device's, in time order): the
    /// first of `fallbackMargins` whose binding, replayed alone on the frames, fires,
    /// and that margin.
    package static func yaml(for e: GestureEvent, spec: GestureSpec?, frames: [TouchFrame],
                             device: DeviceInfo) -> (text: String, margin: Double) {
        var text = ""
        for margin in fallbackMargins {
            text = yaml(for: e, spec: spec, frames: frames, margin: margin)
            if fires(text, on: frames, device: device) { return (text, margin) }
        }
        return (text, fallbackMargins.last ?? underMargin)
    }

    /// Whether the config of the one binding `yaml` fires it on `frames`.
    package static func fires(_ yaml: String, on frames: [TouchFrame], device: DeviceInfo) -> Bool {
        guard let specs = ConfigLoader.parse("gestures:\n" + yaml, file: "proposed.yaml").0?.specs, !specs.isEmpty else { return false }
        let engine = GestureEngine(device: device, specs: specs)
        var events: [GestureEvent] = []
        for f in frames { engine.process(f, into: &events) }
        engine.timerFired(at: Timestamp(microseconds: .max), into: &events)
        return events.contains { $0.phase == .recognized || $0.phase == .began }
    }

    /// The YAML with the minimums at `margin` of what the recording reached.
    package static func yaml(for e: GestureEvent, spec: GestureSpec?, frames: [TouchFrame], margin: Double) -> String {
        let name = [e.kind.rawValue, String(e.fingers), e.directionWord].compactMap { $0 }.joined(separator: "-")
        var s = "- name: \(name)\n  gesture: \(e.kind.rawValue)\n  fingers: \(e.fingers)\n"
        if let d = e.directionWord { s += "  direction: \(d)\n" }
        if let side = e.side { s += "  side: \(side.rawValue)\n" }
        if e.kind == .shape, let shape = e.shape { s += "  shape: \(shape)\n" }
        for (key, value) in thresholds(for: e, spec: spec, frames: frames, margin: margin) { s += "  \(key): \(value)\n" }
        s += (e.kind.traits.discrete ? "  command: " : "  end: ") + "notify-send 'gestured' '\(name)'\n"
        return s
    }

    /// Each threshold chosen, as the config writes it (`min-distance`, `12.4mm`), the
    /// minimums at `margin` of what the recording reached.
    package static func thresholds(for e: GestureEvent, spec: GestureSpec?, frames: [TouchFrame],
                                   margin underMargin: Double = Self.underMargin) -> [(String, String)] {
        let distance = e.translation.length
        switch e.kind {
        case .swipe, .pan, .edgePan, .tipSwipe:
            return distance > 0 ? [("min-distance", millimetres(down: underMargin * distance))] : []
        case .pinch:
            let amount = e.scale >= 1 ? e.scale : 1 / max(e.scale, 0.0001)
            return amount > 1 ? [("min-scale", max(1.01, (100 * (1 + underMargin * (amount - 1))).rounded(.down) / 100).fixed(2) + "x")] : []
        case .rotate:
            return [("min-rotation", degrees(down: underMargin * abs(e.rotation) * 180 / .pi))]
        case .circle:
            return [("min-arc", degrees(down: underMargin * abs(e.rotation) * 180 / .pi))]
        case .hold:
            return e.duration > 0 ? [("min-duration", milliseconds(down: underMargin * e.duration))] : []
        case .tap, .tipTap:
            let taps = e.kind == .tap ? spec?.taps ?? 1 : 1
            guard let touches = touches(frames, before: e.time, last: taps) else { return [] }
            var out: [(String, String)] = []
            if taps > 1 { out.append(("taps", String(taps))) }
            out.append(("max-duration", milliseconds(up: max(overMargin * touches.longest, touches.longest + durationFloorS))))
            out.append(("max-movement", millimetres(up: max(overMargin * touches.movement, touches.movement + movementFloorMM))))
            if let pause = touches.longestPause {
                out.append(("max-interval", milliseconds(up: max(overMargin * pause, pause + durationFloorS))))
            }
            return out
        case .transform, .scrub, .shape:
            return []
        }
    }

    /// The last `count` touch sequences (all fingers down to all up) that ended by `time`:
    /// their longest, their longest pause, and their farthest movement.
    package static func touches(_ frames: [TouchFrame], before time: Timestamp, last count: Int) -> Touches? {
        var runs: [(start: Timestamp, end: Timestamp, moved: Double)] = []
        var start: Timestamp?
        var landed: [Int32: Point] = [:]
        var moved = 0.0
        for f in frames where f.time <= time {
            if f.fingerCount > 0 {
                if start == nil { (start, landed, moved) = (f.time, [:], 0) }
                for c in f.contacts {
                    let from = landed[c.id] ?? c.position
                    landed[c.id] = from
                    moved = max(moved, (c.position - from).length)
                }
            } else if let s = start {
                runs.append((s, f.time, moved))
                start = nil
            }
        }
        let taps = runs.suffix(max(1, count))
        guard !taps.isEmpty else { return nil }
        let pauses = zip(taps.dropLast(), taps.dropFirst()).map { $1.start.seconds(since: $0.end) }
        return Touches(longest: taps.map { $0.end.seconds(since: $0.start) }.max() ?? 0,
                       longestPause: pauses.max(), movement: taps.map(\.moved).max() ?? 0)
    }

    /// A binding for gesture `name` as replaying `recording` with `specs` makes it: its
    /// last recognition (or beginning) at or before `time` (seconds from the recording's
    /// first event: the frame on screen; its first if none, or without `time`), with the
    /// event and the minimums' margin. Nil if it never fired there.
    package static func propose(recording: Recording, specs: [GestureSpec], gesture name: String,
                                at time: Double?) throws -> (event: GestureEvent, yaml: String, margin: Double)? {
        let pipeline = try ReplayPipeline(recording: recording, specs: specs)
        let start = recording.events.first?.time ?? Timestamp(microseconds: 0)
        var frames: [TouchFrame] = []
        var fired: [GestureEvent] = []
        pipeline.run(onFrame: { frames.append($0) }, onEvents: { list in
            fired += list.filter { $0.name == name && ($0.phase == .recognized || $0.phase == .began) }
        })
        let wanted = time.map { Timestamp(microseconds: start.microseconds + Int64(($0 * 1e6).rounded())) }
        // The one on screen: the last that fired by the time asked about, else the first.
        let event = wanted.flatMap { t in fired.last { $0.time <= t } } ?? fired.first
        guard let event else { return nil }
        let spec = specs.indices.contains(event.index) ? specs[event.index] : nil
        let (text, margin) = yaml(for: event, spec: spec, frames: frames, device: pipeline.device)
        return (event, text, margin)
    }

    private static func millimetres(down v: Double) -> String { max(0.1, (v * 10).rounded(.down) / 10).fixed(1) + "mm" }
    private static func millimetres(up v: Double) -> String { ((v * 10).rounded(.up) / 10).fixed(1) + "mm" }
    private static func milliseconds(down v: Double) -> String { String(max(1, Int((v * 1000).rounded(.down)))) + "ms" }
    private static func milliseconds(up v: Double) -> String { String(Int((v * 1000).rounded(.up))) + "ms" }
    private static func degrees(down v: Double) -> String { String(max(1, Int(v.rounded(.down)))) + "deg" }
}
