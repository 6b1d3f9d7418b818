import TouchModel

/// Sequencing: how long after the earlier gesture ends (or is recognized) a gesture
/// declared `after` it may still begin, s. SwiftUI's `sequenced(before:)` requires
/// one unbroken touch; a daemon's users lift between a hold and a swipe, so 1 s.
let defaultSequenceWindow = 1.0

/// Arbitration, in one place (Flutter's gesture arena; UIKit's delegate rules). Every
/// recognizer of a device is a member. The arena owns the UIKit state of each member,
/// asks the recognizers what they make of each frame, and decides:
///
/// - **compete** (default): the first member to begin or recognize wins; every other
///   member that is not allowed to run with it fails, or is cancelled if it had begun.
///   Members are asked in config order, so config order breaks ties;
/// - **simultaneous**: declared pairs (either side may declare) may both run;
/// - **require to fail**: a member that would begin waits (`waiting`) until every
///   member it requires to fail has failed; if one of them wins instead, it fails;
/// - **sequencing**: a member declared `after` another may only begin while that one
///   runs or within `sequenceWindow` of its end; when it wins, it cancels that one if
///   it is still running (SwiftUI's `sequenced(before:)`: the sequence moves on);
/// - **touch filtering**: region and edge filters are applied at touch-down
///   (device filters at engine init: filtered-out specs have no member);
/// - **enable/disable**: a disabled member fails (or is cancelled) at the next input.
///
/// It also owns the **motion gate** (`MotionGate`, from each kind's `KindTraits.gate`):
/// a member whose kind has one is not asked until its fingers have settled and moved
/// its way, and a member gated out of a frame's finger count is not visited at all.
///
/// Every transition goes through `move` (`apply` is `move` plus the event it reports),
/// which checks it against UIKit's machine and records it; `resetFinished` is the one
/// shortcut. Failures are kept with their reasons for `--explain`.
final class Arena {
    struct Member {
        let recognizer: any GestureRecognizer
        /// Index in the engine's spec list (GestureEvent.index).
        let specIndex: Int
        let name: String
        let kind: GestureKind
        let enabledAtStart: Bool
        /// Members it requires to fail.
        var requires: [Int] = []
        /// The member it must come right after: nil none, -1 a gesture not on this device.
        var after: Int?
        var sequenceWindow: Double
        /// What the arena checks before it asks the recognizer (`KindTraits.gate`).
        let gate: MotionGate
    }

    /// A failure in the current touch sequence; its reason is in the log's decision.
    struct Failure: Sendable {
        var member: Int
        var time: Timestamp
        var decision: Int
    }

