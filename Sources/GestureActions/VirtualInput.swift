import DaemonCore
import GestureConfig
import LinuxSystem

/// The sink for built-in actions: keys, clicks and wheel motion written to the
/// virtual device, never blocking its caller.
///
/// Each action becomes reports (events ending in SYN_REPORT): `super+Page_Down` is
/// super down, Page_Down down, SYN; then Page_Down up, super up, SYN. Reports are
/// spaced by `settings.key-delay`: the first is written at once when nothing is
/// pending, later ones are due on the timer (`fd`, a timerfd the daemon watches),
/// so press and release never arrive in the same instant and the loop never sleeps.
///
/// Keys never lag the fingers by more than `maximumLagNS`: a key, click or scroll
/// action whose last report would be written later than that after it was asked for
/// is dropped whole (a fast pan with a small `every:` types what the key delay lets it
/// keep up with, not a backlog that goes on after the lift). A `hold:` press or release
/// is never dropped, and waits at most that long behind what is queued.
///
/// Keys are counted, not flagged: a key pressed by a `hold:` and again by a
/// combination stays down until both let go, so overlapping gestures cannot release
/// each other's keys. `finish()` (shutdown) writes what is pending at once and lets
/// go of everything still down before the device is destroyed.
///
/// A key is never forgotten down in the kernel: `kernelDown` is what the writes that
/// landed left down. A release that fails to land is written again every
/// `retryIntervalNS`; after `retriesBeforeRecreate` failures the device is made again,
/// and destroying the old one makes the kernel release everything it held (keys that
/// are still meant to be down are pressed again on the new one).
///
/// The device is made when the config first needs it, declaring exactly what the
/// config uses; a reload needing more keys recreates it, but only once nothing is
/// held or pending, so a held key is never lost with its device.
public final class VirtualInput: InvocationSink {
    /// The timerfd to watch for readability; call `handleTimer()` then.
    public var descriptor: FileDescriptor { timer.descriptor }
    private var timer: MonotonicTimer
    public private(set) var device: VirtualDevice?
    /// Why there is no device, while actions need one (nil otherwise).
    public private(set) var unavailable: VirtualDevice.Failure?

    private var keyDelayNS: Int64
    private var wanted = VirtualDevice.Capabilities()
    private let log: (LogPriority, String) -> Void
    private let clock: () -> Int64
    private let makeDevice: (VirtualDevice.Capabilities) throws(VirtualDevice.Failure) -> VirtualDevice

    /// One report to write, with the gesture it belongs to.
    private struct Report {
        var due: Int64
        var gesture: String
        var steps: [Step]
    }
    /// What a report does, resolved against the key counts when it is written.
    private enum Step: Equatable {
        case press(UInt16), release(UInt16), wheel(Scroll)
    }
    private var pending: [Report] = []
    private var pendingStart = 0
    /// When the last report was (or will be) written: the next waits a key delay after it.
    private var lastDue: Int64 = .min
    /// How many presses hold each key down.
    private var downCount: [UInt16: Int] = [:]
    /// The keys the kernel has down: what the writes that landed left down.
    private var kernelDown: Set<UInt16> = []
    /// When to write again the releases that did not land (nil: none are owed).
    private var retryDue: Int64?
    private var failedRetries = 0
    /// A failed release is written again this often, and the device is made again after
    /// this many failures in a row (its destruction releases every key in the kernel).
    static let retryIntervalNS: Int64 = 10_000_000
    static let retriesBeforeRecreate = 5
    /// Leftover high-resolution wheel units (1/120 click) not yet a whole click.
    private var wheelRemainder = (vertical: 0, horizontal: 0)
    private var buffer: [Uinput.Event] = []

    /// Actions not delivered since the last warning, and when that was.
    private var undelivered = 0
    private var lastWarning: Int64 = .min
    private var lastAttempt: Int64 = .min
    /// How late (ns) an action's last report may be written after it was asked for.
    public static let maximumLagNS: Int64 = 100_000_000

    /// At most one warning, and one retry to make the device, per this interval.
    static let warningIntervalNS: Int64 = 10_000_000_000

