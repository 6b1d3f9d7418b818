import CDesktop

/// Desktop actions on a Wayland compositor through `ext-workspace-v1` (wayland-protocols'
/// staging workspace list: labwc, and other compositors without an IPC of their own):
/// a workspace is activated with `ext_workspace_handle_v1.activate`, then the manager's
/// `commit`. The list is read from the compositor first, and kept up to date: the
/// connection stays open from the first action on (a `WaylandClient`, reconnected as
/// the sources are). Woken only by the compositor's socket.
///
/// ```
///  first action ─→ connect, get_registry, sync ─→ globals ─→ done ─┬─ manager offered: bind ─→ groups, workspaces… ─→ done ─→ ready
///                                                                  └─ not offered: each action fails with why
///  ready: an action picks the workspace (next/previous in its group, wrapping; or the Nth) ─→ activate, commit
///  actions asked before ready wait for it (the last `maxWaiting`)
/// ```
///
/// Workspaces are ordered as the compositor gives them: by their coordinates where each
/// has some, else in the order they entered their group; hidden ones are skipped. With
/// several groups (a group per screen), the group of the workspace activated last is used.
public final class ExtWorkspaceClient {
    public enum Target: Sendable, Equatable {
        /// From the active workspace, wrapping as pagers do.
        case relative(Int)
        /// The Nth workspace, from 0.
        case absolute(Int)
    }

    enum Phase: Equatable {
        case idle
        /// Waiting for the first sync: every global comes before it.
        case listingGlobals
        /// The manager bound; waiting for its first `done`.
        case listingWorkspaces
        /// The compositor offers no manager: every action fails, saying so.
        case noManager
        case ready
    }

    private(set) var phase = Phase.idle
    /// The compositor's name for messages.
    public let compositor: String
    private let client: WaylandClient
    private weak var loop: FocusLoop?
    private var manager: OpaquePointer?
    private var managerName: UInt32?
    private var groups: [OpaquePointer: [OpaquePointer]] = [:]
    private var workspaces: [OpaquePointer: Workspace] = [:]
    /// Activations counted, so that the group of the workspace activated last is the current one.
    private var activations: UInt64 = 0
    private var waiting: [(Target, (String?) -> Void)] = []
    private var entered: UInt64 = 0

    struct Workspace {
        var name = ""
        var coordinates: [UInt32] = []
        var active = false
        var hidden = false
        var canActivate = false
        var group: OpaquePointer?
        /// When it entered its group (a counter): the order where there are no coordinates.
        var entered: UInt64 = 0
        var activatedAt: UInt64 = 0
    }

    /// Groups and workspaces followed at most: a compositor may announce them without end.
    static let maxGroups = 64
    static let maxWorkspaces = 1000
    /// Actions kept while the list is read (a stepped `update:` may fire several).
    static let maxWaiting = 8
    /// `ext_workspace_handle_v1.state`: active; hidden. `capabilities`: activate.
    static let activeState: UInt32 = 1
    static let hiddenState: UInt32 = 4
    static let activateCapability: UInt32 = 1

    public static let protocolName = "ext-workspace-v1"
    static let protocolInterface = String(cString: gd_ext_workspace_manager_name())

    /// The compositor's socket from the environment: `WAYLAND_DISPLAY`, under `XDG_RUNTIME_DIR`.
    public static func socket(_ env: [String: String]) -> String? { WaylandClient.socket(env) }

    public init(socket: String, compositor: String, loop: FocusLoop, log: @escaping (String) -> Void = { _ in },
                retryInitial: Double = 0.5, retryMaximum: Double = 10) {
        self.compositor = compositor
        self.loop = loop
        self.log = log
        client = WaylandClient(socket: socket, retry: ReconnectTimer(initial: retryInitial, maximum: retryMaximum))
        client.onGlobal = { [unowned self] in global($0, $1, $2) }
        client.onGlobalRemoved = { [unowned self] in if $0 == managerName { client.fail("the compositor withdrew \(Self.protocolName)") } }
        client.onConnected = { [unowned self] in
            phase = .listingGlobals
            client.roundtrip { [unowned self] in globalsListed() }
        }
        client.onDisconnect = { [unowned self] in forget() }
    }

    private let log: (String) -> Void

    deinit {
        forget()
        client.onDisconnect = {}  // self is going: nothing may reach it through the client
        client.stop()
    }

    /// Why actions cannot be done here.
    var noManager: String { "this compositor (\(compositor)) offers no \(Self.protocolName)" }
    var notConnected: String { "not connected to \(compositor) at \(client.link.endpoint) (tried again every few seconds)" }