    /// Who the members are (fixed at init) …
    let members: [Member]
    private let memberCount: Int
    /// … and what changes per frame, in tables allocated once (`MemberTable`) so the
    /// hot loop touches small values and copies no member.
    /// Held unretained (the members keep them) and called through `RecognizerBase`'s
    /// vtable: no retain and release around each call.
    private let recognizers: MemberTable<Unmanaged<RecognizerBase>>
    private let stateTable: MemberTable<RecognizerState>
    /// What a waiting member will act on when released.
    @exclusivity(unchecked) private var pendings: [TouchSnapshot?]
    private let pendingTransitions: MemberTable<Transition>
    /// When each member last ended or was recognized (sequencing).
    private let lastCompletions: MemberTable<Timestamp?>
    /// Each member's `deadline` as of its last evaluation (read once per evaluation
    /// so `nextDeadline`, asked after every frame, is a scan of the members in play).
    private let deadlines: MemberTable<Timestamp?>
    /// Members not in a terminal state and those in `possible` (both kept by `move`
    /// and `resetFinished`, facts of `stateTable`: `bitsAgree` checks them in debug
    /// builds), and the enabled ones (the only record of it): a frame visits only the
    /// members that can act on it.
    private let live: MemberBits
    private let possible: MemberBits
    private let enabled: MemberBits
    /// Members in `waiting` (resolving waiters visits only them), and those with a
    /// deadline (`deadline(after:)`, asked before every frame, visits only them).
    private let waitingBits: MemberBits
    private let deadlineBits: MemberBits
    /// Members another member requires to fail (`requires-failure-of`).
    private let required: MemberBits
    /// Members whose kind sets deadlines (`KindTraits.keepsTime`): only theirs is read
    /// after an evaluation (a pan's, a pinch's, a swipe's … is always nil).
    private let timed: MemberBits
    /// `gatedOut[f, w]`: the members whose gate waits for a settled count
    /// (`KindTraits.Gate.settled`) and whose fingers exclude a settled count of `f`
    /// (f ≥ `gateTop` counts as `gateTop`); row `gateTop + 1`: every such member (an
    /// unsettled count). While possible and enabled their gate would only wait, so the
    /// arena does not visit them (issue 15: only recognizers that can act on a frame
    /// do work); at the lift, those gated out of the final count fail unvisited.
    private let gatedOut: MemberRows
    private let gateTop: Int
    /// The members whose gate also waits for the motion to be classified
    /// (`MotionGate.waitsForMotion`): while a frame's motion is undecided their gate
    /// would only wait, so, possible and enabled, they are not visited either (11,092
    /// visits of the bench's protocol-B pass, each a gate's `undecided`).
    private let awaitsMotion: MemberBits
    /// Each member's motion gate (`Member.gate`), so a frame copies no member.
    private let gates: MemberTable<MotionGate>
    /// Each member's spec's `fingers` (the reason a running member is cancelled by a
    /// finger count above it), so the cancel copies no spec.
    private let specFingers: MemberTable<ClosedRange<Int>>
    private let wordCount: Int
    /// Each member with a region or edge filter (its spec index; -1: none), so a
    /// touch-down copies no spec for the others.
    private let touchFilters: [Int]
    private let specs: [GestureSpec]
    /// Row `i`: the members a win of `i` fails or cancels (those that may not run with
    /// it, but for the ones that come right after it) …
    private let losers: MemberRows
    /// … the members whose win makes `i` lose (those that may not run with it, but for
    /// the one it comes right after) …
    private let blockers: MemberRows
    /// … and the members `i` requires to fail.
    private let requiresFailureOf: MemberRows
    /// Row `i`, for a pinch or rotation whose gate decides against fingers moving
    /// together: the gestures taking such motion that compete with it for the fingers
    /// its gate lets through (`GestureEngine.competesWithTranslation` on the specs').
    /// Only those that could still win, and that it has not outgrown, hold it up
    /// (`rivalHoldsUp`).
    private let rivals: MemberRows
    /// `takesMore[f, w]`: the members that take more than `f` fingers in all (a
    /// tip-tap's resting finger counted; f ≥ `gateTop`: none), so a count of `f` that
    /// none of them still in play could grow into need not wait out its settle window
    /// (`someoneTakesMore`).
    private let takesMore: MemberRows
    /// Members that have won: began, changed or recognized (kept by `move`).
    private let won: MemberBits
    @exclusivity(unchecked) private(set) var log: DecisionLog
    /// Failures since the current touch sequence began.
    var failures: [Failure] { (0..<failureCount).map { failureTable[$0] } }
    /// … kept in a table allocated once (an array here checked its uniqueness at every
    /// failure), twice the members; a sequence that fails more (timers after the lift
    /// can fail members reset there) moves it to one twice as large.
    @exclusivity(unchecked) private var failureTable: MemberTable<Failure>
    @exclusivity(unchecked) private var failureCount = 0
    @exclusivity(unchecked) private(set) var refusedTransitions = 0
    @exclusivity(unchecked) private var now = Timestamp(microseconds: 0)
    /// No member's deadline later than the last `deadline(after:)` walk's time is
    /// earlier than this (`mayHaveDeadline`).
    @exclusivity(unchecked) private var deadlineFloor = Timestamp(microseconds: .min)
    /// The time of the last `step`: `cancelAll`'s caller reports the touches as they
    /// were then (the engine asks its tracker, which has not changed since).
    @exclusivity(unchecked) private(set) var lastStepTime = Timestamp(microseconds: 0)
    /// The current step is the lift: nothing continuous may begin from it.
    @exclusivity(unchecked) private var liftedInput = false
    /// Members in `waiting`, kept by `apply`.
    @exclusivity(unchecked) private var waitingCount = 0
    @exclusivity(unchecked) private var resolving = false
    @exclusivity(unchecked) private var resolveAgain = false
    /// Per-application: why each member does not listen in the focused app (nil: it
    /// does), and the members each one overrides when it does (AppFilter).
    private var appVerdicts: [FailureReason?]
    private let appOverrides: [[Int]]
    /// The members with an app verdict, with a touch filter, and with members to
    /// override: the only ones a touch-down has to look at.
    private let appRefused: MemberBits
    private let touchFiltered: MemberBits
    private let overriders: MemberBits
    private var focusedApp: String?

    /// Whether decisions and failure reasons are kept (`log`, `failures`): off, only
    /// refused transitions are logged, and a touch sequence costs one log entry and one
    /// failure record less per member (about a tenth of the engine's work). Switched
    /// on while the daemon's event stream has a subscriber; a switch takes effect
    /// from the next transition.
    var explains: Bool

