import GestureEngine
import Glibc
import LinuxSystem
import TouchModel

/// gestured's virtual touchpad: where a `follow` binding's motion is played as the
/// desktop's own N-finger touchpad swipe, so that the compositor's libinput makes a
/// swipe gesture of it and the desktop's animated transition (KWin, Hyprland, niri,
/// COSMIC) moves with the fingers. Made once, through /dev/uinput, like
/// `VirtualDevice`; the kernel destroys it when its descriptor closes.
///
/// ```
/// idle ──begin──► prerolling ──4 frames, 8 ms apart──► following ──end──► ending ──at the goal──► idle
///                 (down frame, then 2–2.5 mm            (each move: one    (commit: on to the
///                  along the axis)                       frame, paced)      target; cancel: back
///                                                                           to the pre-roll point)
/// ```
///
/// - **begin**: every finger lands in one frame, on a row 12 mm apart in the middle of
///   the pad, then the fingers pre-roll along the axis and sign: libinput needs 2 mm
///   (3 fingers) or 2.5 mm (4) of common motion to decide on a swipe
///   (`tp_gesture_detect_motion_gestures`), and reports none of it. Three frames take
///   the fingers to 0.025 mm short of that, a fourth 0.025 mm past it: libinput
///   begins the swipe in that frame, and every millimetre of the gesture's own motion
///   is in its updates.
/// - **move**: the fingers go to the pre-roll point plus `mm` along the axis and sign.
///   One frame per call, as far as libinput's jump filter takes in one frame, and a
///   backlog no faster than 120 mm/s; the rest follows on the timer. Never two
///   frames closer than 6 ms.
/// - **end**: commit: the fingers reach where they were sent, then lift. Cancel: they
///   go back to the pre-roll point in at least 5 frames at 100 mm/s, then lift (KWin
///   and Hyprland decide by the position at the lift, and ignore libinput's cancel).
///
/// The device never sleeps: every call says when it is (`at`, CLOCK_MONOTONIC now), and
/// frames that must wait are due at `deadline`, for the daemon's timer to call
/// `timerFired(at:)`. The kernel stamps each frame inside its write(2), and libinput
/// measures the intervals between those stamps; a busy machine can stall the daemon
/// between reading the clock and writing, or inside the write, so that two frames
/// meant 8 ms apart are stamped 0.1 ms apart and libinput throws the second away as a
/// jump. So the pad reads the clock once more after each write: the stamp lies
/// between `at` and that reading, and every limit is kept for the worst stamps
/// inside those bounds (the shortest interval for a frame's motion, the longest for
/// what libinput remembers of it).
/// Each frame is one write(2) from a buffer made once: no allocation per frame.
public final class VirtualTouchpad {
    /// Its name in `list-devices`, /proc/bus/input/devices, udev's rule and the compositor's config.
    public static let name = "gestured virtual touchpad"
    public static let path = "/dev/uinput"
    /// libinput makes swipes of 3 and 4 fingers only (`tp_gesture_post_events`: 5 give nothing).
    public static let fingerCounts = 3...4

    /// A failed uinput call: which, and the errno ("write /dev/uinput: ENODEV (…)").
    public typealias Failure = SystemCallError

    public enum Ending: Equatable, Sendable {
        /// The fingers reach where they were sent, then lift.
        case commit
        /// The fingers go back to the pre-roll point, then lift.
        case cancel
    }

    public enum State: Equatable, Sendable {
        /// No finger down.
        case idle
        /// Fingers down, pre-roll frame `step` next; `ending` when the gesture ended meanwhile.
        case prerolling(step: Int, ending: Ending?)
        /// Fingers following `move`.
        case following
        /// Fingers going to where the gesture ends, then lifting.
        case ending(Ending)
    }

    // MARK: The pad

