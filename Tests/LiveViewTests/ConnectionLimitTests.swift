import GestureTestSupport
import Glibc
import Testing
@testable import LiveViewHTTP

/// What a local user without a session, or a page with one, can hold of the ui's
/// server, on real sockets: connections that trickle or idle are cut or make room, so
/// the page still answers; bodies are bounded per endpoint and all together. The
/// deadlines are made short here; every wait is bounded and waits for the fact.
@Suite struct ConnectionLimitTests {
    static func limits(connections: Int = 128, deadline: Int64 = 300_000_000, heldBodies: Int = 64 << 20) -> ConnectionLimits {
        var l = ConnectionLimits()
        l.connections = connections
        l.headerDeadline = deadline
        l.bodyDeadline = deadline
        l.heldBodies = heldBodies
        return l
    }

    /// Sends `first`, then a byte every 20 ms until the server closes the connection:
    /// whether it did within `seconds`.
    static func trickleUntilClosed(_ c: HTTPTestConnection, first: String, seconds: Int) throws -> Bool {
        try c.send(Array(first.utf8))
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if c.read(timeoutMS: 20, until: { _ in false }) { return true }  // end of stream
            let n = Glibc.send(c.fd, "x", 1, Int32(MSG_NOSIGNAL))
            if n < 0 && errno != EAGAIN { return true }  // reset: closed
        }
        return false
    }

    /// libmicrohttpd's own timeout starts again with each byte: a byte at a time held a
    /// connection for ever. Without a session, the headers must all be in by the deadline.
    @Test func headersTrickledAByteAtATimeAreCutAtTheDeadline() throws {
        let s = try ServerSecurityTests.Running(limits: Self.limits())
        let c = try s.connect()
        #expect(try Self.trickleUntilClosed(c, first: "GET / HTTP/1.1\r\nHost: 127.0.0.1:\(s.port)\r\nX-Slow: ", seconds: 10))
        #expect(try s.request("GET", "/", [s.cookie]).status == 200)
    }

    /// A page's upload must be in by the body deadline, session or not.
    @Test func aBodyTrickledAByteAtATimeIsCutAtTheDeadline() throws {
        let s = try ServerSecurityTests.Running(limits: Self.limits())
        let c = try s.connect()
        let head = "POST /api/echo HTTP/1.1\r\nHost: 127.0.0.1:\(s.port)\r\nOrigin: \(s.origin)\r\n\(s.cookie.0): \(s.cookie.1)\r\nContent-Length: 100000\r\n\r\n"
        #expect(try Self.trickleUntilClosed(c, first: head, seconds: 10))
        let deadline = ContinuousClock.now + .seconds(10)
        while s.server.http.heldBodyBytes > 0 && ContinuousClock.now < deadline { s.server.http.run() }
        #expect(s.server.http.heldBodyBytes == 0, "its body let go")
    }

    /// Another user's 200 idle connections and 20 trickling ones, over the cap of 16:
    /// the oldest of those without a session make room, and the page still answers.
    @Test func idleAndTricklingConnectionsDoNotLockThePageOut() throws {
        let s = try ServerSecurityTests.Running(limits: Self.limits(connections: 16, deadline: 60_000_000_000))
        let page = try s.connect()  // the page's own keep-alive connection, logged in
        try page.send(Array("GET /app.css HTTP/1.1\r\nHost: 127.0.0.1:\(s.port)\r\n\(s.cookie.0): \(s.cookie.1)\r\n\r\n".utf8))
        #expect(page.read { String(decoding: $0, as: UTF8.self).contains("\r\n\r\n") })
        var flood: [HTTPTestConnection] = []
        for i in 0..<220 {
            let c = try s.connect()
            if i % 11 == 0 { try c.send(Array("GET / HTTP/1.1\r\nHost: 1".utf8)) }
            flood.append(c)
            s.server.http.run()
        }
        for _ in 0..<20 { s.server.http.run() }
        let r = try s.request("GET", "/app.css", [s.cookie])
        #expect(r.status == 200, "the page answers: \(r)")
        // And the page's own connection, logged in, was never the one to go.
        try page.send(Array("GET /app.css HTTP/1.1\r\nHost: 127.0.0.1:\(s.port)\r\n\(s.cookie.0): \(s.cookie.1)\r\n\r\n".utf8))
        #expect(page.read { String(decoding: $0, as: UTF8.self).components("HTTP/1.1 200").count == 3 }, "\(page.text.suffix(200))")
        withExtendedLifetime(flood) {}
    }

    /// An endpoint's limit is kept before a byte of body is read, when the length says so.
    @Test func aDeclaredBodyOverTheEndpointsLimitIsRefusedBeforeItIsSent() throws {
        let s = try ServerSecurityTests.Running()
        s.server.bodyLimits["/api/echo"] = 1000
        let c = try s.connect()
        try c.send(Array("POST /api/echo HTTP/1.1\r\nHost: 127.0.0.1:\(s.port)\r\nOrigin: \(s.origin)\r\n\(s.cookie.0): \(s.cookie.1)\r\nContent-Length: 30000000\r\n\r\n".utf8))
        #expect(c.read(timeoutMS: 10_000) { String(decoding: $0, as: UTF8.self).contains("\r\n\r\n") })
        #expect(c.text.hasPrefix("HTTP/1.1 413"), "\(c.text.prefix(200))")
        #expect(s.server.http.heldBodyBytes == 0)
        #expect(try s.request("POST", "/api/echo", [s.cookie, ("Origin", s.origin)], body: String(repeating: "y", count: 1001)).status == 413)
        #expect(try s.request("POST", "/api/echo", [s.cookie, ("Origin", s.origin)], body: "ok").status == 200)
    }

    /// Bodies held at once are bounded all together: while one is coming, another that
    /// would pass the bound is refused (503) at once; once it is in, there is room again.
    @Test func bodiesHeldAtOnceAreBoundedAllTogether() throws {
        let s = try ServerSecurityTests.Running(limits: Self.limits(deadline: 60_000_000_000, heldBodies: 100_000))
        let head = "POST /api/echo HTTP/1.1\r\nHost: 127.0.0.1:\(s.port)\r\nOrigin: \(s.origin)\r\n\(s.cookie.0): \(s.cookie.1)\r\nContent-Length: 60000\r\n\r\n"
        let first = try s.connect()
        try first.send(Array(head.utf8) + Array(repeating: UInt8(ascii: "a"), count: 1000))
        for _ in 0..<20 { s.server.http.run() }
        #expect(s.server.http.heldBodyBytes == 60_000)
        let second = try s.connect()
        try second.send(Array(head.utf8))
        #expect(second.read(timeoutMS: 10_000) { String(decoding: $0, as: UTF8.self).contains("\r\n\r\n") })
        #expect(second.text.hasPrefix("HTTP/1.1 503"), "\(second.text.prefix(200))")
        try first.send(Array(repeating: UInt8(ascii: "a"), count: 59_000))
        #expect(first.read { String(decoding: $0, as: UTF8.self).contains("\"echo\"") })
        #expect(s.server.http.heldBodyBytes == 0)
        #expect(try s.request("POST", "/api/echo", [s.cookie, ("Origin", s.origin)], body: String(repeating: "b", count: 60_000)).status == 200)
    }
}

