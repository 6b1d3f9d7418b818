import CMicrohttpd
import LinuxSystem

/// libmicrohttpd on the caller's event loop: bound to 127.0.0.1 only, in external
/// epoll mode. The caller waits on `descriptor` (an epoll set, which can sit in
/// another epoll set) and calls `run()` when it is readable or when `timeoutMS` has
/// passed; nothing runs on another thread. Everything libmicrohttpd is asked is here.
///
/// A request is handed on in two steps: `admit` sees its headers before any body is
/// read (a refused request's body is never taken in, and its connection closes), then
/// `handle` sees it whole, with at most `bodyLimit(request)` bytes of body (more: 413,
/// at once when `Content-Length` says so). What connections hold, and for how long,
/// is `ConnectionGuard`'s.
public final class HTTPServer {
    public enum Reply {
        case response(HTTPResponse)
        /// A `text/event-stream` answer that lasts until the client goes.
        case eventStream(EventStream)
        /// An answer that comes later (the daemon's, to a request passed on to it): the
        /// connection is suspended until `DeferredResponse.complete`, and nothing waits.
        case deferred(DeferredResponse)
    }

    public typealias Admit = (HTTPRequest) -> HTTPResponse?
    public typealias Handle = (HTTPRequest) -> Reply

    /// Headers every answer carries, set by the owner.
    public var commonHeaders: [(String, String)] = []
    public var admit: Admit = { _ in nil }
    public var handle: Handle = { _ in .response(.text("not found", status: 404)) }
    /// The most body an admitted request may have (bytes; never above `maximumBody`).
    public var bodyLimit: (HTTPRequest) -> Int = { _ in Int.max }
    /// Told when an event stream's connection has ended.
    public var streamEnded: (EventStream) -> Void = { _ in }

    public let maximumBody: Int
    public let port: UInt16
    /// Readable when libmicrohttpd's epoll set is, or when a suspended event stream's
    /// client has gone.
    public var descriptor: FileDescriptor { watch.descriptor }
    private var daemon: OpaquePointer?
    /// libmicrohttpd's epoll set, and the sockets of suspended event streams (for
    /// `EPOLLRDHUP`: libmicrohttpd does not watch a suspended connection, so a page that
    /// went would hold its stream until the next heartbeat's write failed).
    private let watch: Epoll
    private static let libraryTag = UInt64.max
    private var watchedStreams: [Int32: EventStream] = [:]
    /// Open event streams and deferred answers, resumed before the daemon stops
    /// (libmicrohttpd's rule).
    private var streams: [ObjectIdentifier: EventStream] = [:]
    private var deferred: [ObjectIdentifier: DeferredResponse] = [:]
    private var connections: ConnectionGuard
    /// Bytes of request body held now, all requests together (at most `limits.heldBodies`).
    public private(set) var heldBodyBytes = 0

    /// An idle connection closes after this (s). Event streams are exempt while
    /// suspended and get a heartbeat well within it (`EventStream.heartbeat`).
    public static let connectionTimeout: UInt32 = 60
    /// libmicrohttpd's own memory per connection (headers, buffers), bytes.
    public static let connectionMemory = 64 << 10

    public struct StartError: Error, CustomStringConvertible {
        public var description: String
    }

