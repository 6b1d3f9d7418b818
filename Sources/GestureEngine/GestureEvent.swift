import TouchModel

/// The UIKit phases a recognizer reports.
public enum GesturePhase: String, Sendable, CaseIterable {
    case recognized, began, changed, ended, cancelled
}

/// Eight compass directions in device coordinates (+y is down, so `up` is -y).
public enum Direction: String, Sendable, CaseIterable {
    case up, down, left, right
    case upLeft = "up-left", upRight = "up-right", downLeft = "down-left", downRight = "down-right"
}

/// Which way a pinch or a rotation went: a pinch's and a rotation's `direction`.
/// Decided once per gesture, when it crosses its threshold (see `PinchRecognizer`).
public enum Sense: String, Sendable, CaseIterable {
    /// Pinch: the fingers came closer (scale below 1) / moved apart (above 1).
    case `in`, out
    /// Rotation, as seen on the surface (clockwise is a positive `rotation`).
    case clockwise, counterclockwise
}

/// Tip-tap: which side of the resting finger the others landed on.
public enum Side: String, Sendable, CaseIterable { case left, right }

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
    /// Pinch and rotate: which way, decided when the gesture began.
    public var sense: Sense?
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
    /// Tip-tap and tip-swipe: the side of the resting finger the others landed on.
    public var side: Side? = nil
    /// Shape: the shape drawn and its score, 0…1 (nil for other kinds).
    public var shapeName: ShapeName?
    public var score: Double?
    /// `shapeName` as text; a name longer than `ShapeName.capacity` (which the config
    /// refuses) is not kept.
    public var shape: String? {
        get { shapeName?.string }
        set { shapeName = newValue.flatMap(ShapeName.init) }
    }

    public init(name: String, index: Int, kind: GestureKind, phase: GesturePhase, time: Timestamp,
                fingers: Int, direction: Direction? = nil, sense: Sense? = nil, location: Point = .zero,
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
        self.sense = sense
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

extension GestureEvent {
    /// The direction as users write it (`GESTURE_DIRECTION`, `replay`, `--json`):
    /// a compass direction, `in`/`out` or `clockwise`/`counterclockwise`; nil for none.
    public var directionWord: String? { direction?.rawValue ?? sense?.rawValue }
}

extension Array where Element == GestureEvent {
    /// Empties an events buffer for the next frame, keeping its storage: what
    /// `removeAll(keepingCapacity: true)` does, which went through the generic
    /// `replaceSubrange` (about 160 instructions a call, callgrind) where removing the
    /// frame's one or two events from the end takes a few each.
    @inlinable public mutating func removeAllKeepingCapacity() {
        while !isEmpty { removeLast() }
    }
}
