import TouchModel

/// A change in the number of fingers must hold this long before a gesture commits to
/// it: fingers rarely land or lift in the same frame. libinput's
/// DEFAULT_GESTURE_SWITCH_TIMEOUT is 100 ms.
let fingerCountSettleWindow = 0.100 // s
/// On a clickpad, a touch that lands in this bottom fraction of the pad and stays
/// put is a resting thumb: it is not a finger, alone or with others (a thumb resting
/// before a two-finger tap must not make the tap start when the thumb landed).
/// libinput draws its lower thumb line at about 85 % of the pad's height.
let thumbZoneFraction = 0.15
/// A thumb candidate that moves farther than this is a finger after all, mm.
let thumbMaxMovementMM = 5.0
/// Outermost touches closer than this give no usable scale, mm.
let minimumPairDistanceMM = 2.0
/// The centroid's path (`TouchSnapshot.path`) is measured in steps of at least this
/// much, mm: a touchscreen's jitter (0.2–0.5 mm a frame on each contact) zigzags a slow
/// stroke's centroid from frame to frame, and summed per frame it made a straight
/// 60 mm/s drag's path a fifth longer than its chord (issue 37). A circle of 9 mm
/// radius (the smallest a swipe's 15 mm could be mistaken on) is still followed to
/// within 0.1 %.
let pathStepMM = 1.0

/// Touch reality, in one place: turns raw frames into the `TouchSnapshot` every
/// recognizer reads. It
/// - tracks each contact from landing to lift, with its travel;
/// - excludes a resting thumb on a clickpad's bottom edge from the finger count;
/// - lets finger-count changes settle before a gesture commits, so fingers landing
///   5 ms apart make one 3-finger gesture and a finger lifting 8 ms early does not
///   turn it into a 2-finger one;
/// - accumulates translation from the average motion of the fingers present in two
///   consecutive frames (no jump when a finger lands or lifts, and semi-MT pads move
///   their tracked slots), and scale and rotation from the outermost pair;
/// - classifies the motion as translation or deformation (`MotionClassifier`).
///
/// Its state is marked `@exclusivity(unchecked)`, as in `Arena` and the recognizers:
/// the engine is single-threaded and never re-enters itself, and Swift's dynamic
/// exclusivity checks on class properties cost about a quarter of the per-frame time
/// (callgrind, 20 gestures). See docs/ENGINE.md, "Performance".
final class TouchTracker {
    struct Tracked {
        var id: Int32
        var start: Point
        var last: Point
        var startNormalized: Point
        /// Where `travel` is measured from: `start`, except on semi-MT pads, whose
        /// contacts change meaning whenever their number changes.
        var travelOrigin: Point
        var travel: Double
        /// Landed in a clickpad's thumb zone and has not travelled: not a finger.
        var isThumb: Bool
        static let empty = Tracked(id: -1, start: .zero, last: .zero, startNormalized: .zero, travelOrigin: .zero,
                                   travel: 0, isThumb: false)
    }

    /// Values that accumulate over a sequence; gestures see them relative to an anchor.
    struct Accumulated: Equatable {
        var translation = Point.zero
        /// The path `translation` has travelled, in steps of `pathStepMM`.
        var path = 0.0
        var scale = 1.0
        var rotation = 0.0
    }

    /// What a frame did to the touch sequence.
    enum Outcome: Equatable {
        /// No finger down before or after.
        case idle
        /// The first finger of a sequence landed.
        case began
        case touching
        /// The last finger lifted.
        case lifted
    }

    let device: DeviceInfo
    @exclusivity(unchecked) private var contacts = InlineArray<10, Tracked>(repeating: .empty)
    @exclusivity(unchecked) private var contactCount = 0
    /// No two tracked contacts share an id (a frame with a repeated id breaks it until
    /// every contact has lifted): lookups may then start at a hint.
    @exclusivity(unchecked) private var uniqueIDs = true

