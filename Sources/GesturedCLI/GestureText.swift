import GestureEngine
import TouchModel

/// How gesture events read in logs, `replay` and `watch`, and as JSON for scripts.
enum GestureText {
    /// `swipe-left  swipe recognized  3 fingers  left  Δ(-42.1, 1.3) mm  v(-310, 8) mm/s`
    static func line(_ e: GestureEvent, device: String? = nil) -> String {
        var s = "\(e.name)  \(e.kind.rawValue) \(e.phase.rawValue)  \(e.fingers) finger\(e.fingers == 1 ? "" : "s")"
        if let d = e.directionWord { s += "  \(d)" }
        if let side = e.side { s += "  \(side.rawValue)" }
        for value in e.kind.traits.reports {
            switch value {
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

    /// One JSON object: the keys `replay --json` documents.
    static func json(_ e: GestureEvent, time: Double, device: String, commands: [String]) -> String {
        JSON.object([
            ("time", JSON.number(time, 6)),
            ("device", JSON.string(device)),
            ("gesture", JSON.string(e.name)),
            ("kind", JSON.string(e.kind.rawValue)),
            ("phase", JSON.string(e.phase.rawValue)),
            ("fingers", String(e.fingers)),
            ("direction", e.directionWord.map(JSON.string) ?? "null"),
            ("side", e.side.map { JSON.string($0.rawValue) } ?? "null"),
            ("x_mm", JSON.number(e.location.x, 2)), ("y_mm", JSON.number(e.location.y, 2)),
            ("dx_mm", JSON.number(e.translation.x, 2)), ("dy_mm", JSON.number(e.translation.y, 2)),
            ("vx_mm_s", JSON.number(e.velocity.x, 1)), ("vy_mm_s", JSON.number(e.velocity.y, 1)),
            ("scale", JSON.number(e.scale, 4)), ("scale_velocity", JSON.number(e.scaleVelocity, 3)),
            ("rotation_deg", JSON.number(e.rotation * 180 / .pi, 2)),
            ("rotation_velocity_deg_s", JSON.number(e.rotationVelocity * 180 / .pi, 1)),
            ("duration_s", JSON.number(e.duration, 3)),
            ("shape", e.shape.map(JSON.string) ?? "null"),
            ("score", e.score.map { JSON.number($0, 3) } ?? "null"),
            ("commands", "[" + commands.map(JSON.string).joined(separator: ", ") + "]"),
        ])
    }
}
