import GestureInput
import LinuxSystem
import TouchModel

/// A timeline played to the daemon as a device, on its loop: the daemon's tests adopt
/// it (`Daemon.adopt`, `Daemon.Options.adopted`) and it hands over each frame when it
/// is due, stamped with its own time on CLOCK_MONOTONIC, as a live device's kernel
/// stamps them. Its descriptor is a timerfd armed at the next event's instant, so the
/// loop wakes for it as for a device with something to read; what is due by then is
/// read in timeline order, and the timeline's `remove` is the device going (`.gone`).
///
/// It is one device from its first `create` to its `remove` (the end of the timeline,
/// when it says none): a timeline that creates it again, or that holds the cues of the
/// VM's driver (`await`, `mark`) or daemon steps, is refused.
public final class TimelineTouchSource: TouchSource {
    public let path: String
    public let name: String
    public let decoder: TouchDecoder
    public var descriptor: FileDescriptor { timer.descriptor }
    public var info: DeviceInfo { decoder.deviceInfo(name: name) }
    public var grabbable: (any GrabbableTouchSource)? { nil }

    private var timer: MonotonicTimer
    /// The timeline's events, stamped on CLOCK_MONOTONIC µs; `next` is the first unread.
    private let events: [InputEvent]
    private var next = 0
    /// When the timeline removes the device, µs.
    private let goneAt: Int64

    /// `start`: the CLOCK_MONOTONIC instant (µs) the timeline's zero falls on; by default
    /// now, so its first frames are due at once.
    public init(timeline: Timeline, path: String = "timeline", start: Int64 = monotonicNanoseconds() / 1000) throws(TimelineError) {
        var events: [InputEvent] = []
        var created = false
        var removed: Int64?
        for (at, action) in timeline.steps {
            switch action {
            case .create:
                guard !created else { throw TimelineError("\(path): a second 'create': a TimelineTouchSource is one device") }
                created = true
            case .remove:
                removed = removed ?? start + at
            case let .emit(type, code, value):
                events.append(InputEvent(time: Timestamp(microseconds: start + at), type: type, code: code, value: value))
            case .await, .mark:
                throw TimelineError("\(path): 'await' and 'mark' are cues for the VM's driver; a TimelineTouchSource has no one to cue")
            case let .daemon(step):
                throw TimelineError("\(path): '\(step)' is a daemon step; a TimelineTouchSource plays only the device (tell the daemon yourself)")
            }
        }
        do throws(TouchCapabilities.Unsupported) {
            decoder = try TouchDecoder(description: timeline.device)
        } catch {
            throw TimelineError("\(path): \(timeline.device.name): not a touch device: \(error)")
        }
        do throws(Errno) {
            timer = try MonotonicTimer()
        } catch {
            throw TimelineError("\(path): timerfd_create: \(error)")
        }
        self.path = path
        name = timeline.name ?? timeline.device.name
        self.events = events
        goneAt = removed ?? start + (timeline.steps.last?.at ?? 0)
        armForNext()
    }

    /// Hands over every frame due by now, in order; `.gone` once the device's removal
    /// is due. A frame stamped before `staleBefore` is flagged `.stale`, as a live
    /// device's backlog is.
    public func readAvailable(staleBefore: Int64, log: (String) -> Void, onFrame: (UnsafePointer<TouchFrame>) -> Void) -> TouchReadResult {
        timer.acknowledge()
        let now = monotonicNanoseconds() / 1000
        while next < events.count, events[next].time.microseconds <= now {
            let event = events[next]
            next += 1
            guard decoder.feed(event) else { continue }
            if decoder.frame.time.microseconds < staleBefore { decoder.markStale() }
            onFrame(decoder.framePointer)
        }
        if next == events.count && goneAt <= now { return .gone }
        armForNext()
        return .drained
    }

    /// The timer at the next event, else at the removal.
    private func armForNext() {
        let due = next < events.count ? events[next].time.microseconds : goneAt
        timer.arm(atNanoseconds: due * 1000)
    }
}
