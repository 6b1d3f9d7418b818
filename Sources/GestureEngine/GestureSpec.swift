import PlainText
import TouchModel

/// One configured gesture: which recognizer, with which parameters, on which devices,
/// and how it arbitrates with the others. The config layer builds these; the engine
/// turns each into a recognizer. `nil` thresholds mean the recognizer's documented default.
public struct GestureSpec: Sendable, Equatable {
    public var name: String
    public var kind: GestureKind
    /// Tap, hold, swipe, pinch, rotate, edge pan, scrub: `min == max`. Pan and
    /// transform: the accepted range.
    public var fingers: ClosedRange<Int>
    /// Swipe: the accepted directions (empty = any). Also the direction filter of a
    /// pan, edge pan or scrub where it makes sense.
    public var directions: Set<Direction>
    /// Pinch (`in`, `out`), rotate (`clockwise`, `counterclockwise`): the accepted
    /// directions (empty = any).
    public var senses: Set<Sense>
    /// Pan: lock to one axis.
    public var axis: Axis?
    /// Edge pan: the edges it starts from (empty = any).
    public var edges: Set<Edge>
    /// Tap: number of taps. Hold: taps before the press (UIKit's numberOfTapsRequired).
    public var taps: Int
    public var thresholds: Thresholds
    /// Touch filtering (UIKit's shouldReceiveTouch).
    public var devices: DeviceFilter
    /// Touchscreens: only touches that begin inside this normalized rectangle.
    public var region: Region?
    /// Names of gestures this one may be recognized together with.
    public var simultaneousWith: [String]
    /// Names of gestures that must fail before this one may recognize.
    public var requiresFailureOf: [String]
    /// Sequencing: only counts when it begins within `sequenceWindow` seconds of the
    /// named gesture ending or being recognized.
    public var after: String?
    public var sequenceWindow: Double?
    /// Starts enabled; can be switched at run time.
    public var enabled: Bool
    /// Per-application: the focused apps it listens in (all by default).
    public var apps = AppFilter()
    /// Tip-tap, tip-swipe: the sides of the resting finger it accepts (empty = either).
    public var sides: Set<Side> = []
    /// Shape: the shapes it takes (empty: any it knows), and the user's recorded
    /// templates it knows besides the built-in ones (the config loader reads them).
    public var shapes: [String] = []
    public var shapeTemplates: [ShapeTemplate] = []
    /// A pinch or rotation bound with `command:` alone (`KindTraits.commandAtLift`; the
    /// config parser sets it): recognized once, at the lift, when its net change passed
    /// the threshold in a direction it takes, instead of beginning as it crosses.
    public var decidesAtLift = false

    public init(name: String, kind: GestureKind, fingers: ClosedRange<Int>,
                directions: Set<Direction> = [], senses: Set<Sense> = [], axis: Axis? = nil, edges: Set<Edge> = [],
                taps: Int = 1, thresholds: Thresholds = Thresholds(), devices: DeviceFilter = DeviceFilter(),
                region: Region? = nil, simultaneousWith: [String] = [], requiresFailureOf: [String] = [],
                after: String? = nil, sequenceWindow: Double? = nil, enabled: Bool = true) {
        self.name = name
        self.kind = kind
        self.fingers = fingers
        self.directions = directions
        self.senses = senses
        self.axis = axis
        self.edges = edges
        self.taps = taps
        self.thresholds = thresholds
        self.devices = devices
        self.region = region
        self.simultaneousWith = simultaneousWith
        self.requiresFailureOf = requiresFailureOf
        self.after = after
        self.sequenceWindow = sequenceWindow
        self.enabled = enabled
    }
}

/// Optional overrides of a recognizer's thresholds, in physical units.
public struct Thresholds: Sendable, Equatable {
    /// Swipe, pan, edge pan: distance before it counts, mm.
    public var minDistanceMM: Double?
    /// Swipe: minimum speed, mm/s.
    public var minVelocityMMPerS: Double?
    /// Swipe: largest angle off the direction's axis, degrees.
    public var maxAngleDeg: Double?
    /// Tap: most a finger may move, mm. Hold: UIKit's allowableMovement, mm.
    public var maxMovementMM: Double?
    /// Tap: longest touch, s.
    public var maxTapDuration: Double?
    /// Tap: longest pause between taps, s.
    public var maxTapInterval: Double?
    /// Hold: UIKit's minimumPressDuration, s.
    public var minDuration: Double?
    /// Edge pan: width of the edge zone, mm.
    public var edgeZoneMM: Double?
    /// Pinch: scale change before it begins (e.g. 1.1 = 10 %).
    public var minScale: Double?
    /// Rotate: rotation before it begins, degrees.
    public var minRotationDeg: Double?
    /// Circle: the arc the hand's path turns through before it begins, degrees.
    public var minArcDeg: Double?
    /// Shape: the score a drawn shape needs, 0…1.
    public var minScore: Double?

    public init(minDistanceMM: Double? = nil, minVelocityMMPerS: Double? = nil, maxAngleDeg: Double? = nil,
                maxMovementMM: Double? = nil, maxTapDuration: Double? = nil, maxTapInterval: Double? = nil,
                minDuration: Double? = nil, edgeZoneMM: Double? = nil, minScale: Double? = nil,
                minRotationDeg: Double? = nil, minArcDeg: Double? = nil) {
        self.minDistanceMM = minDistanceMM
        self.minVelocityMMPerS = minVelocityMMPerS
        self.maxAngleDeg = maxAngleDeg
        self.maxMovementMM = maxMovementMM
        self.maxTapDuration = maxTapDuration
        self.maxTapInterval = maxTapInterval
        self.minDuration = minDuration
        self.edgeZoneMM = edgeZoneMM
        self.minScale = minScale
        self.minRotationDeg = minRotationDeg
        self.minArcDeg = minArcDeg
    }
}

/// Which devices a gesture listens to.
public struct DeviceFilter: Sendable, Equatable {
    /// nil = touchpads and touchscreens alike.
    public var kind: DeviceKind?
    /// A shell-style glob (`*`, `?`, `[…]`) over the device name; nil = any.
    public var nameGlob: String?
    public init(kind: DeviceKind? = nil, nameGlob: String? = nil) {
        self.kind = kind
        self.nameGlob = nameGlob
    }

    /// Whether the filter admits `device` (its kind, then its name).
    public func admits(_ device: DeviceInfo) -> Bool {
        if let kind, kind != device.kind { return false }
        if let nameGlob, !Glob.matches(nameGlob, device.name) { return false }
        return true
    }
}

/// A rectangle in normalized 0…1 touchscreen coordinates.
public struct Region: Sendable, Equatable {
    public var x: ClosedRange<Double>
    public var y: ClosedRange<Double>
    public init(x: ClosedRange<Double>, y: ClosedRange<Double>) { self.x = x; self.y = y }
}
