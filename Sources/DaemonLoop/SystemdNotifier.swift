import LinuxSystem

/// `sd_notify` without libsystemd: one datagram to `$NOTIFY_SOCKET` (a path, or an
/// abstract socket when it starts with '@').
package struct SystemdNotifier {
    package let socketPath: String?

    package init(environment: [String: String]) { socketPath = environment["NOTIFY_SOCKET"] }

    package func send(_ state: String) {
        guard let socketPath, !socketPath.isEmpty, let socket = try? DatagramSocket() else { return }
        try? socket.send(state, to: socketPath)
    }
}
