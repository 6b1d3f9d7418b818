import DaemonCore
import DesktopSession
import GestureActions
import GestureConfig
import LinuxSystem
import TouchModel

/// The sink of desktop actions: each one becomes its desktop's request (`Desktop`'s
/// table) and is sent through that desktop's own interface, on the daemon's loop, with
/// no process spawned: sway/i3 IPC, Hyprland's request socket, niri's IPC socket, kglobalaccel or the
/// GNOME Shell extension over sd-bus, EWMH client messages through libxcb, ext-workspace-v1
/// through libwayland-client.
///
/// An action the desktop cannot do, or one it refuses, is logged with the desktop's
/// name and the gesture: a warning the first time for each, then at info level, so a
/// stepped `update:` cannot flood the journal but nothing is silently nothing.
public final class DesktopActions: InvocationSink {
    public let detected: Desktop.Detected
    private let log: (LogPriority, String) -> Void
    private weak var loop: FocusLoop?
    /// Hyprland and sway/i3 requests in flight (each its own short connection).
    private var queries: [OneShotQuery] = []
    private var bus: SessionBusCaller?
    private var x11: EWMHClient?
    private var workspaces: ExtWorkspaceClient?
    /// Problems already said at warning level, by their text.
    private var warned = Set<String>()
    /// What moves a follow on this desktop (made at the first follow).
    private var follower: FollowDriver?
    /// How a GNOME follow reaches the extension; nil: the session bus (a benchmark's
    /// stand-in otherwise).
    public var gnomeFollowTransport: GNOMEFollowTransport?
    /// Makes gestured's virtual touchpad (a test's fake uinput otherwise).
    public var makeTouchpad: () throws(VirtualTouchpad.Failure) -> VirtualTouchpad = { () throws(VirtualTouchpad.Failure) in try VirtualTouchpad() }
    /// The virtual touchpad follows are played on (KDE Plasma, Hyprland, niri), made by
    /// `prepareFollow` when the config has a follow, and kept.
    public private(set) var touchpad: VirtualTouchpad?
    private var fingers: Int?
    /// The progress the last follow step gave the desktop (the event stream says it).
    public private(set) var lastFollowProgress: Double?
    /// Called as each request has been written (tests, the benchmark).
    public var onSent: (Desktop.Request) -> Void = { _ in }
    /// Runs the binding of that name because its `shortcut:` was pressed (the daemon's trigger).
    public var onShortcut: (String) -> Void = { _ in }
    /// The config's `shortcut:`s, bound through GNOME's extension (made by the first config that has one).
    private var shortcuts: GNOMEShortcuts?
    /// Shortcut signals not believed: not sent by the owner of org.gnome.Shell (forged).
    public var ignoredShortcutSignals: Int { shortcuts?.ignoredSignals ?? 0 }

    public init(detected: Desktop.Detected, loop: FocusLoop, log: @escaping (LogPriority, String) -> Void) {
        self.detected = detected
        self.loop = loop
        self.log = log
    }

    public convenience init(environment: [String: String], loop: FocusLoop, log: @escaping (LogPriority, String) -> Void) {
        self.init(detected: Desktop.detect(environment), loop: loop, log: log)
    }

    /// "sway (/run/user/1000/sway-ipc.sock)", or why there is none.
    public var description: String {
        switch detected {
        case .desktop(let d): return "\(d.name) (\(d.endpoint))"
        case .none(let why): return "none: \(why)"
        }
    }

    public func submit(_ invocation: Invocation) {
        guard case .desktop(let action) = invocation.action else { return }
        // A follow's step, at every frame of the pan: nothing here may allocate.
        if case .follow(let f) = action, let motion = invocation.motion, case .desktop(let desktop) = detected {
            lastFollowProgress = followDriver(desktop).step(f, motion, gesture: invocation.gesture)
            return
        }
        // With no desktop, a follow is said once, at its beginning, not at every frame.
        if case .follow = action, let motion = invocation.motion, motion.phase != .begin { return }
        let tag = "[\(invocation.gesture)] \(invocation.trigger): \(action)"
        guard case .desktop(let desktop) = detected else {
            if case .none(let why) = detected { say("\(tag): not done: \(why)") }
            return
        }
        let done: (String?) -> Void = { [weak self] problem in
            if let problem { self?.say("\(tag): \(desktop.name) refused it: \(desktop.explain(problem))") }
        }
        let request = desktop.request(action)
        switch request {
        case .unsupported(let why):
            return say("\(tag): not done: \(why)")
        case .i3Command(let command):
            guard let loop, case .i3IPC(_, let socket) = desktop else { return }
            keep(CompositorRequest.i3(socket: socket, command: command, loop: loop, done: done))
        case .hyprland(let line):
            guard let loop, case .hyprland(let socket) = desktop else { return }
            keep(CompositorRequest.hyprland(socket: socket, request: line, loop: loop, done: done))
        case .niri(let line):
            guard let loop, case .niri(let socket) = desktop else { return }
            keep(CompositorRequest.niri(socket: socket, request: line, loop: loop, done: done))
        case .bus(let destination, let path, let interface, let member, let argument):
            guard let caller = busCaller(desktop) else { return }
            caller.call(destination: destination, path: path, interface: interface, member: member, argument: argument, done: done)
        case .ewmh(let r):
            guard let client = ewmhClient(desktop) else { return }
            client.perform(r, done: done)
        case .extWorkspace(let target):
            guard let client = workspaceClient(desktop) else { return }
            client.switchWorkspace(target, done: done)
        }
        onSent(request)
    }