    /// Activates the workspace `target` names; `done` gets nil once it is asked for, or why not.
    public func switchWorkspace(_ target: Target, done: @escaping (String?) -> Void) {
        switch phase {
        case .idle:
            waitFor(target, done)
            guard let loop else { return fail("no event loop") }
            client.start(on: loop, onChange: { _ in }, log: log, prefix: "workspaces")
            if client.display == nil { fail(notConnected) }
        case .listingGlobals, .listingWorkspaces:
            guard client.display != nil else { return done(notConnected) }
            waitFor(target, done)
        case .noManager:
            done(noManager)
        case .ready:
            done(activate(target))
        }
    }

    private func waitFor(_ target: Target, _ done: @escaping (String?) -> Void) {
        if waiting.count == Self.maxWaiting { waiting.removeFirst().1("dropped: more actions came while the workspace list was read") }
        waiting.append((target, done))
    }

    /// Every action waiting gets `why`.
    private func fail(_ why: String) {
        let failed = waiting
        waiting = []
        for (_, done) in failed { done(why) }
    }

    // MARK: The list

    private func global(_ name: UInt32, _ interface: String, _ version: UInt32) {
        guard manager == nil, interface == Self.protocolInterface, let r = client.registry,
              let proxy = gd_wl_bind_ext_workspace_manager(r, name, 1) else { return }
        manager = proxy
        managerName = name
        gd_wl_proxy_add_listener(proxy, Self.managerListener, me)
        if phase == .noManager { phase = .listingWorkspaces }
    }

    private func globalsListed() {
        guard phase == .listingGlobals else { return }
        if manager == nil {
            phase = .noManager
            fail(noManager)
        } else {
            phase = .listingWorkspaces
        }
    }

    private func listed() {
        guard phase == .listingWorkspaces else { return }
        phase = .ready
        let queued = waiting
        waiting = []
        for (target, done) in queued { done(activate(target)) }
    }

    private func groupAnnounced(_ group: OpaquePointer?) {
        guard let group else { return }
        guard groups.count < Self.maxGroups else { return gd_ext_workspace_group_destroy(group) }
        groups[group] = []
        gd_wl_proxy_add_listener(group, Self.groupListener, me)
    }

    private func workspaceAnnounced(_ workspace: OpaquePointer?) {
        guard let workspace else { return }
        guard workspaces.count < Self.maxWorkspaces else { return gd_ext_workspace_destroy(workspace) }
        workspaces[workspace] = Workspace()
        gd_wl_proxy_add_listener(workspace, Self.workspaceListener, me)
    }

    private func enter(_ group: OpaquePointer?, _ workspace: OpaquePointer?) {
        guard let group, let workspace, groups[group] != nil, workspaces[workspace] != nil else { return }
        leave(workspace)
        groups[group]!.append(workspace)
        entered += 1
        workspaces[workspace]!.group = group
        workspaces[workspace]!.entered = entered
    }

    private func leave(_ workspace: OpaquePointer) {
        guard let group = workspaces[workspace]?.group else { return }
        groups[group]?.removeAll { $0 == workspace }
        workspaces[workspace]?.group = nil
    }

    private func change(_ workspace: OpaquePointer?, _ edit: (inout Workspace) -> Void) {
        guard let workspace, workspaces[workspace] != nil else { return }
        edit(&workspaces[workspace]!)
    }

    private func state(_ workspace: OpaquePointer?, _ state: UInt32) {
        change(workspace) { w in
            let active = state & Self.activeState != 0
            if active && !w.active {
                activations += 1
                w.activatedAt = activations
            }
            w.active = active
            w.hidden = state & Self.hiddenState != 0
        }
    }

    private func workspaceRemoved(_ workspace: OpaquePointer?) {
        guard let workspace, workspaces[workspace] != nil else { return }
        leave(workspace)
        workspaces[workspace] = nil
        gd_ext_workspace_destroy(workspace)
    }

    private func groupRemoved(_ group: OpaquePointer?) {
        guard let group, let members = groups.removeValue(forKey: group) else { return }
        for w in members { workspaces[w]?.group = nil }
        gd_ext_workspace_group_destroy(group)
    }

    // MARK: The action

    /// The current group's workspaces in order: by coordinates where every one has
    /// some, else as they entered; hidden ones left out.
    func ordered() -> [(proxy: OpaquePointer, workspace: Workspace)] {
        let current = workspaces.values.filter { $0.group != nil }.max { $0.activatedAt < $1.activatedAt }?.group
        guard let group = current ?? groups.keys.first, let members = groups[group] else { return [] }
        let list = members.compactMap { p in workspaces[p].map { (proxy: p, workspace: $0) } }.filter { !$0.workspace.hidden }
        if list.allSatisfy({ !$0.workspace.coordinates.isEmpty }) {
            return list.sorted { $0.workspace.coordinates.lexicographicallyPrecedes($1.workspace.coordinates) }
        }
        return list.sorted { $0.workspace.entered < $1.workspace.entered }
    }

