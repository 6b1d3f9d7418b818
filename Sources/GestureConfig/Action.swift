/// What one config key (`command`, `begin`, `update`, `end`, `cancel`) makes happen:
/// a shell command, input written through gestured's virtual device, or a request to
/// the running desktop. The mapper decides which action a gesture event causes; a
/// sink decides how to carry it out (the process runner, the virtual device, the
/// desktop's own interface, the dry-run printer).
public enum Action: Sendable, Equatable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// `/bin/sh -c` text, run with the gesture's `GESTURE_*` variables.
    case command(String)
    /// Key combinations, pressed and released one after another.
    case keys([KeyChord])
    /// A click: press, release.
    case button(MouseButton)
    /// Wheel motion.
    case scroll(Scroll)
    /// Keys pressed when a gesture with `hold:` begins, released by `.release`: the
    /// mapper emits both, so a press without its release cannot be configured.
    case press(KeyChord)
    case release(KeyChord)
    /// `{workspace: next}`, `{overview: toggle}`…: asked of the running desktop.
    case desktop(DesktopAction)

    public init(stringLiteral command: String) { self = .command(command) }

    /// Which sink carries an action out. Every kind names its own, so a new kind of
    /// action does not compile until it has one (nothing falls through to the keyboard).
    public enum Sink: Sendable, Equatable {
        /// The process runner: `/bin/sh -c`.
        case commands
        /// The virtual input device.
        case input
        /// The running desktop's own interface (IPC, D-Bus, EWMH).
        case desktop
    }

    public var sink: Sink {
        switch self {
        case .command: return .commands
        case .keys, .button, .scroll, .press, .release: return .input
        case .desktop: return .desktop
        }
    }

    /// Whether a sink that cannot keep up may drop it whole: keys, clicks and scrolls.
    /// A `hold:` press or release never: a key would stay down, or come up unasked.
    public var mayBeDropped: Bool {
        switch self {
        case .keys, .button, .scroll: return true
        case .command, .press, .release, .desktop: return false
        }
    }

    /// As `--dry-run`, `watch` and `replay` print it: the command itself, or
    /// `keys super+Page_Down`, `button middle`, `scroll down 3`, `press alt`.
    public var description: String {
        switch self {
        case .command(let c): return c
        case .keys(let chords): return "keys " + chords.map(\.description).joined(separator: ", ")
        case .button(let b): return "button " + b.rawValue
        case .scroll(let s): return "scroll " + s.description
        case .press(let chord): return "press " + chord.description
        case .release(let chord): return "release " + chord.description
        case .desktop(let d): return d.description
        }
    }
}

/// One key, as the config names it and as the kernel numbers it (`KEY_*`).
public struct Key: Sendable, Equatable, Hashable {
    /// As written in the config (`super`, `Page_Down`), for messages and dry runs.
    public var name: String
    public var code: UInt16

    public init(name: String, code: UInt16) {
        self.name = name
        self.code = code
    }
}

/// Keys pressed together: `super+Page_Down` presses super, then Page_Down, and
/// releases them in the opposite order.
public struct KeyChord: Sendable, Equatable {
    public var keys: [Key]

    public init(_ keys: [Key]) { self.keys = keys }

    public var description: String { keys.map(\.name).joined(separator: "+") }
}

/// `button:` values, with the codes a real mouse sends (back and forward are the
/// side buttons, BTN_SIDE and BTN_EXTRA, as libinput and X11 map them).
public enum MouseButton: String, Sendable, CaseIterable {
    case left, right, middle, back, forward

    public var code: UInt16 {
        switch self {
        case .left: return 0x110     // BTN_LEFT
        case .right: return 0x111    // BTN_RIGHT
        case .middle: return 0x112   // BTN_MIDDLE
        case .back: return 0x113     // BTN_SIDE
        case .forward: return 0x114  // BTN_EXTRA
        }
    }
}

/// `scroll: down 3`: a direction and an amount in wheel clicks (fractions are
/// written as high-resolution wheel motion, 120 units per click).
public struct Scroll: Sendable, Equatable {
    public enum Direction: String, Sendable, CaseIterable { case up, down, left, right }

