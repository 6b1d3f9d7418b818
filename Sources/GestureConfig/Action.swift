/// What one config key (`command`, `begin`, `update`, `end`, `cancel`) makes happen:
/// a shell command, or input written through gestured's virtual device. The mapper
/// decides which action a gesture event causes; a sink decides how to carry it out
/// (the process runner, the virtual device, the dry-run printer).
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

    public init(stringLiteral command: String) { self = .command(command) }

    /// Whether the virtual device carries it out (everything but a command).
    public var isInput: Bool {
        if case .command = self { return false }
        return true
    }

    /// Whether a sink that cannot keep up may drop it whole: keys, clicks and scrolls.
    /// A `hold:` press or release never: a key would stay down, or come up unasked.
    public var mayBeDropped: Bool {
        switch self {
        case .keys, .button, .scroll: return true
        case .command, .press, .release: return false
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
