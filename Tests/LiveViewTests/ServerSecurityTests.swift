import GestureTestSupport
import Glibc
import LinuxSystem
import Testing
@testable import LiveViewHTTP

/// The ui's HTTP server in this process, on a real loopback socket, with requests as a
/// browser, another local user or a hostile web page would send them.
@Suite struct ServerSecurityTests {
    /// A server with one API route, `POST /api/echo`, that answers its body, and a
    /// session logged in through a login address of its own.
    final class Running {
        let server: LiveViewServer
        var port: UInt16 { server.http.port }
        var origin: String { "http://127.0.0.1:\(port)" }
        /// `gestured_ui_PORT=SESSION`.
        private(set) var session = ""
        var cookie: (String, String) { ("Cookie", session) }

        init(maximumBody: Int = LiveViewServer.maximumBody, limits: ConnectionLimits = ConnectionLimits()) throws {
            server = try LiveViewServer(maximumBody: maximumBody, limits: limits)
            server.api = { r in r.path == "/api/echo" ? .response(.json("{\"echo\":\"\(r.text)\"}")) : nil }
            let login = try request("GET", try newLoginTarget())
            session = String(try #require(login.header("Set-Cookie")?.split(separator: ";").first, "\(login)"))
        }

        /// `/?token=T`, a new login token's.
        func newLoginTarget() throws -> String { String(try server.newLoginURL().dropFirst(origin.count)) }

        /// The token of a login target.
        static func token(_ target: String) -> String { String(target.split(separator: "=").last ?? "") }

        /// The raw request to open the page's event stream with the session.
        var eventsRequest: [UInt8] { Array("GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nCookie: \(session)\r\n\r\n".utf8) }

        func connect() throws -> HTTPTestConnection { try HTTPTestConnection(port: port, pump: { [server] in server.http.run() }) }

        func request(_ method: String, _ target: String, _ headers: [(String, String)] = [], body: String = "",
                     address: String = "127.0.0.1") throws -> HTTPTestResponse {
            try HTTPTestClient.request(method, target, port: port, headers: headers, body: Array(body.utf8), address: address,
                                       pump: { [server] in server.http.run() })
        }
    }

    /// The address `gestured ui` prints (or the file it opens leads to) logs in once: its
    /// token becomes a session of its own, in a cookie named after the port, HttpOnly,
    /// SameSite=Strict. Anyone who reads the address later (a process listing, the
    /// browser's history) gets a 403.
    @Test func aLoginAddressWorksOnceForASessionThatIsNotItsToken() throws {
        let s = try Running()
        let target = try s.newLoginTarget()
        let token = Running.token(target)
        let r = try s.request("GET", target)
        #expect(r.status == 303)
        #expect(r.header("Location") == "/")
        let cookie = try #require(r.header("Set-Cookie"))
        #expect(cookie.hasPrefix("gestured_ui_\(s.port)="))
        let session = String(cookie.split(separator: ";")[0].split(separator: "=")[1])
        #expect(session.count == 32 && session.allSatisfy(\.isHexDigit))
        #expect(session != token, "the cookie is not the token")
        #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict") && cookie.contains("Path=/"))
        let page = try s.request("GET", "/", [("Cookie", "gestured_ui_\(s.port)=\(session)")])
        #expect(page.status == 200)
        #expect(page.header("Content-Type")?.hasPrefix("text/html") == true)
        #expect(page.body.contains("<script type=\"module\" src=\"/app.js\"></script>"))
        let again = try s.request("GET", target)
        #expect(again.status == 403, "a used address logs nobody in: \(again)")
        #expect(again.header("Set-Cookie") == nil)
        #expect(try s.request("GET", "/api/session", [("Cookie", "gestured_ui_\(s.port)=\(token)")]).status == 403, "the token is no session")
        #expect(try s.request("GET", "/", [s.cookie]).status == 200, "the first session still works")
    }

