/// One HTTP request as the ui's handlers see it: complete, its body read (bounded).
public struct HTTPRequest: Sendable {
    public var method: String
    /// The path, without the query (libmicrohttpd splits the query off into `query`).
    public var path: String
    /// Header values by lower-cased name; a header sent twice is joined with ", ", as
    /// HTTP reads a repeated header, so that a second `Host` can never slip past a check.
    public var headers: [String: String]
    public var query: [String: String]
    public var cookies: [String: String]
    public var body: [UInt8]

    public init(method: String, path: String, headers: [String: String] = [:], query: [String: String] = [:],
                cookies: [String: String] = [:], body: [UInt8] = []) {
        self.method = method
        self.path = path
        self.headers = headers
        self.query = query
        self.cookies = cookies
        self.body = body
    }

    public func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// The body as text (invalid UTF-8 replaced).
    public var text: String { String(decoding: body, as: UTF8.self) }
}

/// An answer: status, headers, and a body of bytes. The security headers every answer
/// carries are added by the server, not here.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [(String, String)]
    public var body: [UInt8]

    public init(status: Int, contentType: String, body: [UInt8], headers: [(String, String)] = []) {
        self.status = status
        self.headers = [("Content-Type", contentType)] + headers
        self.body = body
    }

    /// A JSON document (already encoded).
    public static func json(_ text: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "application/json; charset=utf-8", body: Array(text.utf8))
    }

    /// A short plain-text answer: refusals and errors.
    public static func text(_ text: String, status: Int) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "text/plain; charset=utf-8", body: Array((text + "\n").utf8))
    }

    public static func notFound(_ path: String) -> HTTPResponse { .text("not found", status: 404) }
}
