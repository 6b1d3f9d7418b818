import CLinux
import Glibc

/// A non-blocking Unix stream socket (AF_UNIX, SOCK_STREAM, close-on-exec) that only
/// this value owns: what every compositor IPC here is (sway/i3, Hyprland), the
/// daemon's control socket, and its clients. Non-copyable, so it is closed exactly
/// once. Addresses are paths; one starting with '@' is in the abstract namespace.
public struct StreamSocket: ~Copyable {
    private let file: OwnedFileDescriptor

    /// The number, lent for the loop; valid while this value lives.
    public var descriptor: FileDescriptor { file.descriptor }

    /// socket(2): `SOCK_NONBLOCK | SOCK_CLOEXEC`.
    public init() throws(Errno) {
        file = try OwnedFileDescriptor {
            socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        }
    }

    private init(adopting fd: Int32) { file = OwnedFileDescriptor(adopting: fd) }

    fileprivate init(adoptingDescriptor fd: Int32) { file = OwnedFileDescriptor(adopting: fd) }

    /// socket(2), then connect(2) to `path` without blocking. A Unix socket connects at
    /// once or fails (`ENOENT`: nobody made it; `ECONNREFUSED`: nobody listens, a stale
    /// socket; `EAGAIN`: its backlog is full), so there is no in-progress state to wait for.
    public static func connect(to path: String) throws(Errno) -> StreamSocket {
        let socket = try StreamSocket()
        let fd = socket.descriptor.rawValue
        _ = try withUnixSocketAddress(path) { address, length throws(Errno) in try valueOrErrno { Glibc.connect(fd, address, length) } }
        return socket
    }

    /// bind(2) to `path`, with the umask `mask` while it is made: the socket file's
    /// mode is set at birth, never briefly open to others.
    public func bind(to path: String, umask mask: mode_t) throws(Errno) {
        let fd = descriptor.rawValue
        let old = umask(mask)
        defer { umask(old) }
        _ = try withUnixSocketAddress(path) { address, length throws(Errno) in try valueOrErrno { Glibc.bind(fd, address, length) } }
    }

    /// listen(2).
    public func listen(backlog: Int32) throws(Errno) {
        _ = try valueOrErrno { Glibc.listen(descriptor.rawValue, backlog) }
    }

    /// accept4(2) with `SOCK_NONBLOCK | SOCK_CLOEXEC`: the next waiting connection, or
    /// nil when none is waiting (`EAGAIN`).
    public func accept() throws(Errno) -> StreamSocket? {
        do throws(Errno) {
            return StreamSocket(adopting: try valueOrErrno { clinux_accept4_nonblocking(descriptor.rawValue) })
        } catch where error == .wouldBlock {
            return nil
        }
    }

    /// What `readAvailable` found.
    public enum ReadResult: Equatable, Sendable {
        /// Bytes appended; the socket is drained for now.
        case drained
        /// The peer closed (everything it sent has been appended).
        case closed
        case failed(Errno)

        /// The peer will send nothing more.
        public var ended: Bool { self != .drained }
    }

    /// read(2) of what is available, appended to `buffer` up to `limit` bytes in it in all.
    public func readAvailable(into buffer: inout [UInt8], limit: Int) -> ReadResult {
        var chunk = [UInt8](repeating: 0, count: 16384)
        while buffer.count < limit {
            if limit - buffer.count < chunk.count { chunk.removeLast(chunk.count - (limit - buffer.count)) }
            let n: Int
            do throws(Errno) {
                n = try descriptor.read(into: &chunk)
            } catch where error == .wouldBlock {
                return .drained
            } catch {
                return .failed(error)
            }
            guard n > 0 else { return .closed }
            buffer.append(contentsOf: chunk[0..<n])
        }
        return .drained
    }

    /// send(2) with `MSG_NOSIGNAL` until every byte is out. For the short requests and
    /// answers here, on a send buffer with room for them: a full buffer throws
    /// `.wouldBlock` (a peer that does not read is not waited for), a peer that went
    /// away `.brokenPipe`.
    public func sendAll(_ bytes: [UInt8]) throws(Errno) {
        let result: Result<Void, Errno> = bytes.withUnsafeBytes { raw in
            Result { () throws(Errno) in
                var sent = 0
                while sent < raw.count { sent += try descriptor.send(UnsafeRawBufferPointer(rebasing: raw[sent...])) }
            }
        }
        try result.get()
    }

    /// send(2) once with `MSG_NOSIGNAL`: the bytes taken (`FileDescriptor.send`).
    public func send(_ bytes: UnsafeRawBufferPointer) throws(Errno) -> Int { try descriptor.send(bytes) }

