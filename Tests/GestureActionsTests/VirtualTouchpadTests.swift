import GestureActions
import GestureEngine
import GestureTestSupport
import Glibc
import LinuxSystem
import Testing
import TouchModel

/// What libinput reads of `gestured virtual touchpad`, frame by frame: the real
/// VirtualTouchpad writer against the fake /dev/uinput, on a clock moved by hand.
final class PadRig {
    let fake = FakeUinput()
    let pad: VirtualTouchpad
    private let clock: Clock
    var now: Timestamp {
        get { clock.now }
        set { clock.now = newValue }
    }
    /// Every frame written so far, with the time it was written at, and what a reader
    /// of the device knows after it.
    private(set) var frames: [Frame] = []
    private var reader = PadReader()

    struct Frame {
        /// The `at` it was written with, and the clock when its write(2) returned: the
        /// kernel's stamp is between the two.
        var time: Timestamp
        var returned: Timestamp
        var events: [FakeUinput.Record]
        var after: PadReader
    }

    /// The clock the pad reads when a write returns: `now`, moved on by `stall` µs
    /// first (a machine too busy to run the daemon straight through).
    final class Clock {
        var now = Timestamp(microseconds: 5_000_000)
        var stall: () -> Int64 = { 0 }
        var returns: [Timestamp] = []
    }

    init() throws {
        let clock = Clock()
        self.clock = clock
        pad = try VirtualTouchpad(open: fake.open) {
            clock.now = clock.now.adding(seconds: Double(clock.stall()) / 1e6)
            clock.returns.append(clock.now)
            return clock.now
        }
    }

    /// Each write returns this many µs after it began.
    func stallWrites(_ stall: @escaping () -> Int64) { clock.stall = stall }

    func begin(_ fingers: Int = 4, _ axis: Axis = .horizontal, _ sign: FloatingPointSign = .plus) {
        let at = now
        pad.begin(fingers: fingers, axis: axis, sign: sign, at: at)
        collect(at: at)
    }

    func move(to mm: Double) {
        let at = now
        pad.move(to: mm, at: at)
        collect(at: at)
    }

    func end(commit: Bool) {
        let at = now
        pad.end(commit: commit, at: at)
        collect(at: at)
    }

    /// Moves the clock by `ms`, firing the pad's timer at each deadline on the way (or
    /// as soon after as a stalled write lets it).
    func advance(ms: Double) { advance(to: now.adding(seconds: ms / 1000)) }

    func advance(to until: Timestamp) {
        while let due = pad.deadline, due <= until {
            fire(due)
        }
        now = max(now, until)
    }

    /// Fires the timer until nothing is due (at most `limit` times).
    func settle(limit: Int = 1000) {
        var fired = 0
        while let due = pad.deadline, fired < limit {
            fire(due)
            fired += 1
        }
    }

    private func fire(_ due: Timestamp) {
        now = max(now, due)
        let at = now
        pad.timerFired(at: at)
        collect(at: at)
    }

    /// Frames from `index` on.
    func frames(from index: Int) -> ArraySlice<Frame> { frames[index...] }

    private func collect(at time: Timestamp) {
        var current: [FakeUinput.Record] = []
        for e in fake.events() {
            current.append(e)
            if e.type == 0 && e.code == 0 {
                reader.read(current)
                // (A failed write reads no clock; what a jammed fake holds is no frame of the pad's.)
                let returned = frames.count < clock.returns.count ? clock.returns[frames.count] : time
                frames.append(Frame(time: time, returned: returned, events: current, after: reader))
                current = []
            }
        }
        #expect(current.isEmpty, "a frame without SYN_REPORT: \(current)")
    }
}

/// The device's state as a reader knows it after each frame (kernel MT protocol B).
struct PadReader: Equatable {
    var slot: Int32 = 0
    var ids: [Int32: Int32] = [:]
    var x: [Int32: Int32] = [:], y: [Int32: Int32] = [:]
    var absX: Int32 = 0, absY: Int32 = 0
    var keys: [UInt16: Int32] = [:]

    mutating func read(_ events: [FakeUinput.Record]) {
        for e in events {
            switch (e.type, e.code) {
            case (3, 0x2f): slot = e.value
            case (3, 0x39): ids[slot] = e.value
            case (3, 0x35): x[slot] = e.value
            case (3, 0x36): y[slot] = e.value
            case (3, 0x00): absX = e.value
            case (3, 0x01): absY = e.value
            case (1, _): keys[e.code] = e.value
            default: break
            }
        }
    }

