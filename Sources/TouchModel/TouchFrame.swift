/// One finger on the surface, as of one frame.
public struct Contact: Equatable, Sendable {
    /// Stable from touch-down to lift; never reused while the finger is down. Derived
    /// from `ABS_MT_TRACKING_ID` (or synthesized for protocol-A and single-touch devices).
    public var id: Int32
    /// The kernel slot that carries it.
    public var slot: Int32
    /// Position in millimetres from the top-left of the device's range.
    public var position: Point
    /// Position in 0…1 of the device's range (edge zones and regions on touchscreens).
    public var normalized: Point
    /// Major axis of the touch ellipse in mm, 0 when the device does not report it.
    public var majorMM: Double

    @inlinable
    public init(id: Int32, slot: Int32 = 0, position: Point, normalized: Point = .zero, majorMM: Double = 0) {
        self.id = id
        self.slot = slot
        self.position = position
        self.normalized = normalized
        self.majorMM = majorMM
    }

    public static let empty = Contact(id: -1, position: .zero)
}

/// The contacts of one frame, stored inline: a frame is a plain value that is copied,
/// never a heap allocation, so the decoder and the engine allocate nothing per frame.
/// Holds up to `capacity` contacts; extra ones are dropped (still counted in
/// `TouchFrame.fingerCount`).
public struct ContactList: RandomAccessCollection, Equatable, Sendable {
    @inlinable public static var capacity: Int { 10 }
    // Inlinable reads: across the module boundary, reading an element of a borrowed
    // InlineArray copied all ten contacts first (Swift 6.3, callgrind: memcpy per
    // contact read in the engine's contact matching).
    @usableFromInline var storage: InlineArray<10, Contact>
    @usableFromInline var stored: Int
    @inlinable public var count: Int { stored }

    public init() {
        storage = InlineArray(repeating: .empty)
        stored = 0
    }

    public init<S: Sequence>(_ contacts: S) where S.Element == Contact {
        self.init()
        for c in contacts { append(c) }
    }

    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { count }

    @inlinable
    public subscript(i: Int) -> Contact {
        get {
            precondition(i >= 0 && i < count, "contact index out of range")
            return storage[i]
        }
        set {
            precondition(i >= 0 && i < count, "contact index out of range")
            storage[i] = newValue
        }
    }

    /// Appends a contact; returns false (and drops it) when the list is full.
    @inlinable @discardableResult
    public mutating func append(_ c: Contact) -> Bool {
        guard stored < Self.capacity else { return false }
        storage[stored] = c
        stored += 1
        return true
    }

    @inlinable public mutating func removeAll() { stored = 0 }

    @inlinable
    public func contact(withID id: Int32) -> Contact? {
        for i in 0..<count where storage[i].id == id { return storage[i] }
        return nil
    }

    public static func == (a: ContactList, b: ContactList) -> Bool {
        guard a.count == b.count else { return false }
        for i in 0..<a.count where a.storage[i] != b.storage[i] { return false }
        return true
    }
}

/// Everything the device said between two `SYN_REPORT`s: the unit the engine consumes.
public struct TouchFrame: Equatable, Sendable {
    public struct Flags: OptionSet, Sendable, Hashable {
        public let rawValue: UInt8
        @inlinable public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// The device dropped events (`SYN_DROPPED`) and was resynchronized: the state
        /// is whole again, but anything in flight must be cancelled, never fired.
        @inlinable public static var resynced: Flags { Flags(rawValue: 1 << 0) }
        /// A physical button (clickpad click) is pressed.
        @inlinable public static var buttonDown: Flags { Flags(rawValue: 1 << 1) }
        /// The frame waited too long to be read (the daemon was stopped or hung): the
        /// backlog of a stall. Like a resync, it cancels what is in flight and fires nothing.
        @inlinable public static var stale: Flags { Flags(rawValue: 1 << 2) }
    }

    /// When the kernel stamped the frame's `SYN_REPORT`: CLOCK_MONOTONIC µs (the
    /// daemon sets EVIOCSCLOCKID), the clock of the timerfd the daemon arms at the
    /// engine's `nextDeadline`, so the two must agree. Recordings keep their own
    /// times, which only need to move forward.
    public var time: Timestamp
    /// Tracked contacts, palms excluded, in slot order.
    public var contacts: ContactList
    /// Fingers on the surface. On pads that report more fingers than they track
    /// (`BTN_TOOL_TRIPLETAP` with two slots) this exceeds `contacts.count`.
    public var fingerCount: Int
    public var flags: Flags
    /// The screen's rotation its positions are turned by (docs/INPUT.md). The decoder
    /// turns a device anew only at the first frame of a touch sequence, so a frame
    /// whose orientation differs from the last one's begins a sequence on a screen
    /// turned since: the daemon's core builds the device's engine again there.
    public var orientation: Orientation = .normal

    public init(time: Timestamp, contacts: ContactList = ContactList(), fingerCount: Int? = nil, flags: Flags = []) {
        self.time = time
        self.contacts = contacts
        self.fingerCount = fingerCount ?? contacts.count
        self.flags = flags
    }
}
