import Glibc

/// A Wayland compositor that speaks just enough of the wire protocol (wayland.xml, and
/// wlr-foreign-toplevel-management's events) for a real libwayland-client to talk to it:
/// the registry and its globals, `wl_display.sync`, bind, and windows sent by hand. Each
/// message is the object id, then the size (high 16 bits) and opcode, then arguments of
/// 32 bits; a string or array is its length, then its bytes padded to 4.
final class FakeWaylandCompositor {
    let server: FakeSocketServer
    /// What the registry announces: (name, interface, version).
    var globals: [(name: UInt32, interface: String, version: UInt32)]
    /// Called when a client binds a global: the client, the interface, the object id it chose.
    var onBind: (Int32, String, UInt32) -> Void = { _, _, _ in }
    /// Every other request, in order: the object it was sent to, its opcode.
    private(set) var requests: [(object: UInt32, opcode: UInt32)] = []
    /// The windows (server-made toplevel handles) the client destroyed: their request 7.
    var destroyed: [UInt32] { requests.filter { $0.object >= 0xff00_0000 && $0.opcode == 7 }.map(\.object) }
    /// Each client's registry and bound objects, by interface.
    private(set) var registries: [Int32: UInt32] = [:]
    private(set) var bound: [Int32: [String: UInt32]] = [:]
    private var consumed: [Int32: Int] = [:]
    /// What is yet to be written to each client: the kernel charges each send() a whole
    /// buffer's overhead, so a thousand small messages must go out as a few large writes.
    private var outbox: [Int32: [UInt8]] = [:]
    /// The next id of an object the server makes, for each client: they start at
    /// WL_SERVER_ID_START and may not skip one (libwayland-client refuses a gap).
    private var nextServerID: [Int32: UInt32] = [:]

    init(path: String, globals: [(name: UInt32, interface: String, version: UInt32)]) {
        server = FakeSocketServer(path: path)
        self.globals = globals
    }

    /// Accepts clients and answers what they sent.
    func serve() {
        server.pump()
        for fd in server.clients {
            let bytes = server.received[fd] ?? []
            var at = consumed[fd] ?? 0
            while bytes.count - at >= 8 {
                let size = Int(word(bytes, at + 4) >> 16)
                guard size >= 8, bytes.count - at >= size else { break }
                request(fd, object: word(bytes, at), opcode: word(bytes, at + 4) & 0xffff, Array(bytes[(at + 8)..<(at + size)]))
                at += size
            }
            consumed[fd] = at
        }
        flush()
    }

    /// Writes what is queued, as far as each client's socket takes it.
    func flush() {
        for (fd, bytes) in outbox where !bytes.isEmpty {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n > 0 { outbox[fd] = Array(bytes[n...]) }
        }
    }

    /// The compositor quits and starts again on the same socket, knowing no client.
    func restart() {
        server.shutDown()
        (registries, bound, consumed, outbox, nextServerID) = ([:], [:], [:], [:], [:])
        requests.removeAll()
        server.listen()
    }

    private func request(_ fd: Int32, object: UInt32, opcode: UInt32, _ args: [UInt8]) {
        if object == 1, opcode == 0 {  // wl_display.sync(callback): done, then the id is free again
            let callback = word(args, 0)
            send(fd, object: callback, opcode: 0, [.uint(0)])
            send(fd, object: 1, opcode: 1, [.uint(callback)])
        } else if object == 1, opcode == 1 {  // wl_display.get_registry(registry)
            registries[fd] = word(args, 0)
            for g in globals { announce(fd, g) }
        } else if object == registries[fd], opcode == 0 {  // wl_registry.bind(name, interface, version, id)
            let length = Int(word(args, 4))
            let interface = String(decoding: args[8..<(8 + length - 1)], as: UTF8.self)
            let id = word(args, 8 + (length + 3) / 4 * 4 + 4)
            bound[fd, default: [:]][interface] = id
            onBind(fd, interface, id)
        } else {
            requests.append((object, opcode))
        }
    }