    /// 40 units/mm on both axes: libinput's thresholds are in mm, and it rejects a
    /// touchpad with a resolution on one axis only.
    static let unitsPerMM = 40.0
    /// 160 × 120 mm: libinput sets no minimum size for gestures; a size matters only to
    /// internal pads' edge palms and clickpads' thumbs, neither of which this pad is.
    static let widthMM = 160.0, heightMM = 120.0
    /// Fingers land on one row, 12 mm apart: four span 36 mm, inside libinput's
    /// 40 × 7 mm box of fingers that swipe together.
    static let fingerSpacingMM = 12.0
    /// The fingers stop this far short of the pad's edges.
    static let edgeMarginMM = 2.0
    /// Slots 0…4: libinput takes another path when more fingers are down than slots.
    static let slotCount: Int32 = 5

    // MARK: What libinput needs (1.22–1.29)

    /// libinput decides on a swipe once the top and bottom fingers have both moved
    /// 1.5 mm + 0.5 mm a finger past two (2.0 mm for 3 fingers, 2.5 mm for 4), in
    /// the same direction. The pre-roll takes them 1 unit short of it in three frames
    /// (under 120 mm/s), and 2 units on in a fourth, past it: that frame's 0.05 mm is
    /// all of the pre-roll libinput may report (1.22–1.26 report the deciding frame's
    /// motion as the first update; 1.27+ begin the swipe there, and report from the next).
    static func prerollStep(_ step: Int, fingers: Int) -> Int32 {
        let short = units(1.5 + 0.5 * Double(fingers - 2)) - 1
        switch step {
        case 0, 1: return short / 3
        case 2: return short - 2 * (short / 3)
        default: return 2
        }
    }
    static let prerollFrames = 4
    /// Pre-roll, catching up and spring-back frames: every 8 ms (125 Hz, a touchpad's rate).
    static let frameIntervalUS: Int64 = 8_000
    /// Never two motion frames closer than 6 ms (at most 166 Hz): a source faster
    /// than that is followed every other frame.
    static let minimumFrameIntervalUS: Int64 = 6_000
    /// libinput's jump filter (`tp_detect_jumps`): between frames at most 30 ms apart
    /// it scales a frame's motion to a 12 ms interval, and discards it (with the touch's
    /// motion history) above 20 mm, or above the previous frame's by more than 7 mm.
    /// The fingers stay under 16 mm, rising by at most 5 mm a frame.
    static let jumpReferenceUS: Int64 = 12_000
    static let jumpCheckedUS: Int64 = 30_000
    static let maximumMotionMM = 16.0
    static let maximumRiseMM = 5.0
    /// Catching up (what the pre-roll or the frame pacing held back) goes no faster
    /// than 120 mm/s, unless the gesture itself does: under 130 mm/s libinput's
    /// adaptive profile leaves a delta as it is; faster, it multiplies it (up to 4.8×
    /// at 520 mm/s), and KWin and Hyprland follow the accelerated deltas.
    static let catchUpMMPerSecond = 120.0
    /// A spring-back moves at 100 mm/s, inside that plateau (so the desktop's
    /// accelerated sum comes back as far as it went at plateau speeds), in at least 5
    /// frames (Hyprland averages the motion per event to tell a fling).
    static let springBackMMPerSecond = 100.0
    static let springBackMinimumFrames: Int32 = 5

    static func units(_ mm: Double) -> Int32 { Int32((mm * unitsPerMM).rounded()) }
    static let maximumX = units(widthMM), maximumY = units(heightMM)

    // MARK: State

    /// `input42`: the device's directory under /sys/devices/virtual/input, when the kernel says.
    public private(set) var sysname: String?
    public private(set) var state: State = .idle
    /// When `timerFired(at:)` is next needed (nil: nothing is waiting).
    public private(set) var deadline: Timestamp?
    /// The first failed write: nothing more is written (the daemon makes a new device).
    public private(set) var failure: Failure?
    /// write(2) calls so far: one per frame.
    public private(set) var writes = 0

    private let file: OwnedFileDescriptor
    /// One frame's events, made once.
    private let buffer: UnsafeMutableBufferPointer<Uinput.Event>
    private var count = 0

