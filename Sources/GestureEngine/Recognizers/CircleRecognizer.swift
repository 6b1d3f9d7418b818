import TouchModel

/// Arc the hand's path must turn through before a circle begins, degrees. Measured on
/// the bundled recordings (docs/ENGINE.md, "Circle"): their swipes, scrolls and drags
/// turn at most 74.9° net (a Synaptics scroll that curves), their taps 0°; the
/// bcm5974's drawn circles turn 738–884° in all and pass 180° 0.57–0.63 s after the
/// fingers land. Half a turn keeps 2.4× that scroll's curve and acts early in a knob.
let defaultCircleMinArcDeg = 180.0
/// Path the hand travels between two readings of its heading, mm. Shorter segments
/// turn with the sensor's jitter (about 1 mm on a touchpad); a circle of 5 mm radius
/// still turns only 23° per segment.
let circleSegmentMM = 2.0
/// Largest turn from one segment to the next, degrees: more is a stroke doubling
/// back (a scrub, a wiggle), which a circle never does at 2 mm segments unless its
/// radius is under 1.4 mm.
let circleMaxTurnPerSegmentDeg = 90.0

/// A circle drawn by the hand: the fingers' centroid travels around a centre, clockwise
/// or counterclockwise, for 1–5 fingers (BetterTouchTool's and InputActions' circle,
/// a knob for volume or scrolling). Continuous: it begins once the path has turned
/// through `minArc`, and reports the arc turned so far as its `rotation` (radians,
/// clockwise positive on screen, from where the count settled), so `every: 30deg`
/// steps like a knob's detents.
///
/// The turn is the path's heading summed segment by segment (each `circleSegmentMM`
/// of travel): a path around any centre turns its heading as much as its radius, with
/// no centre to fit. Unlike a rotation, whose fingers turn about their own centre
/// while the centroid stays, here the centroid itself goes round: the fingers move
/// together (the motion gate's `translation`).
///
/// ```
///  following ──segment turns > 90°──► fail (doubled back)
///      │ └──|arc| ≥ minArc, sense accepted──► begin ──► changed (arc follows) ──► end
///      └──lifted──► fail (too little arc)
/// ```
///
/// Its direction is the net turn's: the sign of the arc when it begins, and at every
/// event after (an `ended` circle that was reversed past its start says so).
public final class CircleRecognizer: RecognizerBase, GestureRecognizer {
    public let spec: GestureSpec
    private let fingers: ClosedRange<Int>
    private let minArc: Double
    private let maxTurn = circleMaxTurnPerSegmentDeg * Geometry.radiansPerDegree
    private let accepts: (clockwise: Bool, counterclockwise: Bool)
    /// Where the current segment started (translation, mm), the last segment's heading
    /// (nil: none yet), and the arc turned, radians, clockwise positive.
    @exclusivity(unchecked) private var anchor = Point.zero
    @exclusivity(unchecked) private var heading: Double?
    @exclusivity(unchecked) private var arc = 0.0
    /// The arc's rate over the last segment, rad/s, and when that segment ended.
    @exclusivity(unchecked) private var arcVelocity = 0.0
    @exclusivity(unchecked) private var segmentEnd = Timestamp(microseconds: 0)
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
        let doubledBack = follow(t)
        if state.isActive { return continueActive(t, input, fingers: fingers) }
        if let turn = doubledBack { return .fail(.doubledBack(degrees: abs(turn) / Geometry.radiansPerDegree)) }
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

    /// Follows the path to `t`; returns the turn of a segment that doubled back (not
    /// added to the arc), if this frame completed one.
    private func follow(_ t: TouchSnapshot) -> Double? {
        if countSince != t.countChangedAt {
            countSince = t.countChangedAt
            anchor = t.translation
            heading = nil
        }
        let d = t.translation - anchor
        guard d.length >= circleSegmentMM else { return nil }
        let h = Angle.atan2(d.y, d.x)
        anchor = t.translation
        defer { heading = h }
        guard let last = heading else { segmentEnd = t.time; return nil }
        let turn = Angle.normalized(h - last)
        guard abs(turn) <= maxTurn else { return turn }
        arc += turn
        let dt = t.time.seconds(since: segmentEnd)
        if dt > 0 { arcVelocity = turn / dt }
        segmentEnd = t.time
        return nil
    }

    public override func annotate(_ event: inout GestureEvent, _ t: TouchSnapshot) {
        event.rotation = arc
        event.rotationVelocity = arcVelocity
        event.sense = arc >= 0 ? .clockwise : .counterclockwise
    }

    public override var progress: Double? { fraction(abs(arc), of: minArc) }

    public override func reset() {
        heading = nil
        arc = 0
        arcVelocity = 0
        countSince = nil
    }
}