    init(members initial: [Member], specs: [GestureSpec], explains: Bool = true) {
        self.explains = explains
        var members = initial
        let n = members.count
        var compatible = [Bool](repeating: false, count: n * n)
        var byName: [String: Int] = [:]
        for (i, m) in members.enumerated() where byName[m.name] == nil { byName[m.name] = i }
        func index(_ name: String) -> Int? { byName[name] }
        let requirements = members.indices.map { i in
            specs[members[i].specIndex].requiresFailureOf.compactMap(index).filter { $0 != i }
        }
        // Without a cycle (the config refuses them) every requirement stands: one
        // depth-first pass says so, where testing each requirement alone is quartic in
        // gestures (700 gestures each waiting for all earlier ones took 274 s).
        var acyclic = true
        CycleSearch.cycles(in: requirements) { _ in acyclic = false; return false }
        for i in 0..<n {
            let spec = specs[members[i].specIndex]
            for other in spec.simultaneousWith {
                if let j = index(other) { compatible[i * n + j] = true; compatible[j * n + i] = true }
            }
            // A gesture required to fail that is not on this device counts as failed.
            // A requirement that would close a cycle (A waits for B, B waits for A) would
            // leave both waiting forever, as it does in UIKit: the earlier gesture in
            // config order keeps its requirement, the later one drops it.
            for r in requirements[i] where acyclic || !Arena.waits(r, for: i, in: members) {
                members[i].requires.append(r)
            }
            if let after = spec.after { members[i].after = index(after) ?? -1 }
        }
        // A shape decides at the lift, a swipe as it crosses its distance: a swipe (or
        // a scrub) for the same fingers waits for the shape to fail, or every shape's
        // first stroke would be a swipe (docs/ENGINE.md, "Shape"). A straight stroke
        // fails the shape at the lift and the swipe fires then. Not where the shape
        // already waits for the swipe.
        for i in 0..<n where members[i].kind.traits.discrete && members[i].kind.traits.takesTranslation {
            for r in 0..<n where members[r].kind.traits.swipesWaitForIt && !compatible[i * n + r]
                && members[r].gate.fingers.overlaps(members[i].gate.fingers)
                && !members[i].requires.contains(r) && !Arena.waits(r, for: i, in: members) {
                members[i].requires.append(r)
            }
        }
        self.members = members
        self.memberCount = n
        self.specs = specs
        recognizers = MemberTable(members.map { Unmanaged.passUnretained($0.recognizer as RecognizerBase) })
        stateTable = MemberTable(repeating: .possible, count: n)
        pendings = Array(repeating: nil, count: n)
        pendingTransitions = MemberTable(repeating: .begin, count: n)
        lastCompletions = MemberTable(repeating: nil, count: n)
        deadlines = MemberTable(repeating: nil, count: n)
        live = MemberBits(count: n)
        possible = MemberBits(count: n)
        enabled = MemberBits(count: n)
        waitingBits = MemberBits(count: n)
        deadlineBits = MemberBits(count: n)
        timed = MemberBits(count: n)
        for i in 0..<n where members[i].kind.traits.keepsTime { timed.insert(i) }
        required = MemberBits(count: n)
        for m in members { for r in m.requires { required.insert(r) } }
        for i in 0..<n {
            live.insert(i)
            possible.insert(i)
            enabled.set(i, members[i].enabledAtStart)
        }
        let words = (n + 63) / 64
        let settled = members.map { $0.gate.waitsForSettledCount ? $0.gate.fingers : nil }
        let top = max(ContactList.capacity + 1, (settled.compactMap { $0?.upperBound }.max() ?? 0) + 1)
        gatedOut = MemberRows(rows: top + 2, members: n) { f, i in
            guard let fingers = settled[i] else { return false }
            return f == top + 1 || !fingers.contains(f)
        }
        gateTop = top
        awaitsMotion = MemberBits(count: n)
        for i in 0..<n where members[i].gate.waitsForMotion { awaitsMotion.insert(i) }
        gates = MemberTable(members.map(\.gate))
        specFingers = MemberTable(members.map { specs[$0.specIndex].fingers })
        wordCount = words
        losers = MemberRows(rows: n, members: n) { i, k in k != i && !compatible[i * n + k] && members[k].after != i }
        blockers = MemberRows(rows: n, members: n) { i, k in k != i && !compatible[i * n + k] && k != members[i].after }
        requiresFailureOf = MemberRows(rows: n, members: n) { i, r in members[i].requires.contains(r) }
        rivals = MemberRows(rows: n, members: n) { i, r in
            members[i].gate.decides && r != i && !compatible[i * n + r] && members[r].kind.traits.takesTranslation
                && members[r].gate.fingers.overlaps(members[i].gate.fingers)
        }
        takesMore = MemberRows(rows: top + 1, members: n) { f, i in
            specs[members[i].specIndex].fingers.upperBound + (members[i].kind.traits.restsAFinger ? 1 : 0) > f
        }
        won = MemberBits(count: n)
        touchFilters = members.map {
            let spec = specs[$0.specIndex]
            return spec.region != nil || TouchFilter.filtersEdges(spec) ? $0.specIndex : -1
        }
        appOverrides = AppFilter.overrides(members.map(\.recognizer.spec))
        appVerdicts = members.map { $0.recognizer.spec.apps.admits(nil) }
        appRefused = MemberBits(count: n)
        touchFiltered = MemberBits(count: n)
        overriders = MemberBits(count: n)
        for i in 0..<n {
            appRefused.set(i, appVerdicts[i] != nil)
            touchFiltered.set(i, touchFilters[i] >= 0)
            overriders.set(i, !appOverrides[i].isEmpty)
        }
        log = DecisionLog(members: n)
        failureTable = MemberTable(repeating: Failure(member: 0, time: Timestamp(microseconds: 0), decision: 0), count: 2 * n + 8)
    }

    /// Whether a member still in play (not finished, enabled) takes more than `f`
    /// fingers: then more fingers may yet land for it, and a count of `f` must settle.
    func someoneTakesMore(than f: Int) -> Bool {
        let row = min(max(f, 0), gateTop)
        for w in 0..<wordCount where live.words[w] & enabled.words[w] & takesMore[row, w] != 0 { return true }
        return false
    }

    /// Each member's state, in member order (`watch`).
    var states: [RecognizerState] { (0..<memberCount).map { stateTable[$0] } }
    var isEnabled: [Bool] { (0..<memberCount).map { enabled.contains($0) } }

