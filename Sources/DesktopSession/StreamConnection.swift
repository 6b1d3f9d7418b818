import LinuxSystem

/// The life of one IPC connection, shared by the socket sources (sway/i3, Hyprland):
///
/// ```
///  stopped ─start→ connecting ─ok→ connected ─EOF, error, bad frame→ waiting ─timer→ connecting
///                      └─fail (no socket yet, refused)→ waiting
/// ```
///
/// The source gives the protocol: what to send on connecting, and how to take frames
/// off the buffer. Reads are drained on each wakeup; the buffer is bounded, so a peer
/// that sends a frame larger than `limit` is dropped, not followed into memory.
final class StreamConnection {
    enum State: Equatable {
        case stopped
        case waiting
        case connected
    }

    let path: String
    let limit: Int
    private(set) var state = State.stopped
    /// The open connection while `connected`.
    private var socket: StreamSocket?
    private var buffer: [UInt8] = []
    private let retry: ReconnectTimer
    private weak var loop: FocusLoop?
    /// Set by the source: sends its greeting; false drops the connection.
    var onConnect: () -> Bool = { true }
    /// Set by the source: consumes whole frames from the front of the buffer; a
    /// message for the log drops the connection (a protocol error).
    var onBytes: (inout [UInt8]) -> String? = { _ in nil }
    var log: (String) -> Void = { _ in }
    /// Whether the last failure was already logged (a missing compositor is said once).
    private var quietFailures = false

    init(path: String, limit: Int = 16 << 20, retry: ReconnectTimer) {
        self.path = path
        self.limit = limit
        self.retry = retry
    }

    deinit { stop() }

    var fd: Int32? { socket?.descriptor.rawValue }

    func start(on loop: FocusLoop) {
        self.loop = loop
        connect()
    }

    func stop() {
        retry.cancel()
        closeSocket()
        state = .stopped
    }

    /// Sends a request on the open connection; a failure drops it (and reconnects).
    func send(_ bytes: [UInt8]) {
        do throws(Errno) {
            try socket?.sendAll(bytes)
        } catch {
            lose("cannot write: \(error)")
        }
    }

    private func connect() {
        guard let loop else { return }
        let connected: StreamSocket
        do throws(Errno) {
            connected = try StreamSocket.connect(to: path)
        } catch {
            if !quietFailures { log("cannot connect to \(path): \(error); retrying") }
            quietFailures = true
            return wait()
        }
        do {
            try loop.watch(connected.descriptor) { [weak self] in self?.readable() }
        } catch {
            return wait()
        }
        socket = consume connected
        state = .connected
        retry.connected()
        buffer.removeAll(keepingCapacity: true)
        log("connected to \(path)")
        quietFailures = false
        if !onConnect() { lose("the greeting could not be sent") }
    }

    private func readable() {
        guard let result = socket?.readAvailable(into: &buffer, limit: limit) else { return }
        if !buffer.isEmpty {
            if let problem = onBytes(&buffer) { return lose(problem) }
            if buffer.count >= limit { return lose("a message larger than \(limit) bytes") }
            shrinkBuffer()
        }
        switch result {
        case .drained: break
        case .closed: lose("the compositor closed the connection")
        case .failed(let e): lose("read error: \(e)")
        }
    }

    /// After a large message, the buffer's memory goes back to the kernel: reading one
    /// must not leave the daemon that much bigger for good.
    private func shrinkBuffer() {
        guard buffer.capacity > Self.keptCapacity, buffer.count <= Self.keptCapacity else { return }
        var kept: [UInt8] = []
        kept.reserveCapacity(buffer.count)
        kept.append(contentsOf: buffer)
        buffer = kept
        Memory.returnFreePages()
    }

    /// The line-framed protocols' reader (Hyprland's events, niri's JSON lines): each whole
    /// line off the front of `buffer`, without its newline, to `handle`; a message from
    /// `handle` stops there (a protocol error, for `onBytes` to return).
    static func takeLines(_ buffer: inout [UInt8], _ handle: (ArraySlice<UInt8>) -> String?) -> String? {
        var start = 0
        defer { buffer.removeFirst(start) }
        while let nl = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
            let line = buffer[start..<nl]
            start = nl + 1
            if let problem = handle(line) { return problem }
        }
        return nil
    }

    /// The buffer capacity kept between messages (an event is a few hundred bytes).
    static let keptCapacity = 64 << 10

    private func lose(_ why: String) {
        guard fd != nil else { return }
        closeSocket()
        log("lost \(path): \(why); reconnecting")
        wait()
    }

    private func wait() {
        state = .waiting
        guard let loop else { return }
        retry.schedule(on: loop) { [weak self] in
            guard let self, self.state == .waiting else { return }
            self.connect()
        }
    }

    private func closeSocket() {
        guard let descriptor = socket?.descriptor else { return }
        loop?.unwatch(descriptor)
        socket = nil
        if buffer.capacity > Self.keptCapacity {
            buffer = []
            Memory.returnFreePages()
        }
        state = .waiting
    }
}