    /// Browsers keep one cookie per name and host, whatever the port: two uis' sessions
    /// live side by side, and one's is nothing to the other.
    @Test func sessionCookiesArePerPort() throws {
        let a = try Running(), b = try Running()
        #expect(a.session.hasPrefix("gestured_ui_\(a.port)=") && b.session.hasPrefix("gestured_ui_\(b.port)="))
        // What the browser sends each: both cookies (a cookie ignores the port).
        let both = ("Cookie", a.session + "; " + b.session)
        #expect(try b.request("GET", "/", [both]).status == 200)
        #expect(try a.request("GET", "/", [both]).status == 200, "b's login did not log a out")
        let aAtB = "gestured_ui_\(b.port)=" + a.session.split(separator: "=")[1]
        #expect(try b.request("GET", "/", [("Cookie", aAtB)]).status == 403, "a's session is nothing to b")
    }

    @Test(arguments: ["/", "/app.js", "/api/session", "/api/events"])
    func noSessionIsForbidden(path: String) throws {
        let s = try Running()
        let r = try s.request("GET", path)
        #expect(r.status == 403, "\(r)")
        #expect(r.body.contains("session"))
        #expect(r.header("Connection") == "close", "a refused connection is not kept")
        let wrong = try s.request("GET", path, [("Cookie", "gestured_ui_\(s.port)=\(String(repeating: "0", count: 32))")])
        #expect(wrong.status == 403)
    }

    @Test func theTokenIsTakenFromTheURLOnlyOnTheFrontPage() throws {
        let s = try Running()
        let target = try s.newLoginTarget()
        let token = Running.token(target)
        #expect(try s.request("GET", "/app.js?token=\(token)").status == 403)
        #expect(try s.request("POST", "/api/echo?token=\(token)", [("Origin", s.origin)]).status == 403)
        #expect(try s.request("GET", "/?token=\(token)x").status == 403)
        #expect(try s.request("GET", target).status == 303, "none of those used it up")
    }

    @Test(arguments: ["evil.example:PORT", "127.0.0.1", "127.0.0.1:1", "localhost", "LOCALHOST:PORT", "127.0.0.1:PORT, evil.example"])
    func aForeignHostIsForbidden(host: String) throws {
        let s = try Running()
        let h = host.replacingPort(s.port)
        let r = try s.request("GET", try s.newLoginTarget(), [("Host", h), s.cookie])
        #expect(r.status == 403, "Host: \(h): \(r)")
        #expect(r.body.contains("Host"))
        #expect(try s.request("GET", "/", [("Host", "localhost:\(s.port)"), s.cookie]).status == 200)
    }

    @Test(arguments: [nil, "null", "http://evil.example", "http://127.0.0.1", "https://127.0.0.1:PORT", "http://127.0.0.1:PORT.evil.example"])
    func aPostFromAnotherOriginIsForbidden(origin: String?) throws {
        let s = try Running()
        var headers = [s.cookie]
        if let origin { headers.append(("Origin", origin.replacingPort(s.port))) }
        let r = try s.request("POST", "/api/echo", headers, body: "hi")
        #expect(r.status == 403, "Origin \(origin ?? "none"): \(r)")
        #expect(!r.body.contains("echo"))
        let ok = try s.request("POST", "/api/echo", [s.cookie, ("Origin", s.origin)], body: "hi")
        #expect(ok.status == 200 && ok.body == "{\"echo\":\"hi\"}")
        let local = try s.request("POST", "/api/echo", [s.cookie, ("Origin", "http://localhost:\(s.port)")], body: "hi")
        #expect(local.status == 200)
    }

    @Test func everyAnswerCarriesTheSecurityHeadersAndNoCORS() throws {
        let s = try Running()
        let answers = [
            try s.request("GET", "/"),
            try s.request("GET", try s.newLoginTarget()),
            try s.request("GET", "/app.css", [s.cookie]),
            try s.request("GET", "/nothing", [s.cookie]),
            try s.request("POST", "/api/echo", [s.cookie, ("Origin", s.origin)], body: "x"),
        ]
        for r in answers {
            let csp = try #require(r.header("Content-Security-Policy"), "\(r)")
            #expect(csp.contains("default-src 'none'") && csp.contains("script-src 'self'") && csp.contains("frame-ancestors 'none'"))
            #expect(!csp.contains("unsafe-inline"))
            #expect(r.header("X-Content-Type-Options") == "nosniff")
            #expect(r.header("Referrer-Policy") == "no-referrer")
            #expect(r.header("Cache-Control") == "no-store")
            #expect(!r.headers.contains { $0.0.lowercased().hasPrefix("access-control-") }, "no CORS: \(r.headers)")
        }
        #expect(answers[3].status == 404)
    }

