import PlainText
import TouchModel

/// Why a recognizer failed or was cancelled, with the numbers a user needs to see
/// what to do differently. Stored as plain values (no strings) so failing costs no
/// allocation; the text is built only when `--explain` or `watch` asks.
public enum FailureReason: Sendable, Equatable {
    /// Wrong number of fingers once the count settled.
    case fingers(have: Int, need: ClosedRange<Int>)
    /// Tap or hold: a finger moved more than allowed, mm.
    case movedTooFar(mm: Double, limitMM: Double)
    /// Fingers lifted before the gesture travelled far enough, mm.
    case tooShort(mm: Double, needsMM: Double)
    /// Swipe: fast enough? mm/s. `scale`, here and in the other cases with a time or
    /// speed threshold: the accessibility profile's `timing-scale` that threshold was
    /// scaled by (1: the gesture's own, or no profile), which the text reports.
    case tooSlow(mmPerS: Double, needsMMPerS: Double, scale: Double = 1)
    /// Swipe, pan, edge pan: moved in a direction the gesture does not accept.
    case wrongDirection(moved: Direction)
    /// Swipe, pan with axis lock: too far off the axis, degrees.
    case offAxis(degrees: Double, maxDegrees: Double)
    /// Pinch, rotate: went the way the gesture does not accept.
    case wrongSense(moved: Sense)
    /// Tap: a finger stayed down too long, s.
    case heldTooLong(seconds: Double, maxSeconds: Double, scale: Double = 1)
    /// Multi-tap: the next tap did not come in time, s.
    case nextTapTooLate(maxSeconds: Double, scale: Double = 1)
    /// Hold: lifted before the minimum press duration, s.
    case liftedTooSoon(seconds: Double, needsSeconds: Double, scale: Double = 1)
    /// Hold with taps before it, or multi-tap: fewer taps than needed.
    case taps(have: Int, need: Int)
    /// Pinch: lifted before the scale changed enough.
    case tooLittleScale(scale: Double, needs: Double)
    /// Rotate: lifted before turning far enough, degrees.
    case tooLittleRotation(degrees: Double, needsDegrees: Double)
    /// Circle: lifted before its path turned far enough, degrees.
    case tooLittleArc(degrees: Double, needsDegrees: Double)
    /// Circle: the path turned back on itself by this much from one segment to the
    /// next, degrees (a stroke that reverses is no circle).
    case doubledBack(degrees: Double)
    /// Circle: the fingers turned about their own centroid by this much while their
    /// path went this far round, degrees (fingers turning about one of them: a rotation).
    case turnedWithTheFingers(fingersDegrees: Double, pathDegrees: Double)
    /// Circle: the path's centre, read every quarter turn, moved this far, mm, for its
    /// radius (a stroke running straight into a curl goes round no one place).
    case centreMoved(mm: Double, radiusMM: Double)
    /// Tip-tap: the resting finger was down this long before the others landed, s.
    case restedTooShort(seconds: Double, needsSeconds: Double, scale: Double = 1)
    /// Tip-tap: the resting finger moved this far, mm.
    case restMoved(mm: Double, limitMM: Double)
    /// Tip-tap: the resting finger lifted with the others or before them (a plain tap).
    case restLifted
    /// Tip-tap: more fingers landed beside the resting one this long after the tap
    /// lifted, before it was taken (it waits `waitSeconds` for the resting finger), s.
    case tappedAgain(seconds: Double, waitSeconds: Double, scale: Double = 1)
    /// Tip-tap: the others landed on this side, which it does not accept.
    case wrongSide(tapped: Side)
    /// Tip-tap: no finger tapped or swiped beside the resting one.
    case noTipTap
    /// Tip-tap: the pad reports a box around the fingers, not each one.
    case fingersNotTracked
    /// Shape: the path's larger side, mm, was under the least a shape takes.
    case shapeTooSmall(mm: Double, needsMM: Double)
    /// Shape: it has no template to compare the path with (every one it was given
    /// has its points in one place).
    case noShapeTemplate
    /// Shape: the path bent this little off a straight line (a swipe's stroke).
    case tooStraight(bend: Double, needs: Double)
    /// Shape: the template the path looked most like, its score, and whether this
    /// gesture takes that shape.
    case unlikeShape(best: String, score: Double, needs: Double, taken: Bool)
    /// Swipe/pan lost the swipe-vs-pinch decision, or pinch/rotate lost it the other way.
    case fingersMovedTogether
    case fingersMovedApart
    /// Scrub: not enough reversals, or too much vertical drift, mm.
    case reversals(have: Int, need: Int)
    case verticalDrift(mm: Double, maxMM: Double)
    /// Touchscreen filters.
    case notAtEdge
    case outsideRegion
    case needsTouchscreen
    /// Arbitration.
    case lostTo(String)
    case requiredGestureRecognized(String)
    case notAfter(String)
    case disabled
    /// Per-application (`apps:`, `except-apps:`): the app focused as the touches began.
    case notForApp(String)
    case excludedApp(String)
    case noFocusedApp
    /// The same gesture bound for the focused app wins over this global one.
    case overriddenForApp(by: String, app: String)
    /// Continuous: the fingers lifted before it could begin (the count was still
    /// settling, or it was waiting on another gesture).
    case liftedBeforeItBegan
    /// Everything in flight was torn down.
    case resynced
    /// The frames came too late to be read (the daemon was stalled): a backlog.
    case stale
    /// The clickpad was physically clicked.
    case clicked
    case cancelledByCaller

