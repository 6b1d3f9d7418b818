import TouchModel

/// The engine of one device: touch frames in, gesture events out, and the next
/// instant it needs to be woken. It never reads a clock (every instant is a frame's
/// kernel timestamp or the caller's timer) and allocates nothing per frame once warm:
/// the caller reuses `events`.
///
/// ```
///  TouchFrame ─► TouchTracker (touch reality) ─► TouchSnapshot ─► Arena ─► recognizers
///                                                                   │
///                                                       GestureEvent ◄┘
/// ```
public final class GestureEngine {
    public let device: DeviceInfo
    public let specs: [GestureSpec]
    /// `settings: accessibility:`; the default changes nothing.
    public let profile: AccessibilityProfile
    private let tracker: TouchTracker
    private let arena: Arena
    /// `hold-to-accept`: the touches the engine sees are those that rested; nil when off.
    private let acceptance: TouchAcceptance?
    /// The profile's tremor filter (nil: off); it smooths a copy of each frame into a
    /// buffer it keeps for the engine's life, not allocated per frame.
    private let smoother: ContactSmoother?
    /// After a resync, a stale frame, a click, `cancelAll` with fingers down, or an
    /// engine made while fingers were down (`ignoringTouchesDown`): ignore the touches
    /// until every finger has lifted, so nothing fires from a partial sequence.
    @exclusivity(unchecked) private var poisoned = false
    /// The latest instant seen, from a frame or the caller's timer. Deadlines at or
    /// before it are stale (whatever they waited for has been evaluated).
    @exclusivity(unchecked) private var clock = Timestamp(microseconds: Int64.min)

    /// Builds the recognizers for the specs whose device filter matches `device`.
    /// `explains`: keep the arena's decisions and why each recognizer failed
    /// (`decisions`, `failures`, `explanations`, for `--explain` and `watch`). Without
    /// it those stay empty and every touch sequence costs less; the gesture events are
    /// the same either way.
    public init(device: DeviceInfo, specs: [GestureSpec], explains: Bool = true,
                profile: AccessibilityProfile = AccessibilityProfile()) {
        self.device = device
        self.specs = specs
        self.profile = profile
        acceptance = profile.holdToAccept > 0 ? TouchAcceptance(duration: profile.holdToAccept, device: device) : nil
        let here = specs.indices.filter { specs[$0].devices.admits(device) }
        // Every time threshold scaled once, here: the frames cost what they did.
        let timing = EngineTiming(scale: profile.timingScale, tremorFilter: profile.tremorFilter != nil)
        tracker = TouchTracker(device: device, followsRestingFinger: here.contains { specs[$0].kind.traits.restsAFinger },
                               timing: timing)
        tracker.tapAt = profile.tapAt
        smoother = profile.tremorFilter.map(ContactSmoother.init)
        var members: [Arena.Member] = []
        for index in here {
            let spec = specs[index], traits = spec.kind.traits
            let edges = traits.startsAtEdge ? (spec.thresholds.edgeZoneMM ?? defaultEdgeZoneMM, spec.edges, device) : nil
            let gate = MotionGate(traits.gate, fingers: fingerRange(of: spec, atLeast: traits.gate.fewestFingers),
                                  decides: Self.competesWithTranslation(index, here, specs), edges: edges)
            let context = KindTraits.Context(device: device, soonerDistanceMM: Self.soonerSwipeDistance(index, here, specs, device, timing),
                                             timing: timing)
            members.append(Arena.Member(recognizer: traits.make(spec, context), specIndex: index,
                                        name: spec.name, kind: spec.kind, enabledAtStart: spec.enabled,
                                        sequenceWindow: spec.sequenceWindow ?? defaultSequenceWindow, gate: gate))
        }
        arena = Arena(members: members, specs: specs, explains: explains)
    }

    /// Whether another gesture on this device takes the same fingers moving together
    /// and may not run with spec `i`: only then does a pinch or rotation have to lose
    /// the early swipe-vs-pinch decision. With nothing to choose between, a pinch or
    /// rotation that starts with a drift stays possible (UIKit's have no such failure).
    static func competesWithTranslation(_ i: Int, _ here: [Int], _ specs: [GestureSpec]) -> Bool {
        let spec = specs[i]
        return here.contains { j in
            let other = specs[j]
            return j != i && other.kind.traits.takesTranslation && other.fingers.overlaps(spec.fingers)
                && !spec.simultaneousWith.contains(other.name) && !other.simultaneousWith.contains(spec.name)
        }
    }

