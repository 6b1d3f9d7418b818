import DesktopSession
import GestureConfig
import GestureEngine

/// The running desktop, as its environment announces it, and what each desktop action
/// becomes on it: one spelling in the config, one row per desktop here (docs/CONFIG.md's
/// "Desktop actions" table is this switch, written out).
public enum Desktop: Sendable, Equatable {
    /// sway or i3: IPC RUN_COMMAND on `socket` (`SWAYSOCK`, `I3SOCK`).
    case i3IPC(name: String, socket: String)
    /// Hyprland: its request socket (`.socket.sock`, the one `hyprctl` uses).
    case hyprland(socket: String)
    /// niri: its IPC socket (`NIRI_SOCKET`), one JSON request line.
    case niri(socket: String)
    /// KDE Plasma: kglobalaccel's shortcuts of the `kwin` component, on the session bus.
    case kde(bus: String)
    /// GNOME: gestured's Shell extension, on the session bus.
    case gnome(bus: String)
    /// Any other X11 window manager: EWMH client messages on `display`.
    case x11(display: String)
    /// Any other Wayland compositor: ext-workspace-v1 on its socket (labwc…), if it offers it.
    case extWorkspace(socket: String, compositor: String)

    public enum Detected: Sendable, Equatable {
        case desktop(Desktop)
        /// No desktop gestured can act on: why, for the log and `check`.
        case none(String)
    }

    /// The same order as the focus sources' (FocusDetection): a compositor's own socket
    /// first, then the desktops that name themselves, then X11.
    public static func detect(_ env: [String: String]) -> Detected {
        if let path = env["SWAYSOCK"], !path.isEmpty { return .desktop(.i3IPC(name: "sway", socket: path)) }
        if let sig = env["HYPRLAND_INSTANCE_SIGNATURE"], !sig.isEmpty {
            return .desktop(.hyprland(socket: HyprlandSource.directory(signature: sig, environment: env) + "/.socket.sock"))
        }
        if let path = env["I3SOCK"], !path.isEmpty { return .desktop(.i3IPC(name: "i3", socket: path)) }
        if let path = env["NIRI_SOCKET"], !path.isEmpty { return .desktop(.niri(socket: path)) }
        let names = (env["XDG_CURRENT_DESKTOP"] ?? "").split(separator: ":").map { $0.uppercased() }
        for (name, make) in [("KDE", Desktop.kde), ("GNOME", Desktop.gnome)] where names.contains(name) {
            guard let bus = SessionBus.address(env) else {
                return .none("\(name == "KDE" ? "KDE Plasma" : "GNOME"), but no session bus in the environment (DBUS_SESSION_BUS_ADDRESS, XDG_RUNTIME_DIR)")
            }
            return .desktop(make(bus))
        }
        let wayland = !(env["WAYLAND_DISPLAY"] ?? "").isEmpty || env["XDG_SESSION_TYPE"] == "wayland"
        if let display = env["DISPLAY"], !display.isEmpty, !wayland { return .desktop(.x11(display: display)) }
        if wayland {
            let name = env["XDG_CURRENT_DESKTOP"].flatMap { $0.isEmpty ? nil : $0 } ?? "the Wayland compositor"
            guard let socket = ExtWorkspaceClient.socket(env) else {
                return .none("a Wayland session (\(name)), but no WAYLAND_DISPLAY and XDG_RUNTIME_DIR in the environment to reach the compositor at")
            }
            return .desktop(.extWorkspace(socket: socket, compositor: name))
        }
        return .none("no desktop session in the environment (no SWAYSOCK, I3SOCK, HYPRLAND_INSTANCE_SIGNATURE, XDG_CURRENT_DESKTOP or DISPLAY)")
    }

