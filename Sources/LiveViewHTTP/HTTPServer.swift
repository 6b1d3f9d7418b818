import CMicrohttpd
import LinuxSystem

/// libmicrohttpd on the caller's event loop: bound to 127.0.0.1 only, in external
/// epoll mode. The caller waits on `descriptor` (an epoll set, which can sit in
/// another epoll set) and calls `run()` when it is readable or when `timeoutMS` has
/// passed; nothing runs on another thread. Everything libmicrohttpd is asked is here.
///
/// A request is handed on in two steps: `admit` sees its headers before any body is
/// read (a refused request's body is never taken in), then `handle` sees it whole,
/// with at most `maximumBody` bytes of body (more: 413).
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
    /// Told when an event stream's connection has ended.
    public var streamEnded: (EventStream) -> Void = { _ in }

    public let maximumBody: Int
    public let port: UInt16
    /// libmicrohttpd's epoll set: readable when a connection or the listener needs it.
    public let descriptor: FileDescriptor
    private var daemon: OpaquePointer?
    /// Open event streams and deferred answers, resumed before the daemon stops
    /// (libmicrohttpd's rule).
    private var streams: [ObjectIdentifier: EventStream] = [:]
    private var deferred: [ObjectIdentifier: DeferredResponse] = [:]

    /// Connections at once (a page needs about 4: the page, its stream, a request or two).
    public static let connectionLimit: UInt32 = 64
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
    public init(port: UInt16 = 0, maximumBody: Int) throws(StartError) {
        self.maximumBody = maximumBody
        if let why = gd_load_microhttpd() {
            throw StartError(description: "cannot load libmicrohttpd (Debian: libmicrohttpd12): \(String(cString: why))")
        }
        let box = Unmanaged<Box>.passRetained(Box())
        let started = gd_mhd_start_loopback(port, Self.connectionLimit, Self.connectionTimeout, Self.connectionMemory,
                                            { cls, connection, url, method, _, upload, size, context in
            Unmanaged<Box>.fromOpaque(cls!).takeUnretainedValue().server!.access(connection!, url: url, method: method,
                                                                                   upload: upload, size: size!, context: context!)
        }, box.toOpaque(), { _, _, context, _ in
            if let p = context?.pointee { Unmanaged<PendingRequest>.fromOpaque(p).release() }
        }, nil)
        guard let started else {
            box.release()
            throw StartError(description: "cannot listen on 127.0.0.1:\(port): \(Errno.current)")
        }
        daemon = started
        self.port = gd_mhd_port(started)
        descriptor = FileDescriptor(rawValue: gd_mhd_epoll_fd(started))
        self.box = box
        box.takeUnretainedValue().server = self
    }

    /// The C callbacks' way back to this object (set once started; cleared at stop).
    private final class Box { weak var server: HTTPServer? }
    private let box: Unmanaged<Box>

    deinit { stop() }

    /// Ends every connection and stops listening (MHD_stop_daemon, after resuming the
    /// suspended streams as it requires).
    public func stop() {
        guard let d = daemon else { return }
        for s in streams.values { s.finish() }
        for r in deferred.values { r.complete(.text("stopping", status: 503)) }
        daemon = nil
        gd_MHD_stop_daemon(d)
        streams.removeAll()
        box.release()
    }

    /// An event stream was resumed since the last `run()`.
    private var resumed = false

    /// MHD_run: accepts, reads, answers, writes what is ready; never blocks.
    public func run() {
        guard let daemon else { return }
        resumed = false
        _ = gd_MHD_run(daemon)
    }

    /// MHD_get_timeout: when `run()` must be called even with nothing readable (ms from
    /// now; 0: at once, as after a stream was resumed), or nil for no such time.
    public var timeoutMS: UInt64? {
        guard let daemon else { return nil }
        if resumed { return 0 }
        var ms: UInt64 = 0
        return gd_MHD_get_timeout(daemon, &ms) == .YES ? ms : nil
    }

    // MARK: Requests

    /// A request between its headers and its last byte of body.
    private final class PendingRequest {
        var request: HTTPRequest
        var tooLarge = false
        var deferred: DeferredResponse?
        init(_ request: HTTPRequest) { self.request = request }
    }

    /// MHD_AccessHandlerCallback: called with the headers (`*context` nil), then with each
    /// piece of body (`*size` > 0, which we must set to 0 once taken), then once more
    /// with none: then the request is complete.
    private func access(_ connection: OpaquePointer, url: UnsafePointer<CChar>?, method: UnsafePointer<CChar>?,
                        upload: UnsafePointer<CChar>?, size: UnsafeMutablePointer<Int>,
                        context: UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> MHD_Result {
        guard let p = context.pointee else {
            let request = HTTPRequest(method: method.map { String(cString: $0) } ?? "", path: url.map { String(cString: $0) } ?? "",
                                      headers: Self.values(connection, .HEADER_KIND, lowercased: true),
                                      query: Self.values(connection, .GET_ARGUMENT_KIND),
                                      cookies: Self.values(connection, .COOKIE_KIND))
            if let refusal = admit(request) { return queue(connection, refusal) }
            context.pointee = Unmanaged.passRetained(PendingRequest(request)).toOpaque()
            return .YES
        }
        let pending = Unmanaged<PendingRequest>.fromOpaque(p).takeUnretainedValue()
        if size.pointee > 0 {
            if pending.request.body.count + size.pointee > maximumBody {
                pending.tooLarge = true
            } else if let upload {
                pending.request.body.append(contentsOf: UnsafeRawBufferPointer(start: upload, count: size.pointee))
            }
            size.pointee = 0
            return .YES
        }
        if pending.tooLarge { return queue(connection, .text("too large: at most \(maximumBody) bytes", status: 413)) }
        if let d = pending.deferred {
            // Called again once resumed: the answer is in.
            deferred[ObjectIdentifier(d)] = nil
            return d.response.map { queue(connection, $0) } ?? .YES
        }
        switch handle(pending.request) {
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

    private func queue(_ connection: OpaquePointer, _ r: HTTPResponse) -> MHD_Result {
        let response = r.body.withUnsafeBytes {
            gd_MHD_create_response_from_buffer($0.count, UnsafeMutableRawPointer(mutating: $0.baseAddress), .RESPMEM_MUST_COPY)
        }
        guard let response else { return .NO }
        return send(connection, response, status: r.status, headers: r.headers)
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
        stream.attach(connection, resumed: { [weak self] in self?.resumed = true }) { [weak self] s in
            self?.streams[ObjectIdentifier(s)] = nil
            self?.streamEnded(s)
        }
        streams[ObjectIdentifier(stream)] = stream
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
