import GestureConfig
import GestureEngine
import PlainText
import TouchModel

/// Turns the engine's events into the actions their bindings ask for.
///
/// Discrete gestures run `command` when recognized. Continuous ones run `begin`,
/// `update` (every change, or once per step crossed with `every:`), `end` and
/// `cancel`. Stepping keeps an anchor per gesture in flight: a step fires when the
/// value moves a whole step from the anchor, and the anchor moves by that step, so
/// jitter around a boundary cannot fire back-and-forth and reversing mid-gesture
/// fires steps of the other sign after one whole step back (libinput's scroll
/// wheel emulation works alike). A step back runs `reverse:` where one is given.
///
/// `hold:` keys are pressed before `begin` and released after `end` or `cancel`:
/// every gesture that begins ends one of those two ways (lift, losing, the device
/// gone, a reload, the daemon stopping all cancel), so each press has its release.
public struct ActionMapper {
    public let bindings: [Binding]
    /// Anchors of stepped gestures in flight, in whole steps from where the gesture
    /// began, by (binding index, device name).
    private var anchors: [BindingOnDevice: Int] = [:]

    /// `settings: accessibility: ignore-repeats:`.
    private var repeats: RepeatFilter

    /// More steps than this from one event are skipped, not run.
    public static let maxStepsPerEvent = 32

    /// `ignoreRepeats`: `settings: accessibility: ignore-repeats:`, s (0: off).
    public init(bindings: [Binding], ignoreRepeats: Double = 0) {
        self.bindings = bindings
        repeats = RepeatFilter(window: ignoreRepeats, bindings: bindings.count)
    }

    public init(config: Config) {
        self.init(bindings: config.bindings, ignoreRepeats: config.settings.accessibility.ignoreRepeats)
    }

    /// Appends to `out` the invocations `event` causes (none, one, or one per step
    /// crossed). Returns the repeat it dropped instead (`ignore-repeats`), if it did.
    @discardableResult
    public mutating func map(_ event: GestureEvent, device: DeviceInfo?, into out: inout [Invocation]) -> RepeatFilter.Ignored? {
        guard bindings.indices.contains(event.index) else { return nil }
        var ignored: RepeatFilter.Ignored?
        guard repeats.admits(event, device: device?.name ?? "", ignored: &ignored) else { return ignored }
        act(event, device: device, into: &out)
        return nil
    }

    /// `map` without `ignore-repeats`: for a run asked for on purpose (`DaemonCore.trigger`),
    /// which is no repeat of a gesture and makes none of the next one.
    mutating func act(_ event: GestureEvent, device: DeviceInfo?, into out: inout [Invocation]) {
        let binding = bindings[event.index]
        if case .desktop(.follow)? = binding.actions[.began] { return follow(binding, event, device, into: &out) }
        let key = BindingOnDevice(index: event.index, device: device?.name ?? "")
        switch event.phase {
        case .recognized:
            emit(binding, .recognized, event, device, step: nil, into: &out)
        case .began:
            if binding.step != nil { anchors[key] = 0 }
            if let hold = binding.hold { out.append(Invocation(gesture: binding.name, trigger: "hold", action: .press(hold), environment: [])) }
            emit(binding, .began, event, device, step: nil, into: &out)
        case .changed:
            guard let step = binding.step else {
                emit(binding, .changed, event, device, step: nil, into: &out)
                return
            }
            // Whole steps from the start; the value in steps is a Double that any finite
            // value and any step `check` accepts keep finite, and is clamped before it
            // becomes a count, so no event can trap the conversion.
            let value = Self.steps(step, event)
            guard value.isFinite else { return }  // a malformed event must not loop forever
            var anchor = anchors[key] ?? 0
            var steps = 0
            while value - Double(anchor) >= 1, steps < Self.maxStepsPerEvent {
                anchor += 1
                steps += 1
                emit(binding, .changed, event, device, step: (1, anchor), into: &out)
            }
            while Double(anchor) - value >= 1, steps < Self.maxStepsPerEvent {
                anchor -= 1
                steps += 1
                emit(binding, .changed, event, device, step: (-1, anchor), into: &out)
            }
            if steps == Self.maxStepsPerEvent {
                // A jump no finger makes (a glitching device): skip the rest rather than flood the runner.
                anchor = Self.wholeSteps(value)
            }
            anchors[key] = anchor
        case .ended, .cancelled:
            anchors[key] = nil
            emit(binding, event.phase, event, device, step: nil, into: &out)
            if let hold = binding.hold { out.append(Invocation(gesture: binding.name, trigger: "hold", action: .release(hold), environment: [])) }
        }
    }

