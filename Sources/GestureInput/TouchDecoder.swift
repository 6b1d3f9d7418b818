import CMtdev
import TouchModel

/// Turns a device's evdev events into one `TouchFrame` per `SYN_REPORT`. Pure:
/// events in, frames out, no I/O and no clock; live devices and recordings share it.
///
/// Contacts get ids of our own, assigned at touch-down, so an id is never reused
/// while a finger is down even where the device reuses tracking ids. Positions are
/// in mm (units ÷ resolution). Protocol-A devices pass through libmtdev first.
/// Hostile input (slots out of range, absurd values, events after `SYN_DROPPED`) is
/// survived and never traps. An event whose type or code the device does not declare
/// is dropped before anything reads it (libmtdev indexes its tables by code unchecked:
/// `EV_ABS` 0x80 wrote onto its stack), and counted in `rejections` for the caller to log.
public final class TouchDecoder {
    public let capabilities: TouchCapabilities
    /// The frame completed by the last `SYN_REPORT`. Read through an address: the
    /// frame (ten inline contacts, 512 bytes) is handed to the engine without a copy.
    public var frame: TouchFrame { unsafeAddress { UnsafePointer(current) } }
    /// The same frame in place, for `GestureEngine.process`, until the next `feed`.
    public var framePointer: UnsafePointer<TouchFrame> { UnsafePointer(current) }
    private let current: UnsafeMutablePointer<TouchFrame>

    @usableFromInline struct Slot {
        @usableFromInline var trackingID: Int32 = -1
        @usableFromInline var contactID: Int32 = -1
        @usableFromInline var x: Int32 = 0
        @usableFromInline var y: Int32 = 0
        @usableFromInline var major: Int32 = 0
        @usableFromInline var toolType: Int32 = MTTool.finger
        /// A position has been reported since touch-down (a slot whose position
        /// never came carries no usable contact; it still counts as a finger).
        @usableFromInline var hasPosition = false
    }

    /// Fixed for the decoder's life. A buffer rather than an array property: every
    /// `slots[i].x = value` on an array stored in a class paid a dynamic exclusivity
    /// check, which cost more than the decoding itself (gestured-bench, callgrind).
    /// The other mutable state opts out of those checks like the engine's does: the
    /// decoder is single-threaded and never re-entered while it mutates a property.
    @usableFromInline let slots: UnsafeMutableBufferPointer<Slot>
    @usableFromInline @exclusivity(unchecked) var currentSlot: Int = 0
    /// Bit n set: `BTN_TOOL_*` for n+1 fingers is down.
    @usableFromInline @exclusivity(unchecked) var toolBits: UInt8 = 0
    @usableFromInline @exclusivity(unchecked) var touchDown = false
    @usableFromInline @exclusivity(unchecked) var buttonDown = false
    /// Between a `SYN_DROPPED` in the stream and the next `SYN_REPORT` everything
    /// is discarded, as the kernel documents.
    @usableFromInline @exclusivity(unchecked) var dropping = false
    @usableFromInline @exclusivity(unchecked) var resyncPending = false
    @exclusivity(unchecked) private var nextContactID: Int32 = 0
    /// Each axis's scale as a factor (mm per unit, the panel's share per unit): a
    /// contact is made at every frame, and three divisions a contact were the frame's
    /// slowest instructions.
    private let xMin: Double, yMin: Double, xMMPerUnit: Double, yMMPerUnit: Double
    private let xPerUnitOfSpan: Double, yPerUnitOfSpan: Double
    private let majorMMPerUnit: Double
    @usableFromInline let mtdev: MtdevAdapter?
    /// Bit n: the device declares `EV_ABS` code n with its absinfo (codes stop at 0x3f).
    @usableFromInline let declaredAbs: UInt64
    /// Bit n of word n / 64: the device declares `EV_KEY` code n (a set's hashing cost
    /// more than decoding the event).
    @usableFromInline let declaredKeys: [UInt64]
    @usableFromInline @exclusivity(unchecked) var undeclared = 0
    @usableFromInline @exclusivity(unchecked) var lastUndeclared: InputEvent?
    /// The contact transform (docs/INPUT.md, "Screen rotation"): the device's fixed
    /// calibration, then the screen's rotation. Applied here, in one place, so the
    /// engine, regions, edges and `GESTURE_*_MM` all see the screen as the user does.
    public let calibration: ContactTransform
    /// Why the device's `LIBINPUT_CALIBRATION_MATRIX` was not used (not six numbers, or
    /// flat), for the caller to log; nil when it was, or there is none.
    public let calibrationProblem: String?
    // Unchecked, as the slots' state above: read on every frame, and a checked class
    // property costs a dynamic access (swift_beginAccess) each time (callgrind).
    @exclusivity(unchecked) public private(set) var orientation = Orientation.normal
    @exclusivity(unchecked) public private(set) var transform: ContactTransform
    @exclusivity(unchecked) private var pendingOrientation: Orientation?
    /// Not the identity: the identity keeps the plain division, byte for byte.
    @exclusivity(unchecked) private var transformed = false
    @exclusivity(unchecked) private var screenSize: Size

