import TouchModel

/// The recognizer families. Raw values are what the config file and `--json` say.
///
/// Everything that makes one kind differ from another — its recognizer, discrete or
/// continuous, fingers, which settings and steps it takes, its direction words, what
/// `replay --detect` runs — is in `traits`, one exhaustive switch. The config parser,
/// the schema and the generated docs/CONFIG.md tables, the action mapper and
/// `--detect` all read it, so a new kind is one recognizer file, one case here, and
/// the one `traits` entry the compiler then demands (docs/ENGINE.md, "Adding a kind").
public enum GestureKind: String, Sendable, CaseIterable {
    case tap, hold, pan, swipe, pinch, rotate
    case edgePan = "edgepan"
    case transform
    /// The worked example of a custom recognizer: a horizontal stroke that reverses
    /// direction three or more times.
    case scrub
    /// The hand's path goes round (a knob: volume, circular scrolling).
    case circle
    /// One finger rests, others tap beside it (BetterTouchTool's TipTap) or swipe
    /// while it rests (TipSwipe).
    case tipTap = "tip-tap"
    case tipSwipe = "tip-swipe"
    /// The hand's path draws a shape ('z', a check, a triangle, or one the user recorded).
    case shape

    /// This kind's entry, built once (a `Set` literal allocates: not per call), at the
    /// kind's place in `allCases`: found by comparing cases, where a dictionary hashed
    /// the raw string (650 instructions for the event stream's every gesture line).
    public var traits: KindTraits { Self.table[Self.allCases.firstIndex(of: self)!] }

    private static let table = allCases.map(\.entry)

    /// The one entry per kind.
    private var entry: KindTraits {
        switch self {
        case .tap:
            return KindTraits(discrete: true, fingers: 1...1, keepsTime: true, parameters: [.taps, .maxMovement, .maxDuration, .maxInterval],
                              reports: [.location],
                              detect: { f in [GestureSpec(name: "tap-\(f)", kind: .tap, fingers: f...f, requiresFailureOf: ["double-tap-\(f)"]),
                                              GestureSpec(name: "double-tap-\(f)", kind: .tap, fingers: f...f, taps: 2)] },
                              make: { spec, c in TapRecognizer(spec: spec, timing: c.timing) })
        case .hold:
            return KindTraits(discrete: false, fingers: 1...1, keepsTime: true,
                              parameters: [.taps, .maxMovement, .maxDuration, .maxInterval, .minDuration],
                              reports: [.duration, .location],
                              detect: { f in [GestureSpec(name: "hold-\(f)", kind: .hold, fingers: f...f)] },
                              make: { spec, c in HoldRecognizer(spec: spec, device: c.device, timing: c.timing) })
        case .pan:
            return KindTraits(discrete: false, fingers: 1...5, takesRange: true, motion: .translation,
                              gate: .settled(needs: .translation), movesPointer: true, directions: .compass,
                              parameters: [.axis, .minDistance, .maxAngle], steps: [.distance],
                              reports: [.translation, .velocity],
                              make: { spec, _ in PanRecognizer(spec: spec) })
        case .swipe:
            return KindTraits(discrete: true, fingers: 1...1, motion: .translation,
                              gate: .settled(needs: .translation), movesPointer: true, directions: .compass,
                              parameters: [.minDistance, .minVelocity, .maxAngle],
                              reports: [.translation, .velocity],
                              detect: { f in [GestureSpec(name: "swipe-\(f)", kind: .swipe, fingers: f...f, directions: Set(Direction.allCases))] },
                              make: { spec, c in SwipeRecognizer(spec: spec, sooner: c.soonerDistanceMM, timing: c.timing) })
        case .pinch:
            return KindTraits(discrete: false, fingers: 2...2, minFingers: 2, motion: .deformation,
                              gate: .settled(needs: .deformation), directions: .pinch, commandAtLift: true,
                              parameters: [.minScale], steps: [.scale],
                              reports: [.scale],
                              detect: { f in [GestureSpec(name: "pinch-\(f)", kind: .pinch, fingers: f...f, simultaneousWith: ["rotate-\(f)"])] },
                              make: { spec, _ in PinchRecognizer(spec: spec) })
        case .rotate:
            return KindTraits(discrete: false, fingers: 2...2, minFingers: 2, motion: .deformation,
                              gate: .settled(needs: .deformation), directions: .rotation, commandAtLift: true,
                              parameters: [.minRotation], steps: [.angle],
                              reports: [.rotation],
                              detect: { f in [GestureSpec(name: "rotate-\(f)", kind: .rotate, fingers: f...f, simultaneousWith: ["pinch-\(f)"])] },
                              make: { spec, _ in RotateRecognizer(spec: spec) })
        case .edgePan:
            return KindTraits(discrete: false, fingers: 1...1, touchscreenOnly: true, startsAtEdge: true, motion: .translation,
                              gate: .settled(needs: .translation), parameters: [.minDistance], steps: [.distance],
                              reports: [.translation, .velocity],
                              detect: { f in [GestureSpec(name: "edgepan-\(f)", kind: .edgePan, fingers: f...f, devices: DeviceFilter(kind: .touchscreen))] },
                              make: { spec, c in EdgePanRecognizer(spec: spec, device: c.device) })
        case .transform:
            return KindTraits(discrete: false, fingers: 2...5, minFingers: 2, takesRange: true, motion: .any,
                              gate: .settled(needs: nil), parameters: [.minDistance, .minScale, .minRotation], steps: [.angle, .scale],
                              reports: [.translation, .scale, .rotation],
                              make: { spec, _ in TransformRecognizer(spec: spec) })
        case .circle:
            return KindTraits(discrete: false, fingers: 1...1, takesRange: false, motion: .translation,
                              gate: .settled(needs: .translation), directions: .rotation,
                              parameters: [.minArc], steps: [.angle],
                              reports: [.rotation],
                              detect: { f in [GestureSpec(name: "circle-\(f)", kind: .circle, fingers: f...f,
                                                          simultaneousWith: ["swipe-\(f)"])] },
                              make: { spec, _ in CircleRecognizer(spec: spec) })
        case .tipTap:
            return KindTraits(discrete: true, fingers: 1...1, restsAFinger: true, keepsTime: true,
                              parameters: [.side, .maxMovement, .maxDuration, .minDuration],
                              reports: [.side, .location],
                              make: { spec, c in TipTapRecognizer(spec: spec, device: c.device, timing: c.timing) })
        case .tipSwipe:
            return KindTraits(discrete: true, fingers: 1...1, directions: .compass, restsAFinger: true, keepsTime: true,
                              parameters: [.side, .maxMovement, .minDuration, .minDistance, .maxAngle],
                              reports: [.side, .location, .translation],
                              make: { spec, c in TipTapRecognizer(spec: spec, device: c.device, timing: c.timing) })
        case .shape:
            // Decided at the lift: no motion to arbitrate while the stroke is drawn (it
            // holds up no pinch); a swipe for its fingers waits for it (`Arena`).
            return KindTraits(discrete: true, fingers: 1...1, gate: .atLift, swipesWaitForIt: true,
                              parameters: [.shape, .minScore], reports: [.shape],
                              make: { spec, _ in ShapeRecognizer(spec: spec) })
        case .scrub:
            return KindTraits(discrete: true, fingers: 1...1, motion: .translation, gate: .atLift,
                              parameters: [.minDistance, .maxMovement],
                              reports: [.translation, .velocity],
                              detect: { f in f == 1 ? [GestureSpec(name: "scrub", kind: .scrub, fingers: 1...1)] : [] },
                              make: { spec, _ in ScrubRecognizer(spec: spec) })
        }
    }