    /// MHD_start_daemon on 127.0.0.1:`port` (0: an ephemeral one, the usual case), after
    /// loading libmicrohttpd (dlopen: the daemon never maps it).
    public init(port: UInt16 = 0, maximumBody: Int, limits: ConnectionLimits = ConnectionLimits()) throws(StartError) {
        self.maximumBody = maximumBody
        connections = ConnectionGuard(limits: limits)
        if let why = gd_load_microhttpd() {
            throw StartError(description: "cannot load libmicrohttpd (Debian: libmicrohttpd12): \(String(cString: why))")
        }
        do throws(Errno) { watch = try Epoll() } catch { throw StartError(description: "cannot create an epoll set: \(error)") }
        let box = Unmanaged<Box>.passRetained(Box())
        // libmicrohttpd's own cap is above ours: it must accept a connection for the
        // guard to close an older one in its place.
        let started = gd_mhd_start_loopback(port, UInt32(limits.connections * 2), Self.connectionTimeout, Self.connectionMemory,
                                            { cls, connection, url, method, _, upload, size, context in
            Unmanaged<Box>.fromOpaque(cls!).takeUnretainedValue().server!.access(connection!, url: url, method: method,
                                                                                   upload: upload, size: size!, context: context!)
        }, box.toOpaque(), { _, _, context, _ in
            if let p = context?.pointee { Unmanaged<PendingRequest>.fromOpaque(p).release() }
        }, nil, { cls, connection, _, code in
            Unmanaged<Box>.fromOpaque(cls!).takeUnretainedValue().server?.notify(connection!, started: code == .CONNECTION_NOTIFY_STARTED)
        }, box.toOpaque())
        guard let started else {
            box.release()
            throw StartError(description: "cannot listen on 127.0.0.1:\(port): \(Errno.current)")
        }
        daemon = started
        self.port = gd_mhd_port(started)
        self.box = box
        box.takeUnretainedValue().server = self
        do throws(Errno) {
            try watch.add(FileDescriptor(rawValue: gd_mhd_epoll_fd(started)), tag: Self.libraryTag)
        } catch {
            stop()
            throw StartError(description: "cannot watch libmicrohttpd's epoll set: \(error)")
        }
    }

    /// The C callbacks' way back to this object (set once started; cleared at stop).
    private final class Box { weak var server: HTTPServer? }
    private let box: Unmanaged<Box>

    deinit { stop() }

    /// Ends every connection and stops listening (MHD_stop_daemon, after resuming the
    /// suspended streams as it requires).
    public func stop() {
        guard let d = daemon else { return }
        watchedStreams.removeAll()
        for s in streams.values { s.finish() }
        for r in deferred.values { r.complete(.text("stopping", status: 503)) }
        daemon = nil
        gd_MHD_stop_daemon(d)
        streams.removeAll()
        box.release()
    }

    /// An event stream was resumed since the last `run()`.
    private var resumed = false

    /// Ends the streams whose clients went, then MHD_run (accepts, reads, answers,
    /// writes what is ready), then closes the connections past their deadlines. Never blocks.
    public func run() {
        guard let daemon else { return }
        var events = [Epoll.Event](repeating: Epoll.Event(), count: 32)
        let n = (try? watch.wait(into: &events, timeoutMS: 0)) ?? 0
        for e in events[..<n] where e.data != Self.libraryTag { endStream(socket: Int32(truncatingIfNeeded: e.data)) }
        resumed = false
        _ = gd_MHD_run(daemon)
        for socket in connections.expired(now: monotonicNanoseconds()) { shutDown(socket) }
    }

    /// MHD_get_timeout, or the next connection deadline if sooner: when `run()` must be
    /// called even with nothing readable (ms from now; 0: at once, as after a stream was
    /// resumed), or nil for no such time.
    public var timeoutMS: UInt64? {
        guard let daemon else { return nil }
        if resumed { return 0 }
        var ms: UInt64 = 0
        let library = gd_MHD_get_timeout(daemon, &ms) == .YES ? ms : nil
        // Rounded up: a timer armed before the deadline would fire, find nothing due, and fire again.
        let guarded = connections.nextDeadline.map { UInt64((max(0, $0 - monotonicNanoseconds()) + 999_999) / 1_000_000) }
        return [library, guarded].compactMap { $0 }.min()
    }

    // MARK: Connections

    /// MHD_NotifyConnectionCallback: a connection was accepted (and older ones may have
    /// to make room), or is about to be closed.
    private func notify(_ connection: OpaquePointer, started: Bool) {
        let key = UInt(bitPattern: connection)
        if started {
            let socket = gd_mhd_connection_fd(connection)
            for victim in connections.opened(key, socket: socket, now: monotonicNanoseconds()) { shutDown(victim) }
        } else {
            if let socket = connections.entries[key]?.socket, watchedStreams.removeValue(forKey: socket) != nil {
                watch.remove(FileDescriptor(rawValue: socket))
            }
            connections.closed(key)
        }
    }

    /// Ends a connection libmicrohttpd owns: it reads end of stream and closes it. Only
    /// a socket of this server's port (a number can only be stale if libmicrohttpd
    /// closed it unannounced, but then it may be anyone's by now).
    private func shutDown(_ socket: Int32) {
        let fd = FileDescriptor(rawValue: socket)
        if fd.localIPv4Port == port { fd.shutdownSocket() }
    }

