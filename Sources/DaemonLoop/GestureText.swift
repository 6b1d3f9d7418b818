import GestureEngine
import JSON
import PlainText
import TouchModel

/// How gesture events read in logs, `replay` and `watch`, and as JSON for scripts.
package enum GestureText {
    /// `swipe-left  swipe recognized  3 fingers  left  Δ(-42.1, 1.3) mm  v(-310, 8) mm/s`
    package static func line(_ e: GestureEvent, device: String? = nil) -> String {
        var s = "\(e.name)  \(e.kind.rawValue) \(e.phase.rawValue)  \(e.fingers) finger\(e.fingers == 1 ? "" : "s")"
        if let d = e.directionWord { s += "  \(d)" }
        for value in e.kind.traits.reports {
            switch value {
            case .side: if let side = e.side { s += "  \(side.rawValue)" }
            case .location: s += "  at (\(e.location.x.fixed(1)), \(e.location.y.fixed(1))) mm"
            case .duration: s += "  \(e.duration.fixed(2)) s"
            case .translation: s += "  Δ(\(e.translation.x.fixed(1)), \(e.translation.y.fixed(1))) mm"
            case .velocity: s += "  v(\(e.velocity.x.fixed(0)), \(e.velocity.y.fixed(0))) mm/s"
            case .scale: s += "  scale \(e.scale.fixed(3))"
            case .rotation: s += "  rotation \((e.rotation * 180 / .pi).fixed(1))°"
            case .shape: if let shape = e.shape { s += "  '\(shape)' \((e.score ?? 0).fixed(2))" }
            }
        }
        if let device { s += "  [\(device.printable)]" }
        return s
    }

    /// One JSON object: the keys `replay --json` documents: the time and device, the
    /// event's values as `GestureField` writes them (the stream's keys and rounding),
    /// then the commands it ran.
    package static func json(_ e: GestureEvent, time: Double, device: String, commands: [String]) -> String {
        var fields = [("time", JSON.number(time, 6)), ("device", JSON.string(device))]
        for field in GestureField.allCases {
            guard let key = field.key?.description else { continue }
            switch field.value(of: e) {
            case .text(let text): fields.append((key, text.map(JSON.string) ?? "null"))
            case .integer(let n): fields.append((key, String(n)))
            case .number(let x, let places): fields.append((key, JSON.number(x, places)))
            }
        }
        fields.append(("commands", "[" + commands.map(JSON.string).joined(separator: ", ") + "]"))
        return JSON.object(fields)
    }
}
