import LinuxSystem

/// The ui's web server: the page, its event streams and the API, behind the
/// `AccessPolicy` (login tokens, sessions, Host, Origin) and with the security headers
/// on every answer. What the API does is the owner's (`api`); this is HTTP only.
public final class LiveViewServer {
    public let http: HTTPServer
    public private(set) var policy: AccessPolicy
    /// The most body a request to this path may have (bytes), below `maximumBody`: a
    /// config's endpoints take no more than a config file may be.
    public var bodyLimits: [String: Int] = [:]
    /// `/api/…` requests other than the event stream; nil: 404.
    public var api: (HTTPRequest) -> HTTPServer.Reply? = { _ in nil }
    /// A page opened its event stream (send it a `hello`).
    public var streamOpened: (EventStream) -> Void = { _ in }
    /// The number of open event streams changed (the idle exit counts them).
    public var streamsChanged: (Int) -> Void = { _ in }
    public private(set) var streams: [EventStream] = []

    /// Event streams at once; more are refused (503) rather than queued for.
    public static let maximumStreams = 16
    /// The largest request body: Save's JSON of the largest config (`UIEndpoints.bodyLimits`).
    public static let maximumBody = 8 << 20

    /// Starts listening on 127.0.0.1:`port` (0: ephemeral); nobody can log in until
    /// `newLoginURL` has made an address to.
    public init(port: UInt16 = 0, maximumBody: Int = LiveViewServer.maximumBody, limits: ConnectionLimits = ConnectionLimits()) throws {
        http = try HTTPServer(port: port, maximumBody: maximumBody, limits: limits)
        policy = AccessPolicy(port: http.port)
        http.commonHeaders = AccessPolicy.securityHeaders
        http.admit = { [unowned self] in self.admit($0) }
        http.bodyLimit = { [unowned self] in self.bodyLimits[$0.path] ?? maximumBody }
        http.handle = { [unowned self] in self.route($0) }
        http.streamEnded = { [unowned self] s in
            self.streams.removeAll { $0 === s }
            self.streamsChanged(self.streams.count)
        }
    }

    /// An address that logs one browser in, once (`http://127.0.0.1:PORT/?token=T`):
    /// what `gestured ui` prints, and what the file it opens leads to.
    public func newLoginURL() throws -> String {
        "http://127.0.0.1:\(http.port)/?token=\(try policy.newLoginToken())"
    }

    /// Sends one stream line to every open page.
    public func broadcast(_ line: String, droppable: Bool = false) {
        for s in streams { s.send(line, droppable: droppable) }
    }

    public func heartbeat() { for s in streams { s.heartbeat() } }

    private func admit(_ r: HTTPRequest) -> HTTPResponse? {
        switch policy.decide(method: r.method, path: r.path, headers: r.headers, query: r.query, cookies: r.cookies) {
        case .allow: return nil
        case .refuse(let why): return .text(why, status: 403)
        case .logIn(let token):
            guard let cookie = try? policy.logIn(token) else { return .text("cannot start a session: no random bytes", status: 500) }
            return HTTPResponse(status: 303, contentType: "text/plain; charset=utf-8", body: Array("see /\n".utf8),
                                headers: [("Location", "/"), ("Set-Cookie", cookie)])
        }
    }

    private func route(_ r: HTTPRequest) -> HTTPServer.Reply {
        if r.method != "POST", let asset = PageAsset.named(r.path) {
            return .response(HTTPResponse(status: 200, contentType: asset.contentType, body: asset.bytes))
        }
        if r.path == "/api/events" {
            guard r.method != "POST" else { return .response(.text("method not allowed: GET /api/events", status: 405)) }
            guard streams.count < Self.maximumStreams else {
                return .response(.text("busy: \(Self.maximumStreams) event streams are open", status: 503))
            }
            let s = EventStream()
            streams.append(s)
            streamOpened(s)
            streamsChanged(streams.count)
            return .eventStream(s)
        }
        return api(r) ?? .response(.notFound(r.path))
    }
}

/// The page, built into the binary (Sources/LiveViewHTTP/Page, `embedInCode`, which names
/// each file's bytes after its name: `store.js` is `PackageResources.store_js`).
struct PageAsset {
    var contentType: String
    var bytes: [UInt8]

    /// The page's JavaScript modules (docs/UI.md, "The page"), by path: `app.js` starts
    /// it and imports the others. A module not listed here is a 404, and the page fails.
    static let modules: [String: [UInt8]] = [
        "/app.js": PackageResources.app_js,
        "/controller.js": PackageResources.controller_js,
        "/store.js": PackageResources.store_js,
        "/view.js": PackageResources.view_js,
        "/card.js": PackageResources.card_js,
        "/device-figure.js": PackageResources.device_figure_js,
        "/config-editor.js": PackageResources.config_editor_js,
        "/dom.js": PackageResources.dom_js,
        "/server.js": PackageResources.server_js,
        "/format.js": PackageResources.format_js,
        "/config-text.js": PackageResources.config_text_js,
        "/gesture-form.js": PackageResources.gesture_form_js,
        "/propose.js": PackageResources.propose_js,
        "/accessibility.js": PackageResources.accessibility_js,
        "/accessibility-panel.js": PackageResources.accessibility_panel_js,
    ]

    static func named(_ path: String) -> PageAsset? {
        switch path {
        case "/", "/index.html": return PageAsset(contentType: "text/html; charset=utf-8", bytes: PackageResources.index_html)
        case "/app.css": return PageAsset(contentType: "text/css; charset=utf-8", bytes: PackageResources.app_css)
        default: return modules[path].map { PageAsset(contentType: "text/javascript; charset=utf-8", bytes: $0) }
        }
    }
}