/// The guard alone, its clock moved by hand: who makes room, and when a deadline cuts.
@Suite struct ConnectionGuardTests {
    static let s: Int64 = 1_000_000_000

    @Test func overTheCapTheOldestWithoutASessionMakesRoom() {
        var limits = ConnectionLimits()
        limits.connections = 3
        var g = ConnectionGuard(limits: limits)
        #expect(g.opened(1, socket: 11, now: 0).isEmpty)
        g.headersReceived(1, loggedIn: true, now: 0)  // the page's: never made to go
        #expect(g.opened(2, socket: 12, now: 1).isEmpty)
        #expect(g.opened(3, socket: 13, now: 2).isEmpty)
        #expect(g.opened(4, socket: 14, now: 3) == [12], "the oldest without a session")
        #expect(g.opened(5, socket: 15, now: 4) == [13])
        g.closed(2)
        g.closed(3)
        g.headersReceived(4, loggedIn: true, now: 5)
        g.headersReceived(5, loggedIn: true, now: 5)
        #expect(g.opened(6, socket: 16, now: 6) == [16], "every other one logged in: the newcomer goes")
    }

    @Test func deadlinesCutHeadersWithoutASessionAndEveryBody() {
        var limits = ConnectionLimits()
        limits.headerDeadline = 10 * Self.s
        limits.bodyDeadline = 30 * Self.s
        var g = ConnectionGuard(limits: limits)
        _ = g.opened(1, socket: 11, now: 0)  // trickles its headers
        _ = g.opened(2, socket: 12, now: 0)
        g.headersReceived(2, loggedIn: true, now: Self.s)  // a page's upload
        g.requestComplete(2, now: 2 * Self.s)  // … in: idle, logged in, no deadline
        _ = g.opened(3, socket: 13, now: 0)
        g.headersReceived(3, loggedIn: true, now: Self.s)  // an upload that trickles
        #expect(g.nextDeadline == 10 * Self.s)
        #expect(g.expired(now: 10 * Self.s - 1).isEmpty)
        #expect(g.expired(now: 10 * Self.s) == [11])
        #expect(g.expired(now: 20 * Self.s).isEmpty, "each named once")
        #expect(g.expired(now: 31 * Self.s) == [13])
        #expect(g.nextDeadline == nil)
    }

    @Test func aSocketNumberTakenByANewConnectionForgetsTheOldEntry() {
        var g = ConnectionGuard(limits: ConnectionLimits())
        _ = g.opened(1, socket: 11, now: 0)
        _ = g.opened(2, socket: 11, now: Self.s)
        #expect(g.entries.count == 1 && g.entries[2]?.socket == 11)
    }
}
