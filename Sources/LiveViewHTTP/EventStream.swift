import CMicrohttpd

/// One page's `/api/events` connection: server-sent events, one stream line (docs/CONTROL.md,
/// `subscribe`) per event. Lines are queued here and libmicrohttpd takes them as the
/// socket can take them; with nothing queued the connection is suspended (no polling)
/// and resumed by the next line.
///
/// A page that stops reading never holds more than `EventQueue.capacity` bytes: frames
/// are dropped first, then other lines, and the page is told
/// `{"type":"lost","lost":N}` once it reads again.
public final class EventStream {
    public private(set) var queue: EventQueue
    private var connection: OpaquePointer?
    private var suspended = false
    private var ending = false
    /// The connection is over (or never began).
    private var gone = false
    private var ended: ((EventStream) -> Void)?
    /// Told when the stream is resumed: the server must run soon to write.
    private var resumed: () -> Void = {}

    public init(capacity: Int = EventQueue.defaultCapacity) { queue = EventQueue(capacity: capacity) }

    /// Whether the page is still connected (lines sent before the answer has gone out
    /// are queued for it).
    public var isOpen: Bool { !gone && !ending }

    /// Queues one stream line; `droppable` lines (frames) go first when the page lags.
    public func send(_ line: String, droppable: Bool = false) {
        guard isOpen else { return }
        queue.push(line, droppable: droppable)
        wake()
    }

    /// An SSE comment: keeps the connection alive through idle timeouts, and makes a
    /// page that has gone show itself (the write fails), so it stops counting as open.
    public func heartbeat() {
        guard isOpen else { return }
        queue.pushComment("keepalive")
        wake()
    }

    /// Ends the stream (the server is stopping): the connection closes once resumed.
    func finish() {
        ending = true
        wake()
    }

    func attach(_ connection: OpaquePointer, resumed: @escaping () -> Void, ended: @escaping (EventStream) -> Void) {
        self.connection = connection
        self.resumed = resumed
        self.ended = ended
    }

    /// MHD_resume_connection of a suspended stream. In external epoll mode its own
    /// wakeup does not reach the caller's loop (libmicrohttpd 0.9.75), so the server is
    /// told, and its `timeoutMS` says 0 until it has run.
    private func wake() {
        guard suspended, let connection else { return }
        suspended = false
        gd_MHD_resume_connection(connection)
        resumed()
    }

    /// The MHD_ContentReaderCallback: what is queued, or, with nothing, suspends the
    /// connection and returns 0 (libmicrohttpd asks again once resumed).
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let n = queue.write(into: buffer)
        if n > 0 { return n }
        if ending { return gd_mhd_end_of_stream }
        if let connection, !suspended {
            suspended = true
            gd_MHD_suspend_connection(connection)
        }
        return 0
    }

    /// The response was freed: the connection is over.
    func connectionEnded() {
        connection = nil
        gone = true
        let ended = self.ended
        self.ended = nil
        ended?(self)
    }
}

/// An event stream's bounded queue of SSE events (pure: the tests drive it).
public struct EventQueue: Sendable {
    /// About 4 s of a 1 kHz touchscreen's frames, or a very large hello.
    public static let defaultCapacity = 1 << 20

    public let capacity: Int
    private var entries: [Entry] = []
    private var head = 0
    public private(set) var queuedBytes = 0
    /// Lines dropped since the page last read.
    public private(set) var lost = 0
    /// The event being written, and how far.
    private var current: [UInt8] = []
    private var written = 0

    private struct Entry: Sendable {
        var bytes: [UInt8]
        var droppable: Bool
    }

    public init(capacity: Int) { self.capacity = capacity }

    public var isEmpty: Bool { written == current.count && head == entries.count && lost == 0 }

    public mutating func push(_ line: String, droppable: Bool) {
        append(Self.event(line), droppable: droppable)
    }

    mutating func pushComment(_ text: String) { append(Array(": \(text)\n\n".utf8), droppable: true) }

    private mutating func append(_ bytes: [UInt8], droppable: Bool) {
        if queuedBytes + bytes.count > capacity { dropDroppable() }
        guard queuedBytes + bytes.count <= capacity else {
            lost += 1
            return
        }
        entries.append(Entry(bytes: bytes, droppable: droppable))
        queuedBytes += bytes.count
    }

    /// Full: every frame still queued goes, counted as lost.
    private mutating func dropDroppable() {
        let kept = entries[head...].filter { !$0.droppable }
        lost += entries.count - head - kept.count
        entries = kept
        head = 0
        queuedBytes = kept.reduce(0) { $0 + $1.bytes.count }
    }

    /// Copies queued bytes into `buffer`: the count (0 with nothing queued). A page that
    /// lost lines is told so first.
    public mutating func write(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        var n = 0
        while n < buffer.count {
            if written == current.count {
                guard let next = takeNext() else { break }
                current = next
                written = 0
            }
            let k = min(buffer.count - n, current.count - written)
            current.withUnsafeBytes { src in
                buffer.baseAddress!.advanced(by: n).copyMemory(from: src.baseAddress!.advanced(by: written), byteCount: k)
            }
            n += k
            written += k
        }
        return n
    }

    private mutating func takeNext() -> [UInt8]? {
        if lost > 0 {
            defer { lost = 0 }
            return Self.event("{\"type\":\"lost\",\"lost\":\(lost)}")
        }
        guard head < entries.count else { return nil }
        let e = entries[head]
        head += 1
        queuedBytes -= e.bytes.count
        if head == entries.count {
            entries.removeAll(keepingCapacity: true)
            head = 0
        }
        return e.bytes
    }

    /// `data: LINE\n\n`; a line with a line break in it (none of the stream's, whose
    /// JSON escapes them) becomes several `data:` lines, which the page joins back.
    static func event(_ line: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(line.utf8.count + 8)
        for part in line.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) {
            out += Array("data: ".utf8) + Array(part.utf8) + [0x0A]
        }
        out.append(0x0A)
        return out
    }
}