    /// Slots with a touch, in order.
    var touching: [Int32] { ids.filter { $0.value >= 0 }.keys.sorted() }
    /// Slot `s`'s position, in the pad's units (40 a mm).
    func at(_ s: Int32) -> (x: Int32, y: Int32) { (x[s] ?? 0, y[s] ?? 0) }
}

/// libinput's touch-jump filter (`tp_detect_jumps`, 1.22–1.29), written out here on
/// its own: over frames at most 30 ms apart, a frame's motion scaled to 12 ms is a jump
/// above 20 mm, or above the previous such motion by more than 7 mm.
struct JumpFilter {
    private var last: Double = 0
    private var lastTime: Timestamp?

    /// Whether libinput discards this motion (`mm`, at `time`) as a jump.
    mutating func isJump(mm: Double, at time: Timestamp) -> Bool {
        defer { lastTime = time }
        guard let previous = lastTime else { last = 0; return false }
        let dt = time.microseconds - previous.microseconds
        guard dt > 0, dt <= 30_000 else { return false }
        let scaled = mm * 12_000 / Double(dt)
        defer { last = scaled }
        return scaled > 20 || scaled - last > 7
    }
}

@Suite(.serialized) struct VirtualTouchpadTests {
    /// The single-touch axis that follows slot 0, and the MT axis, of each axis.
    static func codes(_ axis: Axis) -> (single: UInt16, mt: UInt16) { axis == .horizontal ? (0x00, 0x35) : (0x01, 0x36) }