    /// As messages name it: "sway", "Hyprland", "KDE Plasma", "GNOME", "the X11 window manager".
    public var name: String {
        switch self {
        case .i3IPC(let name, _): return name
        case .hyprland: return "Hyprland"
        case .niri: return "niri"
        case .kde: return "KDE Plasma"
        case .gnome: return "GNOME"
        case .x11: return "the X11 window manager (EWMH)"
        case .extWorkspace(_, let compositor): return compositor
        }
    }

    /// Where requests go, for the log.
    public var endpoint: String {
        switch self {
        case .i3IPC(_, let s), .hyprland(let s), .niri(let s): return s
        case .kde(let b), .gnome(let b): return b
        case .x11(let d): return d
        case .extWorkspace(let s, _): return s
        }
    }

    /// What `action` is on this desktop: a request, or why the desktop cannot do it.
    public func request(_ action: DesktopAction) -> Request {
        switch self {
        case .i3IPC(let name, _): return Self.i3(name, action)
        case .hyprland: return Self.hyprland(action)
        case .niri: return Self.niri(action)
        case .kde: return Self.kde(action)
        case .gnome: return Self.gnome(action)
        case .x11: return Self.x11(action)
        case .extWorkspace(_, let compositor): return Self.extWorkspace(compositor, action)
        }
    }

    /// Why this desktop cannot do `action`, or nil.
    public func cannot(_ action: DesktopAction) -> String? {
        // A follow is moved by the desktop's follow driver, or done in one step where the
        // desktop animates nothing: it can be done wherever that step can.
        if case .follow(let f) = action { return cannot(FollowDrivers.oneStep(f, forward: true)) }
        if case .unsupported(let why) = request(action) { return why }
        return nil
    }

    /// What a table says of a follow, which never reaches it (`DesktopActions.submit`
    /// hands follows to the desktop's follow driver).
    static let followIsDriven = "a follow is moved by the follow driver, not asked in one request"

    public enum Request: Sendable, Equatable {
        /// sway/i3 RUN_COMMAND text.
        case i3Command(String)
        /// A request line on Hyprland's `.socket.sock`.
        case hyprland(String)
        /// A JSON request line on niri's socket.
        case niri(String)
        /// A method with one string argument on the session bus.
        case bus(destination: String, path: String, interface: String, member: String, argument: String)
        case ewmh(EWMHClient.Request)
        /// A workspace activated through ext-workspace-v1.
        case extWorkspace(ExtWorkspaceClient.Target)
        case unsupported(String)
    }

    // MARK: The table

    static func i3(_ name: String, _ a: DesktopAction) -> Request {
        func workspace(_ t: WorkspaceTarget) -> String {
            switch t {
            case .next: return "workspace next_on_output"
            case .previous: return "workspace prev_on_output"
            case .number(let n): return "workspace number \(n)"
            }
        }
        switch a {
        case .follow: return .unsupported(followIsDriven)
        case .workspace(let t): return .i3Command(workspace(t))
        // The window's old workspace keeps the focus while the move runs, so "next" from
        // it is where the window went.
        case .moveWindow(let t): return .i3Command("move container to \(workspace(t)); \(workspace(t))")
        case .overview: return .unsupported("\(name) has no overview")
        case .showDesktop: return .unsupported("\(name) has no \"show desktop\"")
        }
    }

    static func hyprland(_ a: DesktopAction) -> Request {
        func target(_ t: WorkspaceTarget) -> String {
            switch t {
            case .next: return "e+1"
            case .previous: return "e-1"
            case .number(let n): return String(n)
            }
        }
        switch a {
        case .follow: return .unsupported(followIsDriven)
        case .workspace(let t): return .hyprland("dispatch workspace \(target(t))")
        case .moveWindow(let t): return .hyprland("dispatch movetoworkspace \(target(t))")
        case .overview: return .unsupported("Hyprland has no overview (only plugins add one)")
        case .showDesktop: return .unsupported("Hyprland has no \"show desktop\"")
        }
    }