    /// Calls `body` with each possible, enabled member and its progress toward its
    /// threshold (`RecognizerBase.progress`), in member order; kinds with none are skipped.
    func forEachProgress(_ body: (_ member: Int, _ progress: Double) -> Void) {
        for i in 0..<memberCount where stateTable[i] == .possible && enabled.contains(i) {
            if let p = recognizer(i, { $0.progress }) { body(i, p) }
        }
    }

    /// Why failure `f` happened (kept in the decision log).
    func reason(of f: Failure) -> FailureReason {
        log.reason(ofDecision: f.decision) { members[$0].name } ?? .lostTo("?")
    }

    /// Whether `a` already waits, directly or through others, for `b` to fail.
    private static func waits(_ a: Int, for b: Int, in members: [Member]) -> Bool {
        var seen = Set<Int>(), stack = [a]
        while let m = stack.popLast() {
            if m == b { return true }
            if seen.insert(m).inserted { stack += members[m].requires }
        }
        return false
    }

    // MARK: Inputs

    /// A new touch sequence: drop the last one's explanations, apply touch filters.
    func beginSequence(_ t: TouchSnapshot, device: DeviceInfo, into events: inout [GestureEvent]) {
        now = t.time
        failureCount = 0
        // Only members with a filter can fail here (most have none): visit those, in
        // config order, each if still possible when its turn comes (a failure can
        // release a waiter that wins and fails others).
        let touchscreen = device.kind == .touchscreen
        forEachMember(in: { (touchscreen ? touchFiltered.words[$0] : 0) | appRefused.words[$0] }) { i in
            guard stateTable[i] == .possible else { return }
            // Regions and edges exist only on touchscreens; the app filter applies everywhere.
            if touchscreen, touchFilters[i] >= 0,
               let reason = TouchFilter.receives(specs[touchFilters[i]], device, landing: t.landing,
                                                 normalized: t.landingNormalized) {
                fail(i, given: reason, into: &events)
            } else if let reason = appVerdicts[i] {
                fail(i, given: reason, into: &events)
            }
        }
        forEachMember(in: { overriders.words[$0] }) { i in
            guard stateTable[i] == .possible && enabled.contains(i) else { return }
            for j in appOverrides[i] where stateTable[j] == .possible {
                fail(j, given: .overriddenForApp(by: members[i].name, app: focusedApp ?? ""), into: &events)
            }
        }
    }

    /// Calls `body` with each member in `mask(word)`, lowest first (config order). Each
    /// word's mask is taken when the walk reaches it, so a member `body` settles in an
    /// earlier word is seen as it is then.
    @inline(__always)
    private func forEachMember(in mask: (_ word: Int) -> UInt64, _ body: (Int) -> Void) {
        for w in 0..<wordCount {
            var visit = mask(w)
            while visit != 0 {
                body(w << 6 | visit.trailingZeroBitCount)
                visit &= visit &- 1
            }
        }
    }

    /// The focused app for the touch sequences that begin from now on.
    func setFocusedApp(_ app: String?) {
        focusedApp = app
        for i in 0..<memberCount {
            appVerdicts[i] = members[i].recognizer.spec.apps.admits(app)
            appRefused.set(i, appVerdicts[i] != nil)
        }
    }

    /// Asks every member still in play what it makes of `t`, and arbitrates. Members are
    /// visited in config order; a word of `live` bits at a time, less the possible,
    /// enabled members gated out of this finger count or, while the motion is still
    /// unclassified, waiting for it (their gate would only wait: see `gatedOut` and
    /// `awaitsMotion`). Terminal members cannot come back during a
    /// step and gated ones cannot leave `possible` but by failing, so the mask taken
    /// per word skips only members the state checks below would skip.
    func step(_ t: TouchSnapshot, _ input: RecognizerInput, into events: inout [GestureEvent]) {
        now = t.time
        liftedInput = input == .lifted
        let lifted = input == .lifted
        let fingerRow = min(max(t.fingers, 0), gateTop)
        let gateRow = lifted ? -1 : (t.isSettled ? fingerRow : gateTop + 1)
        let motionUndecided = t.motion == .undecided
        for w in 0..<wordCount {
            var visit = live.words[w]
            if gateRow >= 0 {
                let waits = gatedOut[gateRow, w] | (motionUndecided ? awaitsMotion.words[w] : 0)
                visit &= ~(possible.words[w] & enabled.words[w] & waits)
            }
            // At the lift, possible members gated out of the final count fail uncalled.
            let wrongFingers = lifted ? possible.words[w] & enabled.words[w] & gatedOut[fingerRow, w] : 0
            while visit != 0 {
                let i = w << 6 | visit.trailingZeroBitCount
                visit &= visit &- 1
                if wrongFingers & (1 << UInt64(i & 63)) != 0, stateTable[i] == .possible {
                    fail(i, .fingers(have: t.fingers, need: gates[i].fingers), into: &events)
                    continue
                }
                let state = stateTable[i]
                guard enabled.contains(i) else {
                    switch state {
                    case .began, .changed: apply(i, .cancel, .disabled, t, into: &events)
                    case .possible, .waiting: fail(i, .disabled, into: &events)
                    case .ended, .cancelled, .recognized, .failed: break
                    }
                    continue
                }
                switch state {
                case .possible, .began, .changed:
                    let evaluation = evaluate(i, t, input, state)
                    noteDeadline(i)
                    if case .undecided = evaluation { continue }  // most of them: no call
                    handle(i, state, evaluation, t, into: &events)
                case .waiting:
                    stepWaiting(i, t, input, into: &events)
                case .ended, .cancelled, .recognized, .failed:
                    continue  // lost to a member visited before it in this step
                }
            }
        }
        lastStepTime = t.time
    }

