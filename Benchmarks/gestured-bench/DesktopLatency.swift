import DaemonCore
import DesktopActions
import DesktopSession
import GestureActions
import GestureConfig
import Glibc
import LinuxSystem

/// From handing the SYN_REPORT that completes a gesture to the decoder, to its
/// `{workspace: next}` request written on sway's IPC socket: decoder → engine →
/// ActionMapper → the real DesktopActions sink, which connects to the socket and
/// writes RUN_COMMAND before `submit` returns. The socket is an in-process listener
/// that answers as sway does, so the figure has no compositor in it. Against it: the
/// process it replaces, `posix_spawn` of `swaymsg workspace next_on_output` up to
/// that same request arriving on the same socket.
final class DesktopLatency {
    let recording: Workload
    let config: Config
    let socket: String
    private let listener: Int32
    private let loop = PollLoop()
    private let sink: DesktopActions

    static let configText = """
        gestures:
          - name: desktop-swipe
            gesture: swipe
            fingers: 4
            direction: down
            command: {workspace: next}

        """

    init(recording: Workload, directory: String) {
        self.recording = recording
        let (c, d) = ConfigLoader.parse(Array(Self.configText.utf8), file: "desktop-latency.yaml")
        guard let c else { fail("desktop latency config: \(d.map(\.description))") }
        config = c
        socket = directory + "/sway-ipc.sock"
        listener = Self.listen(socket)
        sink = DesktopActions(detected: .desktop(.i3IPC(name: "sway", socket: socket)), loop: loop,
                              log: { _, line in fail("desktop action: \(line)") })
    }

    deinit {
        close(listener)
        unlink(socket)
    }

    /// Microseconds per gesture, `iterations` gestures; each request is answered before the next.
    func measure(iterations: Int) -> [Double] {
        var out: [Double] = []
        out.reserveCapacity(iterations)
        for _ in 0..<iterations {
            guard let (t0, t1) = Latency.replayUntilAction(recording, config, into: sink) else { fail("the recording fired no desktop-swipe") }
            out.append(Double(t1 - t0) / 1e3)
            answer(serve())
            loop.runUntilIdle()
        }
        return out
    }

    /// Milliseconds from posix_spawn of swaymsg to its request read on the socket.
    func swaymsg(iterations: Int) -> [Double] {
        var out: [Double] = []
        let argv = ["/usr/bin/swaymsg", "-s", socket, "workspace", "next_on_output"]
        for _ in 0..<iterations {
            var pid: pid_t = 0
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            let t0 = nowNS()
            let rc = withCStrings(argv) { a in posix_spawn(&pid, argv[0], &actions, nil, a, environ) }
            posix_spawn_file_actions_destroy(&actions)
            guard rc == 0 else { fail("posix_spawn swaymsg: \(String(cString: strerror(rc)))") }
            let fd = serve()
            out.append(Double(nowNS() - t0) / 1e6)
            answer(fd)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        return out
    }

    static var swaymsgInstalled: Bool { access("/usr/bin/swaymsg", X_OK) == 0 }

    /// Accepts the next client and reads its whole RUN_COMMAND frame (blocking: the bench's own side).
    private func serve() -> Int32 {
        let fd = accept(listener, nil, nil)
        guard fd >= 0 else { fail("accept: \(String(cString: strerror(errno)))") }
        var got: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 4096)
        while got.count < 14 || got.count < 14 + Int(UInt32(got[6]) | UInt32(got[7]) << 8 | UInt32(got[8]) << 16 | UInt32(got[9]) << 24) {
            let n = read(fd, &buf, buf.count)
            guard n > 0 else { fail("the request was cut short") }
            got += buf[0..<n]
        }
        return fd
    }

    /// sway's reply to one command that worked.
    private func answer(_ fd: Int32) {
        let payload = Array(#"[{"success":true}]"#.utf8)
        var reply = Array("i3-ipc".utf8)
        withUnsafeBytes(of: UInt32(payload.count)) { reply += $0 }
        withUnsafeBytes(of: UInt32(0)) { reply += $0 }
        reply += payload
        _ = reply.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }

    private static func listen(_ path: String) -> Int32 {
        unlink(path)
        let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in for (i, b) in path.utf8.enumerated() { raw[i] = b } }
        let ok = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        } == 0 && Glibc.listen(fd, 8) == 0
        guard ok else { fail("cannot listen on \(path): \(String(cString: strerror(errno)))") }
        return fd
    }
}

/// The loop the sink watches its sockets on: poll(2) over what it asked for.
final class PollLoop: FocusLoop {
    private var handlers: [Int32: () -> Void] = [:]

    func watch(_ descriptor: FileDescriptor, _ handler: @escaping () -> Void) throws { handlers[descriptor.rawValue] = handler }
    func unwatch(_ descriptor: FileDescriptor) { handlers[descriptor.rawValue] = nil }

    /// Runs handlers until no watched descriptor is readable within 100 ms.
    func runUntilIdle() {
        while !handlers.isEmpty {
            var fds = handlers.keys.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            guard poll(&fds, nfds_t(fds.count), 100) > 0 else { return }
            for p in fds where p.revents != 0 { handlers[p.fd]?() }
        }
    }
}
