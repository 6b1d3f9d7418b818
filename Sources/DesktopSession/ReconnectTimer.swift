import LinuxSystem

/// When to try a lost connection again: a `MonotonicTimer` on the loop, armed at a
/// delay that doubles from `initial` to `maximum`, and starts over only after a
/// connection that proved healthy: one that stayed up `healthyAfter` (the longest delay, 10 s). Any
/// byte used to count as health, so a peer that answered and closed was redialled
/// every 0.5 s forever; now it is redialled every `maximum`. A compositor that restarts
/// is found again within `maximum`, one that is gone costs a wakeup every `maximum`,
/// never a busy loop.
final class ReconnectTimer {
    let initial: Double
    let maximum: Double
    let healthyAfter: Double
    private(set) var delay: Double
    private var timer: MonotonicTimer?
    private weak var loop: FocusLoop?
    /// When the current connection was made (`now`, ns), until it is lost.
    private var connectedAt: Int64?
    /// The monotonic clock, ns (a test's own in tests).
    private let now: () -> Int64

    init(initial: Double = 0.5, maximum: Double = 10, healthyAfter: Double? = nil, now: @escaping () -> Int64 = monotonicNanoseconds) {
        self.initial = initial
        self.maximum = maximum
        self.healthyAfter = healthyAfter ?? maximum
        self.now = now
        delay = initial
    }

    deinit { cancel() }

    /// A connection was made: if it lasts `healthyAfter`, the next loss waits `initial` again.
    func connected() { connectedAt = now() }

    /// Arms the timer for the next attempt; `fire` runs once when it expires.
    func schedule(on loop: FocusLoop, _ fire: @escaping () -> Void) {
        cancel()
        if let since = connectedAt, Double(now() - since) / 1e9 >= healthyAfter { delay = initial }
        connectedAt = nil
        guard var timer = try? MonotonicTimer() else { return }
        timer.arm(atNanoseconds: monotonicNanoseconds() + Int64(delay * 1e9))
        let descriptor = timer.descriptor
        self.timer = consume timer
        self.loop = loop
        delay = min(delay * 2, maximum)
        do {
            try loop.watch(descriptor) { [weak self] in
                self?.cancel()
                fire()
            }
        } catch {
            cancel()
        }
    }

    func cancel() {
        guard let descriptor = timer?.descriptor else { return }
        loop?.unwatch(descriptor)
        timer = nil
    }
}
