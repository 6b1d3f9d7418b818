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