    private var fingers = 0
    private var axis = Axis.horizontal
    /// +1: the axis's device direction (right, down); -1: against it.
    private var sign: Int32 = 1
    private var nextTrackingID: Int32 = 0
    /// Where the fingers are and where they are to go, in units along the axis and sign
    /// from the pre-roll point (`move`'s 0 mm).
    private var offset: Int32 = 0
    private var target: Int32 = 0
    /// The last frame's stamp lies between these: the `at` it was written at, and the
    /// clock read when its write(2) returned.
    private var lastWrite = Timestamp(microseconds: 0)
    private var lastWriteReturned = Timestamp(microseconds: 0)
    /// The least libinput's jump filter can have measured of the touches' motion so far
    /// (mm per 12 ms: `jumps.last_delta_mm`), whatever the stamps were.
    private var lastMotionMM = 0.0
    private let clock: () -> Timestamp
    /// A spring-back's largest frame, in units.
    private var springBackStep: Int32 = 1
    /// The last move: when, where to, and the gesture's speed it made (mm/s).
    private var lastMove = Timestamp(microseconds: 0)
    private var lastMoveTarget: Int32 = 0
    private var gestureMMPerSecond = 0.0

    /// Opens `path` (the real /dev/uinput, or a test's fake), declares a touchpad and
    /// creates it. `open` is `open(2)` unless a test substitutes it; `clock`, read after
    /// each write, is CLOCK_MONOTONIC unless a test moves it by hand.
    public init(path: String = VirtualTouchpad.path,
                open: (String) -> Int32 = { Glibc.open($0, O_WRONLY | O_NONBLOCK | O_CLOEXEC) },
                clock: @escaping () -> Timestamp = { Timestamp(microseconds: monotonicNanoseconds() / 1000) }) throws(Failure) {
        self.clock = clock
        do throws(Errno) {
            file = try OwnedFileDescriptor { open(path) }
        } catch {
            throw Failure("open \(path)", error)
        }
        buffer = .allocate(capacity: 32)
        buffer.initialize(repeating: Uinput.event(type: 0, code: 0, value: 0))
        let fd = file.descriptor
        try Uinput.enable(fd, type: Code.evKey)
        for key in Code.keys { try Uinput.enable(fd, code: key, of: Code.evKey) }
        try Uinput.enable(fd, type: Code.evAbs)
        for (code, _, _) in Self.axes { try Uinput.enable(fd, code: code, of: Code.evAbs) }
        try Uinput.enable(fd, property: Code.propPointer)
        try Uinput.setup(fd, name: Self.name, bustype: Code.busVirtual, vendor: 0, product: 1)
        for (code, maximum, resolution) in Self.axes {
            try Uinput.setupAxis(fd, code: code, value: 0, minimum: 0, maximum: maximum, fuzz: 0, flat: 0, resolution: resolution)
        }
        try Uinput.create(fd)
        sysname = Uinput.sysname(fd)
    }

    /// UI_DEV_DESTROY, then the descriptor closes: libinput sees fingers still down
    /// vanish with the device.
    deinit {
        Uinput.destroy(file.descriptor)
        buffer.deallocate()
    }

    /// What the pad declares, and nothing libinput would misread: no pressure (touches
    /// would hover, or be palms above 130), no touch size or tool type (palms), no
    /// `INPUT_PROP_BUTTONPAD` (soft buttons, thumbs), not `DIRECT` (a touchscreen).
    /// `BTN_LEFT` and `BTN_RIGHT`, never pressed, keep tap-to-click off by default (on
    /// for pads without buttons) and make it no clickpad. Fuzz 0: no hysteresis.
    enum Code {
        static let evSyn: UInt16 = 0x00, evKey: UInt16 = 0x01, evAbs: UInt16 = 0x03
        static let synReport: UInt16 = 0
        static let btnLeft: UInt16 = 0x110, btnRight: UInt16 = 0x111
        static let toolFinger: UInt16 = 0x145, toolQuintTap: UInt16 = 0x148, touch: UInt16 = 0x14a
        static let toolDoubleTap: UInt16 = 0x14d, toolTripleTap: UInt16 = 0x14e, toolQuadTap: UInt16 = 0x14f
        static let keys = [btnLeft, btnRight, toolFinger, toolQuintTap, touch, toolDoubleTap, toolTripleTap, toolQuadTap]
        static let absX: UInt16 = 0x00, absY: UInt16 = 0x01
        static let mtSlot: UInt16 = 0x2f, mtPositionX: UInt16 = 0x35, mtPositionY: UInt16 = 0x36, mtTrackingID: UInt16 = 0x39
        static let propPointer: UInt16 = 0x00
        /// BUS_VIRTUAL, vendor 0: never Apple's ids, which libinput's quirks give a touch
        /// size range, a palm size and natural scrolling.
        static let busVirtual: UInt16 = 0x06