    public var direction: Direction
    public var clicks: Double

    public init(_ direction: Direction, clicks: Double = 1) {
        self.direction = direction
        self.clicks = clicks
    }

    public var description: String {
        clicks == 1 ? direction.rawValue : direction.rawValue + " " + Self.number(clicks)
    }

    private static func number(_ x: Double) -> String {
        x == x.rounded() ? String(Int(x)) : String(x)
    }
}

/// A desktop action: one spelling for every desktop, carried out through the
/// running desktop's own interface (docs/CONFIG.md's "Desktop actions" table).
public enum DesktopAction: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// Switch to a workspace.
    case workspace(WorkspaceTarget)
    /// Move the focused window to a workspace, and follow it there.
    case moveWindow(WorkspaceTarget)
    /// The overview (GNOME's Activities, KDE's Overview).
    case overview(Switch)
    /// Show the desktop, or bring the windows back.
    case showDesktop(Switch)
    /// `{workspace: follow}`, `{overview: follow}`: the desktop's own transition,
    /// moved with the fingers from the moment the gesture begins.
    case follow(Follow)

    /// `workspace next`, `overview toggle`: as dry runs and the log print it.
    public var description: String { "\(key.rawValue) \(argument)" }

    /// The config key that names it.
    public var key: DesktopActionKey {
        switch self {
        case .workspace: return .workspace
        case .moveWindow: return .moveWindow
        case .overview: return .overview
        case .showDesktop: return .showDesktop
        case .follow(let f): return f.transition == .workspace ? .workspace : .overview
        }
    }

    /// What follows the key: `next`, `3`, `toggle`.
    public var argument: String {
        switch self {
        case .workspace(let t), .moveWindow(let t): return t.description
        case .overview(let s), .showDesktop(let s): return s.rawValue
        case .follow: return "follow"
        }
    }
}

/// The desktop actions' config keys.
public enum DesktopActionKey: String, Sendable, CaseIterable {
    case workspace
    case moveWindow = "move-window"
    case overview
    case showDesktop = "show-desktop"

    /// The `Switch` values each takes (none: it takes a workspace).
    public var switches: [DesktopAction.Switch] {
        switch self {
        case .workspace, .moveWindow: return []
        case .overview: return DesktopAction.Switch.allCases
        // No desktop has a "show desktop" that can be asked whether it is on: KDE's
        // shortcut and EWMH's property both toggle.
        case .showDesktop: return [.toggle]
        }
    }
}

extension DesktopAction {
    /// `on`, `off`, `toggle`.
    public enum Switch: String, Sendable, CaseIterable {
        case toggle, on, off
    }
}

/// A workspace: the next or previous one on the same screen, or one by number from 1.
public enum WorkspaceTarget: Sendable, Equatable, Hashable, CustomStringConvertible {
    case next, previous
    case number(Int)

    /// Highest workspace number accepted: KDE's shortcuts go to 20; sway's numbers are
    /// unbounded, but a gesture for workspace 1000 is a typo.
    public static let maxNumber = 100

    public var description: String {
        switch self {
        case .next: return "next"
        case .previous: return "previous"
        case .number(let n): return String(n)
        }
    }
}

/// `{workspace: follow}`, `{overview: follow}` on a pan: the desktop's own transition
/// (the workspace strip, the overview) moves with the fingers, 1:1, and at the lift
/// settles as the desktop's own gesture does (commit or spring back, by position and
/// speed); a gesture cancelled on the way always springs back.
public struct Follow: Sendable, Equatable, Hashable {
    public enum Transition: String, Sendable, CaseIterable {
        case workspace, overview
    }

    public var transition: Transition
    /// `distance:`: the fingers' travel for a whole transition, mm; nil: the desktop's
    /// own for a touchpad, the screen's width or height for a touchscreen (the content
    /// stays under the fingers).
    public var distanceMM: Double?
    /// `reverse: true`: the other way round from the desktop's own touchpad convention.
    public var reversed: Bool

    public init(transition: Transition, distanceMM: Double? = nil, reversed: Bool = false) {
        self.transition = transition
        self.distanceMM = distanceMM
        self.reversed = reversed
    }
}