    @exclusivity(unchecked) private(set) var inSequence = false
    @exclusivity(unchecked) private var counted = 0
    @exclusivity(unchecked) private var settled = 0
    @exclusivity(unchecked) private var maxCounted = 0
    @exclusivity(unchecked) private var countChangedAt = Timestamp(microseconds: 0)
    @exclusivity(unchecked) private var sequenceStart = Timestamp(microseconds: 0)
    @exclusivity(unchecked) private var liftedAt = Timestamp(microseconds: 0)
    @exclusivity(unchecked) private(set) var lastFrameTime = Timestamp(microseconds: 0)
    @exclusivity(unchecked) private var pendingSince: Timestamp?
    /// The count was committed before its settle window ran out (`settleEarly`): no
    /// gesture bound on the device takes more fingers.
    @exclusivity(unchecked) private var settledEarly = false
    @exclusivity(unchecked) private var pendingAnchor = Accumulated()
    @exclusivity(unchecked) private var acc = Accumulated()
    @exclusivity(unchecked) private var anchor = Accumulated()
    @exclusivity(unchecked) private var maxTravel = 0.0
    @exclusivity(unchecked) private var landing = Point.zero
    @exclusivity(unchecked) private var landingNormalized = Point.zero
    @exclusivity(unchecked) private var semiMT = false
    /// Semi-MT pads: the bounding box's centre when its corner count last changed.
    @exclusivity(unchecked) private var boxCentreStart = Point.zero
    /// Semi-MT pads: how many contacts the last frame had.
    @exclusivity(unchecked) private var semiContactCount = 0
    /// The last frame changed `acc`.
    @exclusivity(unchecked) private var frameMoved = false
    /// Centroid of the counted fingers as of the last frame that had any.
    @exclusivity(unchecked) private var location = Point.zero
    /// Most fingers since the count last settled: while fewer are down, fingers are
    /// lifting and the centroid of the rest would wander, so `location` holds.
    @exclusivity(unchecked) private var peak = 0
    /// Centroid of the fingers in the first frame that had the most fingers of the
    /// sequence so far (`landedCount`): where they landed, for `tap-at: first`.
    @exclusivity(unchecked) private var landedLocation = Point.zero
    @exclusivity(unchecked) private var landedCount = 0
    /// `settings: accessibility: tap-at:`: which point a tap reports
    /// (`TouchSnapshot.tapLocation`).
    @exclusivity(unchecked) var tapAt = TapPoint.last
    /// The finger down longest and the others' centroid, as of the last frame
    /// (`TouchSnapshot.firstFingerID`).
    @exclusivity(unchecked) private var first = (id: Int32(-1), at: Point.zero, travel: 0.0, others: Point.zero)

    @exclusivity(unchecked) private var pairA: Int32 = -1
    @exclusivity(unchecked) private var pairB: Int32 = -1
    /// Where `pairA`, `pairB` and the classifier's pair were found last (lookup hints).
    @exclusivity(unchecked) private var pairHintA = 0
    @exclusivity(unchecked) private var pairHintB = 0
    @exclusivity(unchecked) private var classifierHintA = 0
    @exclusivity(unchecked) private var classifierHintB = 0
    /// The pair's vector as of the last frame that measured it (NaN: none yet). The
    /// same vector again gives the same scale and a turn of exactly 0: nothing to do.
    @exclusivity(unchecked) private var pairPrevVector = Point(x: .nan, y: .nan)
    @exclusivity(unchecked) private var pairStartDistance = 0.0
    /// The outermost pair's distance as of the last frame that measured it, mm.
    @exclusivity(unchecked) private var spread = 0.0
    /// Where the last step of `Accumulated.path` ended.
    @exclusivity(unchecked) private var pathMark = Point.zero
    @exclusivity(unchecked) private var pairPrevAngle = 0.0
    @exclusivity(unchecked) private var scaleBase = 1.0

    @exclusivity(unchecked) private var classifier = MotionClassifier()

    @exclusivity(unchecked) private var history = VelocityHistory()
    /// The engine's times, as its timing scale makes them (`EngineTiming`).
    private let timing: EngineTiming

    /// Whether a gesture bound on the device rests a finger (`KindTraits.restsAFinger`):
    /// only then is the finger down longest followed (`first`), a cost every frame.
    let followsRestingFinger: Bool

    init(device: DeviceInfo, followsRestingFinger: Bool = true, timing: EngineTiming = EngineTiming()) {
        self.device = device
        self.followsRestingFinger = followsRestingFinger
        self.timing = timing
    }

