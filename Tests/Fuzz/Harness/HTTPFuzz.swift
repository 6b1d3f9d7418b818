import CLinux
import GestureTestSupport
import Glibc

/// `gestured-fuzz --http`: hostile requests to a real `gestured ui` (issue 35).
/// libmicrohttpd parses the request line and headers; what is ours is what it hands
/// on: the access policy (Host, Origin, login tokens, session cookies), the body
/// limits, the routes, and each endpoint's parsing of its body (configs, Save's JSON,
/// recordings, gesture names). Each case is a valid request of the page's (with the
/// session, or a login token, or neither) mutated line by line (Mutator) and with
/// HTTP's own hostile forms: request targets, repeated and oversized headers,
/// cookies, lengths, chunked bodies, bare LFs and NULs. A case is sent on a
/// connection of its own, which is then half-closed, and answered, closed or (a body
/// shorter than its length) waiting within a second. The ui dying is a crash; the
/// page's own request unanswered within the limit, after every case left waiting,
/// every 10 cases and at the end, is a hang. The ui is restarted after a
/// finding, so the run goes on.
enum HTTPFuzz {
    static func run(_ options: Options) -> Never {
        let root = options.root
        let binary = options.binary ?? root + "/.build/debug/gestured"
        guard access(binary, X_OK) == 0 else { usage("no gestured binary at \(binary) (swift build first, or --binary PATH)") }
        let seeds = corpus(root: root)
        let dir = "/tmp/gestured-fuzz-http-\(getpid())"
        for sub in ["", "/run", "/home"] { mkdir(dir + sub, 0o700) }
        let keepDir = options.keep ?? root + "/.build/fuzz-findings"
        let recording = root + "/Tests/Recordings/touchscreens_Atmel_maXTouch_Touchscreen.4-finger-drag-down.events"
        let smallRecording = readFile(recording) ?? []
        let timeoutMS = Int(options.timeout * 1000)
        var ui = UI(binary: binary, dir: dir, recording: recording)
        var crashes = 0, hangs = 0, unanswered = 0, slowest = 0.0, slowestCase = -1, statuses: [Int: Int] = [:]
        // A request still incomplete (a body shorter than its length) is rightly not
        // answered: after this long, the page's own request says whether the ui is stuck.
        let waitMS = min(1000, timeoutMS)
        let indices = options.only.map { [$0] } ?? Array(0..<options.cases)
        let t0 = clinux_monotonic_ns()
        for (n, index) in indices.enumerated() {
            var m = Mutator(seed: options.seed &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(index) &* 0xD1B5_4A32_D192_ED03 &+ 0x4854_5450)
            let (bytes, what) = request(&m, ui: ui, configs: seeds.configs, recording: smallRecording)
            let started = clinux_monotonic_ns()
            let answer = send(bytes, port: ui.port, timeoutMS: waitMS)
            let seconds = Double(clinux_monotonic_ns() - started) / 1e9
            if seconds > slowest { slowest = seconds; slowestCase = index }
            if let status = answer.status { statuses[status / 100 * 100, default: 0] += 1 } else { unanswered += 1 }
            var finding: String?
            if let signal = ui.exited() {
                crashes += 1
                finding = "crash (\(signal))"
            } else if (!answer.done || n % 10 == 9 || n == indices.count - 1) && !ui.answers(timeoutMS: timeoutMS) {
                hangs += 1
                finding = "hang (the page's session unanswered for \(options.timeout) s)"
            }
            if let finding {
                mkdir(keepDir, 0o755)
                let kept = keepDir + "/http-seed\(options.seed)-case\(index).request"
                writeFile(kept, bytes)
                print("\(finding): case \(index) (\(what)): request kept in \(kept)   [re-run: gestured-fuzz --http --seed \(options.seed) --case \(index)]")
                ui.stop()
                ui = UI(binary: binary, dir: dir, recording: recording)
            }
        }
        ui.stop()
        removeTree(dir)
        let seconds = Double(clinux_monotonic_ns() - t0) / 1e9
        func f2(_ v: Double) -> String { String(Int((v * 100).rounded()) / 100) + "." + String(100 + Int((v * 100).rounded()) % 100).dropFirst() }
        let answered = statuses.sorted { $0.key < $1.key }.map { "\($0.value)×\($0.key / 100)xx" }.joined(separator: ", ")
        print("fuzz http: \(indices.count) requests (answers \(answered), \(unanswered) incomplete or cut), \(crashes) crashes, \(hangs) hangs > \(f2(options.timeout)) s, "
              + "slowest \(f2(slowest)) s (case \(slowestCase)), \(f2(seconds)) s in all, seed \(options.seed)")
        exit(crashes + hangs > 0 ? 1 : 0)
    }

