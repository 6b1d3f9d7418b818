import TouchModel

/// How the fingers have moved since the finger count settled: together (a swipe or
/// pan) or against each other (a pinch or rotation). Decided once per settled count
/// by `MotionClassifier`, so every recognizer sees the same answer.
public enum MotionClass: String, Sendable, CaseIterable {
    case undecided
    /// The outermost touches moved the same way: swipe, pan, edge pan, scrub.
    case translation
    /// The outermost touches moved apart, together or around: pinch, rotate.
    case deformation
}

/// Why a recognizer is being asked to evaluate.
public enum RecognizerInput: String, Sendable, CaseIterable {
    /// A frame with fingers down.
    case touches
    /// Every finger has lifted: the last word on this touch sequence.
    case lifted
    /// Time passed with no frame (`GestureEngine.timerFired(at:)`, or a frame's `process` catching up): deadlines.
    case timer
}

/// What every recognizer sees of the touch sequence, in physical units. Built once
/// per frame by `TouchTracker`; a plain value with no heap storage.
public struct TouchSnapshot: Sendable, Equatable {
    public var time: Timestamp
    /// Fingers, once the count has settled (see `isSettled`). During a pending change
    /// this is still the count before it; when all fingers lift together it is the
    /// count of the gesture they made, not the last finger's.
    public var fingers: Int
    /// Fingers on the surface now (resting thumbs excluded).
    public var currentFingers: Int
    /// Most fingers at once during this touch sequence.
    public var maxFingers: Int
    /// No finger has landed or lifted for the settle window: a gesture may commit.
    public var isSettled: Bool
    /// When the current finger count arrived (a hold's press starts here).
    public var countChangedAt: Timestamp
    /// When the first finger of this sequence landed.
    public var sequenceStart: Timestamp
    /// When the last finger lifted (valid with `RecognizerInput.lifted` and after).
    public var liftedAt: Timestamp
    /// True once every finger has lifted.
    public var isLifted: Bool
    /// Centroid of the fingers, mm.
    public var location: Point
    /// Where a tap is (`settings: accessibility: tap-at:`): `location` (`last`, the
    /// default), or the centroid of the fingers where they landed (`first`).
    public var tapLocation: Point
    /// Centroid translation since the count settled, mm (UIKit's translation(in:)).
    public var translation: Point
    /// The path the centroid travelled since the count settled, in steps of at least
    /// 1 mm (`pathStepMM`: jitter adds nothing), mm: `translation`'s length for a
    /// straight stroke, far more for one that went round.
    public var path: Double
    /// mm/s over the last `velocityWindow`.
    public var velocity: Point
    /// Distance between the outermost touches relative to when the count settled.
    public var scale: Double
    public var scaleVelocity: Double
    /// Turn of the outermost touches since the count settled, radians, clockwise positive.
    public var rotation: Double
    public var rotationVelocity: Double
    /// The outermost touches' distance now, mm (0: fewer than two tracked).
    public var spread: Double
    /// This frame moved the translation, scale or rotation (a frame can also carry
    /// only a pressure or finger-count change).
    public var moved: Bool
    public var motion: MotionClass
    /// Farthest any finger has moved from where it landed this sequence, mm.
    public var travel: Double
    /// Where the first finger of the sequence landed, mm and 0…1.
    public var landing: Point
    public var landingNormalized: Point
    /// More fingers are down than the pad tracks (its BTN_TOOL_* count is higher than
    /// its slots', as on a semi-MT or 2-slot pad): only the tracked contacts' motion is
    /// known. Not `DeviceInfo.isSemiMT`, the device's property.
    public var hasUntrackedFingers: Bool
    /// The finger down longest (a tip-tap's resting finger, `TipTapRecognizer`): its
    /// contact id (-1: no finger down), where it is and how far it has moved from where
    /// it landed, mm; and the centroid of the other fingers down (its own place alone).
    public var firstFingerID: Int32
    public var firstFinger: Point
    public var firstFingerTravel: Double
    public var otherFingers: Point
}

extension TouchSnapshot {
    // In an extension, so the memberwise initializer (which `TouchTracker.snapshot`
    // uses: one store per field) is still synthesized.
    public init(time: Timestamp) {
        self.time = time
        fingers = 0; currentFingers = 0; maxFingers = 0
        isSettled = false
        countChangedAt = time; sequenceStart = time; liftedAt = time
        isLifted = true
        location = .zero; tapLocation = .zero; translation = .zero; path = 0; velocity = .zero
        scale = 1; scaleVelocity = 0; rotation = 0; rotationVelocity = 0; spread = 0
        moved = false
        motion = .undecided
        travel = 0
        landing = .zero; landingNormalized = .zero
        hasUntrackedFingers = false
        firstFingerID = -1; firstFinger = .zero; firstFingerTravel = 0; otherFingers = .zero
    }
}
