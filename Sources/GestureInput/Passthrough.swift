import CEvdev
import TouchModel

/// Passes a grabbed device's frames to its clone as they arrive, and cancels for the
/// desktop the touches a gesture claims.
///
/// ```
/// forwarding ──claim──► suppressing ──every finger lifted──► resyncing ──next frame──► forwarding
///     ▲ each frame: one write(2)       nothing written           the frame written as the device's
///     │                                                           whole state, then as they come
///     │
///     └── holding (hold-back on): a new sequence's frames kept ──claim──► suppressing
///           ──hold-back over, more fingers than any gesture, every finger lifted──► written, forwarding
/// ```
///
/// - **forwarding**: each frame (the events up to and including its `SYN_REPORT`)
///   goes to the clone in one write(2), unchanged: same events, same order.
/// - **claim** (a gesture began or was recognized on this device): what the clone has
///   down is ended the way libinput reports a touch cancel. On a touchscreen each
///   touch first turns into `MT_TOOL_PALM` (libinput's fallback code cancels a touch
///   whose tool becomes a palm: `TOUCH_CANCEL`, no `TOUCH_UP`), then lifts, its tool
///   set back to a finger so the slot's next touch is not taken for a palm. On a
///   touchpad the fingers lift (and any button comes up): libinput ends its gesture
///   or scroll there. Protocol-A and single-touch devices lift.
/// - **suppressing**: nothing of that touch sequence reaches the clone until every
///   finger has lifted.
/// - **resyncing**: the first frame after is written as the device's state (what is
///   down, where), not as its events: the kernel sent only what changed since the last
///   *device* frame, which the clone did not see.
/// - **stale** frames (read over a second late: the daemon was stopped or hung) are
///   dropped in any state, with what was held, and the first fresh frame is written as
///   the device's state (resyncing): the desktop never gets a stall's backlog in a burst.
/// - **holding** (`grab: hold-back:`): a sequence that starts with no more fingers than
///   a gesture bound on the device takes is kept back for at most the hold-back, then
///   written all at once; a claim in that time drops it, so the desktop sees nothing
///   of the gesture. It is written at once when a finger too many lands or all lift.
public final class Passthrough {
    public enum State: Equatable, Sendable {
        case forwarding, suppressing, resyncing
        /// Keeping a new sequence back until this kernel time.
        case holding(until: Timestamp)
    }

    /// `grab: hold-back:`: for how long (µs; 0: off) a new sequence of at most
    /// `maxFingers` fingers (the most a gesture bound on the device takes) is kept back.
    public struct HoldBack: Equatable, Sendable {
        public var microseconds: Int64
        public var maxFingers: Int
        public init(microseconds: Int64 = 0, maxFingers: Int = 0) {
            self.microseconds = microseconds
            self.maxFingers = maxFingers
        }
    }
    public var holdBack = HoldBack()

    public let clone: CloneDevice
    /// The child that gives the device back if the daemon stalls (none in tests).
    public let watchdog: GrabWatchdog?
    public private(set) var state: State = .forwarding
    /// The first failed write; the daemon then lets go of the device (nothing more is written).
    public private(set) var failure: CloneDevice.Failure?
    /// Touch sequences cancelled so far.
    public private(set) var cancelled = 0

    private let style: CancelStyle
    /// The frame being read, written at its SYN_REPORT.
    private var frame: [input_event] = []
    /// Frames kept back while holding.
    private var held: [input_event] = []
    /// What the clone was last told: its current slot, the slots with a touch, the
    /// buttons (`BTN_*` 0x100–0x17f, the touch and tool bits among them) held down.
    private var cloneSlot: Int32 = 0
    private var cloneTouches: UInt64 = 0
    private var cloneButtons: (low: UInt64, high: UInt64) = (0, 0)

    enum CancelStyle: Equatable {
        /// Protocol B on a touchscreen: palm, then lift.
        case palmThenLift
        /// Protocol B on a touchpad: lift.
        case lift
        /// Protocol A or single touch: an empty frame with the buttons up.
        case emptyFrame(protocolA: Bool)
    }

    init(clone: CloneDevice, watchdog: GrabWatchdog?, description d: DeviceDescription) {
        self.clone = clone
        self.watchdog = watchdog
        if d.hasAbs(AbsCode.mtSlot) {
            style = d.hasProperty(InputProperty.direct) ? .palmThenLift : .lift
        } else {
            style = .emptyFrame(protocolA: d.hasAbs(AbsCode.mtPositionX))
        }
        frame.reserveCapacity(128)
    }

    /// An event of the frame being read (the SYN_DROPPED marker itself is not one).
    @inline(__always)
    func append(_ ev: input_event) {
        if state != .suppressing { frame.append(ev) }
    }

    /// Tells the clone `source`'s whole state (at the grab), in one write.
    func sync(_ source: EvdevDevice) {
        var state: [input_event] = []
        source.appendState(into: &state)
        track(state)
        write(state)
    }

    /// When the held frames are due, in kernel time, for the daemon's timer.
    public var deadline: Timestamp? {
        if case .holding(let until) = state { return until }
        return nil
    }

    /// The daemon's timer: held frames whose hold-back is over are written.
    public func timerFired(at now: Timestamp) {
        if case .holding(let until) = state, now >= until { release() }
    }

