import CLinux
import Glibc

/// When to try a lost connection again: a timerfd on the loop, armed at a delay that
/// doubles from `initial` to `maximum`, and starts over only after a connection that
/// proved healthy: one that stayed up `healthyAfter` (the longest delay, 10 s). Any
/// byte used to count as health, so a peer that answered and closed was redialled
/// every 0.5 s forever; now it is redialled every `maximum`. A compositor that restarts
/// is found again within `maximum`, one that is gone costs a wakeup every `maximum`,
/// never a busy loop.
final class ReconnectTimer {
    let initial: Double
    let maximum: Double
    let healthyAfter: Double
    private(set) var delay: Double
    private var fd: Int32 = -1
    private weak var loop: FocusLoop?
    /// When the current connection was made (`now`, ns), until it is lost.
    private var connectedAt: Int64?
    /// The monotonic clock, ns (a test's own in tests).
    private let now: () -> Int64

    init(initial: Double = 0.5, maximum: Double = 10, healthyAfter: Double? = nil, now: @escaping () -> Int64 = clinux_monotonic_ns) {
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
        let fd = clinux_timerfd_create()
        guard fd >= 0 else { return }
        self.fd = fd
        self.loop = loop
        _ = clinux_timerfd_arm_absolute(fd, clinux_monotonic_ns() + Int64(delay * 1e9))
        delay = min(delay * 2, maximum)
        do {
            try loop.watch(fd) { [weak self] in
                self?.cancel()
                fire()
            }
        } catch {
            cancel()
        }
    }

    func cancel() {
        guard fd >= 0 else { return }
        loop?.unwatch(fd)
        close(fd)
        fd = -1
    }
}

/// The bookkeeping of a connection that a library owns (libxcb, sd-bus): the
/// descriptor it hands us on the loop, the retry timer, a failure said once, and
/// what the source has reported since it connected.
final class LibraryConnection {
    let endpoint: String
    private(set) var fd: Int32 = -1
    private weak var loop: FocusLoop?
    private(set) var log: (String) -> Void = { _ in }
    var focus = FocusReport()
    private let retry: ReconnectTimer
    private var quietFailures = false
    /// Set by the source: opens the library's connection, then calls `opened` or `failed`.
    var connect: () -> Void = {}

    init(endpoint: String, retry: ReconnectTimer) {
        self.endpoint = endpoint
        self.retry = retry
    }

    func start(on loop: FocusLoop, onChange: @escaping (FocusedApp?) -> Void, log: @escaping (String) -> Void, prefix: String) {
        self.loop = loop
        focus.onChange = onChange
        self.log = { log("\(prefix): \($0)") }
        connect()
    }

    /// The library could not connect: said once (not on every retry), tried again later.
    func failed(_ why: String) {
        if !quietFailures { log("\(why); retrying") }
        quietFailures = true
        retryLater()
    }

    /// Connected: watches `fd`. False if the loop refused it (the source closes, and
    /// it is tried again later).
    func opened(_ fd: Int32, readable: @escaping () -> Void) -> Bool {
        guard let loop else { return false }
        do {
            try loop.watch(fd, readable)
        } catch {
            retryLater()
            return false
        }
        self.fd = fd
        focus.reset()
        quietFailures = false
        retry.connected()
        log("connected to \(endpoint)")
        return true
    }

    /// The connection broke (the source has closed it): said, and tried again later.
    func lost(_ why: String) {
        log("\(why); reconnecting")
        retryLater()
    }

    /// The source is closing the library's connection: stop watching its descriptor.
    func closed() {
        if fd >= 0 { loop?.unwatch(fd) }
        fd = -1
    }

    func cancel() { retry.cancel() }

    private func retryLater() {
        guard let loop else { return }
        retry.schedule(on: loop) { [weak self] in self?.connect() }
    }
}
