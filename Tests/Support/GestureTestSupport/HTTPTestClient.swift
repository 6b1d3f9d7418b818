import CLinux
import Glibc

/// A small HTTP/1.1 client over a real TCP socket, for the ui server's tests: one
/// request per connection (`Connection: close`), any headers (a wrong Host, a foreign
/// Origin), the answer parsed (chunked bodies decoded). Every wait is bounded. With an
/// in-process server, `pump` runs it between the client's short waits. The bounds (30 s)
/// are for two cores busy with every other test: a failure, not a pace.
public struct HTTPTestResponse: CustomStringConvertible {
    public var status: Int
    public var headers: [(String, String)]
    public var body: String

    public func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name.lowercased() }?.1 }
    public func headers(_ name: String) -> [String] { headers.filter { $0.0.lowercased() == name.lowercased() }.map(\.1) }
    public var description: String { "\(status) \(headers) \(body.prefix(300))" }
}

public struct HTTPTestError: Error, CustomStringConvertible {
    public var description: String
    public init(_ d: String) { description = d }
}

public final class HTTPTestConnection {
    public let fd: Int32
    public private(set) var received: [UInt8] = []
    let pump: (() -> Void)?

    /// Connects to `address`:`port` (blocking connect: loopback answers at once or refuses).
    public init(address: String = "127.0.0.1", port: UInt16, pump: (() -> Void)? = nil) throws {
        self.pump = pump
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw HTTPTestError("socket: \(errno)") }
        var a = sockaddr_in()
        a.sin_family = sa_family_t(AF_INET)
        a.sin_port = port.bigEndian
        inet_pton(AF_INET, address, &a.sin_addr)
        // The server runs on this thread: a non-blocking connect, finished while pumping.
        _ = fcntl(fd, F_SETFL, O_NONBLOCK)
        let rc = withUnsafePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        if rc != 0 && errno != EINPROGRESS { close(fd); throw HTTPTestError("connect: \(String(cString: strerror(errno)))") }
        try waitFor(Int16(POLLOUT), timeoutMS: 30_000)
        var err: Int32 = 0
        var len = socklen_t(4)
        getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len)
        if err != 0 { close(fd); throw HTTPTestError("connect: \(String(cString: strerror(err)))") }
    }

    deinit { close(fd) }

    func waitFor(_ events: Int16, timeoutMS: Int) throws {
        let deadline = clinux_monotonic_ns() + Int64(timeoutMS) * 1_000_000
        while clinux_monotonic_ns() < deadline {
            var p = pollfd(fd: fd, events: events, revents: 0)
            if Glibc.poll(&p, 1, pump == nil ? 50 : 5) > 0 { return }
            pump?()
        }
        throw HTTPTestError("timed out")
    }

    public func send(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
            if n > 0 { sent += n; continue }
            if n < 0 && (errno == EAGAIN || errno == EINTR) { try waitFor(Int16(POLLOUT), timeoutMS: 30_000); continue }
            throw HTTPTestError("send: \(String(cString: strerror(errno)))")
        }
    }

    /// Reads until `done(received)` or end of stream; false on timeout.
    @discardableResult
    public func read(timeoutMS: Int = 30_000, until done: ([UInt8]) -> Bool) -> Bool {
        let deadline = clinux_monotonic_ns() + Int64(timeoutMS) * 1_000_000
        var buf = [UInt8](repeating: 0, count: 65536)
        while !done(received) {
            let n = recv(fd, &buf, buf.count, 0)
            if n > 0 { received += buf[0..<n]; continue }
            if n == 0 { return true }
            guard errno == EAGAIN || errno == EINTR, clinux_monotonic_ns() < deadline else { return false }
            pump?()
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            _ = Glibc.poll(&p, 1, pump == nil ? 50 : 5)
        }
        return true
    }

    public var text: String { String(decoding: received, as: UTF8.self) }
}

public enum HTTPTestClient {
    /// One request; `Host` is 127.0.0.1:PORT unless `headers` has one.
    public static func request(_ method: String, _ target: String, port: UInt16, headers: [(String, String)] = [],
                               body: [UInt8] = [], address: String = "127.0.0.1",
                               pump: (() -> Void)? = nil) throws -> HTTPTestResponse {
        let c = try HTTPTestConnection(address: address, port: port, pump: pump)
        var head = "\(method) \(target) HTTP/1.1\r\n"
        if !headers.contains(where: { $0.0.lowercased() == "host" }) { head += "Host: 127.0.0.1:\(port)\r\n" }
        for (k, v) in headers { head += "\(k): \(v)\r\n" }
        head += "Connection: close\r\nContent-Length: \(body.count)\r\n\r\n"
        try c.send(Array(head.utf8) + body)
        guard c.read(until: { _ in false }) else { throw HTTPTestError("no complete answer to \(method) \(target): \(c.text.prefix(200))") }
        return try parse(c.received)
    }

    /// Trades a login address (`http://127.0.0.1:PORT/?token=T`, what `gestured ui`
    /// prints) for a session: the value for a `Cookie` header (`gestured_ui_PORT=S`).
    public static func logIn(_ url: String, pump: (() -> Void)? = nil) throws -> String {
        let prefix = "http://127.0.0.1:"
        guard url.hasPrefix(prefix), let port = UInt16(url.dropFirst(prefix.count).prefix { $0.isNumber }),
              let slash = url.dropFirst(prefix.count).firstIndex(of: "/") else { throw HTTPTestError("not a login address: \(url)") }
        let r = try request("GET", String(url[slash...]), port: port, pump: pump)
        guard r.status == 303, let cookie = r.header("Set-Cookie")?.split(separator: ";").first else {
            throw HTTPTestError("no session for \(url): \(r)")
        }
        return String(cookie)
    }

    /// Status line, headers, and body (de-chunked).
    public static func parse(_ bytes: [UInt8]) throws -> HTTPTestResponse {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let split = text.firstRange(of: "\r\n\r\n") else { throw HTTPTestError("no header end in: \(text.prefix(200))") }
        let lines = text[..<split.lowerBound].components("\r\n")
        let statusWords = lines.first?.split(separator: " ") ?? []
        guard statusWords.count >= 2, let status = Int(statusWords[1]) else { throw HTTPTestError("bad status line") }
        var headers: [(String, String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.append((String(line[..<colon]), String(line[line.index(after: colon)...]).trimmingSpaces))
        }
        var body = String(text[split.upperBound...])
        if headers.contains(where: { $0.0.lowercased() == "transfer-encoding" && $0.1.lowercased().contains("chunked") }) {
            body = dechunk(body)
        }
        return HTTPTestResponse(status: status, headers: headers, body: body)
    }

    static func dechunk(_ s: String) -> String {
        var rest = Substring(s)
        var out = ""
        while let nl = rest.firstRange(of: "\r\n"), let size = Int(rest[..<nl.lowerBound].split(separator: ";").first ?? "", radix: 16), size > 0 {
            let start = nl.upperBound
            let utf8 = rest.utf8
            guard let end = utf8.index(start, offsetBy: size, limitedBy: utf8.endIndex) else { out += rest[start...]; break }
            out += rest[start..<end]
            rest = rest[end...].dropFirst(2)
        }
        return out
    }
}

extension StringProtocol {
    public func components(_ separator: String) -> [String] {
        var out: [String] = []
        var rest = Substring(self)
        while let r = rest.firstRange(of: separator) {
            out.append(String(rest[..<r.lowerBound]))
            rest = rest[r.upperBound...]
        }
        out.append(String(rest))
        return out
    }

    var trimmingSpaces: String { String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " || $0 == "\r" }).reversed()) }
}
