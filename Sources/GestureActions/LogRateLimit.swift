import DaemonCore
/// At most `perWindow` log lines per window of `windowNs`; the rest are counted, and
/// the count is said with the next line let through (or at the end, `takeSuppressed`).
/// What a command's output floods and what control clients trigger both go through
/// here: nothing outside the daemon may fill the journal at its own pace.
public struct LogRateLimit: Sendable {
    public let perWindow: Int
    public let windowNs: Int64
    private var windowStart: Int64?
    private var inWindow = 0
    private var suppressed = 0

    public init(perWindow: Int, windowNs: Int64) {
        self.perWindow = perWindow
        self.windowNs = windowNs
    }

    /// Whether a line at `now` (monotonic ns) may be logged, and how many were held
    /// back in the windows before it (to say so first; 0 when none).
    public mutating func admit(now: Int64) -> (allowed: Bool, suppressedBefore: Int) {
        var before = 0
        if windowStart.map({ now - $0 >= windowNs }) ?? true {
            before = takeSuppressed()
            windowStart = now
            inWindow = 0
        }
        inWindow += 1
        guard inWindow <= perWindow else {
            suppressed += 1
            return (false, before)
        }
        return (true, before)
    }

    /// The lines held back since the count was last said.
    public mutating func takeSuppressed() -> Int {
        defer { suppressed = 0 }
        return suppressed
    }
}