    /// A suspended stream's client went: the stream ends, and its slot with it.
    private func endStream(socket: Int32) {
        watch.remove(FileDescriptor(rawValue: socket))
        watchedStreams.removeValue(forKey: socket)?.finish()
    }

    // MARK: Requests

    /// A request between its headers and its last byte of body.
    private final class PendingRequest {
        var request: HTTPRequest
        let limit: Int
        /// The answer to give once the body is in (read and dropped meanwhile): 413, 503.
        var refusal: HTTPResponse?
        var deferred: DeferredResponse?
        /// Bytes counted in the server's `heldBodyBytes` for this request.
        var reserved = 0
        weak var server: HTTPServer?
        init(_ request: HTTPRequest, limit: Int, server: HTTPServer) {
            self.request = request
            self.limit = limit
            self.server = server
        }
        /// The body is let go (handled, refused, or the client went).
        func release() {
            server?.heldBodyBytes -= reserved
            reserved = 0
            request.body = []
        }
        deinit { release() }
    }

    /// MHD_AccessHandlerCallback: called with the headers (`*context` nil), then with each
    /// piece of body (`*size` > 0, which we must set to 0 once taken), then once more
    /// with none: then the request is complete.
    private func access(_ connection: OpaquePointer, url: UnsafePointer<CChar>?, method: UnsafePointer<CChar>?,
                        upload: UnsafePointer<CChar>?, size: UnsafeMutablePointer<Int>,
                        context: UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> MHD_Result {
        let key = UInt(bitPattern: connection)
        guard let p = context.pointee else {
            let request = HTTPRequest(method: method.map { String(cString: $0) } ?? "", path: url.map { String(cString: $0) } ?? "",
                                      headers: Self.values(connection, .HEADER_KIND, lowercased: true),
                                      query: Self.values(connection, .GET_ARGUMENT_KIND),
                                      cookies: Self.values(connection, .COOKIE_KIND))
            let now = monotonicNanoseconds()
            if let refusal = admit(request) {
                connections.headersReceived(key, loggedIn: false, now: now)
                return queue(connection, refusal, close: true)
            }
            connections.headersReceived(key, loggedIn: true, now: now)
            let pending = PendingRequest(request, limit: min(maximumBody, bodyLimit(request)), server: self)
            // Refused before a byte of it is read, when its length says so.
            if let declared = request.headers["content-length"].flatMap({ Int($0) }), declared > 0 {
                if let refusal = refuse(adding: declared, to: pending) { return queue(connection, refusal, close: true) }
                pending.request.body.reserveCapacity(declared)
            }
            context.pointee = Unmanaged.passRetained(pending).toOpaque()
            return .YES
        }
        let pending = Unmanaged<PendingRequest>.fromOpaque(p).takeUnretainedValue()
        if size.pointee > 0 {
            let total = pending.request.body.count + size.pointee
            if pending.refusal == nil, total > pending.reserved, let refusal = refuse(adding: total - pending.reserved, to: pending) {
                pending.refusal = refusal
                pending.release()
            }
            if pending.refusal == nil, let upload {
                pending.request.body.append(contentsOf: UnsafeRawBufferPointer(start: upload, count: size.pointee))
            }
            size.pointee = 0
            return .YES
        }
        connections.requestComplete(key, now: monotonicNanoseconds())
        if let refusal = pending.refusal { return queue(connection, refusal, close: true) }
        if let d = pending.deferred {
            // Called again once resumed: the answer is in.
            deferred[ObjectIdentifier(d)] = nil
            return d.response.map { queue(connection, $0) } ?? .YES
        }
        let request = pending.request
        pending.release()
        switch handle(request) {
        case .response(let r): return queue(connection, r)
        case .eventStream(let s): return queue(connection, stream: s)
        case .deferred(let d):
            if let r = d.response { return queue(connection, r) }
            pending.deferred = d
            deferred[ObjectIdentifier(d)] = d
            gd_MHD_suspend_connection(connection)
            d.resume = { [weak self] in
                gd_MHD_resume_connection(connection)
                self?.resumed = true
            }
            return .YES
        }
    }

    /// Counts `bytes` more of `pending`'s body as held, or the answer that refuses it:
    /// 413 over its own limit, 503 over what all requests together may hold.
    private func refuse(adding bytes: Int, to pending: PendingRequest) -> HTTPResponse? {
        if pending.reserved + bytes > pending.limit {
            return .text("too large: at most \(pending.limit) bytes", status: 413)
        }
        if heldBodyBytes + bytes > connections.limits.heldBodies {
            return .text("busy: other requests' bodies are being received; try again", status: 503)
        }
        pending.reserved += bytes
        heldBodyBytes += bytes
        return nil
    }

    /// MHD_get_connection_values of one kind as a dictionary; a repeated name's values
    /// joined with ", ".
    private static func values(_ connection: OpaquePointer, _ kind: MHD_ValueKind, lowercased: Bool = false) -> [String: String] {
        final class Collected { var values: [String: String] = [:]; var lowercased = false }
        let collected = Collected()
        collected.lowercased = lowercased
        withExtendedLifetime(collected) {
            _ = gd_MHD_get_connection_values(connection, kind, { cls, _, key, value in
                let c = Unmanaged<Collected>.fromOpaque(cls!).takeUnretainedValue()
                guard let key else { return .YES }
                let name = c.lowercased ? String(cString: key).lowercased() : String(cString: key)
                let v = value.map { String(cString: $0) } ?? ""
                c.values[name] = c.values[name].map { $0 + ", " + v } ?? v
                return .YES
            }, Unmanaged.passUnretained(collected).toOpaque())
        }
        return collected.values
    }

    /// `close`: the connection ends after this answer (a refusal: its body, if any, unread).
    private func queue(_ connection: OpaquePointer, _ r: HTTPResponse, close: Bool = false) -> MHD_Result {
        let response = r.body.withUnsafeBytes {
            gd_MHD_create_response_from_buffer($0.count, UnsafeMutableRawPointer(mutating: $0.baseAddress), .RESPMEM_MUST_COPY)
        }
        guard let response else { return .NO }
        return send(connection, response, status: r.status, headers: r.headers + (close ? [("Connection", "close")] : []))
    }

    private func send(_ connection: OpaquePointer, _ response: OpaquePointer, status: Int, headers: [(String, String)]) -> MHD_Result {
        defer { gd_MHD_destroy_response(response) }
        for (name, value) in headers + commonHeaders where gd_MHD_add_response_header(response, name, value) != .YES {
            return .NO  // a header with a newline in it: refuse rather than send it cut
        }
        return gd_MHD_queue_response(connection, UInt32(status), response)
    }

    // MARK: Event streams

    private func queue(_ connection: OpaquePointer, stream: EventStream) -> MHD_Result {
        let cls = Unmanaged.passRetained(stream).toOpaque()
        let response = gd_MHD_create_response_from_callback(UInt64.max, 4096, { cls, _, buffer, max in
            let s = Unmanaged<EventStream>.fromOpaque(cls!).takeUnretainedValue()
            return s.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: max))
        }, cls, { cls in
            let s = Unmanaged<EventStream>.fromOpaque(cls!).takeRetainedValue()
            s.connectionEnded()
        })
        guard let response else {
            Unmanaged<EventStream>.fromOpaque(cls).release()
            return .NO
        }
        let socket = connections.entries[UInt(bitPattern: connection)]?.socket
        stream.attach(connection, resumed: { [weak self] in self?.resumed = true }) { [weak self] s in
            guard let self else { return }
            streams[ObjectIdentifier(s)] = nil
            if let socket, watchedStreams[socket] === s {
                watchedStreams[socket] = nil
                watch.remove(FileDescriptor(rawValue: socket))
            }
            streamEnded(s)
        }
        streams[ObjectIdentifier(stream)] = stream
        if let socket, (try? watch.add(FileDescriptor(rawValue: socket), tag: UInt64(socket), events: Epoll.peerClosed)) != nil {
            watchedStreams[socket] = stream
        }
        return send(connection, response, status: 200, headers: [("Content-Type", "text/event-stream; charset=utf-8")])
    }
}

/// An answer given later: `complete` resumes the suspended connection, and the server
/// sends it at its next `run()` (its `timeoutMS` says 0 until then).
public final class DeferredResponse {
    fileprivate(set) var response: HTTPResponse?
    fileprivate var resume: (() -> Void)?

    public init() {}

    /// The answer; only the first counts.
    public func complete(_ r: HTTPResponse) {
        guard response == nil else { return }
        response = r
        resume?()
        resume = nil
    }
}