    public init(capabilities: TouchCapabilities, description: DeviceDescription) {
        self.capabilities = capabilities
        slots = .allocate(capacity: capabilities.slotCount)
        slots.initialize(repeating: Slot())
        current = .allocate(capacity: 1)
        current.initialize(to: TouchFrame(time: Timestamp(microseconds: 0)))
        xMin = Double(capabilities.xAxis.minimum)
        yMin = Double(capabilities.yAxis.minimum)
        xMMPerUnit = 1 / capabilities.xUnitsPerMM
        yMMPerUnit = 1 / capabilities.yUnitsPerMM
        xPerUnitOfSpan = 1 / Double(Int64(capabilities.xAxis.maximum) - Int64(capabilities.xAxis.minimum))
        yPerUnitOfSpan = 1 / Double(Int64(capabilities.yAxis.maximum) - Int64(capabilities.yAxis.minimum))
        let majorRes = description.absinfo[AbsCode.mtTouchMajor]?.resolution ?? 0
        majorMMPerUnit = 1 / (majorRes > 0 ? Double(majorRes) : capabilities.xUnitsPerMM)
        mtdev = capabilities.touchProtocol == .anonymous ? MtdevAdapter(description: description) : nil
        declaredAbs = description.acceptedAbsMask
        declaredKeys = description.acceptedKeyWords
        (calibration, calibrationProblem) = Self.calibration(of: description, kind: capabilities.kind)
        transform = calibration
        transformed = !calibration.isIdentity
        screenSize = calibration.screenSize(of: capabilities.size)
    }

    /// libinput applies the matrix to touchscreens (and tablets) only, never touchpads.
    static func calibration(of d: DeviceDescription, kind: DeviceKind) -> (ContactTransform, String?) {
        guard kind == .touchscreen, let text = d.udevProperties[calibrationProperty] else { return (.identity, nil) }
        guard let m = ContactTransform(calibration: text) else {
            return (.identity, "\(calibrationProperty) \"\(text.prefix(80))\" ignored: not six numbers mapping the panel onto an area")
        }
        return (m, nil)
    }

    public static let calibrationProperty = "LIBINPUT_CALIBRATION_MATRIX"

    /// The screen's rotation, after the calibration: at once when no finger is down,
    /// else at the first frame of the next touch sequence, so a gesture never jumps
    /// half-way.
    public func setOrientation(_ o: Orientation) {
        pendingOrientation = o == orientation ? nil : o
        if current.pointee.fingerCount == 0 { takePendingOrientation() }
    }

    /// Whether the last frame had a finger down (a new orientation then waits).
    public var fingersDown: Bool { current.pointee.fingerCount > 0 }

    /// What the engine is told of the device: the size as the screen is turned.
    public func deviceInfo(name: String) -> DeviceInfo {
        var info = capabilities.deviceInfo(name: name)
        info.size = screenSize
        return info
    }

    private func takePendingOrientation() {
        guard let o = pendingOrientation else { return }
        pendingOrientation = nil
        orientation = o
        transform = calibration.then(ContactTransform(o))
        transformed = !transform.isIdentity
        screenSize = transform.screenSize(of: capabilities.size)
    }

    deinit {
        slots.deallocate()
        current.deinitialize(count: 1)
        current.deallocate()
    }

    public convenience init(description: DeviceDescription) throws(TouchCapabilities.Unsupported) {
        self.init(capabilities: try TouchCapabilities(description), description: description)
    }

    /// The next frame is flagged `.resynced`: the live reader calls this when
    /// libevdev reports `LIBEVDEV_READ_STATUS_SYNC`, before feeding the sync events.
    public func markResync() { resyncPending = true }

    /// The frame just completed is flagged `.stale`: the live reader calls this for a
    /// frame that waited too long in the kernel's buffer (a stalled daemon's backlog).
    public func markStale() { current.pointee.flags.insert(.stale) }

