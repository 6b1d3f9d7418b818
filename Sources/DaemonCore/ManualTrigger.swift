import GestureConfig
import GestureEngine
import PlainText
import TouchModel

/// Who ran a binding without its gesture: what `GESTURE_TRIGGER` says to its command,
/// and what the log and the answer say.
public enum TriggerOrigin: String, Sendable, CaseIterable {
    /// `gestured trigger NAME`, the control socket's `trigger`, the live view's Run button.
    case manual
    /// A desktop's keybinding (GNOME's `shortcut:`, through gestured's extension).
    case shortcut
}

/// What `DaemonCore.trigger` did: the binding run (for the app, its `apps:` variant)
/// and its actions, or, in words for the user, why nothing ran.
public struct TriggerOutcome: Sendable, Equatable {
    public enum Result: Sendable, Equatable {
        /// The binding's actions went out as `.invocation` outputs (`invocations`).
        case ran
        /// No gesture of the config has the name.
        case unknownName
        /// The gesture exists but runs nothing here: its `apps:` leave out the app (and
        /// no variant of it listens there), its `desktop:` is another desktop, it has
        /// no action that runs without fingers (only `update:`, a follow).
        case nothingToRun
    }

    public var result: Result
    /// The name asked for.
    public var name: String
    /// The binding that ran: `name`, or the `apps:` variant of the same gesture that
    /// the app gets; nil when none did.
    public var binding: String?
    /// The app it ran for (the one given, else the focused one); nil: none known.
    public var app: String?
    public var origin: TriggerOrigin
    /// What was handed to the sinks, in order.
    public var invocations: [Invocation]
    /// Why nothing ran, one line (empty when something did).
    public var reason: String
    /// The commands among `invocations` that the runner's caps (`max-children`,
    /// `queue-length`) dropped at once: the daemon fills it in as it carries them out.
    public var dropped: [String] = []

    public var ok: Bool { result == .ran }

    public init(result: Result, name: String, binding: String? = nil, app: String?, origin: TriggerOrigin,
                invocations: [Invocation] = [], reason: String = "") {
        self.result = result
        self.name = name
        self.binding = binding
        self.app = app
        self.origin = origin
        self.invocations = invocations
        self.reason = reason
    }

    /// What the control socket answers, `gestured trigger` prints and the live view's
    /// card shows: the binding and each action it ran (or, in a dry run, would run),
    /// one a line, escaped (names and commands come from the config). Nothing ran:
    /// the reason.
    public func summary(dryRun: Bool) -> String {
        guard ok, let binding else { return reason }
        var head = binding
        if binding != name { head += " (what \(name)'s gesture runs \(app.map { "in \($0)" } ?? "with no app known"))" }
        head += dryRun ? ": would run (dry run, nothing ran):" : ": ran (\(origin.rawValue) trigger):"
        let lines = [head] + invocations.map { "  \($0.trigger): \($0.command)" }
            + dropped.map { "  not run: \($0): dropped, too many commands running or waiting (max-children, queue-length; the log says which)" }
        return lines.map(\.printable).joined(separator: "\n")
    }
}

extension DaemonCore {
    /// Runs binding `name` as if its gesture had been performed, at `time`: its
    /// `command:` (or keys, or desktop action), or a continuous one's `begin:` then
    /// `end:` (a `hold:` pressed around them), through the same `ActionMapper` as a
    /// gesture, appended to `outputs` as `.invocation`s for the sinks. A command sees
    /// `GESTURE_NAME`, `GESTURE_KIND`, `GESTURE_PHASE`, `GESTURE_FINGERS` (the fewest
    /// the gesture takes), `GESTURE_DIRECTION`, `GESTURE_SIDE` and `GESTURE_SHAPE` where
    /// the binding names exactly one, and `GESTURE_TRIGGER` (`origin`); the values only
    /// touches give (positions, speeds, the device) are empty, as "none" always is.
    ///
    /// `app` (nil: the focused app) picks the binding as the engine would for a gesture
    /// begun in it: among `name` and the bindings of the same gesture with other
    /// `apps:` (`AppFilter.sameGesture`), one for that app wins over a global one. A
    /// gesture disabled by `enabled: false` or `gestured disable` still runs: those say
    /// whether the touches are recognized, and a user who cannot make the gesture
    /// turns it off and keeps its action here. One whose `desktop:` is another
    /// desktop does not (`Config.offDesktop`).
    @discardableResult
    public func trigger(_ name: String, app: String? = nil, origin: TriggerOrigin, at time: Timestamp) -> TriggerOutcome {
        let app = app ?? focusedApp
        let specs = config.specs
        func refused(_ result: TriggerOutcome.Result, _ reason: String) -> TriggerOutcome {
            TriggerOutcome(result: result, name: name, app: app, origin: origin, reason: reason)
        }
        guard let named = specs.firstIndex(where: { $0.name == name }) else {
            return refused(.unknownName, "no gesture named '\(name)'" + DidYouMean.hint(for: name, among: specs.map(\.name))
                           + " (gestured status lists them)")
        }
        if config.offDesktop.contains(name) {
            return refused(.nothingToRun, "\(name) is only for \(config.bindings[named].desktops.joined(separator: ", ")) (its desktop:), not this desktop")
        }
        guard let index = Self.variant(of: named, in: config, app: app) else {
            let apps = specs[named].apps
            let why = apps.admits(app) == .excludedApp(app ?? "") ? "its except-apps: leave it out" : "its apps: are " + apps.only.joined(separator: ", ")
            return refused(.nothingToRun, "\(name) runs nothing for \(app.map { "app '\($0)'" } ?? "no app (none is focused, or none is known)"): \(why), and no binding of the same gesture listens there")
        }
        let spec = specs[index], binding = config.bindings[index]
        if let began = binding.actions[.began], case .desktop(.follow) = began {
            return refused(.nothingToRun, "\(spec.name) follows the fingers (\(began)); without them there is nothing to follow")
        }
        var invocations: [Invocation] = []
        var done: [(GestureEvent, ArraySlice<Invocation>)] = []
        for phase in spec.kind.isDiscrete ? [GesturePhase.recognized] : [.began, .ended] {
            let event = Self.manualEvent(spec, index: index, phase: phase, at: time)
            let first = invocations.count
            mapper.act(event, device: nil, into: &invocations)
            for i in first..<invocations.count {
                invocations[i].origin = origin
                if invocations[i].action.sink == .commands { invocations[i].environment = Self.manualEnvironment(event, origin: origin) }
            }
            done.append((event, invocations[first...]))
        }
        guard !invocations.isEmpty else {
            let has = GesturePhase.allCases.filter { binding.actions[$0] != nil }.map { ActionMapper.trigger($0) + ":" }
            return refused(.nothingToRun, "\(spec.name) has nothing to run without its gesture: a trigger runs command:, or begin: and end:"
                           + (has.isEmpty ? ", and it has no action" : ", and it has only \(has.joined(separator: ", ")) (for fingers that move)"))
        }
        for (event, ran) in done { recent.record(event, device: "\(origin.rawValue) trigger", app: app, invocations: Array(ran)) }
        for inv in invocations { outputs.append(.invocation(inv)) }
        return TriggerOutcome(result: .ran, name: name, binding: spec.name, app: app, origin: origin, invocations: invocations)
    }

