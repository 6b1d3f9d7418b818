import TouchModel

/// Arc the hand must go round before a circle begins, degrees. Measured (docs/ENGINE.md,
/// "Circle"): a stroke that turns back once (a U) turns 180–190°, the tablet U
/// 187°; the bundled recordings' swipes, scrolls and drags turn at most 74.9° net; the
/// bcm5974's drawn circles turn 738–884° in all. Three quarters of a turn is 1.44×
/// that U and still begins the real circles within 0.8 s of the landing.
let defaultCircleMinArcDeg = 270.0
/// Path the hand travels between two readings of its heading, mm. Shorter segments
/// turn with the sensor's jitter (about 1 mm on a touchpad); a circle of 5 mm radius
/// still turns only 23° per segment.
let circleSegmentMM = 2.0
/// Largest turn from one segment to the next, degrees: more is a stroke doubling
/// back (a scrub, a wiggle), which a circle never does at 2 mm segments unless its
/// radius is under 1.4 mm.
let circleMaxTurnPerSegmentDeg = 90.0
/// Most that the path's centre may move between two readings, as a share of its
/// radius. The centre is read every quarter turn as the midpoint of two points half a
/// turn apart (where the path heads opposite ways: the centre of any circle or oval),
/// so the first comparison is at three quarters of a turn. Measured (docs/ENGINE.md):
/// the bcm5974's drawn circles move it at most 0.33 of their radius, a 2:1 oval 0.05;
/// a stroke that runs straight into a curl moves it 0.49 when its straight leg is as
/// long as the curl's radius, 0.74 for a U's leg with a curl after it.
let circleMaxCentreShift = 0.5
/// Arc the path must have gone round before the fingers' own turn is weighed against
/// it, degrees: a quarter turn, where a pivot rotation is plain (below).
let circlePivotCheckArcDeg = 90.0
/// Share of the path's arc the fingers may turn with it. Fingers turning about one of
/// them carry their centroid round as far as they turn (share 1): a rotation. A hand
/// going round keeps its fingers' bearing (the bcm5974's 2- and 3-finger circles turn
/// their fingers at most 0.16 of their path's turn once it has gone a quarter turn).
let circleMaxFingerTurnShare = 0.5

