import GestureTestSupport
import Testing
@testable import LiveViewHTTP

/// Server-sent events: lines reach the page in order as they are sent, after the
/// connection has been idle (suspended) too; a page that does not read costs a bounded
/// queue, frames go first, and it is told how many lines it lost.
@Suite struct ServerSentEventTests {
    @Test func linesArriveInOrderAfterIdlePauses() throws {
        let s = try ServerSecurityTests.Running()
        var opened: [EventStream] = []
        s.server.streamOpened = { opened.append($0); $0.send("{\"type\":\"hello\"}") }
        let c = try s.connect()
        try c.send(s.eventsRequest)
        #expect(c.read { String(decoding: $0, as: UTF8.self).contains("hello") })
        #expect(c.text.contains("Content-Type: text/event-stream"))
        #expect(c.text.contains("Content-Security-Policy:"))
        #expect(s.server.streams.count == 1)
        // Idle now: the connection is suspended; the next lines resume it.
        for _ in 0..<20 { s.server.http.run() }
        s.server.broadcast("{\"type\":\"frame\",\"n\":1}", droppable: true)
        #expect(s.server.http.timeoutMS == 0, "a resumed stream needs the server to run at once")
        s.server.broadcast("{\"type\":\"gesture\",\"n\":2}")
        #expect(c.read { String(decoding: $0, as: UTF8.self).contains("\"n\":2") })
        let text = c.text
        let hello = try #require(text.firstRange(of: "data: {\"type\":\"hello\"}\n\n"))
        let one = try #require(text.firstRange(of: "data: {\"type\":\"frame\",\"n\":1}\n\n"))
        let two = try #require(text.firstRange(of: "data: {\"type\":\"gesture\",\"n\":2}\n\n"))
        #expect(hello.lowerBound < one.lowerBound && one.lowerBound < two.lowerBound)
    }

    @Test func aClosedPageStopsCounting() throws {
        let s = try ServerSecurityTests.Running()
        var counts: [Int] = []
        s.server.streamsChanged = { counts.append($0) }
        s.server.streamOpened = { $0.send("{\"type\":\"hello\"}") }
        do {
            let c = try s.connect()
            try c.send(s.eventsRequest)
            #expect(c.read { String(decoding: $0, as: UTF8.self).contains("hello") })
        }
        // The heartbeat finds the connection gone.
        let deadline = ContinuousClock.now + .seconds(5)
        while !s.server.streams.isEmpty && ContinuousClock.now < deadline {
            s.server.heartbeat()
            s.server.http.run()
        }
        #expect(s.server.streams.isEmpty)
        #expect(counts.first == 1 && counts.last == 0)
    }

    /// 16 page reloads: each closes its stream while it is suspended (nothing to send).
    /// Their slots are free as soon as the server runs, not at the next heartbeat's
    /// failed write (15 s), so the next page gets its stream and not a 503.
    @Test func streamsClosedWhileIdleFreeTheirSlotsAtOnce() throws {
        let s = try ServerSecurityTests.Running()
        s.server.streamOpened = { $0.send("{\"type\":\"hello\"}") }
        var pages: [HTTPTestConnection] = []
        for _ in 0..<LiveViewServer.maximumStreams {
            let c = try s.connect()
            try c.send(s.eventsRequest)
            #expect(c.read { String(decoding: $0, as: UTF8.self).contains("hello") })
            pages.append(c)
        }
        for _ in 0..<10 { s.server.http.run() }  // idle: every stream suspended
        #expect(s.server.streams.count == LiveViewServer.maximumStreams)
        pages.removeAll()  // closed, as a reload closes them; no heartbeat from here on
        let deadline = ContinuousClock.now + .seconds(10)
        while !s.server.streams.isEmpty && ContinuousClock.now < deadline { s.server.http.run() }
        #expect(s.server.streams.isEmpty, "\(s.server.streams.count) slots still held")
        let next = try s.connect()
        try next.send(s.eventsRequest)
        #expect(next.read { String(decoding: $0, as: UTF8.self).contains("hello") }, "\(next.text.prefix(200))")
        #expect(next.text.hasPrefix("HTTP/1.1 200"))
    }

    @Test func aStalledPageLosesFramesFirstAndIsToldHowMany() {
        var q = EventQueue(capacity: 1000)
        q.push("{\"type\":\"hello\"}", droppable: false)
        for i in 0..<100 { q.push("{\"type\":\"frame\",\"i\":\(i)}", droppable: true) }
        q.push("{\"type\":\"gesture\",\"phase\":\"recognized\"}", droppable: false)
        #expect(q.queuedBytes <= 1000)
        #expect(q.lost > 0)
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        let n = buffer.withUnsafeMutableBytes { q.write(into: $0) }
        let text = String(decoding: buffer[0..<n], as: UTF8.self)
        #expect(text.hasPrefix("data: {\"type\":\"lost\",\"lost\":"), "\(text.prefix(80))")
        #expect(text.contains("hello") && text.contains("recognized"), "the lines that are not frames are kept")
        #expect(q.isEmpty)
    }

    @Test func aLineWithABreakIsStillOneEvent() {
        let e = String(decoding: EventQueue.event("a\nb"), as: UTF8.self)
        #expect(e == "data: a\ndata: b\n\n")
    }
}