    /// Feeds one event; returns true when it completed a frame (read it from `frame`).
    /// Inlinable, with the per-event steps it takes (`isDeclared`, `decode`, `absolute`,
    /// `key`): a call per event from the reader's loop cost a fifth of the decoding
    /// (callgrind, protocol B: the decoder stage 100 → 82 instructions/event, the C
    /// floor 87.5). What happens once a frame (`emit`) or rarely stays out of line.
    @inlinable @inline(__always)
    public func feed(_ e: InputEvent) -> Bool {
        guard isDeclared(e) else { return false }
        if let mtdev { return convert(e, through: mtdev) }
        return decode(e)
    }

    /// Protocol A, out of line: its event buffer put a stack guard on every protocol-B
    /// event's path too.
    @usableFromInline @inline(never)
    func convert(_ e: InputEvent, through mtdev: MtdevAdapter) -> Bool {
        mtdev.convert(e) { self.decode($0) }
    }

    /// `EV_SYN`, and `EV_ABS`/`EV_KEY` codes the device declares; other types
    /// (`EV_MSC` timestamps…) carry nothing we read and are dropped uncounted.
    @inlinable @inline(__always)
    func isDeclared(_ e: InputEvent) -> Bool {
        switch e.type {
        case EventType.abs:
            if e.code <= AbsCode.max && declaredAbs & (1 << UInt64(e.code)) != 0 { return true }
        case EventType.syn:
            if e.code <= SynCode.dropped { return true }
        case EventType.key:
            if e.code <= KeyCode.max && declaredKeys[Int(e.code) >> 6] & (1 << UInt64(e.code & 63)) != 0 { return true }
        default:
            return false
        }
        undeclared += 1
        lastUndeclared = e
        return false
    }

    /// What was refused so far: undeclared events and cut-short protocol-A frames.
    public var rejections: Rejections {
        Rejections(undeclaredEvents: undeclared, lastUndeclared: lastUndeclared,
                   truncatedFrames: mtdev?.truncatedFrames ?? 0)
    }

    /// Counts only grow: a caller logs when they differ from what it last logged.
    public struct Rejections: Equatable, Sendable, CustomStringConvertible {
        public var undeclaredEvents: Int
        public var lastUndeclared: InputEvent?
        /// Protocol-A frames with more contacts or events than reach libmtdev.
        public var truncatedFrames: Int

        public init(undeclaredEvents: Int, lastUndeclared: InputEvent? = nil, truncatedFrames: Int) {
            self.undeclaredEvents = undeclaredEvents
            self.lastUndeclared = lastUndeclared
            self.truncatedFrames = truncatedFrames
        }

        public var description: String {
            var parts: [String] = []
            if undeclaredEvents > 0, let e = lastUndeclared {
                parts.append("\(undeclaredEvents) event\(undeclaredEvents == 1 ? "" : "s") of a type or code the device does not declare dropped"
                             + " (last: type 0x\(String(e.type, radix: 16)) code 0x\(String(e.code, radix: 16)))")
            }
            if truncatedFrames > 0 {
                parts.append("\(truncatedFrames) protocol-A frame\(truncatedFrames == 1 ? "" : "s") cut short: more than"
                             + " \(MtdevAdapter.maxContactsPerFrame) contacts or \(MtdevAdapter.maxEventsPerFrame) events in one frame")
            }
            return parts.joined(separator: "; ")
        }
    }

    @inlinable @inline(__always)
    func decode(_ e: InputEvent) -> Bool {
        if dropping {
            guard e.type == EventType.syn && e.code == SynCode.report else { return false }
            dropping = false
            return emit(at: e.time)
        }
        switch e.type {
        case EventType.abs: absolute(e.code, e.value)
        case EventType.key: key(e.code, e.value)
        case EventType.syn:
            switch e.code {
            case SynCode.report: return emit(at: e.time)
            case SynCode.dropped:
                dropping = true
                resyncPending = true
            default: break
            }
        default: break
        }
        return false
    }

    @inlinable @inline(__always)
    func absolute(_ code: UInt16, _ value: Int32) {
        switch capabilities.touchProtocol {
        case .singleTouch:
            if code == AbsCode.x { slots[0].x = value; slots[0].hasPosition = true }
            else if code == AbsCode.y { slots[0].y = value; slots[0].hasPosition = true }
            return
        case .slots, .anonymous:
            break
        }
        if code == AbsCode.mtSlot {
            currentSlot = value >= 0 && Int(value) < slots.count ? Int(value) : -1
            return
        }
        guard currentSlot >= 0 else { return } // a slot we do not track
        switch code {
        case AbsCode.mtPositionX:
            slots[currentSlot].x = value
            slots[currentSlot].hasPosition = true
        case AbsCode.mtPositionY:
            slots[currentSlot].y = value
            slots[currentSlot].hasPosition = true
        case AbsCode.mtTrackingID:
            trackingID(value)
        case AbsCode.mtTouchMajor:
            slots[currentSlot].major = value
        case AbsCode.mtToolType:
            slots[currentSlot].toolType = value
        default:
            break
        }
    }