/// A circle drawn by the hand: the fingers' centroid travels around a centre, clockwise
/// or counterclockwise, for 1–5 fingers (BetterTouchTool's and InputActions' circle,
/// a knob for volume or scrolling). Continuous: it begins once the hand has gone
/// through `minArc`, and reports that arc so far as its `rotation` (radians,
/// clockwise positive on screen, from where the count settled), so `every: 30deg`
/// steps like a knob's detents.
///
/// The path's turn is its heading summed segment by segment (each `circleSegmentMM`
/// of travel): a path around any centre turns its heading as much as it goes round,
/// with no centre to fit and no buffer of points. The hand's own arc is that turn less
/// the fingers' turn about their own centroid (`TouchSnapshot.rotation`): a hand moving
/// round a circle keeps its fingers' bearing, so each finger goes round the centre as
/// far as the centroid; fingers turning about one of them (a pivot rotation) carry
/// their centroid round exactly as far as they turn, and the hand has gone round
/// nothing (`circleMaxFingerTurnShare`). And the path must go round one place: every
/// quarter turn it reads its centre and radius from the points half a turn apart, and
/// fails if the centre moves by more than `circleMaxCentreShift` of the radius (a
/// straight stroke run into a curl). A stroke that turns back once (a U) goes only
/// half a turn round, short of the default `minArc`.
///
/// ```
///  following ──segment turns > 90°──────────────────────► fail (doubled back)
///      │ ├──path ≥ 90° round, fingers turned ≥ half of it──► fail (a rotation)
///      │ ├──centre moved > ½ radius (from 270° on)────────► fail (not round)
///      │ └──|arc| ≥ minArc, sense accepted──► begin ──► changed (arc follows) ──► end
///      └──lifted──► fail (too little arc)
/// ```
///
/// Its direction is the net arc's: the sign of the arc when it begins, and at every
/// event after (an `ended` circle that was reversed past its start says so).
public final class CircleRecognizer: RecognizerBase, GestureRecognizer {
    public let spec: GestureSpec
    private let fingers: ClosedRange<Int>
    private let minArc: Double
    private let maxTurn = circleMaxTurnPerSegmentDeg * Geometry.radiansPerDegree
    private let pivotCheckArc = circlePivotCheckArcDeg * Geometry.radiansPerDegree
    private let accepts: (clockwise: Bool, counterclockwise: Bool)
    /// Where the current segment started (translation, mm), the last segment's heading
    /// (nil: none yet), and the path's turn, radians, clockwise positive.
    @exclusivity(unchecked) private var anchor = Point.zero
    @exclusivity(unchecked) private var heading: Double?
    @exclusivity(unchecked) private var pathTurn = 0.0
    /// The fingers' turn about their centroid (the sum of `TouchSnapshot.rotation`'s
    /// steps, so that it carries over a new count), and the last rotation seen.
    @exclusivity(unchecked) private var fingerTurn = 0.0
    @exclusivity(unchecked) private var lastRotation = 0.0
    /// The hand's own arc (`pathTurn - fingerTurn`), radians, clockwise positive.
    @exclusivity(unchecked) private var arc = 0.0
    /// The arc's rate over the last segment, rad/s, when that segment ended, and the arc then.
    @exclusivity(unchecked) private var arcVelocity = 0.0
    @exclusivity(unchecked) private var segmentEnd = Timestamp(microseconds: 0)
    @exclusivity(unchecked) private var segmentArc = 0.0
    /// The quarter-turn marks: the path's turn at the first (`markBase`), the way it goes
    /// round (+1 clockwise, -1 counterclockwise, 0: not a quarter turn yet), how many were
    /// passed, the last two (mm), and the centre and radius read at the last one (radius
    /// 0: none yet).
    @exclusivity(unchecked) private var markBase = 0.0
    @exclusivity(unchecked) private var markSense = 0.0
    @exclusivity(unchecked) private var marks = 0
    @exclusivity(unchecked) private var lastMark = Point.zero
    @exclusivity(unchecked) private var markBefore = Point.zero
    @exclusivity(unchecked) private var centre = Point.zero
    @exclusivity(unchecked) private var radius = 0.0
    /// The settled count the path belongs to: translation starts over when it changes.
    @exclusivity(unchecked) private var countSince: Timestamp?

    public init(spec: GestureSpec) {
        self.spec = spec
        fingers = fingerRange(of: spec)
        minArc = (spec.thresholds.minArcDeg ?? defaultCircleMinArcDeg) * Geometry.radiansPerDegree
        accepts = (spec.senses.isEmpty || spec.senses.contains(.clockwise),
                   spec.senses.isEmpty || spec.senses.contains(.counterclockwise))
    }

    public override func evaluate(_ t: TouchSnapshot, _ input: RecognizerInput, state: RecognizerState) -> Evaluation {
        let notRound = follow(t)
        if state.isActive { return continueActive(t, input, fingers: fingers) }
        if let notRound { return .fail(notRound) }
        if turnedAboutAFinger {
            return .fail(.turnedWithTheFingers(fingersDegrees: abs(fingerTurn) / Geometry.radiansPerDegree,
                                               pathDegrees: abs(pathTurn) / Geometry.radiansPerDegree))
        }
        guard abs(arc) >= minArc else {
            return input == .lifted
                ? .fail(.tooLittleArc(degrees: abs(arc) / Geometry.radiansPerDegree,
                                      needsDegrees: minArc / Geometry.radiansPerDegree))
                : .undecided
        }
        let sense: Sense = arc > 0 ? .clockwise : .counterclockwise
        guard sense == .clockwise ? accepts.clockwise : accepts.counterclockwise else {
            return .fail(.wrongSense(moved: sense))
        }
        return .begin
    }

