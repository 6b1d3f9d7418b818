import LinuxSystem

/// The application that has the keyboard focus, as a compositor names it: sway's, niri's
/// and a wlroots window list's `app_id`, an X11 window's `WM_CLASS` class, Hyprland's and
/// KWin's window class.
public struct FocusedApp: Sendable, Equatable, CustomStringConvertible {
    /// The app id or class; bindings' `apps:` globs match it.
    public var app: String
    /// The window title (for the log and `gestured status`; nothing matches on it).
    public var title: String

    /// Longest app id and title kept (scalars): any app sets its own title, and a
    /// 3 MiB one cut `gestured status` short and made `status --json` invalid.
    public static let maxAppLength = 256
    public static let maxTitleLength = 1024

    public init(app: String, title: String = "") {
        self.app = Self.cut(app, to: Self.maxAppLength)
        self.title = Self.cut(title, to: Self.maxTitleLength)
    }

    /// `text`, or its first `limit - 1` scalars and "…".
    static func cut(_ text: String, to limit: Int) -> String {
        let scalars = text.unicodeScalars
        guard scalars.count > limit else { return text }
        return String(String.UnicodeScalarView(scalars.prefix(limit - 1))) + "…"
    }

    public var description: String { title.isEmpty ? app : "\(app) (\(title))" }
}

/// What a focus source needs from the daemon's event loop: to be told when a
/// descriptor is readable. The daemon's `EventLoop` conforms; there is no thread
/// and no timeout: a source is woken only when its compositor says something, or
/// when its own reconnect timer (a timerfd, also on the loop) expires.
public protocol FocusLoop: AnyObject {
    func watch(_ descriptor: FileDescriptor, _ handler: @escaping () -> Void) throws
    func unwatch(_ descriptor: FileDescriptor)
}

/// One compositor's focused-window source, a state machine over non-blocking
/// sockets: connect → ask for the current focus and subscribe → read events → on
/// end of stream or a protocol error, close and reconnect after a backoff.
public protocol FocusSource: AnyObject {
    /// "sway", "i3", "hyprland", "niri", "x11", "kwin", "gnome", "wlr-foreign-toplevel": for the log and `gestured status`.
    var name: String { get }
    /// Where it connects (a socket path, a display, a bus) for the log.
    var endpoint: String { get }
    /// Whether it is connected and has told us the focus at least once.
    var connected: Bool { get }
    /// Why it cannot tell the focus though connected, with what would fix it (the GNOME
    /// Shell extension is off), for the log and `gestured status`; nil when nothing is wrong.
    var problem: String? { get }
    /// Connects (or schedules the first attempt). `onChange` gets every change of focus
    /// (nil: no window has the focus); `log` gets connection news, one line each.
    func start(on loop: FocusLoop, onChange: @escaping (FocusedApp?) -> Void, log: @escaping (String) -> Void)
    func stop()
}

extension FocusSource {
    public var problem: String? { nil }
}

/// What every source does with what it hears: passes on changes only, and remembers
/// that it has heard at least once since it connected (`connected` in status).
struct FocusReport {
    private(set) var told = false
    private var last: FocusedApp??
    var onChange: (FocusedApp?) -> Void = { _ in }

    /// A new connection: the next report is passed on whatever it says.
    mutating func reset() {
        told = false
        last = nil
    }

    mutating func report(_ app: FocusedApp?) {
        told = true
        if let last, last == app { return }
        last = .some(app)
        onChange(app)
    }
}