    /// Issue 24, "sooner": the distance swipe `i` may act at, when it has no
    /// `min-distance` of its own and every other gesture bound on the device for
    /// fingers it takes (and not simultaneous with it) is told apart from it in less:
    /// other swipes (by direction; with no longer `min-distance`), taps, tip-taps and
    /// holds (which fail past their `max-movement`). Anything else — a pan, an edge
    /// pan, a pinch, rotation or transform that waits while a swipe could win, a
    /// circle, a scrub, a tip-swipe — needs the swipe's full distance to tell it
    /// apart, and then nil: the swipe's own.
    static func soonerSwipeDistance(_ i: Int, _ here: [Int], _ specs: [GestureSpec], _ device: DeviceInfo,
                                    _ timing: EngineTiming = EngineTiming()) -> Double? {
        let spec = specs[i]
        guard spec.kind == .swipe, spec.thresholds.minDistanceMM == nil else { return nil }
        let floor = soonerSwipeMinDistanceMM
        for j in here where j != i {
            let other = specs[j]
            let resting = other.kind.traits.restsAFinger ? 1 : 0
            let fingers = (other.fingers.lowerBound + resting)...(other.fingers.upperBound + resting)
            guard fingers.overlaps(spec.fingers), !spec.simultaneousWith.contains(other.name),
                  !other.simultaneousWith.contains(spec.name) else { continue }
            switch other.kind {
            case .swipe:
                if let d = other.thresholds.minDistanceMM, d > floor { return nil }
            case .tap, .tipTap:
                if timing.movement(other.thresholds.maxMovementMM, default: defaultTapMaxMovementMM) > floor { return nil }
            case .hold:
                if timing.movement(other.thresholds.maxMovementMM, default: defaultHoldAllowableMovementMM[device.kind] ?? 5) > floor { return nil }
            case .pan, .pinch, .rotate, .edgePan, .transform, .scrub, .circle, .tipSwipe, .shape:
                return nil
            }
        }
        return floor
    }

    /// Feeds one frame; appends the resulting events to `events` (the caller reuses the
    /// buffer). Every deadline due at or before the frame's time fires first, each at its
    /// own instant and in order (keyd's core does the same): a caller whose timer has
    /// not fired yet, or a replay with no timer at all, gets what a punctual timer gives.
    public func process(_ frame: TouchFrame, into events: inout [GestureEvent]) {
        withUnsafePointer(to: frame) { process($0, into: &events) }
    }

    /// `process` for a frame the caller holds in place (`TouchDecoder.framePointer`):
    /// a frame is 512 bytes, and passing one by value copied it at every call.
    public func process(_ frame: UnsafePointer<TouchFrame>, into events: inout [GestureEvent]) {
        fireDeadlines(through: frame.pointee.time, into: &events)
        // The tremor filter, when on: the positions smoothed before anything reads them
        // (`hold-to-accept` too: a shaking finger at rest is at rest).
        let frame = smoother?.smoothed(frame) ?? frame
        if let acceptance {
            take(acceptance.filter(frame, refusingNew: poisoned), into: &events)
        } else {
            take(frame, into: &events)
        }
    }