    @usableFromInline func trackingID(_ value: Int32) {
        let old = slots[currentSlot].trackingID
        if value < 0 {
            slots[currentSlot].trackingID = -1
            slots[currentSlot].contactID = -1
            slots[currentSlot].toolType = MTTool.finger
            return
        }
        guard value != old else { return }
        // A new touch, or a new tracking id without a lift in between: a new contact.
        slots[currentSlot].trackingID = value
        slots[currentSlot].contactID = takeContactID()
        // The kernel keeps a slot's last values and drops no-op updates, so a new touch
        // may begin without a position event: keep the old one if it ever had one.
    }

    private func takeContactID() -> Int32 {
        let id = nextContactID
        nextContactID = nextContactID == Int32.max ? 0 : nextContactID + 1
        return id
    }

    @inlinable @inline(__always)
    func key(_ code: UInt16, _ value: Int32) {
        let fingers = KeyCode.fingers(forTool: code)
        if fingers > 0 {
            let bit = UInt8(1) << UInt8(fingers - 1)
            if value != 0 { toolBits |= bit } else { toolBits &= ~bit }
        } else if code == KeyCode.btnTouch {
            touchDown = value != 0
        } else if code == KeyCode.btnLeft {
            buttonDown = value != 0
        }
    }

    /// Fingers according to the `BTN_TOOL_*` bits: the highest one down.
    private var toolFingers: Int {
        toolBits == 0 ? 0 : 8 - toolBits.leadingZeroBitCount
    }

    /// Rewrites `frame` in place: building a new TouchFrame and assigning it cleared and
    /// then copied its ten inline contacts at every SYN_REPORT.
    @usableFromInline func emit(at time: Timestamp) -> Bool {
        // The frame still holds the last one: no finger was down, a sequence begins.
        if pendingOrientation != nil && current.pointee.fingerCount == 0 { takePendingOrientation() }
        current.pointee.orientation = orientation
        current.pointee.contacts.removeAll()
        var active = 0
        var palms = 0
        switch capabilities.touchProtocol {
        case .singleTouch:
            let down = touchDown || toolBits != 0
            if down && slots[0].contactID < 0 { slots[0].contactID = takeContactID() }
            if !down { slots[0].contactID = -1 }
            if down && slots[0].hasPosition {
                current.pointee.contacts.append(contact(slots[0], slot: 0))
                active = 1
            } else if down {
                active = 1
            }
        case .slots, .anonymous:
            for i in slots.indices where slots[i].trackingID >= 0 {
                if slots[i].toolType == MTTool.palm { palms += 1; continue }
                active += 1
                if slots[i].hasPosition { current.pointee.contacts.append(contact(slots[i], slot: i)) }
            }
        }
        // More fingers than slots (semi-MT pads, 2-slot pads with TRIPLETAP): the count
        // comes from BTN_TOOL_*, motion from the slots that are tracked.
        let tool = toolFingers - palms
        var flags: TouchFrame.Flags = []
        if resyncPending { flags.insert(.resynced); resyncPending = false }
        if buttonDown { flags.insert(.buttonDown) }
        current.pointee.time = time
        current.pointee.fingerCount = tool > capabilities.slotCount ? max(active, tool) : active
        current.pointee.flags = flags
        return true
    }

    @inline(__always)
    private func contact(_ s: Slot, slot: Int) -> Contact {
        let dx = Double(s.x) - xMin, dy = Double(s.y) - yMin
        if transformed { return transformedContact(s, slot: slot, dx: dx, dy: dy) }
        return Contact(id: s.contactID, slot: Int32(slot),
                       position: Point(x: dx * xMMPerUnit, y: dy * yMMPerUnit),
                       normalized: Point(x: min(max(dx * xPerUnitOfSpan, 0), 1), y: min(max(dy * yPerUnitOfSpan, 0), 1)),
                       majorMM: Double(s.major) * majorMMPerUnit)
    }

    /// Through `transform`: normalized on the panel, mapped, then mm on the screen.
    private func transformedContact(_ s: Slot, slot: Int, dx: Double, dy: Double) -> Contact {
        let n = transform.apply(Point(x: dx * xPerUnitOfSpan, y: dy * yPerUnitOfSpan))
        return Contact(id: s.contactID, slot: Int32(slot),
                       position: Point(x: n.x * screenSize.width, y: n.y * screenSize.height),
                       normalized: Point(x: min(max(n.x, 0), 1), y: min(max(n.y, 0), 1)),
                       majorMM: Double(s.major) * majorMMPerUnit)
    }
}
