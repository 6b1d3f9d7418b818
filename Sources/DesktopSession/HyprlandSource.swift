import JSON
import LinuxSystem

/// Hyprland: its event socket (`.socket2.sock`) sends one line per event;
/// `activewindow>>CLASS,TITLE` on every change of focus (`activewindow>>,` when no
/// window has it). The focus at connect comes from the request socket
/// (`.socket.sock`): write `j/activewindow`, read the JSON reply until Hyprland
/// closes, take its `class`. Both sockets are in
/// `$XDG_RUNTIME_DIR/hypr/$HYPRLAND_INSTANCE_SIGNATURE/` (`/tmp/hypr/…` before 0.40).
public final class HyprlandSource: FocusSource {
    public let name = "hyprland"
    public var endpoint: String { events.path }
    public var connected: Bool { events.fd != nil && focus.told }

    private let events: StreamConnection
    private let requestPath: String
    private var query: OneShotQuery?
    private var focus = FocusReport()
    /// Longest event line accepted.
    static let maxLine = 64 << 10
    /// What is read of `j/activewindow`'s reply: its class and title.
    static let replyLimits = JSONValue.Limits(keys: ["class", "title"], maxStringScalars: FocusedApp.maxTitleLength + 1, maxValues: 100)

    /// The directory of an instance's sockets.
    public static func directory(signature: String, environment: [String: String]) -> String {
        let candidates = [environment["XDG_RUNTIME_DIR"].map { "\($0)/hypr/\(signature)" }, "/tmp/hypr/\(signature)"].compactMap { $0 }
        return candidates.first { FileSystem.exists($0 + "/.socket2.sock") } ?? candidates[0]
    }

    public init(directory: String, retryInitial: Double = 0.5, retryMaximum: Double = 10) {
        events = StreamConnection(path: directory + "/.socket2.sock", limit: Self.maxLine,
                                  retry: ReconnectTimer(initial: retryInitial, maximum: retryMaximum))
        requestPath = directory + "/.socket.sock"
    }

    public func start(on loop: FocusLoop, onChange: @escaping (FocusedApp?) -> Void, log: @escaping (String) -> Void) {
        focus.onChange = onChange
        let say: (String) -> Void = { log("hyprland: \($0)") }
        events.log = say
        events.onConnect = { [unowned self, unowned loop] in
            focus.reset()
            // Subscribed first, then asked: an event that comes before the reply is newer than it.
            query = OneShotQuery(path: requestPath, request: Array("j/activewindow".utf8), loop: loop) { [unowned self] reply in
                query = nil
                guard let reply else { return say("no reply to j/activewindow on \(requestPath); waiting for the next focus change") }
                guard !focus.told else { return }
                focus.report(JSONValue.parse(reply, limits: Self.replyLimits).flatMap(Self.app))
            }
            return true
        }
        events.onBytes = { [unowned self] in self.consume(&$0) }
        events.start(on: loop)
    }

    public func stop() {
        query = nil
        events.stop()
    }

    func consume(_ buffer: inout [UInt8]) -> String? {
        StreamConnection.takeLines(&buffer) { line in
            handle(line: String(decoding: line, as: UTF8.self))
            return nil
        }
    }

    private func handle(line: String) {
        guard line.hasPrefix("activewindow>>") else { return }
        let value = line.dropFirst("activewindow>>".count)
        let comma = value.firstIndex(of: ",") ?? value.endIndex
        let cls = String(value[..<comma])
        let title = comma < value.endIndex ? String(value[value.index(after: comma)...]) : ""
        focus.report(cls.isEmpty ? nil : FocusedApp(app: cls, title: title))
    }


    /// `j/activewindow`'s reply: the window's fields, or `{}` when none has the focus.
    static func app(_ json: JSONValue) -> FocusedApp? {
        guard let cls = json["class"]?.string, !cls.isEmpty else { return nil }
        return FocusedApp(app: cls, title: json["title"]?.string ?? "")
    }
}

/// A request on a socket that answers once (Hyprland's `.socket.sock`, which then
/// closes; an i3-ipc RUN_COMMAND, whose reply `complete` recognizes): connect, write,
/// read until end of stream or a complete reply, on the loop, never blocking.
package final class OneShotQuery {
    private var socket: StreamSocket?
    private var reply: [UInt8] = []
    private weak var loop: FocusLoop?
    private var done: (([UInt8]?) -> Void)?
    private let complete: ([UInt8]) -> Bool
    static let limit = 1 << 20

    /// `done` gets the reply, or nil when the socket could not be reached or broke.
    /// Where it cannot connect or write, `done` runs before this returns.
    package init(path: String, request: [UInt8], loop: FocusLoop, complete: @escaping ([UInt8]) -> Bool = { _ in false },
                 done: @escaping ([UInt8]?) -> Void) {
        self.loop = loop
        self.done = done
        self.complete = complete
        do {
            let socket = try StreamSocket.connect(to: path)
            try socket.sendAll(request)
            try loop.watch(socket.descriptor) { [weak self] in self?.readable() }
            self.socket = consume socket
        } catch {
            finish(nil)
        }
    }

    deinit { closeSocket() }

    /// Whether the reply (or the failure) was handed to `done`.
    package var finished: Bool { done == nil }

    private func readable() {
        switch socket?.readAvailable(into: &reply, limit: Self.limit) ?? .failed(.badFileDescriptor) {
        case .drained: if complete(reply) { finish(reply) } else if reply.count >= Self.limit { finish(nil) }
        case .closed: finish(reply)
        case .failed: finish(nil)
        }
    }

    private func finish(_ result: [UInt8]?) {
        closeSocket()
        let done = self.done
        self.done = nil
        done?(result)
    }

    private func closeSocket() {
        guard let descriptor = socket?.descriptor else { return }
        loop?.unwatch(descriptor)
        socket = nil
    }
}