        /// BTN_TOOL_TRIPLETAP or QUADTAP: how many fingers are down.
        static func tool(fingers: Int) -> UInt16 { fingers == 3 ? toolTripleTap : toolQuadTap }
    }

    /// The axes: code, maximum (the minimum is 0), resolution.
    static let axes: [(UInt16, Int32, Int32)] = [
        (Code.absX, maximumX, Int32(unitsPerMM)), (Code.absY, maximumY, Int32(unitsPerMM)),
        (Code.mtSlot, slotCount - 1, 0), (Code.mtPositionX, maximumX, Int32(unitsPerMM)),
        (Code.mtPositionY, maximumY, Int32(unitsPerMM)), (Code.mtTrackingID, 65_535, 0),
    ]

    // MARK: The gesture

    /// `fingers` (3 or 4, `fingerCounts`) land, and pre-roll along `axis` toward
    /// `sign` (.plus: right or down). A gesture still playing is lifted first, where it is.
    public func begin(fingers: Int, axis: Axis, sign: FloatingPointSign, at now: Timestamp) {
        precondition(Self.fingerCounts.contains(fingers), "libinput swipes with 3 or 4 fingers, not \(fingers)")
        handle(.begin(fingers: fingers, axis: axis, sign: sign == .plus ? 1 : -1), at: now)
    }

    /// The fingers go to the pre-roll point plus `mm` along the axis and sign (negative:
    /// back past it), held inside the pad (at least 58 mm either way).
    public func move(to mm: Double, at now: Timestamp) {
        handle(.move(max(-room, min(room, Self.units(mm)))), at: now)
    }

    /// The gesture ends: committed, the fingers lift where they were sent; cancelled,
    /// they go back to the pre-roll point first.
    public func end(commit: Bool, at now: Timestamp) {
        handle(.end(commit ? .commit : .cancel), at: now)
    }

    /// The daemon's timer: the frame due at `deadline` is written.
    public func timerFired(at now: Timestamp) {
        guard let due = deadline, now >= due else { return }
        handle(.timer, at: now)
    }

    private enum Input {
        case begin(fingers: Int, axis: Axis, sign: Int32)
        case move(Int32)
        case end(Ending)
        case timer
    }

    private func handle(_ input: Input, at now: Timestamp) {
        switch (state, input) {
        case (.idle, .begin(let fingers, let axis, let sign)):
            land(fingers, axis, sign, at: now)
        case (.prerolling, .begin(let fingers, let axis, let sign)), (.following, .begin(let fingers, let axis, let sign)),
             (.ending, .begin(let fingers, let axis, let sign)):
            writeLift(at: now)
            land(fingers, axis, sign, at: now)
        case (.idle, .move), (.idle, .end), (.ending, .move), (.ending, .end):
            break  // no gesture, or it ended already
        case (.idle, .timer):
            deadline = nil
        case (.prerolling, .move(let to)):
            aim(at: to, now)  // followed once the pre-roll is done
        case (.prerolling(let step, _), .end(let ending)):
            // The pre-roll goes on to its end: fingers that lifted unmoved would be a tap.
            state = .prerolling(step: step, ending: ending)
        case (.prerolling(let step, let ending), .timer):
            guard now.microseconds - lastWriteReturned.microseconds >= Self.minimumFrameIntervalUS else {
                deadline = Timestamp(microseconds: lastWriteReturned.microseconds + Self.minimumFrameIntervalUS)
                return
            }
            let units = Self.prerollStep(step, fingers: fingers)
            offset += units
            writeMotion(units, at: now)
            if step + 1 < Self.prerollFrames {
                state = .prerolling(step: step + 1, ending: ending)
                deadline = Timestamp(microseconds: lastWriteReturned.microseconds + Self.frameIntervalUS)
            } else {
                if let ending { startEnding(ending) } else { state = .following }
                advance(at: now)
            }
        case (.following, .move(let to)):
            aim(at: to, now)
            advance(at: now)
        case (.following, .end(let ending)):
            startEnding(ending)
            advance(at: now)
        case (.following, .timer), (.ending, .timer):
            advance(at: now)
        }
    }