    /// Discrete kinds fire once (`recognized`); continuous ones begin, change and end.
    public var isDiscrete: Bool { traits.discrete }
}

/// What one gesture kind is, for everyone who needs to know (see `GestureKind.traits`).
public struct KindTraits: Sendable {
    /// The motion a kind acts on, for arbitration between kinds.
    public enum Motion: Sendable { case none, translation, deformation, any }
    /// The words its `direction:` takes.
    public enum Directions: Sendable {
        case none, compass, pinch, rotation
        /// The words, in the order the docs list them.
        public var words: [String] {
            switch self {
            case .none: return []
            case .compass: return Direction.allCases.map(\.rawValue)
            case .pinch: return [Sense.in, .out].map(\.rawValue)
            case .rotation: return [Sense.clockwise, .counterclockwise].map(\.rawValue)
            }
        }
    }
    /// The kind-specific settings of a `GestureSpec` (the config's keys of the same names).
    public enum Parameter: Sendable, CaseIterable {
        case axis, taps, minDistance, minVelocity, maxAngle, maxMovement, maxDuration, maxInterval, minDuration
        case minScale, minRotation, minArc, side
        case shape, minScore
    }
    /// The values that say what a gesture of this kind did (`replay` and `watch` lines,
    /// the stream's `hello`, the live view's cards): each is one or more `GestureField`s.
    public enum Report: Sendable { case side, location, duration, translation, velocity, scale, rotation, shape }
    /// What a stepped `update:` (`every:`) may count.
    public enum StepQuantity: Sendable { case distance, angle, scale }
    /// What a recognizer may know when it is built.
    public struct Context: Sendable {
        public var device: DeviceInfo
        /// A swipe with no `min-distance` of its own may act at this distance, mm: no
        /// other gesture bound for its fingers needs more to be told apart
        /// (`GestureEngine.soonerSwipeDistance`); nil: its own.
        public var soonerDistanceMM: Double? = nil
        /// The engine's times, scaled by the accessibility profile (`EngineTiming`).
        var timing = EngineTiming()
    }
    /// What the arena checks of a gesture that has not begun before it asks the
    /// recognizer (`MotionGate`): the fingers are the spec's (at least `minFingers`).
    public enum Gate: Sendable, Equatable {
        /// None: asked on every frame (taps and holds judge the count and the
        /// stillness themselves).
        case none
        /// Not asked until the count has settled inside the fingers and the fingers
        /// have moved the way `needs` says (nil: any way; a deformation gate fails on
        /// motion together only when a translation gesture competes); a count outside
        /// the fingers fails it at the lift. The arena does not even visit it on a
        /// frame its count is gated out of.
        case settled(needs: MotionClass?)
        /// Asked on every frame (it follows the whole stroke); a final count outside
        /// the fingers fails it at the lift (scrub).
        case atLift