    public init(settings: Settings, log: @escaping (LogPriority, String) -> Void,
                clock: @escaping () -> Int64 = { monotonicNanoseconds() },
                makeDevice: @escaping (VirtualDevice.Capabilities) throws(VirtualDevice.Failure) -> VirtualDevice = { c throws(VirtualDevice.Failure) in try VirtualDevice(capabilities: c) }) throws(VirtualDevice.Failure) {
        do throws(Errno) { timer = try MonotonicTimer() } catch { throw VirtualDevice.Failure("timerfd_create", error) }
        keyDelayNS = Self.nanoseconds(settings.keyDelay)
        self.log = log
        self.clock = clock
        self.makeDevice = makeDevice
        buffer.reserveCapacity(32)
    }

    deinit { finish() }

    private static func nanoseconds(_ s: Double) -> Int64 { Int64((s * 1e9).rounded()) }

    /// A config (first or reloaded) asks for `capabilities`; the device follows when it can.
    public func configure(_ capabilities: VirtualDevice.Capabilities, settings: Settings) {
        keyDelayNS = Self.nanoseconds(settings.keyDelay)
        wanted = capabilities
        lastAttempt = .min
        reconcile()
    }

    /// Keys held down now (tests, and the reload log).
    public var heldKeys: [UInt16] { downCount.keys.sorted() }
    /// When the last report queued is due (monotonic ns; nil when none is pending).
    public var lastQueuedDue: Int64? { pendingStart < pending.count ? pending.last?.due : nil }
    /// Reports waiting for their time.
    public var pendingCount: Int { pending.count - pendingStart }
    /// When the next pending report, or a retry of a release, is due (monotonic ns).
    public var nextDeadline: Int64? {
        let report = pendingStart < pending.count ? pending[pendingStart].due : nil
        guard let retryDue else { return report }
        return min(report ?? retryDue, retryDue)
    }

    private var idle: Bool { pendingCount == 0 && downCount.isEmpty && kernelDown.isEmpty }

    /// Makes the device, or a bigger one, if it is wanted and nothing would be lost.
    private func reconcile() {
        if let device, device.capabilities.covers(wanted) { return }
        guard !wanted.isEmpty, idle else { return }
        let now = clock()
        guard device != nil || lastAttempt == .min || now - lastAttempt >= Self.warningIntervalNS else { return }
        lastAttempt = now
        let had = device != nil
        do throws(VirtualDevice.Failure) {
            device = try makeDevice(wanted)  // the old one, if any, goes only once the new one exists
            unavailable = nil
            log(.info, "\(had ? "recreated" : "created") \(VirtualDevice.name)\(device?.sysname.map { " (\($0))" } ?? ""): \(wanted.keys.count) key\(wanted.keys.count == 1 ? "" : "s")\(wanted.wheel ? ", wheel" : "")")
        } catch {
            if unavailable != error {
                log(.warning, "cannot create \(VirtualDevice.name): \(error): \(VirtualDevice.advice(for: error)); commands still run, key, button and scroll actions are not delivered")
            }
            unavailable = error
        }
    }

    // MARK: Actions in

    public func submit(_ inv: Invocation) {
        var reports: [[Step]] = []
        switch inv.action {
        case .command, .desktop:
            return
        case .keys(let chords):
            for c in chords {
                reports.append(c.keys.map { .press($0.code) })
                reports.append(c.keys.reversed().map { .release($0.code) })
            }
        case .button(let b):
            reports = [[.press(b.code)], [.release(b.code)]]
        case .scroll(let s):
            reports = [[.wheel(s)]]
        case .press(let c):
            reports = [c.keys.map { .press($0.code) }]
        case .release(let c):
            reports = [c.keys.reversed().map { .release($0.code) }]
        }
        let now = clock()
        if device == nil { reconcile() }
        guard let device else {
            notDelivered(inv, now)
            return
        }
        // A reload that needs more keys while one is held keeps the old device until
        // nothing is held; the kernel would drop what it does not declare, silently.
        let lacking = Self.lacking(inv.action, in: device.capabilities)
        guard lacking.isEmpty else {
            notDelivered(inv, now, why: "it lacks \(lacking.joined(separator: ", ")) until it is made again, once no key is held (the reload that added \(lacking.count == 1 ? "it" : "them") came while one was)")
            return
        }
        var due = max(now, lastDue == .min ? now : lastDue + keyDelayNS)
        let last = due + keyDelayNS * Int64(reports.count - 1)
        if last - now > Self.maximumLagNS, inv.action.mayBeDropped {
            notDelivered(inv, now, why: "it would be written out \((last - now) / 1_000_000) ms after its gesture asked (over \(Self.maximumLagNS / 1_000_000) ms): the gesture asks for keys faster than settings.key-delay (\(keyDelayNS / 1_000_000) ms a report) lets them out; a larger step (every:) asks for fewer")
            return
        }
        for steps in reports {
            pending.append(Report(due: due, gesture: inv.gesture, steps: steps))
            lastDue = due
            due += keyDelayNS
        }
        writeDue(now)
    }