    private func land(_ fingers: Int, _ axis: Axis, _ sign: Int32, at now: Timestamp) {
        self.fingers = fingers
        self.axis = axis
        self.sign = sign
        offset = -(0..<Self.prerollFrames).reduce(0) { $0 + Self.prerollStep($1, fingers: fingers) }
        target = 0
        lastMove = now
        lastMoveTarget = 0
        gestureMMPerSecond = 0
        writeDown(at: now)
        state = .prerolling(step: 0, ending: nil)
        deadline = Timestamp(microseconds: lastWriteReturned.microseconds + Self.frameIntervalUS)
    }

    private func aim(at to: Int32, _ now: Timestamp) {
        target = to
        let elapsed = now.microseconds - lastMove.microseconds
        if elapsed > 0 { gestureMMPerSecond = Double(abs(to - lastMoveTarget)) / Self.unitsPerMM / (Double(elapsed) / 1e6) }
        lastMove = now
        lastMoveTarget = to
    }

    private func startEnding(_ ending: Ending) {
        state = .ending(ending)
        if ending == .cancel { springBackStep = max(1, abs(offset) / Self.springBackMinimumFrames) }
    }

    /// Where the fingers are going: the target, or the pre-roll point for a cancel.
    private var goal: Int32 { state == .ending(.cancel) ? 0 : target }

    /// One frame toward the goal, as far as libinput takes in one, unless the last was
    /// under 6 ms ago (counted from when its write returned); the next is due 8 ms on
    /// while the goal is not reached. At the goal an ending gesture lifts.
    private func advance(at now: Timestamp) {
        let elapsed = now.microseconds - lastWriteReturned.microseconds
        if offset != goal {
            guard elapsed >= Self.minimumFrameIntervalUS else {
                deadline = Timestamp(microseconds: lastWriteReturned.microseconds + Self.minimumFrameIntervalUS)
                return
            }
            let limit = stepLimit(elapsed: elapsed)
            let step = max(-limit, min(limit, goal - offset))
            offset += step
            writeMotion(step, at: now)
        }
        if offset != goal {
            deadline = Timestamp(microseconds: lastWriteReturned.microseconds + Self.frameIntervalUS)
            return
        }
        deadline = nil
        if case .ending = state {
            writeLift(at: now)
            state = .idle
        }
    }

    /// The largest frame, in units, at least `elapsed` µs after the last's stamp: what
    /// libinput's jump filter keeps, at the catch-up's pace (or the gesture's, when
    /// faster), or the spring-back's.
    private func stepLimit(elapsed: Int64) -> Int32 {
        let checked = min(elapsed, Self.jumpCheckedUS)
        let jump = min(Self.maximumMotionMM, lastMotionMM + Self.maximumRiseMM) * Double(checked) / Double(Self.jumpReferenceUS)
        let seconds = Double(checked) / 1e6
        if state == .ending(.cancel) {
            let mm = min(jump, Self.springBackMMPerSecond * seconds)
            return max(1, min(springBackStep, Int32(mm * Self.unitsPerMM)))
        }
        let mm = min(jump, max(Self.catchUpMMPerSecond, gestureMMPerSecond) * seconds)
        return max(1, Int32(mm * Self.unitsPerMM))
    }

    /// How far the fingers may go from the pre-roll point either way, in units.
    private var room: Int32 {
        let margin = Self.units(Self.edgeMarginMM)
        if axis == .vertical { return Self.maximumY / 2 - margin }
        return Self.maximumX / 2 - Self.units(Double(fingers - 1) / 2 * Self.fingerSpacingMM) - margin
    }