    /// One frame, its deadlines already fired (from the device, or from `acceptance`).
    @inline(__always)
    private func take(_ frame: UnsafePointer<TouchFrame>, into events: inout [GestureEvent]) {
        let time = frame.pointee.time, flags = frame.pointee.flags
        clock = max(clock, time)
        if !flags.isDisjoint(with: [.resynced, .stale]) {
            // A partial state or a stall's backlog: nothing fires from it, and the touches
            // down now belong to no gesture until every finger has lifted.
            arena.cancelAll(at: time, reason: flags.contains(.resynced) ? .resynced : .stale, last: lastStep, into: &events)
            tracker.reset()
            poisoned = true
        } else if flags.contains(.buttonDown) && !poisoned {
            // A clickpad click is a pointer action, not a gesture: libinput cancels
            // gestures when the pad is clicked, and so do we, until the fingers lift.
            arena.cancelAll(at: time, reason: .clicked, last: lastStep, into: &events)
            poisoned = true
        }
        let outcome = tracker.update(frame)
        if poisoned {
            if !tracker.inSequence { poisoned = false }
            return
        }
        switch outcome {
        case .idle:
            return
        case .began:
            let t = tracker.snapshot(at: time)
            arena.beginSequence(t, device: device, into: &events)
            if settleEarlyIfUnrivalled(time) {
                arena.step(tracker.snapshot(at: time), .touches, into: &events)
            } else {
                arena.step(t, .touches, into: &events)
            }
        case .touching:
            settleEarlyIfUnrivalled(time)
            arena.step(tracker.snapshot(at: time), .touches, into: &events)
        case .lifted:
            arena.step(tracker.snapshot(at: time), .lifted, into: &events)
            arena.resetFinished(into: &events)
        }
    }

    /// The touches as the arena's last step saw them: the tracker has not changed since
    /// (every tracker update is followed by a step, but where no member can be running:
    /// the touches ignored, or none down), so its snapshot at that instant is the one
    /// the step had.
    private var lastStep: TouchSnapshot { tracker.snapshot(at: arena.lastStepTime) }

    /// The caller's timer fired: time has reached `now` with no new frame. Every
    /// deadline due at or before `now` fires, each at its own instant (not at `now`, so
    /// a late wake-up gives the same events at the same times as a punctual one, and as
    /// `replay`). The one call for time besides `process`.
    public func timerFired(at now: Timestamp, into events: inout [GestureEvent]) {
        fireDeadlines(through: now, into: &events)
    }

    /// Fires every deadline at or before `limit`, earliest first. Each one moves the
    /// clock past itself (`nextDeadline` only reports later instants), so this ends;
    /// the bound guards against a recognizer whose deadline never moves on.
    @inline(__always)
    private func fireDeadlines(through limit: Timestamp, into events: inout [GestureEvent]) {
        var fired = 0
        // Most frames have nothing due: the arena says so without its walk.
        while fired < 1000, arena.mayHaveDeadline(through: limit) || tracker.deadline(after: clock).map({ $0 <= limit }) == true
                || acceptance?.deadline.map({ $0 <= limit }) == true,
              let d = nextDeadline, d <= limit {
            advance(to: d, into: &events)
            fired += 1
        }
    }

    /// Time has reached `time` with no new frame: one timer step.
    private func advance(to time: Timestamp, into events: inout [GestureEvent]) {
        clock = max(clock, time)
        guard !poisoned else { return }
        tracker.advance(to: time)
        settleEarlyIfUnrivalled(time)
        arena.step(tracker.snapshot(at: time), .timer, into: &events)
        if !tracker.inSequence { arena.resetFinished(into: &events) }
        // A touch's rest came due: the tracker sees it land now.
        if let acceptance, let d = acceptance.deadline, d <= time { take(acceptance.frame(at: time), into: &events) }
    }

    /// Issue 24, "sooner": a finger count still settling on the way up is committed at
    /// once when no gesture still in play takes more fingers (none bound for more, or
    /// those failed already): no finger still to land could change what the touches
    /// are, so the 100 ms window would only delay. Returns whether it did.
    @discardableResult @inline(__always)
    private func settleEarlyIfUnrivalled(_ time: Timestamp) -> Bool {
        guard tracker.isSettlingUp(at: time), !arena.someoneTakesMore(than: tracker.fingersDown) else { return false }
        tracker.settleEarly()
        return true
    }

    /// Cancels everything in flight (device gone, config swapped) and resets. Fingers
    /// still down are ignored until they lift.
    public func cancelAll(at time: Timestamp, into events: inout [GestureEvent]) {
        arena.cancelAll(at: time, reason: .cancelledByCaller, last: lastStep, into: &events)
        clock = max(clock, time)
        poisoned = tracker.inSequence
        tracker.reset()
        acceptance?.refuseResting()
    }

    /// Whether the touches down now are ignored until every finger has lifted.
    public var ignoresTouchesDown: Bool { poisoned }