    // MARK: Frames

    /// The frame is read where the caller keeps it (`GestureEngine.process`): passed by
    /// value, Swift 6.3 copied its inline contact list (480 bytes) to read it.
    func update(_ frame: UnsafePointer<TouchFrame>) -> Outcome {
        let now = frame.pointee.time
        lastFrameTime = now
        let before = acc
        let (motionSum, moving) = matchContacts(frame)
        // One pass for the thumbs and the fingers' centroid (used below if the count
        // has not dropped since it settled).
        var thumbs = 0
        var fingerSum = Point.zero
        var firstIndex = -1
        for i in 0..<contactCount {
            if contacts[i].isThumb { thumbs += 1 } else {
                fingerSum = fingerSum + contacts[i].last
                if firstIndex < 0 { firstIndex = i }
            }
        }
        let fingersTracked = contactCount - thumbs
        // Contacts are kept in the order they landed: the first finger is the oldest.
        if followsRestingFinger {
            if firstIndex >= 0 {
                let c = contacts[firstIndex]
                let others = fingersTracked > 1 ? (fingerSum - c.last) / Double(fingersTracked - 1) : c.last
                first = (c.id, c.last, c.travel, others)
            } else {
                first = (-1, .zero, 0, .zero)
            }
        }
        let reported = frame.pointee.fingerCount
        let newCount = max(0, max(reported, contactCount) - thumbs)
        semiMT = reported > contactCount

        let outcome: Outcome
        switch (inSequence, newCount > 0) {
        case (false, false):
            outcome = .idle
        case (false, true):
            startSequence(at: now, count: newCount, fingersTracked: fingersTracked)
            outcome = .began
        case (true, false):
            inSequence = false
            counted = 0
            liftedAt = now
            outcome = .lifted
        case (true, true):
            if moving > 0 {
                acc.translation = acc.translation + motionSum / Double(moving)
                let step = acc.translation - pathMark
                if step.x * step.x + step.y * step.y >= pathStepMM * pathStepMM {
                    acc.path += step.length
                    pathMark = acc.translation
                }
            }
            if newCount != counted { countChanged(to: newCount, at: now) }
            outcome = .touching
        }
        if counted >= peak && fingersTracked > 0 {
            location = fingerSum / Double(fingersTracked)
            if counted > landedCount { landedCount = counted; landedLocation = location }
        }
        if inSequence {
            updatePair(fingersTracked: fingersTracked)
            settleIfDue(now)
            if classifier.decision == .undecided { feedClassifier(now) }
            history.record(now, acc)
        }
        frameMoved = acc != before
        return outcome
    }

    /// Time passes with no frame: a pending count may settle, the classifier's grace
    /// period may run out.
    func advance(to now: Timestamp) {
        guard inSequence, now > lastFrameTime else { return }
        settleIfDue(now)
        if classifier.decision == .undecided { feedClassifier(now) }
    }

    /// Forgets everything: the next frame with fingers starts a new sequence.
    func reset() {
        contactCount = 0
        uniqueIDs = true
        inSequence = false
        counted = 0
        pendingSince = nil
    }

    /// The earliest instant after `time` the tracker needs to be woken.
    func deadline(after time: Timestamp) -> Timestamp? {
        guard inSequence else { return nil }
        // Settling ends (a pending count applies, or a new count becomes committable);
        // the classifier's grace period runs out. The engine drops the stale ones.
        let settle = (pendingSince ?? countChangedAt).adding(microseconds: timing.settleMicroseconds)
        var d: Timestamp? = settle > time && !(settledEarly && pendingSince == nil) ? settle : nil
        if let c = classifier.deadline(graceMicroseconds: timing.motionGraceMicroseconds), c > time, d == nil || c < d! { d = c }
        return d
    }