    /// Every finger is up and the sequence is decided: members that are done go back
    /// to possible (UIKit's reset). Multi-tap members still counting taps, and members
    /// waiting on one of them, stay as they are.
    ///
    /// Word by word rather than through `move`: from a terminal state `reset` is always
    /// legal (`RecognizerState.after`), is never logged, and leaves nothing pending, so
    /// the bits of a whole word change at once. Every member resets after every touch
    /// sequence, which made this a tenth of the arena's work.
    func resetFinished(into events: inout [GestureEvent]) {
        for w in 0..<wordCount {
            let base = w << 6
            var done = ~live.words[w]
            if base + 64 > memberCount { done &= (1 << UInt64(memberCount - base)) &- 1 }
            live.words[w] |= done
            possible.words[w] |= done
            deadlineBits.words[w] &= ~done
            won.words[w] &= ~done
            while done != 0 {
                let i = base | done.trailingZeroBitCount
                done &= done &- 1
                stateTable[i] = .possible
                deadlines[i] = nil
                recognizer(i) { $0.reset() }
            }
        }
        assert((0..<memberCount).allSatisfy(bitsAgree), "the arena's bit sets disagree with its state table")
    }

    /// Tears everything down: active members are cancelled, the rest fail, all reset.
    /// `last`: the touches as of the last `step` (`lastStepTime`), which the events of
    /// the members running then report. Only a step can leave a member running, and
    /// it was running at every step since it began, the last one included; a snapshot
    /// kept at every such step cost a 250-byte copy a frame.
    func cancelAll(at time: Timestamp, reason: FailureReason, last: @autoclosure () -> TouchSnapshot,
                   into events: inout [GestureEvent]) {
        now = time
        var t: TouchSnapshot?
        for i in 0..<memberCount {
            switch stateTable[i] {
            case .began, .changed:
                if t == nil { t = last(); t!.time = time }
                apply(i, .cancel, .attached, t!, into: &events)
                attach(reason)
            case .possible, .waiting:
                move(i, .fail, .attached)
                attach(reason)
            case .ended, .cancelled, .recognized, .failed: break
            }
        }
        for i in 0..<memberCount { move(i, .reset) }
    }

    func setEnabled(_ enabled: Bool, name: String) {
        for i in 0..<memberCount where members[i].name == name { self.enabled.set(i, enabled) }
    }

    /// What member `i`, in `state`, makes of `t`: its motion gate's verdict while it
    /// has not begun (`gateVerdict`), else its recognizer's (then `noteDeadline`).
    @inline(__always)
    private func evaluate(_ i: Int, _ t: TouchSnapshot, _ input: RecognizerInput,
                          _ state: RecognizerState) -> Evaluation {
        gateVerdict(i, t, input, state) ?? recognizer(i) { $0.evaluate(t, input, state: state) }
    }

    /// Member `i`'s motion gate (`MotionGate.verdict`), nil when it lets the recognizer
    /// decide. Issue 24: a pinch or rotation whose fingers moved together waits while a
    /// gesture for fingers moving together could still win; a rival that has failed,
    /// or cannot take the way the hand moves, holds up nothing. Issue 37: nor does one
    /// whose evidence it has outgrown (`rivalHoldsUp`). At the lift nothing can begin:
    /// the reason stays the motion's.
    @inline(__always)
    private func gateVerdict(_ i: Int, _ t: TouchSnapshot, _ input: RecognizerInput,
                             _ state: RecognizerState) -> Evaluation? {
        guard !state.isActive, let shut = gates[i].verdict(t, input) else { return nil }
        guard case .fail(.fingersMovedTogether) = shut, !t.hasUntrackedFingers, input != .lifted else { return shut }
        return rivalHoldsUp(i, t) ? .undecided : nil
    }

    /// Whether one of `i`'s rivals (`rivals`) still holds it up: in play for this
    /// finger count, and has won already, or could still accept the motion so far and
    /// `i` has not outgrown it. Arbitration by evidence, not by possibility (issue 37):
    /// with swipes bound every way a swipe could always still win, so `i` goes ahead
    /// once its own evidence (`RecognizerBase.evidence`: the turn, the scale) is past
    /// its threshold and more than each rival's (a swipe's distance along its direction
    /// times its straightness, over its distance), and the fingers moved against each
    /// other farther than together (`movedMoreApartThanTogether`).
    private func rivalHoldsUp(_ i: Int, _ t: TouchSnapshot) -> Bool {
        var holds = false
        var own = -1.0  // read once, when a rival could win
        forEachMember(in: { rivals[i, $0] & live.words[$0] & enabled.words[$0] }) { r in
            guard !holds, gates[r].fingers.contains(t.fingers) else { return }
            if won.contains(r) { holds = true; return }
            guard recognizer(r, { $0.couldAccept(t) }) else { return }
            if own < 0 { own = Arena.movedMoreApartThanTogether(t) ? recognizer(i) { $0.evidence(t) } : 0 }
            holds = own < 1 || own <= recognizer(r) { $0.evidence(t) }
        }
        return holds
    }

