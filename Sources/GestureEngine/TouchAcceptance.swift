import TouchModel

/// `settings: accessibility: hold-to-accept:` (iOS Touch Accommodations' Hold
/// Duration): a touch counts only once it has rested `duration`. Until then it is no
/// finger to any gesture: the engine is handed each frame without it (and with its
/// finger out of the frame's count), so the tracker sees it land only when it is
/// accepted, where it is then: a swipe's distance, a tap's duration and movement all
/// start at the accepted point and instant. A touch that moves away before it is
/// accepted (farther than a hold allows) is refused: it counts for nothing until it
/// lifts, and only a new touch that rests is accepted.
///
/// Acceptance is a deadline of its own: a finger at rest may send no frame at all, so
/// when it comes due the engine hands the tracker the last frame again at that instant
/// (`frame(at:)`), as a frame that only added a finger.
///
/// One per engine when `hold-to-accept` is on (none when off: nothing changes). The
/// frames it hands on and its table are allocated once: nothing per frame.
final class TouchAcceptance {
    enum Standing: Equatable {
        /// Landed at `Entry.landed`; accepted at `Entry.acceptAt` if it stays within
        /// `maxMovementMM` of it.
        case resting
        case accepted
        /// Moved away before it was accepted, or was down while the engine ignored the
        /// touches: nothing until it lifts.
        case refused
    }

    struct Entry {
        var id: Int32
        var landed: Point
        var acceptAt: Timestamp
        var standing: Standing
        static let empty = Entry(id: -1, landed: .zero, acceptAt: Timestamp(microseconds: 0), standing: .refused)
    }

    /// How long a touch must rest, s.
    let duration: Double
    /// How far a resting touch may wander and still be resting, mm: what a hold allows
    /// on this kind of device (`defaultHoldAllowableMovementMM`: 3 mm on a touchpad,
    /// 5 mm on a touchscreen, whose recorded presses drift 4.2 mm). A rest is a hold
    /// that acts on nothing; with less, a finger pressed down firmly on a touchscreen
    /// would never be accepted; with more, a slow stroke would be taken for a rest.
    let maxMovementMM: Double

    @exclusivity(unchecked) private var entries = InlineArray<10, Entry>(repeating: .empty)
    @exclusivity(unchecked) private var count = 0
    /// The last frame as the device sent it, for `frame(at:)`.
    private let raw: UnsafeMutablePointer<TouchFrame>
    /// What the engine is handed: the frame without the touches not accepted.
    private let out: UnsafeMutablePointer<TouchFrame>

    init(duration: Double, device: DeviceInfo) {
        self.duration = duration
        maxMovementMM = defaultHoldAllowableMovementMM[device.kind] ?? 5
        raw = .allocate(capacity: 1)
        raw.initialize(to: TouchFrame(time: Timestamp(microseconds: 0)))
        out = .allocate(capacity: 1)
        out.initialize(to: TouchFrame(time: Timestamp(microseconds: 0)))
    }

    deinit {
        raw.deinitialize(count: 1)
        raw.deallocate()
        out.deinitialize(count: 1)
        out.deallocate()
    }

    /// `frame` as the engine is to see it: only the accepted touches. `refusingNew`:
    /// the engine ignores the touches down now (a resync, a click, a reload), so a
    /// touch landing now never counts; a resync or a stale frame refuses every touch
    /// still resting too.
    func filter(_ frame: UnsafePointer<TouchFrame>, refusingNew: Bool) -> UnsafePointer<TouchFrame> {
        raw.pointee = frame.pointee
        return accept(at: frame.pointee.time, refusingNew: refusingNew
                      || !frame.pointee.flags.isDisjoint(with: [.resynced, .stale]))
    }

    /// The last frame again at `time` (a touch's rest came due with no frame), with the
    /// touches accepted by then; its resync and stale flags were the earlier frame's.
    func frame(at time: Timestamp) -> UnsafePointer<TouchFrame> {
        raw.pointee.time = time
        raw.pointee.flags.subtract([.resynced, .stale])
        return accept(at: time, refusingNew: false)
    }

    /// When the next resting touch is accepted, if one rests.
    var deadline: Timestamp? {
        var next: Timestamp?
        for i in 0..<count where entries[i].standing == .resting {
            if next == nil || entries[i].acceptAt < next! { next = entries[i].acceptAt }
        }
        return next
    }

    /// Every touch still resting is refused (the engine cancelled everything).
    func refuseResting() {
        for i in 0..<count where entries[i].standing == .resting { entries[i].standing = .refused }
    }

    /// Updates every touch of `raw` (new ones rest from now, moved ones are refused,
    /// rested ones accepted), forgets the lifted ones, and writes `out`.
    private func accept(at now: Timestamp, refusingNew: Bool) -> UnsafePointer<TouchFrame> {
        let list = raw.pointee.contacts
        var present: UInt32 = 0
        out.pointee.time = now
        out.pointee.flags = raw.pointee.flags
        out.pointee.orientation = raw.pointee.orientation
        out.pointee.contacts.removeAll()
        for k in 0..<list.count {
            let c = list[k]
            var i = 0
            while i < count && entries[i].id != c.id { i += 1 }
            if i == count {
                guard count < entries.count else { continue }
                entries[i] = Entry(id: c.id, landed: c.position, acceptAt: now.adding(seconds: duration),
                                   standing: refusingNew ? .refused : .resting)
                count += 1
            }
            present |= 1 &<< UInt32(truncatingIfNeeded: i)
            if entries[i].standing == .resting {
                if (c.position - entries[i].landed).length > maxMovementMM {
                    entries[i].standing = .refused
                } else if now >= entries[i].acceptAt {
                    entries[i].standing = .accepted
                }
            }
            if entries[i].standing == .accepted { out.pointee.contacts.append(c) }
        }
        // Forget the touches that lifted, keeping the others in order.
        var kept = 0
        for i in 0..<count where present & (1 &<< UInt32(truncatingIfNeeded: i)) != 0 {
            if kept != i { entries[kept] = entries[i] }
            kept += 1
        }
        count = kept
        // Fingers the pad counts but does not track (a semi-MT pad's third) have no
        // place to rest: they count along with the tracked ones that were accepted.
        let untracked = max(0, raw.pointee.fingerCount - list.count)
        out.pointee.fingerCount = out.pointee.contacts.isEmpty ? 0 : out.pointee.contacts.count + untracked
        return UnsafePointer(out)
    }
}
