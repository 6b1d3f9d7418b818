import TouchModel

/// Both outermost touches must move this far before their motion is compared.
/// libinput: PINCH_DISAMBIGUATION_MOVE_THRESHOLD, 1.5 mm.
let motionDecisionDistanceMM = 1.5
/// If only one of the outermost touches has moved, decide anyway this long after it
/// started (a pinch with a still thumb). libinput waits 150 ms (GESTURE_SWIPE_TIMEOUT)
/// before settling on a gesture type for the same reason.
let motionDecisionGrace = 0.150 // s

/// Decides swipe-or-pan against pinch-or-rotate, the way libinput's touchpad gesture
/// code does: from the two outermost touches, in millimetres, with a grace period.
///
/// ```
///  undecided ──both moved ≥ 1.5 mm, or one moved and 150 ms passed──► translation
///      │                                                 (average motion ≥ relative motion)
///      └────────────────────────── same, otherwise ─────────────────► deformation
/// ```
/// One tracked finger, or a semi-MT pad whose slots do not say where the fingers are,
/// can only translate (libinput: "more fingers than slots: swipe only").
struct MotionClassifier {
    private(set) var decision: MotionClass = .undecided
    private var idA: Int32 = -1
    private var idB: Int32 = -1
    private var startA = Point.zero
    private var startB = Point.zero
    private var firstMotion: Timestamp?
    private var translationOnly = false

    /// Starts over with the outermost pair of the current contacts (ids and positions).
    mutating func restart(pairA: (id: Int32, position: Point)?, pairB: (id: Int32, position: Point)?,
                          translationOnly: Bool) {
        decision = .undecided
        firstMotion = nil
        self.translationOnly = translationOnly || pairA == nil || pairB == nil
        idA = pairA?.id ?? -1
        idB = pairB?.id ?? -1
        startA = pairA?.position ?? .zero
        startB = pairB?.position ?? .zero
    }

    var pairIDs: (Int32, Int32) { (idA, idB) }

    /// Feeds the pair's current positions (nil when a member lifted: the caller
    /// restarts with a new pair), or the single finger's travel.
    /// `graceMicroseconds`: `motionDecisionGrace`, as the engine's timing scales it.
    mutating func update(time: Timestamp, a: Point?, b: Point?, singleTravelMM: Double, graceMicroseconds: Int64) {
        guard decision == .undecided else { return }
        if translationOnly {
            if singleTravelMM >= motionDecisionDistanceMM { decision = .translation }
            return
        }
        guard let a, let b else { return }
        let ma = a - startA, mb = b - startB
        let movedA = ma.length >= motionDecisionDistanceMM
        let movedB = mb.length >= motionDecisionDistanceMM
        guard movedA || movedB else { return }
        let since = firstMotion ?? time
        firstMotion = since
        guard (movedA && movedB) || time.microseconds &- since.microseconds >= graceMicroseconds else { return }
        let together = ((ma + mb) / 2).length
        let apart = ((ma - mb) / 2).length
        decision = together > apart ? .translation : .deformation
    }

    /// When the grace period runs out with no new frame.
    func deadline(graceMicroseconds: Int64) -> Timestamp? {
        guard decision == .undecided, let firstMotion else { return nil }
        return firstMotion.adding(microseconds: graceMicroseconds)
    }
}
