import CLinux
@testable import Commands
@testable import DaemonLoop
import JSON
@testable import LiveView
import DesktopSession
import Glibc

/// A listening Unix socket whose connections the test serves by hand, between turns
/// of the daemon's loop: a stand-in for a compositor's IPC socket.
final class FakeSocketServer {
    let path: String
    private var listener: Int32 = -1
    private(set) var clients: [Int32] = []
    /// What each client has sent so far.
    private(set) var received: [Int32: [UInt8]] = [:]

    init(path: String) {
        self.path = path
        listen()
    }

    deinit {
        shutDown()
    }

    func listen() {
        unlink(path)
        listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            for (i, b) in path.utf8.enumerated() { raw[i] = b }
        }
        _ = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        _ = Glibc.listen(listener, 8)
    }

    /// Accepts waiting connections and reads what clients sent; returns the new clients.
    @discardableResult
    func pump() -> [Int32] {
        var new: [Int32] = []
        while listener >= 0 {
            let fd = accept(listener, nil, nil)
            if fd < 0 { break }
            _ = fcntl(fd, F_SETFL, O_NONBLOCK)
            clients.append(fd)
            new.append(fd)
        }
        var buf = [UInt8](repeating: 0, count: 65536)
        for fd in clients {
            let n = read(fd, &buf, buf.count)
            if n > 0 { received[fd, default: []] += buf[0..<n] }
        }
        return new
    }

    func send(_ fd: Int32, _ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    func send(_ fd: Int32, _ text: String) { send(fd, Array(text.utf8)) }

    func hangUp(_ fd: Int32) {
        close(fd)
        clients.removeAll { $0 == fd }
        received[fd] = nil  // a later client may get the same number
    }

    /// The compositor quits: every connection and the socket go.
    func shutDown() {
        for fd in clients { close(fd) }
        clients.removeAll()
        received.removeAll()
        if listener >= 0 { close(listener) }
        listener = -1
        unlink(path)
    }
}

/// A loop for a source alone (the daemon's own EventLoop), with a bounded spin.
final class SourceHarness {
    let loop: EventLoop
    let source: any FocusSource
    private(set) var changes: [FocusedApp?] = []
    private(set) var log: [String] = []

    init(_ source: any FocusSource) throws {
        loop = try EventLoop()
        self.source = source
        source.start(on: loop, onChange: { [unowned self] in changes.append($0) }, log: { [unowned self] in log.append($0) })
    }

    /// Turns the loop (and `serve`) until `done`, for at most `seconds`.
    @discardableResult
    func spin(seconds: Double = 30, serve: () -> Void = {}, until done: () -> Bool) -> Bool {
        let deadline = clinux_monotonic_ns() + Int64(seconds * 1e9)
        while clinux_monotonic_ns() < deadline {
            serve()
            if done() { return true }
            loop.runOnce(timeoutMS: 10)
        }
        return done()
    }
}