    /// The active workspace of the current group, by name (tests, the log).
    var activeName: String? { ordered().first { $0.workspace.active }?.workspace.name }

    private func activate(_ target: Target) -> String? {
        let list = ordered()
        guard !list.isEmpty, let manager else { return "\(compositor) lists no workspace" }
        let index: Int
        switch target {
        case .relative(let step):
            let current = list.firstIndex { $0.workspace.active } ?? 0
            index = ((current + step) % list.count + list.count) % list.count
        case .absolute(let n):
            guard n < list.count else { return "\(compositor) has \(list.count) workspace\(list.count == 1 ? "" : "s") here, not \(n + 1)" }
            index = n
        }
        let chosen = list[index]
        guard chosen.workspace.canActivate else { return "\(compositor) does not let workspace \(chosen.workspace.name) be activated" }
        gd_ext_workspace_activate(chosen.proxy)
        gd_ext_workspace_manager_commit(manager)
        client.flush()
        return nil
    }

    /// The connection is going: every proxy made on it with it; actions waiting fail.
    private func forget() {
        for w in workspaces.keys { gd_wl_proxy_destroy(w) }
        workspaces.removeAll()
        for g in groups.keys { gd_wl_proxy_destroy(g) }
        groups.removeAll()
        if let m = manager { gd_wl_proxy_destroy(m) }
        manager = nil
        managerName = nil
        if phase != .idle { phase = .listingGlobals }
        fail("lost the connection to \(compositor)")
    }

    private var me: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    private static func client(_ data: UnsafeMutableRawPointer?) -> ExtWorkspaceClient {
        Unmanaged<ExtWorkspaceClient>.fromOpaque(data!).takeUnretainedValue()
    }

    // MARK: The listeners libwayland calls through, made once and never written again
    // (nonisolated: only the loop's thread reads them, through libwayland).

    nonisolated(unsafe) private static let managerListener: UnsafeMutablePointer<(@convention(c) () -> Void)?> = {
        let l = UnsafeMutablePointer<gd_ext_workspace_manager_listener>.allocate(capacity: 1)
        l.initialize(to: gd_ext_workspace_manager_listener(
            workspace_group: { data, _, group in client(data).groupAnnounced(group) },
            workspace: { data, _, workspace in client(data).workspaceAnnounced(workspace) },
            done: { data, _ in client(data).listed() },
            finished: { data, _ in client(data).client.fail("the compositor finished the workspace list") }))
        return UnsafeMutableRawPointer(l).assumingMemoryBound(to: (@convention(c) () -> Void)?.self)
    }()

    nonisolated(unsafe) private static let groupListener: UnsafeMutablePointer<(@convention(c) () -> Void)?> = {
        let l = UnsafeMutablePointer<gd_ext_workspace_group_listener>.allocate(capacity: 1)
        l.initialize(to: gd_ext_workspace_group_listener(
            capabilities: { _, _, _ in },
            output_enter: { _, _, _ in },
            output_leave: { _, _, _ in },
            workspace_enter: { data, group, workspace in client(data).enter(group, workspace) },
            workspace_leave: { data, _, workspace in if let workspace { client(data).leave(workspace) } },
            removed: { data, group in client(data).groupRemoved(group) }))
        return UnsafeMutableRawPointer(l).assumingMemoryBound(to: (@convention(c) () -> Void)?.self)
    }()

    nonisolated(unsafe) private static let workspaceListener: UnsafeMutablePointer<(@convention(c) () -> Void)?> = {
        let l = UnsafeMutablePointer<gd_ext_workspace_listener>.allocate(capacity: 1)
        l.initialize(to: gd_ext_workspace_listener(
            id: { _, _, _ in },
            name: { data, workspace, name in
                guard let name else { return }
                client(data).change(workspace) { $0.name = FocusedApp.cut(String(cString: name), to: FocusedApp.maxAppLength) }
            },
            coordinates: { data, workspace, array in
                guard let array, let bytes = array.pointee.data else { return }
                let words = Array(UnsafeBufferPointer(start: bytes.assumingMemoryBound(to: UInt32.self), count: array.pointee.size / 4))
                client(data).change(workspace) { $0.coordinates = words }
            },
            state: { data, workspace, state in client(data).state(workspace, state) },
            capabilities: { data, workspace, caps in client(data).change(workspace) { $0.canActivate = caps & activateCapability != 0 } },
            removed: { data, workspace in client(data).workspaceRemoved(workspace) }))
        return UnsafeMutableRawPointer(l).assumingMemoryBound(to: (@convention(c) () -> Void)?.self)
    }()
}
