import CLinux
import GestureTestSupport
import Glibc
import LinuxSystem
import Testing
@testable import DaemonLoop
import JSON
@testable import LiveView

/// The clients of the control socket against fake daemons: one of another user
/// squatting the socket (issue 35 item 2), one that sends lines longer than a buffer
/// (item 5).
@Suite(.serialized) struct ControlClientTrustTests {
    // MARK: Another user's socket

    /// What a squatter says to every client: a `hello` naming a file of the victim's as the
    /// config (Save would write it), and a terminal escape sequence.
    static let squatterScript = #"""
    import os, socket, sys
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.bind(sys.argv[1])
    os.chmod(sys.argv[1], 0o777)
    s.listen(16)
    print("listening", file=sys.stderr, flush=True)
    while True:
        c, _ = s.accept()
        try:
            c.sendall(b'ok\n{"type":"hello","version":"0","pid":1,"config":"/root/.bashrc","dry_run":false,"rate":60,"gestures":[],"devices":[]}\n'
                      b'{"type":"focus","app":"\\u001b]2;squatted\\u0007"}\n')
        except OSError:
            pass
        c.close()
    """#

    /// A runtime directory anyone may write (mode 01777), with nobody's fake daemon
    /// listening on its gestured.sock.
    final class Squatted {
        let dir = TempDir()
        let runtime: String
        var socket: String { runtime + "/gestured.sock" }
        let squatter: Gestured.Process

        init(dir existing: TempDir? = nil, runtime: String? = nil) throws {
            let base = existing ?? dir
            self.runtime = runtime ?? base.path + "/run"
            chmod(base.path, 0o755)
            mkdir(self.runtime, 0o700)
            chmod(self.runtime, 0o1777)
            squatter = try Gestured.Process(["--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c",
                                             ControlClientTrustTests.squatterScript, self.runtime + "/gestured.sock"],
                                            executable: "/usr/bin/setpriv")
            try #require(squatter.waitForLog("listening"), "the squatter: \(squatter.stderr)")
        }

        deinit { kill(squatter.pid, SIGKILL) }

        /// What every client must say, naming the socket and the squatter's uid.
        var refusal: String { "refusing to talk to \(socket): it is served by uid 65534 (pid \(squatter.pid)), not by you (uid 0)" }
    }

    @Test(Requires.root, Requires.programs([("setpriv", "util-linux"), ("python3", "python3")]))
    func theCommandsBelieveNothingFromAnotherUsersSocket() throws {
        let s = try Squatted()
        let env = ["XDG_RUNTIME_DIR=\(s.runtime)"]
        for args in [["events", "--json"], ["events"], ["enable", "left"], ["disable", "left"], ["trigger", "left"], ["reload"], ["status"]] {
            let r = try Gestured.run(args, environment: env)
            #expect(r.status == 1, "\(args)")
            #expect(r.stdout.isEmpty, "\(args): nothing of the squatter's is printed: \(r.stdout)")
            #expect(r.stderr.hasPrefix("gestured: " + s.refusal), "\(args): \(r.stderr)")
            #expect(r.stderr.contains("XDG_RUNTIME_DIR \(s.runtime) is yours with mode 01777"), "and why: \(r.stderr)")
            #expect(!r.stderr.contains("\u{1b}") && !r.stderr.contains(".bashrc"))
        }
    }

    /// The ui's own connections: its stream (`DaemonFeed`), and the requests Save,
    /// enable and disable pass on (`ControlExchange`).
    @Test(Requires.root, Requires.programs([("setpriv", "util-linux"), ("python3", "python3")]))
    func theUIsConnectionsBelieveNothingFromAnotherUsersSocket() throws {
        let s = try Squatted()
        let loop = try EventLoop()
        let feed = try DaemonFeed(socketPath: s.socket, rate: 60, loop: loop)
        var lines: [String] = []
        var lost: [String] = []
        feed.onLine = { lines.append(String(decoding: $0, as: UTF8.self)) }
        feed.onLost = { lost.append($0) }
        #expect(!feed.connect())
        #expect(!feed.connect(), "the next attempt is refused too …")
        #expect(lost.count == 1 && lost[0].hasPrefix(s.refusal), "… and said once: \(lost)")
        #expect(lines.isEmpty)

        var answer: Result<ControlReply, ControlError>?
        ControlExchange.start(.reload, environment: ["XDG_RUNTIME_DIR": s.runtime], loop: loop) { answer = $0 }
        guard case .failure(let error)? = answer else { Issue.record("\(String(describing: answer))"); return }
        #expect(error.description.hasPrefix(s.refusal), "\(error)")
    }

    /// `gestured ui` finds no daemon of its own there: it says whose socket it is and
    /// runs its private daemon; the page never sees the squatter's hello.
    @Test(Requires.root, Requires.programs([("setpriv", "util-linux"), ("python3", "python3")]))
    func theUIRunsItsOwnDaemonBesideASquatter() throws {
        let ui = UIProcessTests.UI()
        let s = try Squatted(dir: ui.dir, runtime: ui.runtime)
        try ui.start([])
        let p = try #require(ui.process)
        #expect(p.waitForLog(s.refusal), "\(p.stderr)")
        let session = try #require(JSONValue.parse(Array(try ui.get("/api/session").body.utf8)))
        #expect(session["mode"]?.string == "local")
        #expect(session["config"]?["path"]?.string != "/root/.bashrc", "Save would not write the file the squatter named")
        let page = try HTTPTestConnection(port: ui.port)
        try page.send(Array("GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:\(ui.port)\r\nCookie: \(ui.session)\r\n\r\n".utf8))
        #expect(page.read { String(decoding: $0, as: UTF8.self).contains("\"dry_run\":true") }, "\(page.text.suffix(300))")
        #expect(!page.text.contains(".bashrc") && !page.text.contains("squatted"))
        kill(p.pid, SIGTERM)
        #expect(p.wait() == 0)
    }

    // MARK: Long lines

    /// A fake daemon of our own user listening at `path`.
    static func listen(at path: String) throws -> StreamSocket {
        unlink(path)
        let server = try StreamSocket()
        try server.bind(to: path, umask: 0o077)
        try server.listen(backlog: 4)
        return server
    }

    /// Accepts one client, sends it `bytes` as fast as it reads them, then closes.
    static func serve(_ bytes: [UInt8], on server: borrowing StreamSocket, to client: Gestured.Process) throws {
        let deadline = clinux_monotonic_ns() + 60_000_000_000
        var accepted: StreamSocket?
        while accepted == nil && clinux_monotonic_ns() < deadline && client.poll() == nil {
            accepted = try server.accept()
            if accepted == nil { client.pump(ms: 10) }
        }
        guard let connection = accepted.take() else {
            Issue.record("the client did not connect: \(client.stderr)")
            return
        }
        var sent = 0
        while sent < bytes.count && clinux_monotonic_ns() < deadline && client.poll() == nil {
            let n = bytes[sent...].withUnsafeBytes { chunk in Result { () throws(Errno) in try connection.send(chunk) } }
            switch n {
            case .success(let n): sent += n
            case .failure(.wouldBlock): client.pump(ms: 10)
            case .failure(let e): Issue.record("send: \(e)"); return
            }
        }
        #expect(sent == bytes.count, "all sent before the deadline: \(sent) of \(bytes.count)")
        // The request read, as the daemon reads it (a close with unread input is a reset).
        var request: [UInt8] = []
        _ = connection.readAvailable(into: &request, limit: 4096)
        // events asks for the shared stream; this daemon answers `ok`: lines on the socket.
        #expect(request == Array("subscribe shared\n".utf8))
        connection.close()
    }

    /// Issue 35 item 5: `events` spun at 100 % CPU and printed nothing on a line over
    /// its 1 MiB buffer (the hello of a valid 1.3 MB config). A line is now read whole up
    /// to 16 MiB; a longer one is skipped and said, and the lines after it are printed.
    @Test func eventsPrintsALongHelloSkipsAnOverlongLineAndEndsWithTheStream() throws {
        let dir = TempDir()
        let runtime = dir.path + "/run"
        mkdir(runtime, 0o700)
        let gestures = (0..<20_000).map { "{\"name\":\"gesture-\($0)\",\"kind\":\"swipe\",\"fingers\":3,\"enabled\":true}" }
        let hello = "{\"type\":\"hello\",\"version\":\"0\",\"pid\":1,\"config\":\"/c.yaml\",\"dry_run\":false,\"rate\":60,\"gestures\":[\(gestures.joined(separator: ","))],\"devices\":[]}"
        #expect(hello.utf8.count > 1_300_000)
        let frame = "{\"type\":\"frame\",\"t\":1.5,\"device\":\"/dev/input/event7\",\"t_us\":1500000,\"fingers\":1,\"contacts\":[{\"id\":1,\"x\":10,\"y\":20}]}"
        let overlong = [UInt8](repeating: UInt8(ascii: "x"), count: 17 << 20)
        let after = "{\"type\":\"focus\",\"app\":\"firefox\"}"
        let stream = Array("ok\n\(hello)\n\(frame)\n".utf8) + overlong + Array("\n\(after)\n".utf8)

        let server = try Self.listen(at: runtime + "/gestured.sock")
        let events = try Gestured.Process(["events", "--json"], environment: ["XDG_RUNTIME_DIR=\(runtime)"])
        try Self.serve(stream, on: server, to: events)
        #expect(events.wait(timeoutMS: 30_000) == 0, "it exits when the daemon closes: \(events.stderr)")
        #expect(events.stdout == "\(hello)\n\(frame)\n\(after)\n", "\(events.stdout.prefix(200)) … \(events.stdout.suffix(200))")
        #expect(events.stderr == "gestured: skipped a line of \(17 << 20) bytes from the daemon: longer than the 16 MiB a line may have\ngestured: the daemon closed the stream\n")

        // The readable form shows the hello too.
        let readable = try Gestured.Process(["events"], environment: ["XDG_RUNTIME_DIR=\(runtime)"])
        try Self.serve(Array("ok\n\(hello)\n\(frame)\n".utf8), on: server, to: readable)
        #expect(readable.wait(timeoutMS: 30_000) == 0, "\(readable.stderr)")
        #expect(readable.stdout.hasPrefix("gestured 0 (pid 1): config /c.yaml, 20000 gestures, 0 devices"), "\(readable.stdout.prefix(300))")
        #expect(readable.stdout.contains("/dev/input/event7  1 finger  #1 (10.0, 20.0)"))
    }

    /// The reader's own cases: lines split across reads, exactly the limit, one byte more.
    @Test func theLineReaderKeepsLinesUpToItsLimitAndSkipsLongerOnes() throws {
        let pair = try StreamSocketPair()
        var reader = LineReader(maximumLength: 8)
        var items: [LineReader.Item] = []
        func feed(_ text: String) throws -> StreamSocket.ReadResult {
            try pair.theirs.sendAll(Array(text.utf8))
            return reader.read(from: pair.mine) { items.append($0); return true }
        }
        #expect(try feed("ab") == .drained)
        #expect(items.isEmpty)
        _ = try feed("c\n12345678\n123456789\nz")
        _ = try feed("0123456789abcdef0123")
        _ = try feed("tail\nlast\n")
        #expect(items == [.line(Array("abc".utf8)), .line(Array("12345678".utf8)), .skipped(9), .skipped(25), .line(Array("last".utf8))])
        items.removeAll()
        // Stopping keeps the rest for the next call.
        try pair.theirs.sendAll(Array("one\ntwo\n".utf8))
        _ = reader.read(from: pair.mine) { items.append($0); return false }
        _ = reader.read(from: pair.mine) { items.append($0); return true }
        #expect(items == [.line(Array("one".utf8)), .line(Array("two".utf8))])
        pair.theirs.shutdownWrite()
        #expect(reader.read(from: pair.mine) { _ in true } == .closed)
    }
}
