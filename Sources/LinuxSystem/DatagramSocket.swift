import Glibc

/// A Unix datagram socket: socket(2) `AF_UNIX`, `SOCK_DGRAM`, close-on-exec. What
/// sd_notify speaks (`$NOTIFY_SOCKET`), and what a test or benchmark listens on to
/// hear it. Addresses are paths; one starting with '@' is in the abstract namespace.
public struct DatagramSocket: ~Copyable {
    private let file: OwnedFileDescriptor

    public var descriptor: FileDescriptor { file.descriptor }

    /// socket(2).
    public init() throws(Errno) {
        file = try OwnedFileDescriptor { socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0) }
    }

    /// bind(2) to `path`, then non-blocking: `receive` never waits.
    public func bind(to path: String) throws(Errno) {
        let fd = descriptor.rawValue
        _ = try withUnixSocketAddress(path) { address, length throws(Errno) in try valueOrErrno { Glibc.bind(fd, address, length) } }
        try descriptor.setNonBlocking()
    }

    /// sendto(2) of one datagram to `path`, with `MSG_NOSIGNAL` (no SIGPIPE).
    public func send(_ message: String, to path: String) throws(Errno) {
        let fd = descriptor.rawValue
        var message = message
        let result: Result<Int, Errno> = message.withUTF8 { bytes in
            Result { () throws(Errno) in
                try withUnixSocketAddress(path) { address, length throws(Errno) in
                    try valueOrErrno { sendto(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL), address, length) }
                }
            }
        }
        _ = try result.get()
    }

    /// recv(2) of the datagrams waiting now, each as text.
    public func receiveAll() -> [String] {
        var messages: [String] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let fd = descriptor.rawValue
        while let n = try? valueOrErrno({ buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) } }), n > 0 {
            messages.append(String(decoding: buffer[0..<n], as: UTF8.self))
        }
        return messages
    }
}

/// `body` with `path` as a `sockaddr_un` and its length; `ENAMETOOLONG` if it does not fit.
/// (Datagram and stream sockets alike: sd_notify, the compositors' IPC, the control socket.)
public func withUnixSocketAddress<R>(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) throws(Errno) -> R) throws(Errno) -> R {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    var bytes = Array(path.utf8)
    if bytes.first == UInt8(ascii: "@") { bytes[0] = 0 }
    guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { throw Errno(rawValue: ENAMETOOLONG) }
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
        for (i, b) in bytes.enumerated() { raw[i] = b }
    }
    let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count)
    let result: Result<R, Errno> = withUnsafePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in Result { () throws(Errno) in try body(sa, length) } }
    }
    return try result.get()
}