    private func x(_ finger: Int) -> Int32 {
        let row = Self.maximumX / 2 + Self.units((Double(finger) - Double(fingers - 1) / 2) * Self.fingerSpacingMM)
        return axis == .horizontal ? row + sign * offset : row
    }

    private func y(_ finger: Int) -> Int32 {
        axis == .vertical ? Self.maximumY / 2 + sign * offset : Self.maximumY / 2
    }

    // MARK: Frames

    /// Every finger lands in one frame: slot, tracking id and position each, the
    /// single-touch axes at slot 0's, BTN_TOUCH and the finger count's tool.
    private func writeDown(at now: Timestamp) {
        for f in 0..<fingers {
            add(Code.evAbs, Code.mtSlot, Int32(f))
            add(Code.evAbs, Code.mtTrackingID, nextTrackingID)
            nextTrackingID = (nextTrackingID + 1) & 0xffff
            add(Code.evAbs, Code.mtPositionX, x(f))
            add(Code.evAbs, Code.mtPositionY, y(f))
        }
        add(Code.evAbs, Code.absX, x(0))
        add(Code.evAbs, Code.absY, y(0))
        add(Code.evKey, Code.touch, 1)
        add(Code.evKey, Code.tool(fingers: fingers), 1)
        flush(at: now)
        lastMotionMM = 0  // a new touch: libinput's jump filter starts from nothing
    }

    /// Every finger `step` units further along the axis (to `offset`), and the
    /// single-touch axis with slot 0; the least libinput can have measured of the
    /// motion is kept.
    private func writeMotion(_ step: Int32, at now: Timestamp) {
        let previous = lastWrite, previousReturned = lastWriteReturned
        let code = axis == .horizontal ? Code.mtPositionX : Code.mtPositionY
        for f in 0..<fingers {
            add(Code.evAbs, Code.mtSlot, Int32(f))
            add(Code.evAbs, code, axis == .horizontal ? x(f) : y(f))
        }
        add(Code.evAbs, axis == .horizontal ? Code.absX : Code.absY, axis == .horizontal ? x(0) : y(0))
        flush(at: now)
        // The interval libinput measured lies between these. It measures none over 30 ms
        // (nor one of 0), and then keeps what it had.
        let shortest = now.microseconds - previousReturned.microseconds
        let longest = lastWriteReturned.microseconds - previous.microseconds
        guard shortest <= Self.jumpCheckedUS else { return }
        let least = Double(abs(step)) / Self.unitsPerMM * Double(Self.jumpReferenceUS) / Double(min(longest, Self.jumpCheckedUS))
        lastMotionMM = shortest > 0 && longest <= Self.jumpCheckedUS ? least : min(lastMotionMM, least)
    }

    /// Every finger lifts in one frame (libinput ends the swipe, not cancelled).
    private func writeLift(at now: Timestamp) {
        for f in 0..<fingers {
            add(Code.evAbs, Code.mtSlot, Int32(f))
            add(Code.evAbs, Code.mtTrackingID, -1)
        }
        add(Code.evKey, Code.touch, 0)
        add(Code.evKey, Code.tool(fingers: fingers), 0)
        flush(at: now)
    }

    private func add(_ type: UInt16, _ code: UInt16, _ value: Int32) {
        buffer[count] = Uinput.event(type: type, code: code, value: value)
        count += 1
    }

    /// SYN_REPORT ends the frame, written in one write(2).
    private func flush(at now: Timestamp) {
        add(Code.evSyn, Code.synReport, 0)
        defer { count = 0 }
        lastWrite = now
        lastWriteReturned = now
        guard failure == nil else { return }
        do throws(SystemCallError) {
            try Uinput.write(file.descriptor, UnsafeBufferPointer(rebasing: buffer[0..<count]))
            writes += 1
        } catch {
            failure = Failure("write \(Self.path)", error.errno)
        }
        lastWriteReturned = max(now, clock())
    }
}