    @Test func declaresATouchpadLibinputTakesAndNothingItWouldMisread() throws {
        let rig = try PadRig()
        let fake = rig.fake
        #expect(fake.created)
        #expect(fake.name == "gestured virtual touchpad")
        #expect(fake.name == VirtualTouchpad.name)
        let ids = try #require(fake.ids)
        #expect(ids.bustype == 0x06, "BUS_VIRTUAL")
        #expect(ids.vendor != 0x05ac && ids.vendor != 0x004c, "never Apple's ids: libinput's quirks would apply")
        #expect(ids.vendor == 0 && ids.product == 1)
        // BTN_TOUCH, the finger tools 1–5, and BTN_LEFT + BTN_RIGHT (no tap-to-click by default, no clickpad).
        for key in [0x14a, 0x145, 0x14d, 0x14e, 0x14f, 0x148, 0x110, 0x111] as [UInt16] {
            #expect(fake.declares(type: 1, code: key), "key \(key)")
        }
        #expect(fake.declaredKeyCount == 8)
        // Positions with a resolution on both axes, 5 slots, tracking ids.
        #expect(fake.axis(0x00)! == (0, 6400, 40) && fake.axis(0x35)! == (0, 6400, 40))
        #expect(fake.axis(0x01)! == (0, 4800, 40) && fake.axis(0x36)! == (0, 4800, 40))
        #expect(fake.axis(0x2f)!.maximum == 4)
        #expect(fake.axis(0x39)!.maximum == 65_535)
        for code in [0x00, 0x01, 0x2f, 0x35, 0x36, 0x39] as [UInt16] { #expect(fake.declares(type: 3, code: code)) }
        // No pressure, touch size, orientation, tool type or distance; no MSC_TIMESTAMP, no relative axes.
        for code in [0x18, 0x19, 0x1c, 0x30, 0x31, 0x32, 0x33, 0x34, 0x37, 0x3a, 0x3b, 0x2e] as [UInt16] {
            #expect(!fake.declares(type: 3, code: code), "abs \(code)")
        }
        #expect(!fake.declares(type: 4, code: 5))
        #expect(!fake.declares(type: 2, code: 0))
        // INPUT_PROP_POINTER only: not DIRECT (a touchscreen), BUTTONPAD, SEMI_MT or TOPBUTTONPAD.
        #expect(fake.hasProperty(0))
        for p in [1, 2, 3, 4] as [UInt16] { #expect(!fake.hasProperty(p), "property \(p)") }
        #expect(rig.pad.sysname == "input-fake")
    }

    @Test(arguments: [3, 4], [Axis.horizontal, .vertical])
    func allFingersLandInOneFrameThenPreRollJustPastLibinputsSwipeThreshold(fingers: Int, axis: Axis) throws {
        for sign in [FloatingPointSign.plus, .minus] {
            let rig = try PadRig()
            rig.begin(fingers, axis, sign)
            try #require(rig.frames.count == 1, "the down frame is written at once")
            let down = rig.frames[0].after
            #expect(down.touching == (0..<Int32(fingers)).map { $0 })
            #expect(Set(down.ids.values).count == fingers, "a tracking id each")
            #expect(down.keys == [0x14a: 1, fingers == 3 ? 0x14e : 0x14f: 1], "BTN_TOUCH and the finger count's tool, nothing else")
            #expect(down.absX == down.x[0] && down.absY == down.y[0], "ABS_X/Y follow slot 0")
            for s in 1..<Int32(fingers) {
                #expect(down.at(s).x - down.at(s - 1).x == 12 * 40 && down.at(s).y == down.at(0).y, "on a row, 12 mm apart")
            }
            #expect(rig.pad.deadline == rig.now.adding(seconds: 0.008))

            rig.advance(ms: 100)
            let preroll = rig.frames.dropFirst()
            #expect(preroll.map { ($0.time.microseconds - rig.frames[0].time.microseconds) / 1000 } == [8, 16, 24, 32])
            let sgn: Int32 = sign == .plus ? 1 : -1
            let along = preroll.map { f -> Int32 in
                let p = f.after.at(0), d = down.at(0)
                return axis == .horizontal ? (p.x - d.x) * sgn : (p.y - d.y) * sgn
            }
            // libinput's threshold: 2 mm (80 units) for 3 fingers, 2.5 mm (100) for 4; 1 unit
            // short of it in three frames, 1 unit past it in the fourth.
            #expect(along == (fingers == 3 ? [26, 52, 79, 81] : [33, 66, 99, 101]))
            #expect(zip(along, [0] + along).allSatisfy { Double($0 - $1) / 40 / 0.008 <= 120 }, "under 120 mm/s")
            for f in preroll {
                #expect(f.after.absX == f.after.x[0] && f.after.absY == f.after.y[0])
                let moved = (0..<Int32(fingers)).map { s in (f.after.at(s).x - down.at(s).x, f.after.at(s).y - down.at(s).y) }
                #expect(moved.allSatisfy { $0 == moved[0] }, "every finger moves alike")
                #expect(axis == .horizontal ? moved[0].1 == 0 : moved[0].0 == 0, "along the axis only")
            }
            #expect(rig.pad.state == .following)
            #expect(rig.pad.deadline == nil, "nothing more to write until the gesture moves")
        }
    }

    @Test(arguments: [Axis.horizontal, .vertical])
    func eachMoveIsOneFrameAtThePreRollPointPlusTheDistance(axis: Axis) throws {
        let rig = try PadRig()
        rig.begin(4, axis, .minus)
        rig.advance(ms: 40)
        let landing = rig.frames[0].after.at(0)
        var written = rig.frames.count
        for i in 1...20 {
            rig.advance(ms: 8)
            rig.move(to: Double(i) * 0.5)
            #expect(rig.frames.count == written + 1, "one frame per move")
            written = rig.frames.count
            let now = rig.frames.last!.after
            let along = axis == .horizontal ? landing.x - now.at(0).x : landing.y - now.at(0).y
            #expect(along == 101 + Int32(i) * 20, "2.525 mm of pre-roll and \(Double(i) * 0.5) mm")
            let codes = Self.codes(axis)
            #expect(rig.frames.last!.events.allSatisfy { $0.type == 0 || $0.code == 0x2f || $0.code == codes.mt || $0.code == codes.single },
                    "a move writes slots and the axis's positions only")
        }
        #expect(rig.pad.deadline == nil)
    }

    @Test func twoMovesUnder6msApartAreOneFrameWrittenWhenTheTimeComes() throws {
        let rig = try PadRig()
        rig.begin()
        rig.advance(ms: 40)
        rig.move(to: 1)
        let written = rig.frames.count
        rig.advance(ms: 2)
        rig.move(to: 1.5)
        rig.advance(ms: 1)
        rig.move(to: 2)
        #expect(rig.frames.count == written, "held back")
        #expect(rig.pad.deadline == rig.frames.last!.time.adding(seconds: 0.006))
        rig.advance(ms: 3)
        #expect(rig.frames.count == written + 1)
        #expect(rig.frames.last!.time == rig.frames[written - 1].time.adding(seconds: 0.006))
        #expect(rig.frames.last!.after.at(0).x - rig.frames[0].after.at(0).x == 101 + 80, "the last move: 2.525 mm of pre-roll and 2")
        #expect(rig.pad.deadline == nil)
    }

    /// A drag with a fling in it, from a source at 120 Hz with uneven frames: every
    /// frame written is one libinput keeps, none closer than 6 ms to the last, and the
    /// fingers end where the source ended.
    @Test(arguments: [0.0, 1.0, 2.5])
    func noFrameIsALibinputJumpAndTheFingersCatchUp(jitterMS: Double) throws {
        let rig = try PadRig()
        rig.begin()
        var sourceMM = 0.0
        // At rest, slow, a fling of 60 mm in 40 ms, then back by 30 mm at once.
        let steps = [Double](repeating: 0.2, count: 10) + [Double](repeating: 12, count: 5) + [-30] + [Double](repeating: 0.5, count: 10)
        for (i, step) in steps.enumerated() {
            rig.advance(ms: 8.3 + (i % 2 == 0 ? jitterMS : -jitterMS))
            sourceMM += step
            rig.move(to: sourceMM)
        }
        rig.end(commit: true)
        rig.settle()
        #expect(rig.pad.state == .idle)
        var filter = JumpFilter()
        var last: PadRig.Frame?
        for f in rig.frames where f.after.touching.count == 4 {
            let moved = last.map { Double(abs(f.after.at(0).x - $0.after.at(0).x)) / 40 } ?? 0
            let jump = filter.isJump(mm: moved, at: f.time)
            #expect(!jump, "a jump at \(f.time): \(moved) mm")
            if let last, moved > 0 { #expect(f.time.microseconds - last.time.microseconds >= 6000) }
            last = f
        }
        let lifted = rig.frames.last!
        let final = try #require(rig.frames.dropLast().last).after.at(0).x
        #expect(final - rig.frames[0].after.at(0).x == 101 + Int32((sourceMM * 40).rounded()), "the fingers got where they were sent before lifting")
        #expect(lifted.after.touching.isEmpty)
    }

    /// A busy machine (a loaded laptop; CI's two cores under an emulated VM): the daemon
    /// is stalled between reading the clock and writing, or inside a write, for up to
    /// 40 ms, so the kernel stamps a frame anywhere between the `at` it was written with
    /// and when its write returned. Whatever the stamps, libinput keeps every frame, and
    /// the fingers still get where they were sent. (Counting from `at` alone, a frame
    /// stamped late and the next stamped on time were 0.1 ms apart: a jump.)
    @Test(arguments: 1...12 as ClosedRange<UInt64>)
    func framesAStalledDaemonWritesLateAreNoneOfThemJumps(seed: UInt64) throws {
        let rig = try PadRig()
        var stalls = SplitMix64(seed: seed)
        rig.stallWrites {
            switch Int.random(in: 0..<10, using: &stalls) {
            case 0..<6: return 0
            case 6..<9: return Int64.random(in: 0...3_000, using: &stalls)
            default: return Int64.random(in: 5_000...40_000, using: &stalls)
            }
        }
        // The e2e's first follow: 4 fingers, 30 mm in 400 ms from a 120 Hz source.
        rig.begin()
        let start = rig.now
        for k in 1...48 {
            rig.advance(to: start.adding(seconds: Double(k) * 0.008333))
            rig.move(to: 30 * Double(k) / 48)
        }
        rig.end(commit: true)
        rig.settle()
        #expect(rig.pad.state == .idle)
        let lifted = try #require(rig.frames.last)
        #expect(lifted.after.touching.isEmpty)
        let final = try #require(rig.frames.dropLast().last).after.at(0).x
        #expect(final - rig.frames[0].after.at(0).x == 101 + 30 * 40, "the fingers got where they were sent")
        let stalled = rig.frames.filter { $0.returned > $0.time }.count
        #expect(stalled >= 5, "the machine was busy: \(stalled) of \(rig.frames.count) writes stalled")

        var stamps = SplitMix64(seed: seed &* 7919)
        for trial in 0..<40 {
            var filter = JumpFilter()
            var last: PadRig.Frame?
            for f in rig.frames where f.after.touching.count == 4 {
                let span = f.returned.microseconds - f.time.microseconds
                let offset: Int64 = switch trial { case 0: 0; case 1: span; default: Int64.random(in: 0...span, using: &stamps) }
                let stamp = Timestamp(microseconds: f.time.microseconds + (trial > 2 && Bool.random(using: &stamps) ? span : offset))
                let moved = last.map { Double(abs(f.after.at(0).x - $0.after.at(0).x)) / 40 } ?? 0
                let jump = filter.isJump(mm: moved, at: stamp)
                #expect(!jump, "seed \(seed), trial \(trial): a jump stamped \(stamp): \(moved) mm")
                if jump { return }
                last = f
            }
        }
    }

    /// What the pre-roll held back is caught up at 120 mm/s, where libinput's adaptive
    /// profile does not accelerate; a gesture moving faster is followed at its own speed.
    @Test func aBacklogIsCaughtUpNoFasterThan120mmPerSecondUnlessTheGestureIsFaster() throws {
        let rig = try PadRig()
        rig.begin()
        rig.advance(ms: 30)
        rig.move(to: 3)  // 100 mm/s, while the pre-roll runs
        rig.advance(ms: 2)
        let caughtUp = rig.frames.count
        rig.settle()
        let catchUp = Array(rig.frames(from: caughtUp - 1))
        #expect(catchUp.count >= 4, "3 mm at 120 mm/s: over 25 ms")
        for (a, b) in zip(catchUp, catchUp.dropFirst()) {
            let mm = Double(b.after.at(0).x - a.after.at(0).x) / 40
            #expect(mm / b.time.seconds(since: a.time) <= 120.0001, "\(mm) mm in \(b.time.seconds(since: a.time)) s")
        }
        #expect(catchUp.last!.after.at(0).x - rig.frames[0].after.at(0).x == 101 + 120)

        let before = rig.frames.count
        for i in 1...6 {
            rig.advance(ms: 8.3)
            rig.move(to: 3 + Double(i) * 4.15)  // 500 mm/s
        }
        let fast = Array(rig.frames(from: before - 1))
        let speeds = zip(fast, fast.dropFirst()).map { Double($1.after.at(0).x - $0.after.at(0).x) / 40 / $1.time.seconds(since: $0.time) }
        #expect(speeds.max()! > 400 && speeds.allSatisfy { $0 <= 500.0001 }, "the gesture's own 500 mm/s: \(speeds)")
        rig.settle()
        #expect(rig.frames.last!.after.at(0).x - rig.frames[0].after.at(0).x == 101 + Int32((27.9 * 40).rounded()))
    }

    @Test(arguments: [3, 4])
    func commitLiftsEveryFingerInOneFrameWhereItWasSent(fingers: Int) throws {
        let rig = try PadRig()
        rig.begin(fingers)
        rig.advance(ms: 40)
        for i in 1...5 {
            rig.advance(ms: 8)
            rig.move(to: Double(i))
        }
        let before = rig.frames.count
        rig.advance(ms: 8)
        rig.end(commit: true)
        try #require(rig.frames.count == before + 1)
        let lift = rig.frames.last!
        #expect(lift.after.touching.isEmpty)
        #expect(lift.after.keys == [0x14a: 0, fingers == 3 ? 0x14e : 0x14f: 0])
        #expect(lift.events.filter { $0.code == 0x39 }.map(\.value) == [Int32](repeating: -1, count: fingers))
        #expect(!lift.events.contains { $0.code == 0x35 || $0.code == 0x36 }, "a lift does not move")
        #expect(rig.frames[before - 1].after.at(0).x - rig.frames[0].after.at(0).x == (fingers == 3 ? 81 : 101) + 5 * 40)
        #expect(rig.pad.state == .idle && rig.pad.deadline == nil)
    }

    @Test(arguments: [20.0, 1.0, -6.0])
    func cancelSpringsBackToThePreRollPointInSmallFramesThenLifts(distance: Double) throws {
        let rig = try PadRig()
        rig.begin()
        rig.advance(ms: 40)
        let steps = 20
        for i in 1...steps {
            rig.advance(ms: 8)
            rig.move(to: distance * Double(i) / Double(steps))
        }
        let ended = rig.frames.count
        rig.advance(ms: 8)
        rig.end(commit: false)
        rig.settle()
        let back = Array(rig.frames(from: ended))
        let motion = back.dropLast()
        #expect(motion.count >= 5, "at least 5 frames: \(motion.count)")
        #expect(back.last!.after.touching.isEmpty, "then the fingers lift")
        #expect(motion.last!.after.at(0).x - rig.frames[0].after.at(0).x == 101, "at the pre-roll point")
        var previous = rig.frames[ended - 1]
        for f in motion {
            let mm = Double(abs(f.after.at(0).x - previous.after.at(0).x)) / 40
            let seconds = f.time.seconds(since: previous.time)
            #expect(mm / seconds <= 100.0001, "\(mm) mm in \(seconds) s: faster than 100 mm/s")
            #expect(mm <= abs(distance) / 5 + 0.0001)
            previous = f
        }
        #expect(rig.pad.state == .idle)
    }

    @Test func aGestureEndedDuringThePreRollFinishesItBeforeLifting() throws {
        for commit in [true, false] {
            let rig = try PadRig()
            rig.begin(3)
            rig.advance(ms: 1)
            rig.move(to: 2)
            rig.end(commit: commit)
            #expect(rig.frames.count == 1, "no lift yet: three fingers lifting unmoved would be a tap")
            rig.settle()
            let pre = rig.frames.dropFirst().prefix(4).map { $0.after.at(0).x - rig.frames[0].after.at(0).x }
            #expect(pre == [26, 52, 79, 81])
            let last = rig.frames.dropLast().last!.after.at(0).x - rig.frames[0].after.at(0).x
            #expect(last == (commit ? 81 + 80 : 81), "committed: on to where it was sent; cancelled: lifted at the pre-roll point")
            #expect(rig.frames.last!.after.touching.isEmpty)
        }
    }

    @Test func aNewGestureLiftsTheFingersOfOneStillPlayingThenLands() throws {
        let rig = try PadRig()
        rig.begin()
        rig.advance(ms: 40)
        rig.advance(ms: 8)
        rig.move(to: 10)
        rig.advance(ms: 8)
        rig.end(commit: false)
        let firstIDs = Set(rig.frames[0].after.ids.values)
        #expect(rig.pad.deadline != nil, "springing back")
        let before = rig.frames.count
        rig.advance(ms: 8)
        rig.begin(3, .vertical, .plus)
        let new = rig.frames(from: before).suffix(2)
        #expect(new.first!.after.touching.isEmpty, "the old fingers lift first")
        #expect(new.last!.after.touching == [0, 1, 2])
        #expect(Set(new.last!.after.ids.values).isDisjoint(with: firstIDs), "new touches, new tracking ids")
        #expect(new.last!.after.keys[0x14e] == 1 && new.last!.after.keys[0x14f] == 0)
        #expect(rig.pad.state == .prerolling(step: 0, ending: nil))
    }

    @Test(arguments: [Axis.horizontal, .vertical])
    func theFingersStayOnThePad(axis: Axis) throws {
        for far in [500.0, -500.0] {
            let rig = try PadRig()
            rig.begin(4, axis, .plus)
            rig.advance(ms: 40)
            rig.move(to: far)
            rig.settle()
            let at = rig.frames.last!.after
            for s in at.touching {
                #expect((80...6320).contains(at.x[s]!) && (80...4720).contains(at.y[s]!), "2 mm inside the edges: \(at.x[s]!), \(at.y[s]!)")
            }
            let reached = axis == .horizontal ? at.at(0).x - rig.frames[4].after.at(0).x : at.at(0).y - rig.frames[4].after.at(0).y
            #expect(abs(reached) >= 58 * 40, "room for any desktop's whole transition either way: \(reached) mm")
        }
    }

    @Test func movesAndEndsWithoutAGestureWriteNothing() throws {
        let rig = try PadRig()
        rig.move(to: 5)
        rig.end(commit: true)
        rig.pad.timerFired(at: rig.now)
        #expect(rig.frames.isEmpty && rig.pad.writes == 0 && rig.pad.deadline == nil)
    }

    @Test func aFailedWriteIsKeptAndNothingMoreIsWritten() throws {
        let rig = try PadRig()
        rig.fake.jam()
        rig.begin()
        let failure = try #require(rig.pad.failure)
        #expect("\(failure)".hasPrefix("write /dev/uinput: EAGAIN"))
        rig.fake.unjam()
        rig.advance(ms: 40)
        #expect(rig.pad.writes == 0)
    }

    @Test func theUdevRuleNamesTheDevice() throws {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        let path = parts.joined(separator: "/") + "/udev/71-gestured-virtual-touchpad.rules"
        let file = try OwnedFileDescriptor(opening: path, O_RDONLY)
        let rule = String(decoding: try file.descriptor.readToEnd(maximumBytes: 1 << 16), as: UTF8.self)
        #expect(rule.contains("ATTRS{name}==\"\(VirtualTouchpad.name)\""))
        #expect(rule.contains("ENV{ID_INPUT_TOUCHPAD_INTEGRATION}=\"external\""))
        #expect(rule.contains("TAG+=\"kwin-ignore-tablet-mode\""))
    }
}