    /// The other bindings of the same gesture as `index` with other `apps:` (for
    /// another desktop or not): what `trigger` may run in its place for an app.
    public static func variants(of index: Int, in config: Config) -> [Int] {
        config.specs.indices.filter { $0 != index && AppFilter.sameGesture(config.specs[index], config.specs[$0]) }
    }

    /// Its directions as users write them (`direction:`, a pinch's `in`/`out`, a
    /// rotation's sense), in the docs' order; empty: any, or none to have.
    public static func directionWords(_ spec: GestureSpec) -> [String] {
        Direction.allCases.filter(spec.directions.contains).map(\.rawValue) + Sense.allCases.filter(spec.senses.contains).map(\.rawValue)
    }

    /// What a binding does, short, for a list of them (`status --json`'s `does`): a
    /// discrete gesture's action (`echo hi`, `keys ctrl+c`, `workspace next`), a
    /// continuous one's by key (`begin: …; end: …`).
    public static func actionText(_ b: Binding) -> String {
        if let only = b.actions[.recognized], b.actions.count == 1 { return only.description }
        var parts = GesturePhase.allCases.compactMap { p in b.actions[p].map { "\(ActionMapper.trigger(p)): \($0)" } }
        if let hold = b.hold { parts.insert("hold: \(hold.description)", at: 0) }
        return parts.isEmpty ? "nothing" : parts.joined(separator: "; ")
    }

    /// The binding of the same gesture as `named` that a gesture begun in `app` runs:
    /// one whose `apps:` takes `app` before one without `apps:` (the engine's
    /// precedence, `AppFilter.overrides`), `named` itself before the others; nil: none
    /// listens there. Bindings for another desktop are not among them.
    static func variant(of named: Int, in config: Config, app: String?) -> Int? {
        let specs = config.specs
        let same = [named] + variants(of: named, in: config).filter { !config.offDesktop.contains(specs[$0].name) }
        let listening = same.filter { specs[$0].apps.admits(app) == nil }
        return listening.first { !specs[$0].apps.only.isEmpty } ?? listening.first
    }

    /// The event a gesture of `spec` would report, with only what the config says of
    /// it: no touch, so no position, motion nor device.
    static func manualEvent(_ spec: GestureSpec, index: Int, phase: GesturePhase, at time: Timestamp) -> GestureEvent {
        var e = GestureEvent(name: spec.name, index: index, kind: spec.kind, phase: phase, time: time, fingers: spec.fingers.lowerBound,
                             direction: spec.directions.count == 1 ? spec.directions.first : nil,
                             sense: spec.senses.count == 1 ? spec.senses.first : nil)
        if spec.sides.count == 1 { e.side = spec.sides.first }
        if spec.shapes.count == 1 { e.shape = spec.shapes[0] }
        return e
    }

    /// The `GESTURE_*` values that mean something without touches, the others empty
    /// (the environment's "none"), and `GESTURE_TRIGGER`.
    static let manualFields: [GestureField] = [.gesture, .kind, .phase, .fingers, .direction, .side, .shape]

    static func manualEnvironment(_ e: GestureEvent, origin: TriggerOrigin) -> [(name: String, value: String)] {
        let kept = Set(manualFields.map(\.environmentName))
        var env = ActionMapper.environment(e, e.phase, nil, nil).map { kept.contains($0.name) ? $0 : ($0.name, "") }
        env.append(("GESTURE_TRIGGER", origin.rawValue))
        return env
    }
}
