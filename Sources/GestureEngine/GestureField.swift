import TouchModel

/// One value a gesture event carries, described once for everyone who writes events
/// out: `replay --json`, the event stream's `gesture` lines (the same `key`) and the
/// `GESTURE_*` variables a command sees (`environmentName`). Each writer walks
/// `allCases` and writes `value(of:)` its own way, so a value, its unit and its
/// rounding are the same in all three; only the spelling of "none" differs: `null` in
/// JSON, an empty variable in the environment (and a value that is not finite, which
/// no recognizer reports: `null`, or `0`).
///
/// What is not the event's own stays with each writer, because it means something
/// different in each: the time (seconds since the recording began in `replay`, the
/// kernel's CLOCK_MONOTONIC on the stream, none for a command, which runs now), the
/// device (its name in `replay` and `GESTURE_DEVICE`, its path on the stream, which
/// names devices by path), and what comes from the binding (the stream's `step` and
/// `progress`, the environment's `GESTURE_STEP*`, `replay`'s `commands`).
///
/// `report` ties a value to the `KindTraits.Report` it belongs to: a kind reports
/// the values of its `reports` (`KindTraits.values`, which the stream's `hello`
/// lists per kind, and the live view shows); the others are carried by every event.
public enum GestureField: CaseIterable, Sendable {
    case gesture, kind, phase, fingers, direction, side
    case x, y, dx, dy
    /// The length of the velocity: the environment's alone (`GESTURE_VELOCITY`, older
    /// than the JSON writers, which give `vx` and `vy` only).
    case speed
    case vx, vy
    case scale, scaleVelocity, rotation, rotationVelocity, duration, shape, score

    /// A value as written: words and names (nil: none), counts, or a decimal with its
    /// places.
    public enum Value: Equatable, Sendable {
        case text(String?)
        case integer(Int)
        case number(Double, places: Int)
    }

    /// The JSON key (`replay --json`, the stream's `gesture` line); nil: not in JSON.
    /// Static text, so the stream writes it without a copy.
    @inlinable public var key: StaticString? {
        switch self {
        case .gesture: return "gesture"
        case .kind: return "kind"
        case .phase: return "phase"
        case .fingers: return "fingers"
        case .direction: return "direction"
        case .side: return "side"
        case .x: return "x_mm"
        case .y: return "y_mm"
        case .dx: return "dx_mm"
        case .dy: return "dy_mm"
        case .vx: return "vx_mm_s"
        case .vy: return "vy_mm_s"
        case .speed: return nil
        case .scale: return "scale"
        case .scaleVelocity: return "scale_velocity"
        case .rotation: return "rotation_deg"
        case .rotationVelocity: return "rotation_velocity_deg_s"
        case .duration: return "duration_s"
        case .shape: return "shape"
        case .score: return "score"
        }
    }

    /// The variable a command sees (docs/CONFIG.md, "What a command sees").
    public var environmentName: String {
        switch self {
        case .gesture: return "GESTURE_NAME"
        case .kind: return "GESTURE_KIND"
        case .phase: return "GESTURE_PHASE"
        case .fingers: return "GESTURE_FINGERS"
        case .direction: return "GESTURE_DIRECTION"
        case .side: return "GESTURE_SIDE"
        case .x: return "GESTURE_X_MM"
        case .y: return "GESTURE_Y_MM"
        case .dx: return "GESTURE_DX_MM"
        case .dy: return "GESTURE_DY_MM"
        case .vx: return "GESTURE_VX"
        case .vy: return "GESTURE_VY"
        case .speed: return "GESTURE_VELOCITY"
        case .scale: return "GESTURE_SCALE"
        case .scaleVelocity: return "GESTURE_SCALE_VELOCITY"
        case .rotation: return "GESTURE_ROTATION_DEG"
        case .rotationVelocity: return "GESTURE_ROTATION_VELOCITY_DEG_S"
        case .duration: return "GESTURE_DURATION_S"
        case .shape: return "GESTURE_SHAPE"
        case .score: return "GESTURE_SCORE"
        }
    }

    /// The kind's report this value belongs to; nil: every event carries it.
    public var report: KindTraits.Report? {
        switch self {
        case .gesture, .kind, .phase, .fingers, .direction: return nil
        case .side: return .side
        case .x, .y: return .location
        case .dx, .dy: return .translation
        case .vx, .vy, .speed: return .velocity
        case .scale, .scaleVelocity: return .scale
        case .rotation, .rotationVelocity: return .rotation
        case .duration: return .duration
        case .shape, .score: return .shape
        }
    }

    /// The value in `e`, in its unit (mm, mm/s, degrees, seconds) and with its places:
    /// 0.01 mm for positions, 0.1 mm/s for velocities, 0.0001 of a scale, 0.01° of a
    /// rotation, 1 ms of a duration, 0.001 of a score.
    @inlinable public func value(of e: GestureEvent) -> Value {
        switch self {
        case .gesture: return .text(e.name)
        case .kind: return .text(e.kind.rawValue)
        case .phase: return .text(e.phase.rawValue)
        case .fingers: return .integer(e.fingers)
        case .direction: return .text(e.directionWord)
        case .side: return .text(e.side?.rawValue)
        case .x: return .number(e.location.x, places: 2)
        case .y: return .number(e.location.y, places: 2)
        case .dx: return .number(e.translation.x, places: 2)
        case .dy: return .number(e.translation.y, places: 2)
        case .vx: return .number(e.velocity.x, places: 1)
        case .vy: return .number(e.velocity.y, places: 1)
        case .speed: return .number(e.velocity.length, places: 1)
        case .scale: return .number(e.scale, places: 4)
        case .scaleVelocity: return .number(e.scaleVelocity, places: 3)
        case .rotation: return .number(e.rotation * 180 / .pi, places: 2)
        case .rotationVelocity: return .number(e.rotationVelocity * 180 / .pi, places: 1)
        case .duration: return .number(e.duration, places: 3)
        case .shape: return .text(e.shape)
        case .score: return e.score.map { .number($0, places: 3) } ?? .text(nil)
        }
    }
}