    /// The user-facing sentence, without the gesture's name.
    public var text: String {
        switch self {
        case let .fingers(have, need):
            let n = need.lowerBound == need.upperBound ? "\(need.lowerBound)" : "\(need.lowerBound)–\(need.upperBound)"
            return "\(have) finger\(have == 1 ? "" : "s"), needs \(n)"
        case let .movedTooFar(mm, limit): return "moved \(mm.formatted1) mm, allows \(limit.formatted1) mm"
        case let .tooShort(mm, needs): return "moved \(mm.formatted1) mm, needs \(needs.formatted1) mm"
        case let .tooSlow(v, needs, scale):
            return "moved at \(v.formatted1) mm/s, needs \(needs.formatted1) mm/s" + Self.scaled(scale, divided: true)
        case let .wrongDirection(moved): return "moved \(moved.rawValue), which it does not accept"
        case let .wrongSense(moved):
            return "\(moved == .in || moved == .out ? "pinched" : "turned") \(moved.rawValue), which it does not accept"
        case let .offAxis(deg, max): return "moved \(deg.formatted1)° off its axis, allows \(max.formatted1)°"
        case let .heldTooLong(s, max, scale):
            // Failed at the deadline (still down) or at a late lift.
            return (s < max + 0.005 ? "still down after \(max.formatted2) s, too long for a tap"
                : "held \(s.formatted2) s, a tap allows \(max.formatted2) s") + Self.scaled(scale)
        case let .nextTapTooLate(max, scale): return "the next tap did not come within \(max.formatted2) s" + Self.scaled(scale)
        case let .liftedTooSoon(s, needs, scale):
            return "lifted after \(s.formatted2) s, needs \(needs.formatted2) s" + Self.scaled(scale)
        case let .taps(have, need): return "\(have) tap\(have == 1 ? "" : "s"), needs \(need)"
        case let .tooLittleScale(scale, needs): return "scaled \(scale.formatted2)x, needs \(needs.formatted2)x"
        case let .tooLittleRotation(deg, needs): return "turned \(deg.formatted1)°, needs \(needs.formatted1)°"
        case let .tooLittleArc(deg, needs): return "went \(deg.formatted1)° round, needs \(needs.formatted1)°"
        case let .doubledBack(deg): return "the path turned back by \(deg.formatted1)°, not round"
        case let .turnedWithTheFingers(fingers, path):
            return "the fingers turned \(fingers.formatted1)° as their path went \(path.formatted1)° round: a rotation, not the hand going round"
        case let .centreMoved(mm, radius):
            return "the path's centre moved \(mm.formatted1) mm, over half its radius of \(radius.formatted1) mm: not round"
        case let .restedTooShort(s, needs, scale):
            return "the first finger rested \((s * 1000).fixed(0)) ms before the others landed, needs \((needs * 1000).fixed(0)) ms"
                + Self.scaled(scale)
        case let .restMoved(mm, limit): return "the resting finger moved \(mm.formatted1) mm, allows \(limit.formatted1) mm"
        case .restLifted: return "the resting finger lifted with the others, or before them (a plain tap of them all)"
        case let .tappedAgain(s, wait, scale):
            return "fingers landed again \((s * 1000).fixed(0)) ms after the tap, before it counted (it waits \((wait * 1000).fixed(0)) ms): one tip-tap per rest"
                + Self.scaled(scale)
        case let .wrongSide(side): return "tapped to the \(side.rawValue), which it does not accept"
        case .noTipTap: return "no finger tapped beside the resting one"
        case .fingersNotTracked: return "this pad reports a box around the fingers, not each finger"
        case let .shapeTooSmall(mm, needs): return "drew \(mm.formatted1) mm across, a shape needs \(needs.formatted1) mm"
        case .noShapeTemplate: return "no shape template to compare it with (each one's points are all in one place)"
        case let .tooStraight(bend, needs): return "the stroke was straight (bend \(bend.formatted2), a shape needs \(needs.formatted2)): a swipe's"
        case let .unlikeShape(best, score, needs, taken):
            return taken ? "looked most like '\(best)' (\(score.formatted2)), needs \(needs.formatted2)"
                : "looked most like '\(best)' (\(score.formatted2)), which it does not take"
        case .fingersMovedTogether: return "fingers moved together (a swipe or pan), not apart"
        case .fingersMovedApart: return "fingers moved apart or around (a pinch or rotation), not together"
        case let .reversals(have, need): return "reversed \(have) time\(have == 1 ? "" : "s"), needs \(need)"
        case let .verticalDrift(mm, max): return "drifted \(mm.formatted1) mm vertically, allows \(max.formatted1) mm"
        case .notAtEdge: return "did not start at an edge it listens to"
        case .outsideRegion: return "started outside its region"
        case .needsTouchscreen: return "edge pans need a touchscreen"
        case let .lostTo(other): return "lost to \(other)"
        case let .requiredGestureRecognized(other): return "\(other) was recognized, and this one requires it to fail"
        case let .notAfter(other): return "only counts right after \(other)"
        case .liftedBeforeItBegan: return "the fingers lifted before it could begin"
        case .disabled: return "disabled"
        case let .notForApp(app): return "not for the focused app '\(app)' (see its 'apps:')"
        case let .excludedApp(app): return "excluded in the focused app '\(app)' ('except-apps:')"
        case .noFocusedApp: return "only for some apps, and no focused app is known"
        case let .overriddenForApp(other, app): return "\(other) overrides it in '\(app)'"
        case .resynced: return "the device dropped events (SYN_DROPPED); cancelled"
        case .stale: return "its frames were read too late (the daemon was stalled); cancelled"
        case .clicked: return "the pad was clicked; a click is not a gesture"
        case .cancelledByCaller: return "cancelled (device gone or config reloaded)"
        }
    }
}

extension FailureReason {
    /// The mark on a threshold the accessibility profile's `timing-scale` changed:
    /// " (scaled 2.5× by timing-scale)", or for a speed floor " (divided by
    /// timing-scale 2.5)"; nothing when it did not (`scale` 1).
    static func scaled(_ scale: Double, divided: Bool = false) -> String {
        guard scale != 1 else { return "" }
        let factor = scale == scale.rounded() ? scale.fixed(0) : scale.fixed(2).trimmingZeros
        return divided ? " (divided by timing-scale \(factor))" : " (scaled \(factor)× by timing-scale)"
    }
}

private extension String {
    /// "2.50" → "2.5".
    var trimmingZeros: String {
        var s = self
        while s.hasSuffix("0") { s.removeLast() }
        return s
    }
}

extension Double {
    /// "12.3" and "0.42": TouchModel's Foundation-free fixed-point text.
    var formatted1: String { fixed(1) }
    var formatted2: String { fixed(2) }
}
