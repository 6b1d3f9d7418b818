import TouchModel

/// The recognizer families. Raw values are what the config file and `--json` say.
public enum GestureKind: String, Sendable, CaseIterable {
    case tap, hold, pan, swipe, pinch, rotate
    case edgePan = "edgepan"
    case transform
    /// The worked example of a custom recognizer: a horizontal stroke that reverses
    /// direction three or more times.
    case scrub

    /// Discrete kinds fire once (`recognized`); continuous ones begin, change and end.
    public var isDiscrete: Bool { self == .tap || self == .swipe || self == .scrub }
}

/// The UIKit phases a recognizer reports.
public enum GesturePhase: String, Sendable, CaseIterable {
    case recognized, began, changed, ended, cancelled
}

/// Eight compass directions in device coordinates (+y is down, so `up` is -y).
public enum Direction: String, Sendable, CaseIterable {
    case up, down, left, right
    case upLeft = "up-left", upRight = "up-right", downLeft = "down-left", downRight = "down-right"
}

public enum Axis: String, Sendable, CaseIterable { case horizontal, vertical }

/// Touchscreen edges, for edge pans and edge filters.
public enum Edge: String, Sendable, CaseIterable { case top, bottom, left, right }

/// What the engine reports: one per recognizer transition that the outside world
/// sees. Values are UIKit's, in physical units.
public struct GestureEvent: Sendable, Equatable {
    /// The binding's name from the config.
    public var name: String
    /// Index of the binding in the engine's spec list: lets the caller find its
    /// actions without hashing the name.
    public var index: Int
    public var kind: GestureKind
    public var phase: GesturePhase
    public var time: Timestamp
    public var fingers: Int
    public var direction: Direction?
    /// Centroid of the contacts, mm.
    public var location: Point
    /// Translation of the centroid since the gesture began, mm.
    public var translation: Point
    /// Centroid velocity, mm/s.
    public var velocity: Point
    /// Pinch scale since the gesture began (1 = unchanged), and its rate per second.
    public var scale: Double
    public var scaleVelocity: Double
    /// Rotation since the gesture began in radians (clockwise positive, as on screen),
    /// and its rate in rad/s.
    public var rotation: Double
    public var rotationVelocity: Double
    /// Hold: seconds since the press began.
    public var duration: Double

    public init(name: String, index: Int, kind: GestureKind, phase: GesturePhase, time: Timestamp,
                fingers: Int, direction: Direction? = nil, location: Point = .zero,
                translation: Point = .zero, velocity: Point = .zero, scale: Double = 1,
                scaleVelocity: Double = 0, rotation: Double = 0, rotationVelocity: Double = 0,
                duration: Double = 0) {
        self.name = name
        self.index = index
        self.kind = kind
        self.phase = phase
        self.time = time
        self.fingers = fingers
        self.direction = direction
        self.location = location
        self.translation = translation
        self.velocity = velocity
        self.scale = scale
        self.scaleVelocity = scaleVelocity
        self.rotation = rotation
        self.rotationVelocity = rotationVelocity
        self.duration = duration
    }
}
