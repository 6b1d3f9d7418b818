import CLinux
import GestureTestSupport
import Glibc
import LinuxSystem
import Testing

/// The built `gestured` binary run as a user would, with its output collected.
struct Gestured {
    /// `gestured` sits beside the test bundle in the build directory.
    static let path: String = {
        var buf = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buf, buf.count - 1)
        let exe = n > 0 ? String(decoding: buf[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
        var parts = exe.split(separator: "/", omittingEmptySubsequences: false)
        while let last = parts.last, !last.hasSuffix(".xctest") && parts.count > 1 { parts.removeLast() }
        parts.removeLast()
        return parts.joined(separator: "/") + "/gestured"
    }()

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// A running `gestured`, for tests that signal it or wait for its log.
    final class Process {
        let pid: pid_t
        private var outFD: Int32
        private var errFD: Int32
        /// Readable when the process exits: waits block on it instead of spinning.
        private let pidFD: Int32
        private(set) var stdout = ""
        private(set) var stderr = ""
        private(set) var status: Int32?

        /// `executable` (gestured by default) with `args`; `environment` adds to a bare PATH and HOME.
        init(_ args: [String], environment: [String] = [], executable: String = Gestured.path) throws {
            var out: [Int32] = [0, 0], err: [Int32] = [0, 0]
            // Close-on-exec: gestured must not hold the read ends of its own output.
            guard clinux_pipe2(&out, O_CLOEXEC) == 0, clinux_pipe2(&err, O_CLOEXEC) == 0 else { throw POSIXError(errno) }
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_adddup2(&actions, out[1], 1)
            posix_spawn_file_actions_adddup2(&actions, err[1], 2)
            let spawned = spawnChild(executable, args, environment: environment, actions: &actions)
            close(out[1]); close(err[1])
            switch spawned {
            case .success(let pid): self.pid = pid
            case .failure(let e): close(out[0]); close(err[0]); throw POSIXError(e.code)
            }
            pidFD = clinux_pidfd_open(pid)
            outFD = out[0]
            errFD = err[0]
            _ = fcntl(outFD, F_SETFL, O_NONBLOCK)
            _ = fcntl(errFD, F_SETFL, O_NONBLOCK)
        }

        deinit {
            if status == nil { kill(pid, SIGKILL); var s: Int32 = 0; waitpid(pid, &s, 0) }
            if outFD >= 0 { close(outFD) }
            if errFD >= 0 { close(errFD) }
            close(pidFD)
        }

        /// Reads what is there, waiting up to `ms` for output or exit.
        func pump(ms: Int32) {
            var fds = [pollfd(fd: pidFD, events: Int16(POLLIN), revents: 0)]
            if outFD >= 0 { fds.append(pollfd(fd: outFD, events: Int16(POLLIN), revents: 0)) }
            if errFD >= 0 { fds.append(pollfd(fd: errFD, events: Int16(POLLIN), revents: 0)) }
            _ = Glibc.poll(&fds, nfds_t(fds.count), ms)
            if outFD >= 0, let text = drain(&outFD) { stdout += text }
            if errFD >= 0, let text = drain(&errFD) { stderr += text }
        }

        /// What the pipe holds; closes it (and sets it to -1) at end of file.
        private func drain(_ fd: inout Int32) -> String? {
            var bytes: [UInt8] = []
            var buf = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = read(fd, &buf, buf.count)
                if n == 0 { close(fd); fd = -1; break }
                if n < 0 { break }
                bytes += buf[0..<n]
            }
            return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
        }

        /// Closes our end of its stderr, as a restarted journald or a closed terminal
        /// would: its next log line meets a pipe with no reader.
        func closeStderr() {
            if errFD >= 0 { close(errFD) }
            errFD = -1
        }

        /// Waits (bounded) until `stderr` contains `text`; true if it did.
        func waitForLog(_ text: String, timeoutMS: Int = 30_000) -> Bool {
            let deadline = clinux_monotonic_ns() + Int64(timeoutMS) * 1_000_000
            while !stderr.contains(text) && clinux_monotonic_ns() < deadline && poll() == nil {
                pump(ms: 50)
            }
            pump(ms: 0)
            return stderr.contains(text)
        }

        /// Non-blocking check for exit.
        @discardableResult
        func poll() -> Int32? {
            guard status == nil else { return status }
            var s: Int32 = 0
            if waitpid(pid, &s, WNOHANG) == pid { status = (s & 0x7f) == 0 ? (s >> 8) & 0xff : 128 + (s & 0x7f) }
            return status
        }

        /// Waits for exit, up to `timeoutMS`; nil if it did not exit.
        func wait(timeoutMS: Int = 30_000) -> Int32? {
            let deadline = clinux_monotonic_ns() + Int64(timeoutMS) * 1_000_000
            while poll() == nil && clinux_monotonic_ns() < deadline {
                pump(ms: 50)
            }
            // The rest of the output, bounded: something else could hold the pipes open.
            while (outFD >= 0 || errFD >= 0) && clinux_monotonic_ns() < deadline + 1_000_000_000 { pump(ms: 50) }
            return status
        }
    }

    /// Runs to completion (bounded).
    static func run(_ args: [String], environment: [String] = []) throws -> Result {
        let p = try Process(args, environment: environment)
        let status = p.wait(timeoutMS: 60_000)
        try #require(status != nil, "gestured \(args) did not exit within 60 s")
        return Result(status: status!, stdout: p.stdout, stderr: p.stderr)
    }
}

struct POSIXError: Error, CustomStringConvertible {
    var code: Int32
    init(_ code: Int32) { self.code = code }
    var description: String { String(cString: strerror(code)) }
}

/// A `NOTIFY_SOCKET` for the daemon: the sd_notify messages it sends, as systemd gets them.
final class NotifySocket {
    let path: String
    private let socket: DatagramSocket

    init(in dir: TempDir) throws {
        path = dir.path + "/notify"
        socket = try DatagramSocket()
        try socket.bind(to: path)
    }

    /// The messages waiting now.
    func received() -> [String] { socket.receiveAll() }

    /// Waits (bounded, on the socket) for a message starting with `prefix`; true if one came.
    func waitFor(_ prefix: String, timeoutMS: Int64 = 10_000) -> Bool {
        let deadline = clinux_monotonic_ns() / 1_000_000 + timeoutMS
        while clinux_monotonic_ns() / 1_000_000 < deadline {
            if received().contains(where: { $0.hasPrefix(prefix) }) { return true }
            var p = pollfd(fd: socket.descriptor.rawValue, events: Int16(POLLIN), revents: 0)
            _ = Glibc.poll(&p, 1, Int32(max(1, deadline - clinux_monotonic_ns() / 1_000_000)))
        }
        return false
    }
}

/// A scratch directory, removed with everything in it.
final class TempDir {
    let path: String
    init() {
        var template = Array("/tmp/gestured-cli-XXXXXX".utf8CString)
        path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
    }
    deinit { _ = system("rm -rf '\(path)'") }

    @discardableResult
    func write(_ name: String, _ text: String, mode: mode_t = 0o600) -> String {
        let p = path + "/" + name
        let fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, mode)
        _ = text.withCString { Glibc.write(fd, $0, strlen($0)) }
        fchmod(fd, mode)
        close(fd)
        return p
    }
}