    func snapshot(at now: Timestamp) -> TouchSnapshot {
        var velocity = Point.zero, scaleVelocity = 0.0, rotationVelocity = 0.0
        if let (old, us) = history.base(at: now, timing), us > 0 {
            // One division for the three rates (each a frame's slowest instruction).
            let perSecond = 1_000_000 / us
            velocity = (acc.translation - old.translation) * perSecond
            scaleVelocity = (acc.scale - old.scale) / (anchor.scale > 0 ? anchor.scale : 1) * perSecond
            rotationVelocity = (acc.rotation - old.rotation) * perSecond
        }
        // Once every finger is up, the gesture had as many fingers as were down at
        // once since the count last settled: a finger that lifted a few ms early does
        // not make it smaller, and fingers that landed just before a quick flick count
        // even though their count never had time to settle.
        return TouchSnapshot(
            time: now, fingers: inSequence ? settled : peak, currentFingers: counted, maxFingers: maxCounted,
            isSettled: inSequence && pendingSince == nil
                && (settledEarly || now >= countChangedAt.adding(microseconds: timing.settleMicroseconds)),
            countChangedAt: countChangedAt, sequenceStart: sequenceStart, liftedAt: liftedAt, isLifted: !inSequence,
            location: location, tapLocation: tapAt == .first ? landedLocation : location,
            translation: acc.translation - anchor.translation,
            path: acc.path - anchor.path + (acc.translation - pathMark).length, velocity: velocity,
            scale: anchor.scale > 0 ? acc.scale / anchor.scale : 1, scaleVelocity: scaleVelocity,
            rotation: acc.rotation - anchor.rotation, rotationVelocity: rotationVelocity, spread: spread,
            moved: frameMoved && now == lastFrameTime, motion: classifier.decision, travel: maxTravel,
            landing: landing, landingNormalized: landingNormalized, hasUntrackedFingers: semiMT,
            firstFingerID: first.id, firstFinger: first.at, firstFingerTravel: first.travel, otherFingers: first.others)
    }

    // MARK: Contacts

    /// Matches the frame's contacts to the tracked ones by id; returns the summed
    /// motion of the counted fingers present in both frames, and how many. One walk
    /// over the frame (a lookup per contact, from a hint), then the lifted ones are
    /// dropped and the new ones appended, in frame order.
    @inline(__always)
    private func matchContacts(_ frame: UnsafePointer<TouchFrame>) -> (sum: Point, n: Int) {
        let list = FrameContacts(frame: frame)
        // Semi-MT: when the number of contacts changes, what each one stands for
        // changes (a finger, or a corner of the box around two): travel counts afresh.
        let reanchor = device.isSemiMT && list.count != semiContactCount
        let countsTravel = inSequence && !(device.isSemiMT && list.count >= 2)
        var present: UInt32 = 0  // tracked contacts seen in this frame, by index
        var fresh: UInt32 = 0    // frame contacts not tracked yet, by position
        var sum = Point.zero
        var n = 0
        for k in 0..<list.count {
            let c = list[k]
            guard let i = index(of: c.id, hint: k) else { fresh |= 1 &<< UInt32(truncatingIfNeeded: k); continue }
            present |= 1 &<< UInt32(truncatingIfNeeded: i)
            if !contacts[i].isThumb {
                sum = sum + (c.position - contacts[i].last)
                n += 1
            }
            contacts[i].last = c.position
            if reanchor { contacts[i].travelOrigin = c.position; contacts[i].travel = 0 }
            contacts[i].travel = max(contacts[i].travel, (c.position - contacts[i].travelOrigin).length)
            // A "thumb" that travels is a finger low on the pad after all.
            if contacts[i].isThumb && contacts[i].travel > thumbMaxMovementMM { contacts[i].isThumb = false }
            if countsTravel && !contacts[i].isThumb { maxTravel = max(maxTravel, contacts[i].travel) }
        }
        // Forget the contacts that lifted, keeping the others in order (in place: a
        // frame copies no contact table).
        if present != (1 &<< UInt32(truncatingIfNeeded: contactCount)) - 1 {
            var kept = 0
            for i in 0..<contactCount where present & (1 &<< UInt32(truncatingIfNeeded: i)) != 0 {
                if kept != i { contacts[kept] = contacts[i] }
                kept += 1
            }
            contactCount = kept
            if contactCount == 0 { uniqueIDs = true }
        }
        if fresh != 0 {
            for k in 0..<list.count where fresh & (1 &<< UInt32(truncatingIfNeeded: k)) != 0 {
                guard contactCount < ContactList.capacity else { break }
                let c = list[k]
                if index(of: c.id) != nil { uniqueIDs = false }
                contacts[contactCount] = Tracked(id: c.id, start: c.position, last: c.position,
                                                 startNormalized: c.normalized, travelOrigin: c.position, travel: 0,
                                                 isThumb: isInThumbZone(c.position))
                contactCount += 1
            }
        }
        if device.isSemiMT { trackBoundingBox(list, reanchor: reanchor) }
        return (sum, n)
    }

