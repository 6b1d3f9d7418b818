/// Which focused-app source the session offers, from its environment. Each desktop
/// announces itself there: sway, i3 and niri export their IPC socket, Hyprland its instance
/// signature, Plasma and GNOME `XDG_CURRENT_DESKTOP`, X11 `DISPLAY`; any other Wayland
/// compositor `WAYLAND_DISPLAY`, and is asked for wlr-foreign-toplevel-management.
public enum FocusDetection {
    public enum Outcome {
        case source(any FocusSource)
        /// No source on this desktop: the reason, for the log and `gestured status`.
        case none(String)
    }

    public static func detect(_ env: [String: String]) -> Outcome {
        if let path = env["SWAYSOCK"], !path.isEmpty { return .source(I3IPCSource(name: "sway", socketPath: path)) }
        if let sig = env["HYPRLAND_INSTANCE_SIGNATURE"], !sig.isEmpty {
            return .source(HyprlandSource(directory: HyprlandSource.directory(signature: sig, environment: env)))
        }
        if let path = env["I3SOCK"], !path.isEmpty { return .source(I3IPCSource(name: "i3", socketPath: path)) }
        if let path = env["NIRI_SOCKET"], !path.isEmpty { return .source(NiriSource(socketPath: path)) }
        let desktop = (env["XDG_CURRENT_DESKTOP"] ?? "").split(separator: ":").map { $0.uppercased() }
        let wayland = !(env["WAYLAND_DISPLAY"] ?? "").isEmpty || env["XDG_SESSION_TYPE"] == "wayland"
        if wayland, desktop.contains("KDE") {
            guard let bus = SessionBus.address(env) else {
                return .none("KDE Plasma on Wayland, but no session bus in the environment (DBUS_SESSION_BUS_ADDRESS, XDG_RUNTIME_DIR) to load the focus script over; per-application gestures are off")
            }
            return .source(KWinSource(busAddress: bus, scriptDirectory: env["XDG_RUNTIME_DIR"] ?? "/tmp"))
        }
        if wayland, desktop.contains("GNOME") {
            guard let bus = SessionBus.address(env) else {
                return .none("GNOME on Wayland, but no session bus in the environment (DBUS_SESSION_BUS_ADDRESS, XDG_RUNTIME_DIR) to reach gestured's GNOME Shell extension on; per-application gestures are off")
            }
            return .source(GNOMEShellSource(busAddress: bus))
        }
        if let display = env["DISPLAY"], !display.isEmpty, !wayland { return .source(X11Source(display: display)) }
        // Any other Wayland compositor: the wlroots window list (labwc, wayfire, river…);
        // the source says so if the compositor does not offer it.
        if wayland {
            guard let socket = WaylandClient.socket(env) else {
                return .none("a Wayland session, but no WAYLAND_DISPLAY and XDG_RUNTIME_DIR in the environment to reach the compositor at; per-application gestures are off")
            }
            let name = env["XDG_CURRENT_DESKTOP"].flatMap { $0.isEmpty ? nil : $0 }
            return .source(WlrForeignToplevelSource(socket: socket, compositor: name))
        }
        return .none("no desktop session in the environment (no SWAYSOCK, I3SOCK, HYPRLAND_INSTANCE_SIGNATURE, WAYLAND_DISPLAY or DISPLAY); per-application gestures are off")
    }
}
