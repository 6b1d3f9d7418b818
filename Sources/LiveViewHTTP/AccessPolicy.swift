/// Who may talk to the ui server (docs/UI.md, "Security"). Any local user, and any web
/// page the user's browser has open, can reach 127.0.0.1; so every request must show:
///
/// - the token, 128 random bits, in the `gestured_ui` cookie, or in `?token=` on `/`
///   only (the URL printed at start, which the answer trades for the cookie);
/// - a `Host` of `127.0.0.1:PORT` or `localhost:PORT`: a hostile site that rebinds its
///   own name to 127.0.0.1 (DNS rebinding) sends its own name here;
/// - for anything but GET, an `Origin` of this server: a page elsewhere that submits a
///   form to us sends its own origin (or none, which is refused too).
///
/// The cookie is HttpOnly (no script reads it) and SameSite=Strict (no other site's
/// request carries it). The checks are pure: the server asks, and answers 403 on `.refuse`.
public struct AccessPolicy: Sendable {
    public static let cookieName = "gestured_ui"

    public let token: String
    public let port: UInt16

    public init(token: String, port: UInt16) {
        self.token = token
        self.port = port
    }

    public enum Decision: Equatable, Sendable {
        case allow
        /// The token in the URL was right: 303 to `/`, setting the cookie.
        case setCookie
        /// 403 with this text.
        case refuse(String)
    }

    public func decide(method: String, path: String, headers: [String: String], query: [String: String],
                       cookies: [String: String]) -> Decision {
        let hosts = ["127.0.0.1:\(port)", "localhost:\(port)"]
        guard let host = headers["host"], hosts.contains(host) else {
            return .refuse("forbidden: the Host header must be 127.0.0.1:\(port) or localhost:\(port)")
        }
        guard method == "GET" || method == "HEAD" || method == "POST" else {
            return .refuse("forbidden: only GET and POST")
        }
        if method == "POST" {
            guard let origin = headers["origin"], hosts.contains(where: { "http://" + $0 == origin }) else {
                return .refuse("forbidden: a POST needs the Origin of this page")
            }
        }
        if let cookie = cookies[Self.cookieName], Self.same(cookie, token) { return .allow }
        if path == "/", method == "GET", let given = query["token"], Self.same(given, token) { return .setCookie }
        return .refuse("forbidden: no valid token (open the URL gestured ui printed)")
    }

    /// The cookie `.setCookie` sets.
    public var cookie: String { "\(Self.cookieName)=\(token); HttpOnly; SameSite=Strict; Path=/" }

    /// Compares in time independent of where the strings differ, so the answer's timing
    /// does not reveal the token a byte at a time.
    static func same(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for i in x.indices { difference |= x[i] ^ y[i] }
        return difference == 0
    }

    /// Every answer's headers: a strict Content-Security-Policy (scripts, styles and
    /// connections from this server only, no inline code, no frames), no sniffing, no
    /// Referer (the URL may carry the token), nothing cached. No CORS header, ever.
    public static let securityHeaders: [(String, String)] = [
        ("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
        ("Cache-Control", "no-store"),
    ]
}