    /// The page is ES modules (docs/UI.md, "The page"): each one app.js imports, and each
    /// one those import, is served as JavaScript (a browser runs no module of another type
    /// under `nosniff`) with the same CSP; none is missing from PageAsset.modules, none is
    /// there that the page does not import, and a module of no such name is a 404.
    @Test func everyModuleThePageImportsIsServedAsJavaScriptUnderTheCSP() throws {
        let s = try Running()
        let csp = try #require(AccessPolicy.securityHeaders.first { $0.0 == "Content-Security-Policy" }?.1)
        var toLoad = ["/app.js"]
        var loaded: Set<String> = []
        while let path = toLoad.popLast() {
            guard loaded.insert(path).inserted else { continue }
            let r = try s.request("GET", path, [s.cookie])
            #expect(r.status == 200, "\(path): \(r)")
            #expect(r.header("Content-Type") == "text/javascript; charset=utf-8", "\(path)")
            #expect(r.header("Content-Security-Policy") == csp, "\(path)")
            #expect(r.header("X-Content-Type-Options") == "nosniff", "\(path)")
            toLoad += Self.imports(of: r.body)
        }
        #expect(loaded == Set(PageAsset.modules.keys))
        #expect(loaded.count > 1, "app.js imports the others")
        #expect(try s.request("GET", "/nothing.js", [s.cookie]).status == 404)
        #expect(try s.request("GET", "/Page/store.js", [s.cookie]).status == 404)
    }

    /// The paths a module imports from (`… from './store.js';`), as the browser resolves
    /// them against a module at the root.
    static func imports(of module: String) -> [String] {
        module.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("import "), let from = line.firstRange(of: "from './") else { return nil }
            let rest = line[from.upperBound...]
            guard let end = rest.firstIndex(of: "'") else { return nil }
            return "/" + rest[..<end]
        }
    }

    @Test func itListensOn127001Only() throws {
        let s = try Running()
        // 127.0.0.2 is loopback too: a server bound to 0.0.0.0 would answer there.
        #expect(throws: HTTPTestError.self) { try s.request("GET", "/", [s.cookie], address: "127.0.0.2") }
        #expect(try s.request("GET", "/", [s.cookie]).status == 200)
        // And the kernel's own table says 127.0.0.1:PORT, listening.
        let file = try OwnedFileDescriptor(opening: "/proc/net/tcp", O_RDONLY)
        let table = String(decoding: try file.descriptor.readToEnd(maximumBytes: 1 << 22), as: UTF8.self)
        let hexPort = String(s.port, radix: 16, uppercase: true)
        let local = String(repeating: "0", count: 4 - hexPort.count) + hexPort
        #expect(table.contains("0100007F:\(local) 00000000:0000 0A"), "listening on 127.0.0.1:\(s.port)")
        #expect(!table.contains("00000000:\(local) 00000000:0000 0A"), "not on 0.0.0.0")
    }

    @Test func tokensAndSessionsAre128RandomBits() throws {
        let a = try Running(), b = try Running()
        let tokens = try [a.newLoginTarget(), a.newLoginTarget(), b.newLoginTarget()].map(Running.token)
        #expect(tokens.allSatisfy { $0.count == 32 && $0.allSatisfy(\.isHexDigit) })
        #expect(Set(tokens).count == 3)
        #expect(try a.server.newLoginURL().hasPrefix("http://127.0.0.1:\(a.port)/?token="))
        #expect(a.session != b.session)
    }

    @Test func aBodyOverTheLimitIsRefused() throws {
        let s = try Running(maximumBody: 100_000)
        let big = String(repeating: "x", count: 100_001)
        let r = try s.request("POST", "/api/echo", [s.cookie, ("Origin", s.origin)], body: big)
        #expect(r.status == 413)
    }
}

extension String {
    func replacingPort(_ port: UInt16) -> String {
        var out = ""
        var rest = Substring(self)
        while let r = rest.firstRange(of: "PORT") { out += rest[..<r.lowerBound] + "\(port)"; rest = rest[r.upperBound...] }
        return out + rest
    }
}