    /// Whether the outermost fingers moved against each other (their change of spread
    /// and the arc of their turn, mm) farther than their centroid travelled
    /// (`TouchSnapshot.path`). Fingers turning about one of them do (two 40 mm apart
    /// turning 10°: 7 mm apart, 3.5 mm together; the centroid of a hand is never farther
    /// from its thumb than its outermost finger is); a hand drawing a circle, a swipe
    /// whose wrist twists or whose fingers fan out, do not (a drawn circle's 10 %
    /// change of spread is 2 mm by the time it has gone 30 mm round).
    static func movedMoreApartThanTogether(_ t: TouchSnapshot) -> Bool {
        let apart = t.spread * (abs(1 - 1 / max(t.scale, 0.0001)) + abs(t.rotation))
        return apart > t.path
    }

    /// Calls member `i`'s recognizer without retaining it (`members` owns it).
    @inline(__always)
    private func recognizer<R>(_ i: Int, _ body: (RecognizerBase) -> R) -> R {
        recognizers[i]._withUnsafeGuaranteedRef(body)
    }

    /// Member `i`'s deadline after an evaluation, read and kept only for the kinds that
    /// set one (`timed`); debug builds check that the others' is nil.
    @inline(__always)
    private func noteDeadline(_ i: Int) {
        if timed.contains(i) {
            setDeadline(i, recognizer(i) { $0.deadline })
        } else {
            assert(recognizer(i) { $0.deadline } == nil, "\(members[i].kind) set a deadline: give it KindTraits.keepsTime")
        }
    }

    @inline(__always)
    private func setDeadline(_ i: Int, _ d: Timestamp?) {
        deadlines[i] = d
        deadlineBits.set(i, d != nil)
        deadlineFloor.microseconds = min(deadlineFloor.microseconds, d?.microseconds ?? .max)
    }

    /// The earliest deadline later than `time` of the members still in play.
    func deadline(after time: Timestamp) -> Timestamp? {
        var d: Timestamp?, floor = Timestamp(microseconds: .max)
        forEachMember(in: { live.words[$0] & deadlineBits.words[$0] }) { i in
            guard let md = deadlines[i], md > time else { return }
            floor = min(floor, md)
            // A discrete member waiting on others has decided; their deadlines decide it.
            if stateTable[i] == .waiting && pendingTransitions[i] == .recognize { return }
            if d == nil || md < d! { d = md }
        }
        deadlineFloor = floor
        return d
    }

    /// Whether a member may have a deadline at or before `limit`: false is sure, and
    /// spares a frame the walk over the members' deadlines (`deadline(after:)`).
    /// `deadlineFloor` is at or before every deadline still to come: those the last
    /// walk saw (all later than its time, which the clock has not gone back from),
    /// and those set since, which lower it.
    @inline(__always)
    func mayHaveDeadline(through limit: Timestamp) -> Bool { deadlineFloor <= limit }

    // MARK: Decisions

    /// What member `i`, in `state` (possible, began or changed: the states `step` asks
    /// in), proposed. Takes the proposal and switches on it alone: a switch on the pair,
    /// or on a borrowed proposal, left a destroy of the whole `Evaluation` (a
    /// `FailureReason` inside) through its value witnesses after every call.
    private func handle(_ i: Int, _ state: RecognizerState, _ e: consuming Evaluation, _ t: TouchSnapshot,
                        into events: inout [GestureEvent]) {
        switch consume e {
        case .undecided:
            break
        case .begin:
            guard state == .possible else { return refuse(i, .begin) }
            propose(i, .begin, t, into: &events)
        case .recognize:
            guard state == .possible else { return refuse(i, .recognize) }
            propose(i, .recognize, t, into: &events)
        case let .fail(reason):
            guard state == .possible else { return refuse(i, .fail) }
            fail(i, given: reason, into: &events)
        case .change:
            switch state {
            case .changed: emit(i, .changed, t, into: &events)  // changed → change → changed: nothing to move or log
            case .began: apply(i, .change, .none, t, into: &events)
            case .possible, .waiting, .ended, .cancelled, .recognized, .failed: refuse(i, .change)
            }
        case .end:
            guard state.isActive else { return refuse(i, .end) }
            apply(i, .end, .none, t, into: &events)
            lastCompletions[i] = t.time
        case .cancel:
            guard state.isActive else { return refuse(i, .cancel) }
            apply(i, .cancel, .fingers(have: t.fingers, need: specFingers[i]), t, into: &events)
        }
    }

