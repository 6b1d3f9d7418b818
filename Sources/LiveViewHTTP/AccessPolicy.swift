import LinuxSystem

/// Who may talk to the ui server (docs/UI.md, "Security"). Any local user, and any web
/// page the user's browser has open, can reach 127.0.0.1; so every request must show:
///
/// - a session, 128 random bits in the cookie `gestured_ui_PORT`, or on `/` only a
///   login token in `?token=`: each login token works once and is then traded for a
///   new session (a 303 to `/` that sets the cookie). The cookie is never the token,
///   so a token seen later (in a browser's history, in a process listing) logs nobody in;
/// - a `Host` of `127.0.0.1:PORT` or `localhost:PORT`: a hostile site that rebinds its
///   own name to 127.0.0.1 (DNS rebinding) sends its own name here;
/// - for anything but GET, an `Origin` of this server: a page elsewhere that submits a
///   form to us sends its own origin (or none, which is refused too).
///
/// The cookie is HttpOnly (no script reads it), SameSite=Strict (no other site's
/// request carries it), and named after the port: a browser keeps one cookie per name
/// and host whatever the port, so a second `gestured ui` would otherwise replace the
/// first's. The decision is pure; `logIn` is the one step that changes the policy.
public struct AccessPolicy: Sendable {
    public let port: UInt16
    /// Login tokens not used yet.
    private var loginTokens: [String] = []
    /// Sessions handed out, newest last.
    private var sessions: [String] = []

    /// Sessions kept at once: a browser or two, each logged in a few times; the oldest goes first.
    public static let maximumSessions = 16
    /// Login tokens outstanding at once (the printed URL, the file the browser opens).
    public static let maximumLoginTokens = 8

    public init(port: UInt16) { self.port = port }

    /// `gestured_ui_PORT`.
    public var cookieName: String { "gestured_ui_\(port)" }

    public enum Decision: Equatable, Sendable {
        case allow
        /// A login token that has not been used: trade it (`logIn`) and 303 to `/`.
        case logIn(String)
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
        if let cookie = cookies[cookieName], Self.contains(sessions, cookie) { return .allow }
        if path == "/", method == "GET", let given = query["token"] {
            guard Self.contains(loginTokens, given) else {
                return .refuse("forbidden: this address was used already, or is not this gestured ui's (each works once; run gestured ui again)")
            }
            return .logIn(given)
        }
        return .refuse("forbidden: no valid session (open the address gestured ui printed)")
    }

    /// A new login token (128 bits from getrandom(2)), good for one login; the oldest
    /// unused one goes beyond `maximumLoginTokens`.
    public mutating func newLoginToken() throws(Errno) -> String {
        let token = try Self.randomHex()
        loginTokens.append(token)
        if loginTokens.count > Self.maximumLoginTokens { loginTokens.removeFirst() }
        return token
    }

    /// Uses up `token` (which `decide` said is one) and starts a new session: the
    /// `Set-Cookie` value, or nil if the token was not one.
    public mutating func logIn(_ token: String) throws(Errno) -> String? {
        guard let i = loginTokens.firstIndex(where: { Self.same($0, token) }) else { return nil }
        loginTokens.remove(at: i)
        let session = try Self.randomHex()
        sessions.append(session)
        if sessions.count > Self.maximumSessions { sessions.removeFirst() }
        return "\(cookieName)=\(session); HttpOnly; SameSite=Strict; Path=/"
    }

    /// 128 bits from getrandom(2), as 32 hex digits.
    static func randomHex() throws(Errno) -> String {
        let digits = Array("0123456789abcdef")
        return String(try Random.bytes(16).flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] })
    }

    /// Whether `given` is one of `secrets`: each compared in full, in constant time.
    static func contains(_ secrets: [String], _ given: String) -> Bool {
        secrets.map { same($0, given) }.contains(true)
    }

    /// Compares in time independent of where the strings differ, so the answer's timing
    /// does not reveal a secret a byte at a time.
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
