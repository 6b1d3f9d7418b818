import CLinux
import Glibc

/// When to try a lost connection again: a timerfd on the loop, armed at a delay that
/// doubles from `initial` to `maximum` and starts over after a connection that worked,
/// so a compositor that restarts is found again within `maximum`, and one that is gone
/// costs a wakeup every `maximum`, never a busy loop.
final class ReconnectTimer {
    let initial: Double
    let maximum: Double
    private(set) var delay: Double
    private var fd: Int32 = -1
    private weak var loop: FocusLoop?

    init(initial: Double = 0.5, maximum: Double = 10) {
        self.initial = initial
        self.maximum = maximum
        delay = initial
    }

    deinit { cancel() }

    /// Arms the timer for the next attempt; `fire` runs once when it expires.
    func schedule(on loop: FocusLoop, _ fire: @escaping () -> Void) {
        cancel()
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

    /// The connection worked: the next loss waits `initial` again.
    func succeeded() { delay = initial }

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
