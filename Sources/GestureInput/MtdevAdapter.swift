import CMtdev
import TouchModel

/// Protocol A → B through libmtdev's plumbing API (no fd: events in, events out),
/// the conversion libinput applies to devices without `ABS_MT_SLOT`.
///
/// libmtdev trusts its input (mtdev 1.1.6, src/core.c), so what reaches it is bounded:
/// - 32 contacts in one frame made `foreach_bit` shift by 32 and loop forever in
///   `mtdev_put_event`: a frame's contacts are capped at `maxContactsPerFrame`;
/// - its input ring holds 512 events and silently wraps: a frame's events are capped
///   at `maxEventsPerFrame`;
/// - a contact without `ABS_MT_TOUCH_MAJOR` on a device that declares it is judged
///   touching or not by an uninitialized stack value: we give it a major of 1.
/// What is over a cap is dropped until the frame's `SYN_REPORT`, and the frame is
/// counted in `truncatedFrames` for the caller to log.
@usableFromInline final class MtdevAdapter {
    /// libmtdev holds 31 contacts safely; we track `TouchCapabilities.anonymousSlots` (10).
    static let maxContactsPerFrame = 16
    /// Half of libmtdev's input ring; 16 contacts × 11 axes and a few keys fit.
    static let maxEventsPerFrame = 256
    private let dev: UnsafeMutablePointer<mtdev>
    private let declaresMajor: Bool
    private var contactsInFrame = 0
    private var eventsInFrame = 0
    private var contactHasMajor = false
    private var truncating = false
    private(set) var truncatedFrames = 0

    init?(description d: DeviceDescription) {
        guard let dev = mtdev_new() else { return nil }
        self.dev = dev
        declaresMajor = d.absinfo[AbsCode.mtTouchMajor] != nil
        guard mtdev_init(dev) == 0 else { mtdev_delete(dev); return nil }
        for (code, info) in d.absinfo where code >= AbsCode.mtTouchMajor && code <= AbsCode.max {
            mtdev_set_mt_event(dev, Int32(code), 1)
            mtdev_set_abs_minimum(dev, Int32(code), info.minimum)
            mtdev_set_abs_maximum(dev, Int32(code), info.maximum)
            mtdev_set_abs_fuzz(dev, Int32(code), info.fuzz)
            mtdev_set_abs_resolution(dev, Int32(code), info.resolution)
        }
    }

    deinit { mtdev_delete(dev) }

    /// Puts one event in; at each `SYN_REPORT` drains mtdev's protocol-B output into
    /// `sink`. Returns true when `sink` completed a frame.
    func convert(_ e: InputEvent, _ sink: (InputEvent) -> Bool) -> Bool {
        if e.type == EventType.syn && e.code == SynCode.dropped { return sink(e) }
        guard admit(e) else { return false }
        if e.type == EventType.syn && e.code == SynCode.mtReport {
            if declaresMajor && !contactHasMajor {
                put(InputEvent(time: e.time, type: EventType.abs, code: AbsCode.mtTouchMajor, value: 1))
            }
            contactHasMajor = false
        }
        put(e)
        guard e.type == EventType.syn && e.code == SynCode.report else { return false }
        var completed = false
        while mtdev_empty(dev) == 0 {
            var out = input_event()
            mtdev_get_event(dev, &out)
            let t = Timestamp(microseconds: Int64(out.time.tv_sec) * 1_000_000 + Int64(out.time.tv_usec))
            if sink(InputEvent(time: t, type: out.type, code: out.code, value: out.value)) { completed = true }
        }
        return completed
    }

    private func put(_ e: InputEvent) {
        var ev = e.kernelEvent
        mtdev_put_event(dev, &ev)
    }

    /// Whether `e` may go to libmtdev: within the frame's caps (see the type's comment).
    private func admit(_ e: InputEvent) -> Bool {
        let isContactEnd = e.type == EventType.syn && e.code == SynCode.mtReport
        if e.type == EventType.syn && e.code == SynCode.report {
            if truncating { truncatedFrames += 1 }
            contactsInFrame = 0
            eventsInFrame = 0
            contactHasMajor = false
            truncating = false
            return true
        }
        // A contact's end may bring its filled-in major: two events.
        eventsInFrame += isContactEnd ? 2 : 1
        let isContactPart = isContactEnd || (e.type == EventType.abs && e.code >= AbsCode.mtTouchMajor)
        if eventsInFrame > Self.maxEventsPerFrame || (isContactPart && contactsInFrame >= Self.maxContactsPerFrame) {
            truncating = true
            return false
        }
        if e.type == EventType.abs && e.code == AbsCode.mtTouchMajor { contactHasMajor = true }
        if isContactEnd { contactsInFrame += 1 }
        return true
    }
}