    /// The path has gone a quarter turn round and the fingers turned with it by at
    /// least `circleMaxFingerTurnShare` of that: a pivot rotation.
    private var turnedAboutAFinger: Bool {
        abs(pathTurn) >= pivotCheckArc && fingerTurn * pathTurn > 0
            && abs(fingerTurn) >= circleMaxFingerTurnShare * abs(pathTurn)
    }

    /// Follows the path and the fingers' turn to `t`; returns why the path is not round,
    /// if this frame completed a segment that doubled back (not added to the arc) or a
    /// quarter turn whose centre moved.
    private func follow(_ t: TouchSnapshot) -> FailureReason? {
        if countSince != t.countChangedAt || !t.isSettled {
            // Translation and rotation start over with a new count.
            countSince = t.countChangedAt
            anchor = t.translation
            heading = nil
            lastRotation = t.rotation
        }
        fingerTurn += t.rotation - lastRotation
        lastRotation = t.rotation
        arc = pathTurn - fingerTurn
        let d = t.translation - anchor
        guard d.length >= circleSegmentMM else { return nil }
        let h = Angle.atan2(d.y, d.x)
        anchor = t.translation
        defer { heading = h }
        guard let last = heading else {
            segmentEnd = t.time
            segmentArc = arc
            startMarks(at: t.translation)
            return nil
        }
        let turn = Angle.normalized(h - last)
        guard abs(turn) <= maxTurn else { return .doubledBack(degrees: abs(turn) / Geometry.radiansPerDegree) }
        pathTurn += turn
        arc = pathTurn - fingerTurn
        let dt = t.time.seconds(since: segmentEnd)
        if dt > 0 { arcVelocity = (arc - segmentArc) / dt }
        segmentEnd = t.time
        segmentArc = arc
        return passMarks(at: t.translation)
    }

    /// The path's first heading: the marks count quarter turns from here.
    private func startMarks(at p: Point) {
        markBase = pathTurn
        markSense = 0
        marks = 1
        lastMark = p
        radius = 0
    }

    /// Records a quarter-turn mark if the path has passed the next one; from the third
    /// on, reads the centre and radius from it and the mark half a turn before, and
    /// says if the centre moved from the last reading by more than its share of the radius.
    private func passMarks(at p: Point) -> FailureReason? {
        let quarter = Double.pi / 2
        if markSense == 0 {
            guard abs(pathTurn - markBase) >= quarter else { return nil }
            markSense = pathTurn > markBase ? 1 : -1
        }
        guard (pathTurn - markBase) * markSense >= Double(marks) * quarter else { return nil }
        marks += 1
        defer { markBefore = lastMark; lastMark = p }
        guard marks >= 3 else { return nil }
        let newCentre = (markBefore + p) / 2
        let newRadius = (p - markBefore).length / 2
        defer { centre = newCentre; radius = newRadius }
        guard radius > 0 else { return nil }
        let shift = (newCentre - centre).length, meanRadius = (radius + newRadius) / 2
        return shift > circleMaxCentreShift * meanRadius ? .centreMoved(mm: shift, radiusMM: meanRadius) : nil
    }

    public override func annotate(_ event: inout GestureEvent, _ t: TouchSnapshot) {
        event.rotation = arc
        event.rotationVelocity = arcVelocity
        event.sense = arc >= 0 ? .clockwise : .counterclockwise
    }

    public override var progress: Double? { fraction(abs(arc), of: minArc) }

    public override func reset() {
        heading = nil
        pathTurn = 0
        fingerTurn = 0
        lastRotation = 0
        arc = 0
        arcVelocity = 0
        segmentArc = 0
        markSense = 0
        marks = 0
        radius = 0
        countSince = nil
    }
}