    /// One case's request: a page's request, mutated; and what it was, for the report.
    static func request(_ m: inout Mutator, ui: UI, configs: [Seed], recording: [UInt8]) -> ([UInt8], String) {
        let config = m.pick(configs).bytes
        let escaped = String(decoding: config, as: UTF8.self).unicodeScalars.map { c -> String in
            switch c {
            case "\"": return "\\\""
            case "\\": return "\\\\"
            case "\n": return "\\n"
            default: return c.value < 0x20 ? "\\u00" + (c.value < 0x10 ? "0" : "") + String(c.value, radix: 16) : String(c)
            }
        }.joined()
        let routes: [(String, String, [UInt8])] = [
            ("GET", "/", []), ("GET", "/app.js", []), ("GET", "/api/session", []), ("GET", "/api/events", []),
            ("GET", "/api/recording", []), ("POST", "/api/check", config), ("POST", "/api/try", config),
            ("POST", "/api/save", Array("{\"text\":\"\(escaped)\",\"force\":\(m.int(2) == 0)}".utf8)),
            ("POST", "/api/recording", recording), ("POST", "/api/enable", Array("left".utf8)),
            ("POST", "/api/disable", Array("left\n".utf8)), ("POST", "/api/record/start", []), ("POST", "/api/record/stop", []),
            ("GET", "/?token=\(ui.token)", []), ("GET", "/?token=" + String(repeating: "0", count: 32), []),
        ]
        let (method, target, body) = m.pick(routes)
        var headers = ["Host: 127.0.0.1:\(ui.port)", "Origin: http://127.0.0.1:\(ui.port)"]
        switch m.int(4) {
        case 0: break  // no session: every answer a refusal
        case 1: headers.append("Cookie: \(ui.cookie)")
        default: headers.append("Cookie: a=b; \(ui.cookie); gestured_ui=\(ui.token)")
        }
        headers.append("Content-Length: \(body.count)")
        var head = "\(method) \(target) HTTP/1.1\r\n" + headers.map { $0 + "\r\n" }.joined() + "\r\n"
        var kinds: [String] = []
        for _ in 0..<(1 + m.int(3)) {
            let k = m.int(9)
            kinds.append(["target", "header", "cookie", "length", "chunked", "line-ends", "repeat", "huge", "lines"][k])
            switch k {
            case 0: head = replacingFirst(head, target, m.pick(hostileTargets))
            case 1: head = replacingFirst(head, "\r\n\r\n", "\r\n" + m.pick(hostileHeaders).replacingPort(ui.port) + "\r\n\r\n")
            case 2: head = replacingFirst(head, "Cookie: ", "Cookie: " + m.pick(hostileCookies).replacingPort(ui.port) + "; ")
            case 3: head = replacingFirst(head, "Content-Length: \(body.count)", "Content-Length: " + m.pick(Mutator.extremes))
            case 4: head = replacingFirst(head, "Content-Length: \(body.count)", "Transfer-Encoding: chunked")
            case 5: head = head.split(separator: "\r\n", omittingEmptySubsequences: false).joined(separator: m.pick(["\n", "\r", "\r\n\r\n", "\u{0}\r\n"]))
            case 6: head = replacingFirst(head, "\r\n\r\n", "\r\n" + String(repeating: m.pick(headers) + "\r\n", count: 1 + m.int(300)) + "\r\n")
            case 7: head = replacingFirst(head, "\r\n\r\n", "\r\nX-Long: " + String(repeating: "a", count: m.pick([4_000, 60_000, 70_000, 200_000])) + "\r\n\r\n")
            default:
                let (bytes, line) = m.mutate(Array(head.utf8), config: true)
                head = String(decoding: bytes, as: UTF8.self)
                kinds += line.map(\.rawValue)
            }
        }
        var payload = body
        if head.contains("Transfer-Encoding: chunked") {
            payload = Array((String(body.count, radix: 16) + m.pick(["", ";x=y", "0000000000000000000001", "\r\n"]) + "\r\n").utf8) + body
                + Array(m.pick(["\r\n0\r\n\r\n", "\r\n", "\r\nffffffffffffffff\r\n", "\r\n0\r\nX-Trailer: 1\r\n\r\n"]).utf8)
        }
        if m.int(4) == 0 { payload = m.mutate(payload, config: true).bytes }
        return (Array(head.utf8) + payload, "\(method) \(target), \(kinds.joined(separator: "+"))")
    }