    /// A frame's contacts read in place, one at a time (by `enumerated()`, or by
    /// subscript on a frame passed by value, every read copied the whole list).
    struct FrameContacts {
        let frame: UnsafePointer<TouchFrame>
        var count: Int { frame.pointee.contacts.count }
        subscript(k: Int) -> Contact { frame.pointee.contacts[k] }
    }

    /// On a semi-MT pad with two or more fingers the contacts are the corners of the
    /// fingers' bounding box: each corner jumps when either finger moves, so a corner's
    /// travel says nothing of the fingers'. Their centre does: how far the fingers
    /// moved is how far the box's centre moved since the fingers last changed.
    private func trackBoundingBox(_ list: FrameContacts, reanchor: Bool) {
        semiContactCount = list.count
        guard list.count >= 2 else { return }
        var centre = Point.zero
        for k in 0..<list.count { centre = centre + list[k].position }
        centre = centre / Double(list.count)
        if reanchor {
            boxCentreStart = centre
        } else if inSequence {
            maxTravel = max(maxTravel, (centre - boxCentreStart).length)
        }
    }

    private func index(of id: Int32) -> Int? {
        for i in 0..<contactCount where contacts[i].id == id { return i }
        return nil
    }

    /// `index(of:)`, trying `hint` first: contacts keep their place from frame to
    /// frame, so the frame's k-th contact is nearly always the k-th tracked one, and a
    /// pair's index is where it was last frame. Only while ids are unique (the decoder's
    /// always are): otherwise the first match must win, as `index(of:)` finds it.
    @inline(__always)
    private func index(of id: Int32, hint: Int) -> Int? {
        if uniqueIDs && hint < contactCount && contacts[hint].id == id { return hint }
        return index(of: id)
    }

    private func isInThumbZone(_ p: Point) -> Bool {
        switch device.kind {
        case .touchscreen: return false
        case .touchpad: return device.isClickpad && p.y >= device.size.height * (1 - thumbZoneFraction)
        }
    }

    // MARK: Finger count

    private func startSequence(at now: Timestamp, count: Int, fingersTracked: Int) {
        inSequence = true
        settledEarly = false
        counted = count
        settled = count
        maxCounted = count
        peak = count
        landedCount = 0
        countChangedAt = now
        sequenceStart = now
        pendingSince = nil
        acc = Accumulated()
        anchor = acc
        pathMark = .zero
        spread = 0
        maxTravel = 0
        history.clear()
        pairA = -1
        pairB = -1
        scaleBase = 1
        landing = .zero
        landingNormalized = .zero
        for i in 0..<contactCount where !contacts[i].isThumb {
            landing = contacts[i].start
            landingNormalized = contacts[i].startNormalized
            break
        }
        updatePair(fingersTracked: fingersTracked)
        restartClassifier()
    }

    private func countChanged(to newCount: Int, at now: Timestamp) {
        guard newCount != counted else { return }
        counted = newCount
        settledEarly = false
        maxCounted = max(maxCounted, newCount)
        peak = max(peak, newCount)
        countChangedAt = now
        if newCount == settled {
            pendingSince = nil
        } else {
            if pendingSince == nil { pendingAnchor = acc }
            pendingSince = now
        }
    }

    /// The fingers down now, settled or not.
    var fingersDown: Int { counted }

    /// The count is still settling and has not gone down (fingers are landing, or the
    /// first one has just landed): `settleEarly` may commit it.
    func isSettlingUp(at now: Timestamp) -> Bool {
        inSequence && !settledEarly && counted >= settled
            && (pendingSince != nil || now < countChangedAt.adding(microseconds: timing.settleMicroseconds))
    }