    /// Makes the virtual touchpad before the first follow needs it, where the desktop
    /// plays follows on one and `config` has a follow (a compositor takes a moment to
    /// add a device: frames written before would be lost), or gives it back when the
    /// config has none any more. A device that failed is made again.
    public func prepareFollow(config: Config) {
        fingers = config.settings.followFingers
        let follows = config.bindings.contains { if case .desktop(.follow)? = $0.actions[.began] { return true } else { return false } }
        guard follows, case .desktop(let d) = detected, d.playsFollowOnTouchpad else {
            touchpad = nil
            return
        }
        guard touchpad == nil || touchpad?.failure != nil else { return }
        do throws(VirtualTouchpad.Failure) {
            touchpad = try makeTouchpad()
            log(.notice, "follows are played on \"\(VirtualTouchpad.name)\"\(touchpad?.sysname.map { " (\($0))" } ?? ""), as \(d.name)'s own touchpad swipes")
        } catch {
            touchpad = nil
            log(.warning, "follows will be one step, not moved with the fingers: no virtual touchpad: \(error); \(VirtualDevice.advice(for: error))")
        }
    }

    /// Binds the config's `shortcut:`s where gestured does (GNOME, through its extension),
    /// or lets go of them when the config has none any more. Elsewhere the desktop's own
    /// shortcuts run `gestured trigger NAME` (`check` says how).
    public func prepareShortcuts(config: Config) {
        guard case .desktop(let desktop) = detected, case .gnome = desktop else { return }
        if shortcuts == nil {
            guard config.bindings.contains(where: { $0.shortcut != nil }), let bus = busCaller(desktop) else { return }
            shortcuts = GNOMEShortcuts(bus: bus, log: log) { [weak self] in self?.onShortcut($0) }
        }
        shortcuts?.update(config)
    }

    /// When the follow driver has a paced frame to write (the daemon's timer is armed for it).
    public var deadline: Timestamp? { follower?.deadline }

    /// The daemon's timer at `now`: the follow driver's paced frames.
    public func timerFired(at now: Timestamp) { follower?.timerFired(at: now) }

    /// The desktop's follow driver: its own animated transition where gestured can move
    /// one, else one step as the pan begins.
    private func followDriver(_ desktop: Desktop) -> FollowDriver {
        if let follower { return follower }
        let oneStep = OneStepFollow { [weak self] action, gesture in
            self?.submit(Invocation(gesture: gesture, trigger: "begin", action: .desktop(action), environment: []))
        }
        let driver: FollowDriver
        switch desktop {
        case .gnome:
            let transport: GNOMEFollowTransport
            if let given = gnomeFollowTransport {
                transport = given
            } else {
                guard let bus = busCaller(desktop) else { return oneStep }
                transport = BusFollowTransport(bus)
            }
            driver = GNOMEFollow(bus: transport, desktop: desktop, fallback: oneStep, log: log)
        case .kde, .hyprland, .niri:
            driver = VirtualTouchpadFollow(pad: { [weak self] in self?.touchpad }, desktop: desktop, fingers: fingers, fallback: oneStep,
                                           now: { Timestamp(microseconds: monotonicNanoseconds() / 1000) })
        default:
            driver = oneStep
        }
        follower = driver
        return driver
    }

    private func keep(_ query: OneShotQuery) {
        queries.removeAll(where: \.finished)
        if !query.finished { queries.append(query) }
    }

    private func busCaller(_ desktop: Desktop) -> SessionBusCaller? {
        if let bus { return bus }
        guard let loop else { return nil }
        switch desktop {
        case .kde(let address): bus = SessionBusCaller(address: address, loop: loop)
        case .gnome(let address):
            // The extension answers only the owner of io.github.gestured (docs/GNOME.md).
            bus = SessionBusCaller(address: address, loop: loop, owning: GNOMEFollow.name) { [weak self] problem in
                self?.say("GNOME: \(problem); the gestured extension answers only that name's owner, so GNOME's desktop actions are refused")
            }
        case .i3IPC, .hyprland, .niri, .x11, .extWorkspace: return nil
        }
        return bus
    }

    private func ewmhClient(_ desktop: Desktop) -> EWMHClient? {
        if let x11 { return x11 }
        guard let loop, case .x11(let display) = desktop else { return nil }
        x11 = EWMHClient(display: display, loop: loop)
        return x11
    }

    private func workspaceClient(_ desktop: Desktop) -> ExtWorkspaceClient? {
        if let workspaces { return workspaces }
        guard let loop, case .extWorkspace(let socket, let compositor) = desktop else { return nil }
        workspaces = ExtWorkspaceClient(socket: socket, compositor: compositor, loop: loop) { [weak self] in self?.log(.info, $0) }
        return workspaces
    }

    private func say(_ line: String) {
        log(warned.insert(line).inserted ? .warning : .info, line)
    }
}