    /// The timerfd fired: write what is due.
    public func handleTimer() {
        timer.acknowledge()
        writeDue(clock())
    }

    /// Writes every report due by `now` (tests call it with their clock), then re-arms.
    public func writeDue(_ now: Int64) {
        if let r = retryDue, r <= now { retryReleases(now) }
        while pendingStart < pending.count, pending[pendingStart].due <= now {
            let r = pending[pendingStart]
            pendingStart += 1
            write(r.steps, gesture: r.gesture)
        }
        if pendingStart == pending.count {
            pending.removeAll(keepingCapacity: true)
            pendingStart = 0
        }
        arm()
        if idle { reconcile() }
    }

    /// Shutdown: everything pending is written now, in order, and every key still down
    /// is released, before the device goes.
    public func finish() {
        writeDue(.max)
        releaseEverything()
        lastDue = .min
    }

    /// Lets go of every key still down (the last resort of `finish()`).
    private func releaseEverything() {
        guard !downCount.isEmpty else { return }
        let keys = downCount.keys.sorted(by: >)
        downCount.removeAll()
        buffer.removeAll(keepingCapacity: true)
        for k in keys { buffer.append(Uinput.event(type: VirtualDevice.evKey, code: k, value: 0)) }
        flush(gesture: "shutdown")
    }

    private func arm() { timer.arm(atNanoseconds: nextDeadline) }

    // MARK: Events out

    private func write(_ steps: [Step], gesture: String) {
        buffer.removeAll(keepingCapacity: true)
        for s in steps {
            switch s {
            case .press(let k):
                let n = downCount[k, default: 0]
                downCount[k] = n + 1
                if n == 0 { buffer.append(Uinput.event(type: VirtualDevice.evKey, code: k, value: 1)) }
            case .release(let k):
                guard let n = downCount[k] else { continue }
                if n == 1 {
                    downCount[k] = nil
                    buffer.append(Uinput.event(type: VirtualDevice.evKey, code: k, value: 0))
                } else {
                    downCount[k] = n - 1
                }
            case .wheel(let s):
                wheel(s)
            }
        }
        flush(gesture: gesture)
    }

    /// High-resolution units (120 per click) always; a classic wheel click each time
    /// the accumulated motion crosses a whole one, as a real hi-res mouse reports.
    private func wheel(_ s: Scroll) {
        let units = Int32((s.clicks * 120).rounded())
        let sign: Int32 = (s.direction == .up || s.direction == .right) ? 1 : -1
        let vertical = s.direction == .up || s.direction == .down
        var remainder = vertical ? wheelRemainder.vertical : wheelRemainder.horizontal
        remainder += Int(units * sign)
        let clicks = remainder / 120
        remainder -= clicks * 120
        if vertical { wheelRemainder.vertical = remainder } else { wheelRemainder.horizontal = remainder }
        buffer.append(Uinput.event(type: VirtualDevice.evRel, code: vertical ? VirtualDevice.relWheelHiRes : VirtualDevice.relHWheelHiRes,
                                         value: units * sign))
        if clicks != 0 {
            buffer.append(Uinput.event(type: VirtualDevice.evRel, code: vertical ? VirtualDevice.relWheel : VirtualDevice.relHWheel,
                                             value: Int32(clicks)))
        }
    }