        /// The fewest fingers the gate lets through, whatever the spec says: a
        /// deformation is measured between two touches.
        public var fewestFingers: Int { self == .settled(needs: .deformation) ? 2 : 1 }
    }

    public var discrete: Bool
    /// Fingers when the config says none.
    public var fingers: ClosedRange<Int>
    /// Fewest fingers it can work with.
    public var minFingers: Int
    /// Whether `fingers:` may be a range (`2-4`).
    public var takesRange: Bool
    /// Touchscreens only (the edge of a touchpad is not a place a finger starts from):
    /// the parser requires `device: touchscreen`.
    public var touchscreenOnly: Bool
    /// It starts at a screen edge and picks its own from `edges:` (an edge pan: its
    /// motion gate first asks for a touchscreen and a touch that landed in an edge zone, `edge-zone`
    /// applies without `edge:`, and its edges give a stepped update its axis); for the
    /// other kinds `edges:` is a touch filter.
    public var startsAtEdge: Bool
    public var motion: Motion
    public var gate: Gate
    /// With 1 or 2 fingers on a touchpad it is the motion that moves the pointer or
    /// scrolls (pan, swipe): the config check warns about the clash.
    public var movesPointer: Bool
    public var directions: Directions
    /// Bound with `command:` alone (no `begin`/`update`/`end`/`cancel`), it fires once,
    /// at the lift, on the net change its direction names (issue 24: a pinch that closed
    /// while the fingers settled and then spread is an `out`), not as it crosses its
    /// threshold mid-gesture (`GestureSpec.decidesAtLift`).
    public var commandAtLift: Bool
    /// One finger rests while the others act (tip-tap, tip-swipe): the tracker follows
    /// the finger down longest only on a device where such a kind is bound.
    public var restsAFinger: Bool
    /// Decided at the lift from the path the hand drew (a shape): a discrete gesture for
    /// fingers moving together (a swipe, a scrub) for the same fingers waits for it to
    /// fail (`Arena.init`), and `check` says so.
    public var swipesWaitForIt: Bool
    /// Its recognizer sets deadlines (`RecognizerBase.deadline`: a tap's timeouts, a
    /// hold's press): the arena reads a member's deadline after each evaluation only
    /// for such kinds (the others' is always nil; debug builds check it).
    public var keepsTime: Bool
    public var parameters: Set<Parameter>
    public var steps: [StepQuantity]
    public var reports: [Report]
    /// What `replay --detect` runs for a finger count: named specs, in arbitration order.
    public var detect: @Sendable (Int) -> [GestureSpec]
    public var make: @Sendable (GestureSpec, Context) -> any GestureRecognizer

    init(discrete: Bool, fingers: ClosedRange<Int>, minFingers: Int = 1, takesRange: Bool = false,
         touchscreenOnly: Bool = false, startsAtEdge: Bool = false, motion: Motion = .none, gate: Gate = .none,
         movesPointer: Bool = false, directions: Directions = .none, commandAtLift: Bool = false, restsAFinger: Bool = false,
         swipesWaitForIt: Bool = false, keepsTime: Bool = false,
         parameters: Set<Parameter> = [], steps: [StepQuantity] = [], reports: [Report],
         detect: @escaping @Sendable (Int) -> [GestureSpec] = { _ in [] },
         make: @escaping @Sendable (GestureSpec, Context) -> any GestureRecognizer) {
        self.discrete = discrete
        self.fingers = fingers
        self.minFingers = minFingers
        self.takesRange = takesRange
        self.touchscreenOnly = touchscreenOnly
        self.startsAtEdge = startsAtEdge
        self.motion = motion
        self.gate = gate
        self.movesPointer = movesPointer
        self.directions = directions
        self.commandAtLift = commandAtLift
        self.restsAFinger = restsAFinger
        self.swipesWaitForIt = swipesWaitForIt
        self.keepsTime = keepsTime
        self.parameters = parameters
        self.steps = steps
        self.reports = reports
        self.detect = detect
        self.make = make
    }

    /// The event's values its `reports` name, in `GestureField`'s order (the stream's
    /// `hello` lists them per kind as their JSON keys).
    public var values: [GestureField] {
        GestureField.allCases.filter { field in field.report.map(reports.contains) ?? false }
    }

    /// Takes fingers moving together (competes with a pinch or rotation for them).
    public var takesTranslation: Bool { motion == .translation || motion == .any }

    /// `replay --detect`'s gestures: every detected kind at every finger count, in the
    /// order they compete.
    public static var detectCatalogue: [GestureSpec] {
        (1...5).flatMap { f in GestureKind.allCases.flatMap { $0.traits.detect(f) } }
    }
}
