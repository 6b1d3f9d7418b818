/// What connections may hold, and for how long (docs/UI.md, "Security"). Pure: the
/// server tells it what happened, with the time, and shuts down the sockets it names.
///
/// Every local user shares 127.0.0.1 with the page's own browser (and can connect from
/// any 127.x.y.z), so a per-address cap would only let one user lock the other out.
/// What keeps the page answering instead:
///
/// - a connection that has not shown a session is closed if its request's headers
///   are not all in within `headerDeadline` from the connection's start: libmicrohttpd's
///   own timeout starts again with every byte, so a byte every few seconds held one
///   open for ever;
/// - a body must be in within `bodyDeadline` of its headers, whoever sends it;
/// - over `connections`, the oldest connection that has not shown a session is closed
///   to make room: idle sockets, however many, never push out the page's own.
struct ConnectionGuard {
    /// Where a connection is.
    enum Phase: Equatable {
        /// Waiting for a request's headers since this instant (ns).
        case awaitingHeaders(since: Int64)
        /// Its request's headers are in; the body is coming since this instant (ns).
        case receivingBody(since: Int64)
        /// Answered, or answering (an event stream, an answer the daemon gives later):
        /// libmicrohttpd's idle timeout is the bound.
        case answered
        /// Named to be shut down; libmicrohttpd closes it on its next run.
        case closing
    }

    struct Entry {
        var socket: Int32
        var opened: Int64
        var phase: Phase
        /// It has shown a valid session: it is the user's, never closed to make room.
        var loggedIn = false
    }

    let limits: ConnectionLimits
    /// By the connection's address (libmicrohttpd's `struct MHD_Connection *`).
    private(set) var entries: [UInt: Entry] = [:]

    init(limits: ConnectionLimits) { self.limits = limits }

    /// A connection was accepted: the sockets to shut down to keep to `connections`
    /// (the oldest not logged in: this one, if every other is logged in).
    mutating func opened(_ key: UInt, socket: Int32, now: Int64) -> [Int32] {
        // The number is this connection's now: any other entry with it is stale.
        for (k, e) in entries where e.socket == socket { entries[k] = nil }
        entries[key] = Entry(socket: socket, opened: now, phase: .awaitingHeaders(since: now))
        var shut: [Int32] = []
        while entries.values.count(where: { $0.phase != .closing }) > limits.connections,
              let victim = entries.filter({ !$0.value.loggedIn && $0.value.phase != .closing }).min(by: { $0.value.opened < $1.value.opened }) {
            entries[victim.key]?.phase = .closing
            shut.append(victim.value.socket)
        }
        return shut
    }

    mutating func closed(_ key: UInt) { entries[key] = nil }

    /// A request's headers are in (`loggedIn`: it showed a valid session); its body now.
    mutating func headersReceived(_ key: UInt, loggedIn: Bool, now: Int64) {
        guard var e = entries[key], e.phase != .closing else { return }
        e.loggedIn = e.loggedIn || loggedIn
        e.phase = .receivingBody(since: now)
        entries[key] = e
    }

    /// Its request is complete (answered, or to be answered): for a connection not
    /// logged in, the header deadline starts again for the next request.
    mutating func requestComplete(_ key: UInt, now: Int64) {
        guard var e = entries[key], e.phase != .closing else { return }
        e.phase = e.loggedIn ? .answered : .awaitingHeaders(since: now)
        entries[key] = e
    }

    /// The sockets past their deadline at `now`, each named once.
    mutating func expired(now: Int64) -> [Int32] {
        var shut: [Int32] = []
        for (key, e) in entries {
            guard let deadline = deadline(e), deadline <= now else { continue }
            entries[key]?.phase = .closing
            shut.append(e.socket)
        }
        return shut
    }

    /// The soonest deadline (ns), nil if none.
    var nextDeadline: Int64? { entries.values.compactMap(deadline).min() }

    private func deadline(_ e: Entry) -> Int64? {
        switch e.phase {
        case .awaitingHeaders(let since): e.loggedIn ? nil : since + limits.headerDeadline
        case .receivingBody(let since): since + limits.bodyDeadline
        case .answered, .closing: nil
        }
    }
}

/// The bounds `ConnectionGuard` and the server keep (docs/UI.md, "Security"); tests
/// make the deadlines short.
public struct ConnectionLimits: Sendable {
    /// Connections held at once (a page holds about 4: the page, its stream, a request or two).
    public var connections = 128
    /// From a connection's start to its request's last header, before it showed a session (ns).
    public var headerDeadline: Int64 = 10_000_000_000
    /// From a request's headers to its last byte of body (ns): 8 MiB take well under a
    /// second over loopback.
    public var bodyDeadline: Int64 = 30_000_000_000
    /// Request bodies held at once, all connections together (bytes): two of the
    /// largest (Save's 8 MiB), more than one page sends at a time.
    public var heldBodies = 16 << 20

    public init() {}
}
