import GestureInput

/// The daemon driven one loop iteration at a time, for gestured-bench (what the event
/// stream costs per frame): the real `Daemon` with its control socket and no commands,
/// on a device the caller opened.
public final class DaemonHarness {
    private let daemon: Daemon

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public init(configPath: String, controlSocket: String, inputDirectory: String) throws {
        var options = Daemon.Options()
        options.configPath = configPath
        options.controlSocket = controlSocket
        options.inputDirectory = inputDirectory
        options.runCommands = false
        daemon = try Daemon(options: options, logger: Logger(threshold: .warning, environment: [:]), environment: [:])
        guard daemon.startControl() else { throw Failure(description: "cannot claim \(controlSocket)") }
    }

    public func adopt(_ device: EvdevDevice) { daemon.adopt(device, announce: false) }

    /// One `epoll_wait` and its handlers; false when nothing was ready.
    @discardableResult
    public func runOnce(timeoutMS: Int32) -> Bool { daemon.runOnce(timeoutMS: timeoutMS) }

    /// Subscribers connected to the event stream.
    public var subscribers: Int { daemon.stream?.count ?? 0 }
}
