import Glibc
import LinuxSystem

/// Non-blocking AF_UNIX stream sockets: what every compositor IPC here is, and the
/// daemon's own control socket.
public enum UnixSocket {
    public enum ReadResult {
        /// Bytes appended; the socket is drained for now.
        case drained
        /// The peer closed (everything it sent has been appended).
        case closed
        case failed(Int32)

        /// The peer will send nothing more.
        public var ended: Bool {
            if case .drained = self { return false }
            return true
        }
    }

    public enum Connected {
        case connected(Int32)
        case failed(Int32)
    }

    /// Connects without blocking. A Unix socket connects at once or fails (ENOENT:
    /// no compositor; ECONNREFUSED: a stale socket; EAGAIN: its backlog is full), so
    /// there is no in-progress state to wait for.
    public static func connect(_ path: String) -> Connected {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return .failed(errno) }
        do throws(Errno) {
            try withUnixSocketAddress(path) { address, length throws(Errno) in
                guard Glibc.connect(fd, address, length) == 0 else { throw Errno(rawValue: errno) }
            }
            return .connected(fd)
        } catch {
            close(fd)
            return .failed(error.rawValue)
        }
    }

    /// Reads what is available into `buffer`, up to `limit` bytes in it in all.
    public static func readAvailable(_ fd: Int32, into buffer: inout [UInt8], limit: Int) -> ReadResult {
        var chunk = [UInt8](repeating: 0, count: 16384)
        while buffer.count < limit {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, min($0.count, limit - buffer.count)) }
            if n > 0 {
                buffer.append(contentsOf: chunk[0..<n])
            } else if n == 0 {
                return .closed
            } else if errno == EINTR {
                continue
            } else if errno == EAGAIN || errno == EWOULDBLOCK {
                return .drained
            } else {
                return .failed(errno)
            }
        }
        return .drained
    }

    /// Writes a short request whole. The requests here are tens of bytes on a freshly
    /// connected socket, whose send buffer is empty, so a short write means the peer
    /// is not behaving: the caller drops the connection rather than wait.
    public static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
            if n > 0 { sent += n } else if n < 0 && errno == EINTR { continue } else { return false }
        }
        return true
    }

    public static func errorText(_ code: Int32) -> String { String(cString: strerror(code)) }
}