    /// A continuous member waiting for others to fail keeps watching the touches; a
    /// discrete one has already decided and just waits.
    @inline(never)  // rare: inlined, step copied the snapshot for it on every call
    private func stepWaiting(_ i: Int, _ t: TouchSnapshot, _ input: RecognizerInput,
                                      into events: inout [GestureEvent]) {
        guard pendingTransitions[i] == .begin else { return }
        let evaluation = evaluate(i, t, input, .waiting)
        noteDeadline(i)
        switch consume evaluation {
        case let .fail(reason): fail(i, given: reason, into: &events)
        case .end, .cancel: fail(i, .liftedBeforeItBegan, into: &events)
        case .undecided, .begin, .change, .recognize: pendings[i] = t
        }
        if input == .lifted && stateTable[i] == .waiting {
            // The touches are gone before the way was clear.
            fail(i, .liftedBeforeItBegan, into: &events)
        }
    }

    /// A member would begin or recognize: sequencing, competition, then require-to-fail.
    private func propose(_ i: Int, _ transition: Transition, _ t: TouchSnapshot,
                                  into events: inout [GestureEvent]) {
        // A continuous gesture that begins as the fingers lift would begin and end in
        // one instant: UIKit never begins from touchesEnded, and neither do we.
        if transition == .begin && liftedInput {
            fail(i, .liftedBeforeItBegan, into: &events)
            return
        }
        if let a = members[i].after, !followsInTime(i, a) {
            fail(i, given: .notAfter(specs[members[i].specIndex].after ?? "?"), into: &events)
            return
        }
        if let w = winnerBlocking(i) {
            fail(i, .lostTo(member: Int32(w)), into: &events)
            return
        }
        for r in members[i].requires where enabled.contains(r) {
            switch stateTable[r] {
            case .failed, .cancelled:
                continue
            case .began, .changed, .ended, .recognized:
                fail(i, .requiredGestureRecognized(member: Int32(r)), into: &events)
                return
            case .possible, .waiting:
                pendings[i] = t
                pendingTransitions[i] = transition
                if stateTable[i] == .possible { move(i, .wait) }
                return
            }
        }
        win(i, transition, t, into: &events)
    }

    private func followsInTime(_ i: Int, _ a: Int) -> Bool {
        guard a >= 0 else { return false }
        if stateTable[a].isActive || stateTable[a] == .recognized { return true }
        guard let done = lastCompletions[a] else { return false }
        return now.seconds(since: done) <= members[i].sequenceWindow
    }

    /// A member that has already won and may not run together with `i`. The gesture
    /// `i` comes right after does not block it: the sequence moves on to its second
    /// gesture, and the first, if still running, is cancelled when `i` wins.
    private func winnerBlocking(_ i: Int) -> Int? {
        for w in 0..<wordCount {
            let blocking = won.words[w] & blockers[i, w]
            if blocking != 0 { return w << 6 | blocking.trailingZeroBitCount }
        }
        return nil
    }

    private func win(_ i: Int, _ transition: Transition, _ t: TouchSnapshot,
                              into events: inout [GestureEvent]) {
        var t = t
        t.time = now
        apply(i, transition, .none, t, into: &events)
        if transition == .recognize { lastCompletions[i] = now }
        // Gestures that come right after this one stay in play: their turn is next. A
        // word of the losers in play at a time: failing or cancelling one changes no other.
        forEachMember(in: { live.words[$0] & losers[i, $0] }) { k in
            switch stateTable[k] {
            case .possible, .waiting:
                move(k, .fail, requiresFailureOf.contains(k, i) ? .requiredGestureRecognized(member: Int32(i))
                    : .lostTo(member: Int32(i)))
            case .began, .changed:
                apply(k, .cancel, .lostTo(member: Int32(i)), t, into: &events)
            case .ended, .cancelled, .recognized, .failed:
                break
            }
        }
        resolveWaiters(into: &events)
    }

    private func fail(_ i: Int, _ why: ArenaReason, into events: inout [GestureEvent]) {
        move(i, .fail, why)
        // Only the failure of a gesture some other one requires to fail can release or
        // fail a waiter (a win resolves its own, in `win`).
        if required.contains(i) { resolveWaiters(into: &events) }
    }

    /// `fail` with a reason the arena does not make itself (a recognizer's, a filter's).
    private func fail(_ i: Int, given reason: consuming FailureReason, into events: inout [GestureEvent]) {
        move(i, .fail, .attached)
        attach(reason)
        if required.contains(i) { resolveWaiters(into: &events) }
    }

    /// Members waiting on others: release those whose requirements have all failed,
    /// fail those whose requirement won. Repeats until nothing changes (a release can
    /// fail others, which can release more).
    private func resolveWaiters(into events: inout [GestureEvent]) {
        guard waitingCount > 0 else { return }  // most failures: nobody waits
        if resolving { resolveAgain = true; return }
        resolving = true
        repeat {
            resolveAgain = false
            // Only a member's own `propose` makes it wait, and a member released here
            // wins or fails: no member starts waiting during a pass.
            forEachMember(in: { waitingBits.words[$0] }) { resolve($0, into: &events) }
        } while resolveAgain
        resolving = false
    }

