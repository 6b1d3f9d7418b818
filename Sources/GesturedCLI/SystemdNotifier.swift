import Glibc
import LinuxSystem

/// `sd_notify` without libsystemd: one datagram to `$NOTIFY_SOCKET` (a path, or an
/// abstract socket when it starts with '@').
struct SystemdNotifier {
    let socketPath: String?

    init(environment: [String: String]) { socketPath = environment["NOTIFY_SOCKET"] }

    func send(_ state: String) {
        guard let socketPath, !socketPath.isEmpty else { return }
        // socket(2); closed when `socket` goes out of scope.
        guard let socket = try? OwnedFileDescriptor({ Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0) })
        else { return }
        let fd = socket.descriptor.rawValue
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(socketPath.utf8)
        if bytes.first == UInt8(ascii: "@") { bytes[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: addr.sun_path)
        guard bytes.count < capacity else { return }
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count)
        var message = state
        message.withUTF8 { buf in
            withUnsafePointer(to: &addr) { ptr in
                ptr.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
                    _ = try? valueOrErrno { sendto(fd, buf.baseAddress, buf.count, Int32(MSG_NOSIGNAL), sa, length) }
                }
            }
        }
    }
}