    /// An engine that takes over while fingers are down (a reload): they belong to no
    /// gesture of its own. They lift, or the next frame shows none down, before it listens.
    public func ignoreTouchesDown() { poisoned = true }

    /// The next instant at which `timerFired(at:)` must be called, or nil when idle.
    public var nextDeadline: Timestamp? {
        guard !poisoned else { return nil }
        var next = arena.deadline(after: clock)
        if let d = tracker.deadline(after: clock), next == nil || d < next! { next = d }
        if let d = acceptance?.deadline, d > clock, next == nil || d < next! { next = d }
        return next
    }

    /// Enables or disables a gesture by name at run time (UIKit's shouldBegin). A
    /// disabled gesture that is running is cancelled at the next frame or timer.
    public func setEnabled(_ enabled: Bool, name: String) {
        arena.setEnabled(enabled, name: name)
    }

    /// The focused application (nil: none known), taken when a touch sequence begins:
    /// gestures limited to other apps do not listen to it, and an app-specific gesture
    /// overrides the same gesture bound globally (`AppFilter`).
    public var focusedApp: String? {
        didSet { if focusedApp != oldValue { arena.setFocusedApp(focusedApp) } }
    }

    // MARK: Explain and watch

    /// Why each recognizer failed in the current (or, between touches, the last) touch
    /// sequence, in user terms: "swipe-left: moved 12.3 mm, needs 20.0 mm".
    public var explanations: [String] {
        arena.failures.map { "\(arena.members[$0.member].name): \(arena.reason(of: $0).text)" }
    }

    /// The same, as values.
    public var failures: [RecognizerFailure] {
        arena.failures.map { RecognizerFailure(name: arena.members[$0.member].name, time: $0.time, reason: arena.reason(of: $0)) }
    }

    /// How far each gesture still possible is toward its begin (continuous) or recognize
    /// (discrete) threshold, 0…1, as of the last frame or timer: `body` gets the spec's
    /// index (`GestureEvent.index`) and the fraction. For the event stream's animations;
    /// asked for nothing, it costs nothing (the recognizers keep the compared quantity
    /// and the ratio is made here).
    public func forEachProgress(_ body: (_ specIndex: Int, _ progress: Double) -> Void) {
        arena.forEachProgress { body(arena.members[$0].specIndex, $1) }
    }

    /// Every recognizer on this device and where it stands, in config order.
    public var recognizerStates: [RecognizerStatus] {
        arena.members.indices.map {
            RecognizerStatus(name: arena.members[$0].name, kind: arena.members[$0].kind,
                             state: arena.states[$0], enabled: arena.isEnabled[$0])
        }
    }

    /// The arena's decisions numbered `since` and later that are still kept (the last
    /// 128), oldest first. Pass `decisionCount` from the previous call to get only new ones.
    public func decisions(since: Int = 0) -> [ArenaDecision] {
        arena.log.decisions(since: since) { arena.members[$0].name }
    }

    /// Whether the arena keeps its decisions (the initializer's `explains`), switched
    /// at run time: the daemon keeps them only while someone reads them.
    public var explains: Bool {
        get { arena.explains }
        set { arena.explains = newValue }
    }

    /// How many decisions the arena has made since the engine was built.
    public var decisionCount: Int { arena.log.total }

    /// What the recognizers see right now: finger count, settling, motion class, values.
    public var touches: TouchSnapshot { tracker.snapshot(at: max(clock, tracker.lastFrameTime)) }

    /// Transitions a recognizer proposed that UIKit's machine does not allow (refused
    /// and survived). Always 0 unless a recognizer has a bug; tests assert it.
    public var refusedTransitions: Int { arena.refusedTransitions }
}

/// One recognizer's failure, for `--explain`.
public struct RecognizerFailure: Sendable, Equatable, CustomStringConvertible {
    public var name: String
    public var time: Timestamp
    public var reason: FailureReason
    public var description: String { "\(name): \(reason.text)" }
}

/// One recognizer's state, for `watch`.
public struct RecognizerStatus: Sendable, Equatable, CustomStringConvertible {
    public var name: String
    public var kind: GestureKind
    public var state: RecognizerState
    public var enabled: Bool
    public var description: String { "\(name) [\(kind.rawValue)]: \(state)\(enabled ? "" : " (disabled)")" }
}