    /// A global announced to a client that has its registry.
    func announce(_ fd: Int32, _ global: (name: UInt32, interface: String, version: UInt32)) {
        guard let registry = registries[fd] else { return }
        send(fd, object: registry, opcode: 0, [.uint(global.name), .string(global.interface), .uint(global.version)])
    }

    /// A new window on the client's toplevel manager: its app id, title and state, then
    /// `done`. Returns its id.
    @discardableResult
    func toplevel(_ fd: Int32, manager: UInt32, app: String, title: String, activated: Bool) -> UInt32 {
        let id = newObject(fd)
        send(fd, object: manager, opcode: 0, [.uint(id)])  // toplevel(new_id)
        send(fd, object: id, opcode: 1, [.string(app)])
        send(fd, object: id, opcode: 0, [.string(title)])
        send(fd, object: id, opcode: 4, [.array(activated ? [0, 2] : [0])])  // maximized, and activated
        send(fd, object: id, opcode: 5, [])  // done
        return id
    }

    private func newObject(_ fd: Int32) -> UInt32 {
        let id = nextServerID[fd] ?? 0xff00_0000
        nextServerID[fd] = id + 1
        return id
    }

    // ext-workspace-v1's events, by opcode: the manager's workspace_group 0, workspace 1,
    // done 2; a group's workspace_enter 3; a workspace's name 1, coordinates 2, state 3,
    // capabilities 4.

    /// A new workspace group on the client's ext_workspace_manager_v1. Returns its id.
    func workspaceGroup(_ fd: Int32, manager: UInt32) -> UInt32 {
        let id = newObject(fd)
        send(fd, object: manager, opcode: 0, [.uint(id)])
        return id
    }

    /// A new workspace that can be activated, in `group`. Returns its id.
    func workspace(_ fd: Int32, manager: UInt32, group: UInt32, name: String, coordinates: [UInt32], active: Bool) -> UInt32 {
        let id = newObject(fd)
        send(fd, object: manager, opcode: 1, [.uint(id)])
        send(fd, object: id, opcode: 1, [.string(name)])
        send(fd, object: id, opcode: 2, [.array(coordinates)])
        send(fd, object: id, opcode: 3, [.uint(active ? 1 : 0)])
        send(fd, object: id, opcode: 4, [.uint(1)])  // capabilities: activate
        send(fd, object: group, opcode: 3, [.uint(id)])  // workspace_enter
        return id
    }

    /// A workspace's state (active or not); `done` follows from the manager.
    func workspaceState(_ fd: Int32, workspace: UInt32, active: Bool) { send(fd, object: workspace, opcode: 3, [.uint(active ? 1 : 0)]) }
    func workspacesDone(_ fd: Int32, manager: UInt32) { send(fd, object: manager, opcode: 2, []) }

    /// The window went: `closed`.
    func close(_ fd: Int32, window: UInt32) { send(fd, object: window, opcode: 6, []) }

    enum Argument {
        case uint(UInt32)
        case string(String)
        case array([UInt32])
    }

    func send(_ fd: Int32, object: UInt32, opcode: UInt32, _ args: [Argument]) {
        var body: [UInt8] = []
        func put(_ w: UInt32) { withUnsafeBytes(of: w.littleEndian) { body += $0 } }
        for a in args {
            switch a {
            case .uint(let w): put(w)
            case .string(let s):
                let bytes = Array(s.utf8) + [0]
                put(UInt32(bytes.count))
                body += bytes + [UInt8](repeating: 0, count: (4 - bytes.count % 4) % 4)
            case .array(let words):
                put(UInt32(words.count * 4))
                for w in words { put(w) }
            }
        }
        var message: [UInt8] = []
        withUnsafeBytes(of: object.littleEndian) { message += $0 }
        withUnsafeBytes(of: (UInt32(8 + body.count) << 16 | opcode).littleEndian) { message += $0 }
        outbox[fd, default: []] += message + body
    }

    private func word(_ b: [UInt8], _ at: Int) -> UInt32 {
        UInt32(b[at]) | UInt32(b[at + 1]) << 8 | UInt32(b[at + 2]) << 16 | UInt32(b[at + 3]) << 24
    }
}
