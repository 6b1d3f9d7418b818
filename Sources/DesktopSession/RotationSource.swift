/// How one output is turned, as its compositor (or the accelerometer) says: what the
/// daemon turns its touchscreens' contacts by (docs/INPUT.md, "Screen rotation").
public struct OutputRotation: Sendable, Equatable {
    /// The compositor's name for the output (`eDP-1`, `HEADLESS-1`); empty for the
    /// accelerometer, which speaks for the built-in panel.
    public var output: String
    /// 0, 90, 180 or 270: the output's transform, as wl_output names it (the picture
    /// turned so far counter-clockwise, the device as far clockwise).
    /// A mirrored transform (`flipped-90`) counts as its turn: no panel is mounted
    /// mirrored, and a mirrored picture is set by hand, not by turning the device.
    public var degrees: Int

    public init(output: String, degrees: Int) {
        self.output = output
        self.degrees = degrees
    }

    /// A built-in panel's connector, as the kernel's DRM names it and the compositors
    /// pass on: embedded DisplayPort, LVDS, DSI.
    public var isBuiltIn: Bool {
        output.hasPrefix("eDP") || output.hasPrefix("LVDS") || output.hasPrefix("DSI")
    }

    /// sway's words for a transform: `normal`, `90`, …, `flipped-270`. sway turns the
    /// picture clockwise (`transform 90` sets wl_output's 270, which its clients are
    /// told), so its quarter turns are the other way round from wl_output's.
    static func degrees(ofSwayTransform word: String) -> Int? {
        let turn = word.hasPrefix("flipped") ? String(word.dropFirst("flipped".count).drop { $0 == "-" }) : word
        switch turn {
        case "", "normal", "0": return 0
        case "90": return 270
        case "180": return 180
        case "270": return 90
        default: return nil
        }
    }
}

/// Where the screen's rotation comes from, told by events on the daemon's loop, never
/// polled: the compositor's outputs (Mutter's DisplayConfig, Wayland's `wl_output`, sway's
/// IPC, X11's RandR),
/// or iio-sensor-proxy's accelerometer.
public protocol RotationSource: AnyObject {
    /// "mutter", "wayland", "sway", "randr", "iio-sensor-proxy": for the log and `gestured status`.
    var name: String { get }
    /// Where it connects (a socket path, a bus).
    var endpoint: String { get }
    /// The outputs as last told; nil while it has not answered (not connected, or lost).
    var outputs: [OutputRotation]? { get }
    /// Connects (or schedules the first attempt). `onChange` gets every answer that
    /// differs from the last, nil when the source stops answering; `log` gets
    /// connection news, one line each.
    func start(on loop: FocusLoop, onChange: @escaping ([OutputRotation]?) -> Void, log: @escaping (String) -> Void)
    func stop()
}

/// Which compositor rotation sources the session offers, from its environment, in the
/// order they are believed: the first that has answered speaks for the screen.
public enum RotationDetection {
    public enum Outcome {
        case sources([any RotationSource])
        /// This desktop does not tell gestured its rotation: why, for the log and status.
        case none(String)
    }

    /// GNOME first: Mutter's DisplayConfig names each output's connector, which its
    /// wl_output (GNOME 43) does not; its wl_output stands in if DisplayConfig does not
    /// answer. Wayland next: every compositor tells its clients how each output is
    /// turned, and sway 1.7's IPC sends no event for it. sway's IPC where only it is in
    /// the environment (a service that imported SWAYSOCK alone): its outputs at connect,
    /// and on the `output` events sway 1.8 and later send. An X server's RandR where
    /// there is no Wayland display (Xwayland's RandR would be its own, not the
    /// compositor's); on GNOME on X11, after DisplayConfig.
    public static func detect(_ env: [String: String]) -> Outcome {
        var found: [any RotationSource] = []
        if (env["XDG_CURRENT_DESKTOP"] ?? "").contains("GNOME"), let bus = SessionBus.address(env) {
            found.append(MutterDisplayConfigSource(busAddress: bus))
        }
        let wayland = !(env["WAYLAND_DISPLAY"] ?? "").isEmpty
        if let socket = WaylandOutputSource.socket(env) {
            found.append(WaylandOutputSource(socket: socket))
        } else if let path = env["SWAYSOCK"], !path.isEmpty {
            found.append(SwayOutputSource(socketPath: path))
        } else if let display = env["DISPLAY"], !display.isEmpty, !wayland {
            found.append(RandROutputSource(display: display))
        }
        if !found.isEmpty { return .sources(found) }
        let desktop = env["XDG_CURRENT_DESKTOP"].flatMap { $0.isEmpty ? nil : $0 } ?? "this desktop"
        return .none("\(desktop) does not tell gestured how its screen is turned (no WAYLAND_DISPLAY, SWAYSOCK or DISPLAY: a service without the session's environment)")
    }
}

/// What a rotation source does with what it hears: passes on changes only. A class:
/// `onChange` reads `outputs` back (through the source) while the report is made.
final class RotationReport {
    private(set) var outputs: [OutputRotation]?
    var onChange: ([OutputRotation]?) -> Void = { _ in }

    func report(_ new: [OutputRotation]?) {
        guard new != outputs else { return }
        outputs = new
        onChange(new)
    }
}