    /// Commits the count now, before its settle window has run out: the engine calls
    /// it when no gesture still in play takes more fingers than are down
    /// (`GestureEngine.settleEarlyIfUnrivalled`), so no finger still to land could make
    /// the touches another gesture. A count going down (fingers lifting) still settles.
    func settleEarly() {
        if pendingSince != nil { applyPending() }
        settledEarly = true
    }

    private func settleIfDue(_ now: Timestamp) {
        guard let p = pendingSince, now >= p.adding(microseconds: timing.settleMicroseconds) else { return }
        applyPending()
    }

    private func applyPending() {
        settled = counted
        peak = counted
        anchor = pendingAnchor
        pendingSince = nil
        restartClassifier()
    }

    // MARK: Scale and rotation from the outermost pair

    @inline(__always)
    private func updatePair(fingersTracked: Int) {
        guard !semiMT else { return }
        if let a = trackedFinger(pairA, hint: &pairHintA), let b = trackedFinger(pairB, hint: &pairHintB) {
            let d = b - a
            // Unchanged since the last frame (only other fingers moved, or pressure):
            // scale and rotation would be recomputed to the same values, bit for bit.
            if d == pairPrevVector { return }
            pairPrevVector = d
            spread = d.length
            if pairStartDistance >= minimumPairDistanceMM {
                acc.scale = scaleBase * spread / pairStartDistance
            }
            let angle = Angle.atan2(d.y, d.x)
            acc.rotation += Angle.normalized(angle - pairPrevAngle)
            pairPrevAngle = angle
            return
        }
        // The pair broke (a finger landed or lifted): carry the scale on from a new pair.
        scaleBase = acc.scale
        guard fingersTracked >= 2 else {
            // One finger (most frames of taps and strokes): there is no pair.
            pairA = -1
            pairB = -1
            return
        }
        let (a, b) = outermostPair()
        pairA = a
        pairB = b
        pairPrevVector = Point(x: .nan, y: .nan)
        if let pa = trackedFinger(a), let pb = trackedFinger(b) {
            let d = pb - pa
            pairStartDistance = d.length
            spread = pairStartDistance
            pairPrevAngle = Angle.atan2(d.y, d.x)
        }
    }

    private func trackedFinger(_ id: Int32) -> Point? {
        guard id >= 0, let i = index(of: id), !contacts[i].isThumb else { return nil }
        return contacts[i].last
    }

    @inline(__always)
    private func trackedFinger(_ id: Int32, hint: inout Int) -> Point? {
        guard id >= 0, let i = index(of: id, hint: hint), !contacts[i].isThumb else { return nil }
        hint = i
        return contacts[i].last
    }

    private func outermostPair() -> (Int32, Int32) {
        var best = -1.0
        var pair: (Int32, Int32) = (-1, -1)
        for i in 0..<contactCount where !contacts[i].isThumb {
            for j in (i + 1)..<max(i + 1, contactCount) where !contacts[j].isThumb {
                let d = (contacts[i].last - contacts[j].last).length
                if d > best { best = d; pair = (contacts[i].id, contacts[j].id) }
            }
        }
        return pair
    }

    private func restartClassifier() {
        let (a, b) = outermostPair()
        let pa = trackedFinger(a).map { (id: a, position: $0) }
        let pb = trackedFinger(b).map { (id: b, position: $0) }
        classifier.restart(pairA: pa, pairB: pb, translationOnly: semiMT)
    }

    /// Called only while the classifier is undecided (its decision is sticky until the
    /// count changes): once decided, most frames, there is no call at all.
    private func feedClassifier(_ now: Timestamp) {
        // Each finger of the pair looked up once, and again only for a new pair.
        let (a, b) = classifier.pairIDs
        var pa = trackedFinger(a, hint: &classifierHintA)
        var pb = trackedFinger(b, hint: &classifierHintB)
        if a >= 0 && (pa == nil || pb == nil) {
            restartClassifier()
            let (ra, rb) = classifier.pairIDs
            pa = trackedFinger(ra, hint: &classifierHintA)
            pb = trackedFinger(rb, hint: &classifierHintB)
        }
        classifier.update(time: now, a: pa, b: pb, singleTravelMM: (acc.translation - anchor.translation).length,
                          graceMicroseconds: timing.motionGraceMicroseconds)
    }
}