    static let hostileTargets = [
        "/..", "/../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "//api/session", "/api//session", "/api/session/",
        "/API/SESSION", "/api/session%00", "/api/%73ession", "*", "http://127.0.0.1:PORT/api/session", "http://evil.example/",
        "/?token=", "/?token", "/?token=%00", "/?token=a&token=b", "/?" + String(repeating: "a=b&", count: 2000),
        "/" + String(repeating: "x", count: 10_000), "/app.js?x=\u{7}", "/\u{0}", "/ /", "/%", "/%zz", "/?%",
        "/index.html#frag", "", "/api/events?token=",
    ]
    static let hostileHeaders = [
        "Host: 127.0.0.1:PORT", "Host: evil.example", "Host:", "Host: 127.0.0.1:PORT, evil.example", "Origin: null", "Origin:",
        "Origin: http://127.0.0.1:PORT.evil.example", "Content-Length: 5", "Content-Length: 1, 2", "Content-Length: -5",
        "Content-Length:", "Content-Length: 0x10", "Transfer-Encoding: gzip, chunked", "Transfer-Encoding: identity",
        "Expect: 100-continue", "Connection: keep-alive", "Connection: upgrade", "Upgrade: websocket", " folded continuation",
        "\tfolded", ":", "No-Colon", "X: \u{0}", "X\u{0}: y", "Cookie: " + String(repeating: "c=d; ", count: 2000),
        "Accept: " + String(repeating: "text/html,", count: 500), "If-None-Match: *", "Range: bytes=0-1",
    ]
    static let hostileCookies = [
        "gestured_ui_PORT=", "gestured_ui_PORT=" + String(repeating: "0", count: 32), "gestured_ui_PORT=\"x\"",
        "gestured_ui_PORT", "=", ";;;", "gestured_ui_PORT=a=b", "gestured_ui_PORT=%00", String(repeating: "k=v;", count: 500),
        "gestured_ui_PORT=" + String(repeating: "f", count: 100_000),
    ]

    static func replacingFirst(_ s: String, _ what: String, _ with: String) -> String {
        guard let r = s.firstRange(of: what) else { return s }
        return String(s[..<r.lowerBound]) + with + s[r.upperBound...]
    }