    /// Ends the buffered report with SYN_REPORT and writes it (nothing when empty). What
    /// lands updates `kernelDown`; a release that does not is owed (`retryReleases`).
    @discardableResult
    private func flush(gesture: String) -> Bool {
        guard !buffer.isEmpty, let device else { return true }
        buffer.append(Uinput.event(type: VirtualDevice.evSyn, code: 0, value: 0))
        do throws(VirtualDevice.Failure) {
            try buffer.withUnsafeBufferPointer { (p) throws(VirtualDevice.Failure) in try device.write(p) }
        } catch {
            if retryDue == nil { log(.error, "[\(gesture)] \(VirtualDevice.name): \(error)") }
            if kernelDown.contains(where: { downCount[$0] == nil }) || buffer.contains(where: { $0.type == VirtualDevice.evKey && $0.value == 0 }) {
                retryDue = retryDue ?? clock() + Self.retryIntervalNS
            }
            return false
        }
        for e in buffer where e.type == VirtualDevice.evKey {
            if e.value == 0 { kernelDown.remove(e.code) } else { kernelDown.insert(e.code) }
        }
        return true
    }

    /// Writes again the releases of keys the kernel still has down and nothing holds;
    /// after too many failures, makes the device again (the kernel releases everything
    /// the old one held) and presses again what is still held.
    private func retryReleases(_ now: Int64) {
        let stuck = kernelDown.filter { downCount[$0] == nil }.sorted(by: >)
        guard !stuck.isEmpty else {
            retryDue = nil
            failedRetries = 0
            return
        }
        buffer.removeAll(keepingCapacity: true)
        for k in stuck { buffer.append(Uinput.event(type: VirtualDevice.evKey, code: k, value: 0)) }
        if flush(gesture: "release") {
            log(.notice, "\(VirtualDevice.name): the release of \(stuck.count) key\(stuck.count == 1 ? "" : "s") landed on attempt \(failedRetries + 2)")
            retryDue = nil
            failedRetries = 0
            return
        }
        failedRetries += 1
        guard failedRetries >= Self.retriesBeforeRecreate else {
            retryDue = now < .max - Self.retryIntervalNS ? now + Self.retryIntervalNS : .max
            return
        }
        recreateReleasingEverything(stuck.count)
    }

    /// The last resort for a release that never lands: the device goes (the kernel lets
    /// go of every key it held) and a new one comes, with the held keys pressed again.
    private func recreateReleasingEverything(_ stuck: Int) {
        device = nil
        kernelDown.removeAll()
        retryDue = nil
        failedRetries = 0
        do throws(VirtualDevice.Failure) {
            device = try makeDevice(wanted)
            log(.warning, "\(VirtualDevice.name): \(stuck) key release\(stuck == 1 ? "" : "s") would not land after \(Self.retriesBeforeRecreate + 1) writes; made the device again, which released every key")
        } catch {
            unavailable = error
            log(.warning, "\(VirtualDevice.name): \(stuck) key release\(stuck == 1 ? "" : "s") would not land; destroyed the device, which released every key, and cannot make it again: \(error)")
            return
        }
        guard !downCount.isEmpty else { return }
        buffer.removeAll(keepingCapacity: true)
        for k in downCount.keys.sorted() { buffer.append(Uinput.event(type: VirtualDevice.evKey, code: k, value: 1)) }
        flush(gesture: "held keys")
    }

    /// What `action` presses or moves that a device with `capabilities` does not declare.
    private static func lacking(_ action: Action, in capabilities: VirtualDevice.Capabilities) -> [String] {
        switch action {
        case .command, .desktop, .release:
            return []
        case .keys(let chords):
            return chords.flatMap(\.keys).filter { !capabilities.keys.contains($0.code) }.map(\.name)
        case .press(let chord):
            return chord.keys.filter { !capabilities.keys.contains($0.code) }.map(\.name)
        case .button(let b):
            return capabilities.keys.contains(b.code) ? [] : ["button \(b.rawValue)"]
        case .scroll:
            return capabilities.wheel ? [] : ["a wheel"]
        }
    }

    /// Logged, never silent, but at most one warning per interval with a count of the rest.
    private func notDelivered(_ inv: Invocation, _ now: Int64, why: String? = nil) {
        undelivered += 1
        guard lastWarning == .min || now - lastWarning >= Self.warningIntervalNS else { return }
        let why = why ?? "it is unavailable: " + (unavailable.map { "\($0): \(VirtualDevice.advice(for: $0))" } ?? "no virtual device")
        let more = undelivered > 1 ? " (and \(undelivered - 1) more since the last warning)" : ""
        log(.warning, "[\(inv.gesture)] not delivered: \(inv.action)\(more): \(VirtualDevice.name): \(why)")
        undelivered = 0
        lastWarning = now
    }
}