    /// niri's IPC actions (niri-ipc's `Action`, as `niri msg action` sends them). Its
    /// workspaces are a column per screen, so next is down and previous up; numbers are
    /// indexes from 1 on the focused screen. Its overview came in 25.05.
    static func niri(_ a: DesktopAction) -> Request {
        func action(_ name: String, _ fields: String = "") -> Request { .niri(#"{"Action":{""# + name + #"":{"# + fields + "}}}") }
        switch a {
        case .follow: return .unsupported(followIsDriven)
        case .workspace(.next): return action("FocusWorkspaceDown")
        case .workspace(.previous): return action("FocusWorkspaceUp")
        case .workspace(.number(let n)):
            return n <= niriWorkspaces ? action("FocusWorkspace", #""reference":{"Index":\#(n)}"#) : .unsupported(niriNumbers)
        case .moveWindow(.next): return action("MoveWindowToWorkspaceDown", #""focus":true"#)
        case .moveWindow(.previous): return action("MoveWindowToWorkspaceUp", #""focus":true"#)
        case .moveWindow(.number(let n)):
            return n <= niriWorkspaces
                ? action("MoveWindowToWorkspace", #""window_id":null,"reference":{"Index":\#(n)},"focus":true"#) : .unsupported(niriNumbers)
        case .overview(.toggle): return action("ToggleOverview")
        case .overview(.on): return action("OpenOverview")
        case .overview(.off): return action("CloseOverview")
        case .showDesktop: return .unsupported("niri has no \"show desktop\"")
        }
    }

    /// niri's workspace index is a `u8`.
    static let niriWorkspaces = 255
    static let niriNumbers = "niri numbers workspaces 1 to \(niriWorkspaces) only"

    /// KWin's own global shortcuts, by the names its System Settings page lists
    /// (kglobalaccel's `invokeShortcut`, what `qdbus … invokeShortcut` calls).
    static func kde(_ a: DesktopAction) -> Request {
        func shortcut(_ name: String) -> Request {
            .bus(destination: "org.kde.kglobalaccel", path: "/component/kwin", interface: "org.kde.kglobalaccel.Component",
                 member: "invokeShortcut", argument: name)
        }
        switch a {
        case .follow: return .unsupported(followIsDriven)
        case .workspace(.next): return shortcut("Switch One Desktop to the Right")
        case .workspace(.previous): return shortcut("Switch One Desktop to the Left")
        case .workspace(.number(let n)):
            return n <= kdeDesktops ? shortcut("Switch to Desktop \(n)") : .unsupported("KDE Plasma has shortcuts for desktops 1 to \(kdeDesktops) only")
        case .moveWindow(.next): return shortcut("Window One Desktop to the Right")
        case .moveWindow(.previous): return shortcut("Window One Desktop to the Left")
        case .moveWindow(.number(let n)):
            return n <= kdeDesktops ? shortcut("Window to Desktop \(n)") : .unsupported("KDE Plasma has shortcuts for desktops 1 to \(kdeDesktops) only")
        case .overview(.toggle): return shortcut("Overview")
        case .overview: return .unsupported("KDE Plasma's overview can only be toggled (overview: toggle)")
        case .showDesktop: return shortcut("Show Desktop")
        }
    }

    /// KWin's "Switch to Desktop N" and "Window to Desktop N" shortcuts exist up to 20.
    static let kdeDesktops = 20

    /// gestured's GNOME Shell extension (docs/GNOME.md), at the owner of org.gnome.Shell.
    static func gnome(_ a: DesktopAction) -> Request {
        func method(_ member: String, _ argument: String) -> Request {
            .bus(destination: "org.gnome.Shell", path: "/io/github/gestured/Shell", interface: "io.github.gestured.Shell",
                 member: member, argument: argument)
        }
        switch a {
        case .follow: return .unsupported(followIsDriven)
        case .workspace(let t): return method("SwitchWorkspace", t.description)
        case .moveWindow(let t): return method("MoveWindowToWorkspace", t.description)
        case .overview(let s): return method("Overview", s.rawValue)
        case .showDesktop(let s): return method("ShowDesktop", s.rawValue)
        }
    }

    /// ext-workspace-v1 switches workspaces, and nothing else: it has no window to move
    /// (another protocol lists windows), no overview, no "show desktop".
    static func extWorkspace(_ name: String, _ a: DesktopAction) -> Request {
        switch a {
        case .follow: return .unsupported(followIsDriven)
        case .workspace(.next): return .extWorkspace(.relative(1))
        case .workspace(.previous): return .extWorkspace(.relative(-1))
        case .workspace(.number(let n)): return .extWorkspace(.absolute(n - 1))
        case .moveWindow: return .unsupported("\(name) is reached through ext-workspace-v1, which cannot move a window")
        case .overview: return .unsupported("\(name) is reached through ext-workspace-v1, which has no overview")
        case .showDesktop: return .unsupported("\(name) is reached through ext-workspace-v1, which has no \"show desktop\"")
        }
    }

    static func x11(_ a: DesktopAction) -> Request {
        func target(_ t: WorkspaceTarget) -> EWMHClient.Target {
            switch t {
            case .next: return .relative(1)
            case .previous: return .relative(-1)
            case .number(let n): return .absolute(n - 1)
            }
        }
        switch a {
        case .follow: return .unsupported(followIsDriven)
        case .workspace(let t): return .ewmh(.switchDesktop(target(t)))
        case .moveWindow(let t): return .ewmh(.moveActiveWindow(target(t)))
        case .overview: return .unsupported("EWMH has no overview")
        case .showDesktop(.toggle): return .ewmh(.toggleShowingDesktop)
        case .showDesktop: return .unsupported("EWMH's show desktop is toggled (show-desktop: toggle)")
        }
    }
}

extension Desktop {
    /// A refusal with what would fix it, where that is known: on GNOME, a bus error that
    /// says nothing answers at the extension's object means the extension is off.
    public func explain(_ problem: String) -> String {
        guard case .gnome = self, ["UnknownObject", "UnknownMethod", "UnknownInterface"].contains(where: problem.contains) else { return problem }
        return problem + "; the gestured GNOME Shell extension is not running: enable it with: \(GNOMEShellSource.enableCommand)"
    }

    /// For `check` and the daemon's start: each desktop action of `config` that this
    /// desktop cannot do, as `gesture 'NAME': overview toggle: sway has no overview`.
    public func problems(in config: Config) -> [String] {
        var seen = Set<String>()
        var out: [String] = []
        for b in config.bindings {
            for case .desktop(let a) in GesturePhase.allCases.compactMap({ b.actions[$0] }) + [b.reverse].compactMap({ $0 }) {
                guard let why = cannot(a) else { continue }
                let line = "gesture '\(b.name)': \(a): \(why)"
                if seen.insert(line).inserted { out.append(line) }
            }
        }
        return out
    }
}

extension Desktop {
    /// Whether gestured can move this desktop's own transitions with the fingers; where
    /// not, a follow is one step as the pan begins (`OneStepFollow`).
    public var animatesFollow: Bool {
        if case .gnome = self { return true }
        return playsFollowOnTouchpad
    }

    /// Whether a follow is played on gestured's virtual touchpad as this desktop's own
    /// touchpad swipe (its compositor's libinput makes a swipe of it).
    public var playsFollowOnTouchpad: Bool {
        switch self {
        case .kde, .hyprland, .niri: return true
        default: return false
        }
    }

    /// For `check`: a follow on a desktop that animates none, said once.
    public func followNote(in config: Config) -> String? {
        guard !animatesFollow, config.bindings.contains(where: { if case .desktop(.follow)? = $0.actions[.began] { return true } else { return false } })
        else { return nil }
        return OneStepFollow.note(name)
    }
}