    /// A follow's pan: every phase is a step of the desktop's transition, with where
    /// the fingers are; `end:` and `cancel:` actions of the binding still run after it.
    private mutating func follow(_ b: Binding, _ e: GestureEvent, _ device: DeviceInfo?, into out: inout [Invocation]) {
        guard case .desktop(let follow)? = b.actions[.began] else { return }
        let phase: FollowMotion.Phase
        switch e.phase {
        case .began: phase = .begin
        case .changed: phase = .update
        case .ended: phase = .end
        case .cancelled: phase = .cancel
        case .recognized: return
        }
        if e.phase == .began, let hold = b.hold { out.append(Invocation(gesture: b.name, trigger: "hold", action: .press(hold), environment: [])) }
        var inv = Invocation(gesture: b.name, trigger: Self.trigger(e.phase), action: .desktop(follow), environment: [])
        inv.motion = FollowMotion(phase: phase, time: e.time, translation: e.translation, velocity: e.velocity,
                                  device: device?.kind ?? .touchpad, surface: device?.size ?? Size(width: 0, height: 0), fingers: e.fingers)
        out.append(inv)
        if e.phase == .ended || e.phase == .cancelled {
            emit(b, e.phase, e, device, step: nil, into: &out)
            if let hold = b.hold { out.append(Invocation(gesture: b.name, trigger: "hold", action: .release(hold), environment: [])) }
        }
    }

    /// Forgets gestures in flight (config swapped, device gone).
    public mutating func reset() { anchors.removeAll() }

    /// The stepped quantity in step units' space: mm along the axis (up and right
    /// positive), degrees (clockwise positive), or log of the scale (so 1.25x then
    /// 1.25x again is two steps, and 0.8x is one step back).
    static func measure(_ step: Step, _ e: GestureEvent) -> Double {
        switch step {
        case .distance(_, .horizontal): return e.translation.x
        case .distance(_, .vertical): return -e.translation.y
        case .angle: return e.rotation * 180 / .pi
        case .scale: return e.scale > 0 ? Logarithm.natural(e.scale) : 0
        }
    }

    /// How many steps of `step` the event's value is from the gesture's start (a
    /// fraction; the event stream shows how far toward the next one).
    public static func steps(_ step: Step, _ e: GestureEvent) -> Double { measure(step, e) / size(step) }

    /// The whole steps in `x`, toward zero, clamped to ±2⁵³ (where a Double still counts
    /// every integer), so the conversion cannot trap.
    public static func wholeSteps(_ x: Double) -> Int {
        let limit = 9_007_199_254_740_992.0
        return Int(Swift.max(-limit, Swift.min(limit, x.rounded(.towardZero))))
    }

    static func size(_ step: Step) -> Double {
        switch step {
        case .distance(let mm, _): return mm
        case .angle(let degrees): return degrees
        case .scale(let factor): return Logarithm.natural(factor)
        }
    }

    private func emit(_ b: Binding, _ phase: GesturePhase, _ e: GestureEvent, _ device: DeviceInfo?,
                      step: (sign: Int, position: Int)?, into out: inout [Invocation]) {
        guard var action = b.actions[phase] else { return }
        if let step, step.sign < 0, let reverse = b.reverse { action = reverse }
        // Only a command reads variables: keys, clicks, scrolls and desktop actions get
        // none (and cost no strings).
        out.append(Invocation(gesture: b.name, trigger: Self.trigger(phase), action: action,
                              environment: action.sink == .commands ? Self.environment(e, phase, device, step) : []))
    }

    public static func trigger(_ phase: GesturePhase) -> String {
        switch phase {
        case .recognized: return "command"
        case .began: return "begin"
        case .changed: return "update"
        case .ended: return "end"
        case .cancelled: return "cancel"
        }
    }

    /// The variables a command sees: the event's `GestureField`s (the values and
    /// rounding of `replay --json` and the event stream; none is an empty variable),
    /// then the device and the step. Every value is a number or one of a fixed set of
    /// words, except GESTURE_NAME and GESTURE_DEVICE, which come from the config and
    /// the kernel; none is ever spliced into the command text.
    static func environment(_ e: GestureEvent, _ phase: GesturePhase, _ device: DeviceInfo?,
                            _ step: (sign: Int, position: Int)?) -> [(name: String, value: String)] {
        var env: [(name: String, value: String)] = GestureField.allCases.map { field in
            switch field.value(of: e) {
            case .text(let text): return (field.environmentName, text ?? "")
            case .integer(let n): return (field.environmentName, String(n))
            case .number(let x, let places): return (field.environmentName, decimal(x, places))
            }
        }
        env.append(("GESTURE_DEVICE", device?.name ?? ""))
        env.append(("GESTURE_DEVICE_KIND", device?.kind.rawValue ?? ""))
        if let step {
            env.append(("GESTURE_STEP", String(step.sign)))
            env.append(("GESTURE_STEP_SIGN", step.sign > 0 ? "+" : "-"))
            env.append(("GESTURE_STEPS", String(step.position)))
        }
        return env
    }
}

/// `x` with exactly `places` decimals, without Foundation's `String(format:)`.
func decimal(_ x: Double, _ places: Int) -> String {
    x.isFinite ? x.fixed(places) : "0"
}