    /// sendmsg(2) of `bytes` with the descriptor `pass` attached (SCM_RIGHTS): the peer
    /// gets its own copy with the first of these bytes. All or nothing, on a socket
    /// with room for them (a short send throws `.wouldBlock`).
    public func send(_ bytes: [UInt8], passing pass: FileDescriptor) throws(Errno) {
        let n = try valueOrErrno { bytes.withUnsafeBytes { clinux_send_with_fd(descriptor.rawValue, $0.baseAddress, UInt($0.count), pass.rawValue) } }
        guard n == bytes.count else { throw .wouldBlock }
    }

    /// recvmsg(2) of what is available, appended to `buffer` (at most `limit` bytes in
    /// it in all), like `readAvailable`; a descriptor the peer passed (SCM_RIGHTS) comes
    /// back owned, and more than one, or one on a later read, are closed.
    public func readAvailable(into buffer: inout [UInt8], limit: Int, passed: inout OwnedFileDescriptor?) -> ReadResult {
        var chunk = [UInt8](repeating: 0, count: 16384)
        while buffer.count < limit {
            var received: Int32 = -1
            let room = min(chunk.count, limit - buffer.count)
            let n = chunk.withUnsafeMutableBytes { clinux_recv_with_fd(descriptor.rawValue, $0.baseAddress, UInt(room), &received) }
            if received >= 0 {
                if passed == nil { passed = OwnedFileDescriptor(adopting: received) } else { Glibc.close(received) }
            }
            if n < 0 {
                let e = Errno(rawValue: errno)
                if e == .wouldBlock { return .drained }
                if e == .interrupted { continue }
                return .failed(e)
            }
            guard n > 0 else { return .closed }
            buffer.append(contentsOf: chunk[0..<n])
        }
        return .drained
    }

    /// The process at the other end of a connected socket, as the kernel saw it connect.
    public struct PeerCredentials: Equatable, Sendable {
        public var pid: pid_t
        public var uid: uid_t
    }

    /// getsockopt(2) `SO_PEERCRED`: who is at the other end.
    public func peerCredentials() throws(Errno) -> PeerCredentials {
        // struct ucred { pid_t pid; uid_t uid; gid_t gid; }: Glibc hides it behind _GNU_SOURCE.
        var cred: (pid_t, uid_t, gid_t) = (0, 0, 0)
        var length = socklen_t(MemoryLayout.size(ofValue: cred))
        _ = try valueOrErrno { getsockopt(descriptor.rawValue, SOL_SOCKET, SO_PEERCRED, &cred, &length) }
        return PeerCredentials(pid: cred.0, uid: cred.1)
    }

    /// setsockopt(2) `SO_SNDBUF`: room for `bytes` of unread output (the kernel doubles it).
    public func setSendBufferSize(_ bytes: Int32) throws(Errno) {
        var size = bytes
        _ = try valueOrErrno { setsockopt(descriptor.rawValue, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size)) }
    }

    /// shutdown(2) `SHUT_WR`: the peer reads end of stream after what was sent.
    public func shutdownWrite() {
        _ = try? valueOrErrno { shutdown(descriptor.rawValue, Int32(SHUT_WR)) }
    }

    /// close(2) now, rather than when the value goes.
    public consuming func close() { _ = try? file.close() }
}

/// socketpair(2): two connected ends, non-blocking and close-on-exec. The other end is
/// usually handed to another process (over D-Bus), which reads what this one sends.
public struct StreamSocketPair: ~Copyable {
    public var mine: StreamSocket
    public var theirs: StreamSocket

    public init() throws(Errno) {
        var fds: [Int32] = [-1, -1]
        _ = try valueOrErrno {
            socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds)
        }
        mine = StreamSocket(adoptingDescriptor: fds[0])
        theirs = StreamSocket(adoptingDescriptor: fds[1])
    }

    /// This end; the other closes (once handed over, the other process has its own).
    public consuming func keepingMine() -> StreamSocket { mine }
}

extension FileDescriptor {
    /// shutdown(2) `SHUT_RDWR` of a socket that another owns (libmicrohttpd's, say):
    /// both ends read end of stream, so its owner closes it on its next read; the
    /// number stays the owner's to close.
    public func shutdownSocket() {
        _ = try? valueOrErrno { shutdown(rawValue, Int32(SHUT_RDWR)) }
    }
}

extension FileDescriptor {
    /// getsockname(2): the local port of an IPv4 socket, nil for anything else.
    public var localIPv4Port: UInt16? {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let rc = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(rawValue, $0, &length) }
        }
        guard rc == 0, address.sin_family == sa_family_t(AF_INET) else { return nil }
        return UInt16(bigEndian: address.sin_port)
    }
}