    /// The frame just read is complete (its SYN_REPORT was appended, and the engine
    /// has seen it and perhaps claimed it); `source` tells whether a finger is down.
    func frameEnded(_ source: EvdevDevice) {
        defer { frame.removeAll(keepingCapacity: true) }
        if source.decoder.frame.flags.contains(.stale) {
            dropStale(touching: source.isTouching)
            return
        }
        switch state {
        case .forwarding, .resyncing:
            if state == .resyncing {  // the frame is written as the device's state
                frame.removeAll(keepingCapacity: true)
                source.appendState(into: &frame)
                state = .forwarding
            }
            if holdBack.microseconds > 0, cloneTouches == 0, cloneButtons == (0, 0), source.isTouching,
               source.decoder.frame.fingerCount <= holdBack.maxFingers {
                held.append(contentsOf: frame)
                state = .holding(until: Timestamp(microseconds: source.decoder.frame.time.microseconds + holdBack.microseconds))
                return
            }
            track(frame)
            write(frame)
        case .holding(let until):
            held.append(contentsOf: frame)
            let time = source.decoder.frame.time
            if !source.isTouching || source.decoder.frame.fingerCount > holdBack.maxFingers || time >= until { release() }
        case .suppressing:
            if !source.isTouching { state = .resyncing }
        }
    }

    /// A gesture claimed this device's touches: the desktop's are cancelled, and the
    /// rest of the sequence is held back. Nothing happens when the clone has nothing
    /// down (a device with neither slots nor `BTN_TOUCH` is never cancelled).
    public func claim() {
        switch state {
        case .forwarding:
            // Nothing down on the clone (a tap recognized after the lift): nothing to cancel,
            // and the next sequence is not the claimed one.
            guard cloneTouches != 0 || cloneButtons != (0, 0) else { return }
            var events: [input_event] = []
            cancelEvents(into: &events)
            write(events)
            cloneTouches = 0
            cloneButtons = (0, 0)
            cancelled += 1
            state = .suppressing
        case .holding:
            // Nothing of the sequence reached the desktop: nothing to cancel.
            held.removeAll(keepingCapacity: true)
            cancelled += 1
            state = .suppressing
        case .suppressing, .resyncing:
            break
        }
    }

    /// A stale frame (a stalled daemon's backlog) reaches the clone neither now nor as
    /// a burst later: it and whatever was held are dropped, and the first fresh frame
    /// tells the clone the device's state. A claimed sequence stays hidden to its lift.
    private func dropStale(touching: Bool) {
        held.removeAll(keepingCapacity: true)
        if state == .suppressing && touching { return }
        state = .resyncing
    }

    /// Writes the held frames (one write) and goes back to forwarding.
    private func release() {
        track(held)
        write(held)
        held.removeAll(keepingCapacity: true)
        state = .forwarding
    }

    private func cancelEvents(into out: inout [input_event]) {
        let slots = (0..<64).filter { cloneTouches & (1 << UInt64($0)) != 0 }
        func add(_ type: UInt16, _ code: UInt16, _ value: Int32) { out.append(input_event(type, code, value)) }
        func releaseButtons() {
            for code in 0..<128 where (code < 64 ? cloneButtons.low >> UInt64(code) : cloneButtons.high >> UInt64(code - 64)) & 1 != 0 {
                add(EventType.key, 0x100 + UInt16(code), 0)
            }
        }
        switch style {
        case .palmThenLift:
            for s in slots {
                add(EventType.abs, AbsCode.mtSlot, Int32(s))
                add(EventType.abs, AbsCode.mtToolType, MTTool.palm)
            }
            add(EventType.syn, SynCode.report, 0)
            for s in slots {
                add(EventType.abs, AbsCode.mtSlot, Int32(s))
                add(EventType.abs, AbsCode.mtToolType, MTTool.finger)
                add(EventType.abs, AbsCode.mtTrackingID, -1)
            }
        case .lift:
            for s in slots {
                add(EventType.abs, AbsCode.mtSlot, Int32(s))
                add(EventType.abs, AbsCode.mtTrackingID, -1)
            }
        case .emptyFrame(let protocolA):
            if protocolA { add(EventType.syn, SynCode.mtReport, 0) }
        }
        releaseButtons()
        add(EventType.syn, SynCode.report, 0)
        if let last = slots.last { cloneSlot = Int32(last) }
    }

    /// Follows what the clone is told: which slots hold a touch, which buttons are down.
    private func track(_ events: [input_event]) {
        for ev in events {
            switch ev.type {
            case EventType.abs where ev.code == AbsCode.mtSlot:
                cloneSlot = ev.value
            case EventType.abs where ev.code == AbsCode.mtTrackingID && (0..<64).contains(cloneSlot):
                let bit = UInt64(1) << UInt64(cloneSlot)
                if ev.value >= 0 { cloneTouches |= bit } else { cloneTouches &= ~bit }
            case EventType.key where (0x100..<0x180).contains(ev.code):
                let i = UInt64(ev.code - 0x100)
                if i < 64 {
                    cloneButtons.low = ev.value != 0 ? cloneButtons.low | (1 << i) : cloneButtons.low & ~(1 << i)
                } else {
                    cloneButtons.high = ev.value != 0 ? cloneButtons.high | (1 << (i - 64)) : cloneButtons.high & ~(1 << (i - 64))
                }
            default:
                break
            }
        }
    }

    private func write(_ events: [input_event]) {
        guard failure == nil, !events.isEmpty else { return }
        do throws(CloneDevice.Failure) {
            try events.withUnsafeBufferPointer { buffer throws(CloneDevice.Failure) in try clone.write(buffer) }
        } catch {
            failure = error
        }
    }
}

extension input_event {
    /// An event to write (uinput stamps its own time).
    init(_ type: UInt16, _ code: UInt16, _ value: Int32) {
        self.init()
        self.type = type
        self.code = code
        self.value = value
    }
}