    /// One waiting member: released when every member it requires has failed, failed
    /// when one of them won.
    private func resolve(_ w: Int, into events: inout [GestureEvent]) {
        guard stateTable[w] == .waiting, let pending = pendings[w] else { return }
        var clear = true
        var winner: Int?
        for r in members[w].requires where enabled.contains(r) {
            switch stateTable[r] {
            case .failed, .cancelled: continue
            case .possible, .waiting: clear = false
            case .began, .changed, .ended, .recognized: winner = r
            }
        }
        if let winner {
            // Usually `win` has failed it already; not if the two may run together.
            move(w, .fail, .requiredGestureRecognized(member: Int32(winner)))
            resolveAgain = true
            return
        }
        guard clear else { return }
        resolving = false
        propose(w, pendingTransitions[w], pending, into: &events)
        resolving = true
        resolveAgain = true
    }

    /// `move`, and the event the transition reports (begin, change, end, cancel,
    /// recognize).
    private func apply(_ i: Int, _ transition: Transition, _ why: ArenaReason, _ t: TouchSnapshot,
                       into events: inout [GestureEvent]) {
        guard move(i, transition, why) else { return }
        switch transition {
        case .begin: emit(i, .began, t, into: &events)
        case .change: emit(i, .changed, t, into: &events)
        case .end: emit(i, .ended, t, into: &events)
        case .cancel: emit(i, .cancelled, t, into: &events)
        case .recognize: emit(i, .recognized, t, into: &events)
        case .fail, .wait, .reset: break
        }
    }

    /// The one place a member changes state (but for `resetFinished`'s shortcut):
    /// checked against UIKit's machine, recorded, and mirrored in the bit sets. Callers
    /// of transitions that report no event (fail, wait, reset) need no snapshot. False
    /// when the machine refused it. Every transition but a legal change or reset is
    /// recorded, so a caller with `.attached` attaches its reason right after.
    @discardableResult @inline(__always)
    private func move(_ i: Int, _ transition: Transition, _ why: ArenaReason = .none) -> Bool {
        let old = stateTable[i]
        guard let new = old.after(transition) else {
            refuse(i, transition, why)
            return false
        }
        stateTable[i] = new
        live.set(i, !new.isTerminal)
        possible.set(i, new == .possible)
        waitingBits.set(i, new == .waiting)
        won.set(i, new == .began || new == .changed || new == .recognized)
        if old == .waiting && new != .waiting {
            waitingCount -= 1
            pendings[i] = nil  // what it waited with lives exactly as long as the wait
        }
        if new == .waiting && old != .waiting { waitingCount += 1 }
        // Resets happen at every lift and changes at every frame: logging them would
        // drown the decisions.
        var decision = -1
        if explains && transition != .reset && transition != .change {
            decision = log.record(time: now, member: i, from: old, transition: transition, to: new, why: why, refused: false)
        }
        switch transition {
        case .fail:
            guard explains else { break }
            if failureCount == failureTable.count { growFailures() }
            failureTable[failureCount] = Failure(member: i, time: now, decision: decision)
            failureCount += 1
        case .reset:
            recognizer(i) { $0.reset() }
            setDeadline(i, nil)
        case .begin, .change, .end, .cancel, .recognize, .wait: break
        }
        assert(bitsAgree(i), "member \(i)'s bits disagree with its state \(new)")
        return true
    }

    /// Whether member `i`'s bits say what its state and deadline say (debug builds
    /// check it after every `move` and `resetFinished`; `enabled` has no twin).
    private func bitsAgree(_ i: Int) -> Bool {
        let state = stateTable[i]
        return live.contains(i) == !state.isTerminal && possible.contains(i) == (state == .possible)
            && waitingBits.contains(i) == (state == .waiting)
            && won.contains(i) == (state == .began || state == .changed || state == .recognized)
            && deadlineBits.contains(i) == (deadlines[i] != nil)
            && waitingCount == (0..<memberCount).count(where: { stateTable[$0] == .waiting })
    }

    /// Attaches `reason` to the decision a `.attached` move just recorded (none was
    /// recorded when the arena keeps no log).
    private func attach(_ reason: consuming FailureReason) {
        if explains { log.attach(reason) }
    }

    private func growFailures() {
        let bigger = MemberTable(repeating: Failure(member: 0, time: now, decision: 0), count: 2 * failureTable.count)
        for f in 0..<failureCount { bigger[f] = failureTable[f] }
        failureTable = bigger
    }

    /// A transition the member's state does not allow (a recognizer proposed it: a
    /// recognizer bug, survived): counted and logged, always.
    private func refuse(_ i: Int, _ transition: Transition, _ why: ArenaReason = .none) {
        refusedTransitions += 1
        log.record(time: now, member: i, from: stateTable[i], transition: transition, to: stateTable[i], why: why,
                   refused: true)
    }

    private func emit(_ i: Int, _ phase: GesturePhase, _ t: TouchSnapshot, into events: inout [GestureEvent]) {
        // Built in place and annotated there: a local event appended was copied and
        // destroyed once more per event.
        events.append(GestureEvent(name: members[i].name, index: members[i].specIndex, kind: members[i].kind, phase: phase,
                                   time: now, fingers: t.fingers, location: t.location, translation: t.translation,
                                   velocity: t.velocity, scale: t.scale, scaleVelocity: t.scaleVelocity,
                                   rotation: t.rotation, rotationVelocity: t.rotationVelocity))
        recognizer(i) { $0.annotate(&events[events.count - 1], t) }
    }
}
