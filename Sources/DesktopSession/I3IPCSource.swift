import JSON
/// sway and i3: their IPC socket (`SWAYSOCK`, `I3SOCK`). Each message is a 14-byte
/// header, "i3-ipc", a payload length and a type (both 32-bit, native byte order),
/// then a JSON payload. We subscribe to `window` and `workspace` events and read the
/// current focus with GET_TREE at connect, and again whenever a window closes or a
/// workspace takes the focus (an empty workspace has no window event to say so).
///
/// The app is sway's `app_id` for Wayland windows, or the `WM_CLASS` class for X11
/// (XWayland, i3) windows.
public final class I3IPCSource: FocusSource {
    public let name: String
    public var endpoint: String { connection.path }
    public var connected: Bool { connection.fd != nil && focus.told }

    enum MessageType: UInt32 {
        case runCommand = 0
        case subscribe = 2
        case getOutputs = 3
        case getTree = 4
        /// Events have the high bit set.
        case workspaceEvent = 0x8000_0000
        case outputEvent = 0x8000_0001
        case windowEvent = 0x8000_0003
    }

    static let magic = Array("i3-ipc".utf8)
    static let headerSize = 14
    /// Largest message read. sway's GET_TREE is ~1.5 KB a window: 4 MiB is thousands
    /// of windows, and the most the buffer ever holds.
    public static let maxMessage = 4 << 20
    /// What is read of a message: only the members the focus is found by (a whole
    /// tree would cost ~30 times its text), strings no longer than a title is kept,
    /// and at most 100,000 values (~8 MB) however a peer shapes its tree.
    static let limits = JSONValue.Limits(keys: ["change", "container", "focused", "nodes", "floating_nodes", "app_id", "name",
                                                "window_properties", "class"],
                                         maxStringScalars: FocusedApp.maxTitleLength + 1, maxValues: 100_000)

    private let connection: StreamConnection
    private var focus = FocusReport()

    public init(name: String, socketPath: String, retryInitial: Double = 0.5, retryMaximum: Double = 10) {
        self.name = name
        connection = StreamConnection(path: socketPath, limit: Self.maxMessage, retry: ReconnectTimer(initial: retryInitial, maximum: retryMaximum))
    }

    public func start(on loop: FocusLoop, onChange: @escaping (FocusedApp?) -> Void, log: @escaping (String) -> Void) {
        focus.onChange = onChange
        connection.log = { log("\(self.name): \($0)") }
        connection.onConnect = { [unowned self] in
            focus.reset()
            return sendRequest(.subscribe, #"["window","workspace"]"#) && sendRequest(.getTree, "")
        }
        connection.onBytes = { [unowned self] in self.consume(&$0) }
        connection.start(on: loop)
    }

    public func stop() { connection.stop() }

    static func frame(_ type: MessageType, _ payload: String) -> [UInt8] {
        let body = Array(payload.utf8)
        var out = magic
        withUnsafeBytes(of: UInt32(body.count)) { out += $0 }
        withUnsafeBytes(of: type.rawValue) { out += $0 }
        return out + body
    }

    private func sendRequest(_ type: MessageType, _ payload: String) -> Bool {
        Self.send(type, payload, on: connection)
    }

    /// Sends one request; false when the connection is (now) closed.
    static func send(_ type: MessageType, _ payload: String, on connection: StreamConnection) -> Bool {
        connection.send(frame(type, payload))
        return connection.fd != nil
    }

    /// Takes whole messages off the front of `buffer`.
    func consume(_ buffer: inout [UInt8]) -> String? {
        Self.consume(&buffer, limit: connection.limit, limits: Self.limits) { handle($0, $1) }
    }

    /// The framing every i3-ipc client here shares (focus, outputs): whole messages off
    /// the front of `buffer`, each parsed with `limits`; a message for the log on a
    /// protocol error.
    static func consume(_ buffer: inout [UInt8], limit: Int, limits: JSONValue.Limits,
                        handle: (MessageType?, JSONValue) -> Void) -> String? {
        var start = 0
        defer { buffer.removeFirst(start) }
        while buffer.count - start >= headerSize {
            guard buffer[start..<start + 6].elementsEqual(magic) else { return "not an i3-ipc message" }
            let length = Int(u32(buffer, start + 6)), type = u32(buffer, start + 10)
            guard length <= limit - headerSize else { return "a message of \(length) bytes" }
            guard buffer.count - start >= headerSize + length else { break }
            let payload = buffer[(start + headerSize)..<(start + headerSize + length)]
            start += headerSize + length
            guard let json = JSONValue.parse(payload, limits: limits) else {
                return "a message that is not JSON, or more than \(limits.maxValues) values of what gestured reads"
            }
            handle(MessageType(rawValue: type), json)
        }
        return nil
    }

    static func u32(_ b: [UInt8], _ at: Int) -> UInt32 {
        UInt32(b[at]) | UInt32(b[at + 1]) << 8 | UInt32(b[at + 2]) << 16 | UInt32(b[at + 3]) << 24
    }

    private func handle(_ type: MessageType?, _ json: JSONValue) {
        switch type {
        case .getTree:
            focus.report(Self.focusedWindow(in: json).flatMap(Self.app))
        case .windowEvent:
            let container = json["container"]
            switch json["change"]?.string {
            case "focus":
                focus.report(container.flatMap(Self.app))
            case "title":
                if container?["focused"]?.bool == true { focus.report(container.flatMap(Self.app)) }
            case "close":
                _ = sendRequest(.getTree, "")
            default:
                break
            }
        case .workspaceEvent:
            if json["change"]?.string == "focus" { _ = sendRequest(.getTree, "") }
        case .runCommand, .subscribe, .getOutputs, .outputEvent, nil:
            break
        }
    }


    /// The app of a window container: `app_id`, else the X11 class; nil for a
    /// workspace or an output (nothing has the focus).
    static func app(_ node: JSONValue) -> FocusedApp? {
        let title = node["name"]?.string ?? ""
        if let id = node["app_id"]?.string, !id.isEmpty { return FocusedApp(app: id, title: title) }
        if let cls = node["window_properties"]?["class"]?.string, !cls.isEmpty { return FocusedApp(app: cls, title: title) }
        return nil
    }

    /// The node with `"focused": true`, depth first (iteratively: the tree comes
    /// from another process).
    static func focusedWindow(in tree: JSONValue) -> JSONValue? {
        var stack = [tree]
        while let node = stack.popLast() {
            if node["focused"]?.bool == true { return node }
            stack += node["nodes"]?.array ?? []
            stack += node["floating_nodes"]?.array ?? []
        }
        return nil
    }
}