    /// Sends `bytes` on a connection of its own (what the server does not take is
    /// dropped: it may close first), half-closes it, and reads until the server has
    /// answered (a status line and headers) or closed it, or `timeoutMS` passes: the
    /// status, if any, and whether it answered or closed. An answered connection kept
    /// alive is no hang: libmicrohttpd 0.9.75 does not see a half-close that came with
    /// the request until its idle timeout, and no browser half-closes.
    static func send(_ bytes: [UInt8], port: UInt16, timeoutMS: Int) -> (status: Int?, done: Bool) {
        guard let c = try? HTTPTestConnection(port: port) else { return (nil, true) }
        _ = try? c.send(bytes)
        shutdown(c.fd, Int32(SHUT_WR))
        let done = c.read(timeoutMS: timeoutMS) { received in
            let text = String(decoding: received.prefix(256 << 10), as: UTF8.self)
            return text.hasPrefix("HTTP/1.1 ") && text.contains("\r\n\r\n") && !text.hasPrefix("HTTP/1.1 100")
        }
        let words = c.text.prefix(20).split(separator: " ")
        return (words.count > 1 ? Int(words[1]) : nil, done)
    }

    /// The `gestured ui` under test, in replay mode (no daemon), its config a file of
    /// its own that Save may write.
    struct UI {
        let pid: pid_t
        let port: UInt16
        let token: String
        let cookie: String

        init(binary: String, dir: String, recording: String) {
            let config = dir + "/home/config.yaml"
            writeFile(config, Array("gestures: []\n".utf8))
            var out: [Int32] = [0, 0]
            pipe(&out)
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_adddup2(&actions, out[1], 1)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addclose(&actions, out[0])
            let env = ["XDG_RUNTIME_DIR=\(dir)/run", "HOME=\(dir)/home", "XDG_CONFIG_HOME=\(dir)/home"]
            guard case .success(let pid) = spawnChild(binary, ["ui", "--no-open", "--idle-exit", "86400", "--replay", recording, "--config", config],
                                                      environment: env, actions: &actions) else { usage("cannot start \(binary) ui") }
            posix_spawn_file_actions_destroy(&actions)
            close(out[1])
            self.pid = pid
            var line: [UInt8] = []
            var byte: UInt8 = 0
            while read(out[0], &byte, 1) == 1 && byte != 0x0A { line.append(byte) }
            close(out[0])
            let url = String(decoding: line, as: UTF8.self)
            guard let colon = url.lastIndex(of: ":"), let port = UInt16(url[url.index(after: colon)...].prefix { $0.isNumber }),
                  let cookie = try? HTTPTestClient.logIn(url) else { usage("gestured ui printed no login address: '\(url)'") }
            self.port = port
            self.cookie = cookie
            // A used login token: it must log nobody in again.
            token = String(url.split(separator: "=").last ?? "")
        }

        /// The signal it died of, or its exit status, if it has ended.
        func exited() -> String? {
            var status: Int32 = 0
            guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
            return status & 0x7f != 0 ? "signal \(status & 0x7f)" : "exit \((status >> 8) & 0xff)"
        }

        /// The page's session request answered 200 within `timeoutMS`.
        func answers(timeoutMS: Int) -> Bool {
            let r = send(Array("GET /api/session HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nCookie: \(cookie)\r\nConnection: close\r\n\r\n".utf8), port: port, timeoutMS: timeoutMS)
            return r.status == 200 && r.done
        }

        /// SIGTERM, and SIGKILL if it has not exited 10 s later (waited for on its pidfd).
        func stop() {
            let fd = clinux_pidfd_open(pid)
            kill(pid, SIGTERM)
            var exited = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if fd >= 0 && poll(&exited, 1, 10_000) == 0 { kill(pid, SIGKILL) }
            if fd >= 0 { close(fd) }
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
    }
}

extension String {
    func replacingPort(_ port: UInt16) -> String {
        HTTPFuzz.replacingFirst(HTTPFuzz.replacingFirst(self, "PORT", "\(port)"), "PORT", "\(port)")
    }
}

/// The run's directory and what the ui left in it (Save's backups, its files).
func removeTree(_ path: String) {
    guard unlink(path) != 0 else { return }
    for name in listDirectory(path) { removeTree(path + "/" + name) }
    rmdir(path)
}
