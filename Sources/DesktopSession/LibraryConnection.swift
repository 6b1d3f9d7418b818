import LinuxSystem

/// The bookkeeping of a connection that a library owns (libxcb, sd-bus, libwayland-client): the
/// descriptor it hands us on the loop, the retry timer, a failure said once, what keeps
/// the source from reporting (said when it changes), and what the source has reported
/// since it connected.
final class LibraryConnection {
    let endpoint: String
    private(set) var fd: Int32 = -1
    private weak var loop: FocusLoop?
    private(set) var log: (String) -> Void = { _ in }
    var focus = FocusReport()
    private let retry: ReconnectTimer
    private var quietFailures = false
    /// What keeps the source from reporting (the peer is missing, answers wrongly); nil: nothing.
    private(set) var problem: String?
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
            try loop.watch(FileDescriptor(rawValue: fd), readable)
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
        if fd >= 0 { loop?.unwatch(FileDescriptor(rawValue: fd)) }
        fd = -1
    }

    /// Logs a change of `problem` once, not on every signal or answer; `recovered` is
    /// said when a problem goes away.
    func say(_ new: String?, recovered: String? = nil) {
        guard new != problem else { return }
        if let new { log(new) } else if problem != nil, let recovered { log(recovered) }
        problem = new
    }

    func cancel() { retry.cancel() }

    private func retryLater() {
        guard let loop else { return }
        retry.schedule(on: loop) { [weak self] in self?.connect() }
    }
}
