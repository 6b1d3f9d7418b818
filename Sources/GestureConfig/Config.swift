import GestureEngine
import PlainText
import TouchModel

/// A loaded, validated config: the specs the engine runs and, index for index,
/// what each one does.
public struct Config: Sendable, Equatable {
    /// The file it came from, as named in diagnostics (`<built-in default>` for the built-in one).
    public var file: String
    public var settings: Settings
    /// The devices to grab and pass through a clone (`grab:`).
    public var grab: GrabSelection
    /// Which devices follow the screen's rotation, and from where (`rotation:`).
    public var rotation = RotationSettings()
    /// One per binding, in file order (order breaks ties in arbitration).
    public var specs: [GestureSpec]
    /// `bindings[i]` holds the actions of `specs[i]` (`GestureEvent.index`).
    public var bindings: [Binding]
    /// The gestures whose `desktop:` names another desktop than this session's
    /// (`forDesktop`): off, and not run by `gestured trigger` either.
    public var offDesktop: Set<String> = []

    /// Most gestures a file may configure: far more than anyone binds (the default
    /// config has a dozen), few enough that every touch frame, which goes through each
    /// gesture's recognizer, and every check of the file stay fast.
    public static let maximumGestures = 1000

    /// The most fingers a gesture listening to `device` takes (0: none listens): what
    /// `grab: hold-back:` waits for a sequence to outgrow.
    public func maximumFingers(on device: DeviceInfo) -> Int {
        specs.filter { $0.devices.admits(device) }.map(\.fingers.upperBound).max() ?? 0
    }

    public init(file: String, settings: Settings = Settings(), grab: GrabSelection = GrabSelection(),
                specs: [GestureSpec] = [], bindings: [Binding] = []) {
        self.file = file
        self.settings = settings
        self.grab = grab
        self.specs = specs
        self.bindings = bindings
    }
}

/// The `settings:` section: limits on the commands the daemon runs.
public struct Settings: Sendable, Equatable {
    /// A command still running after this many seconds is killed with its process group.
    public var commandTimeout: Double = 30
    /// Most commands running at once; past it new commands are dropped with a warning.
    public var maxChildren: Int = 8
    /// Most commands one gesture may have waiting behind its running one.
    public var queueLength: Int = 8
    /// Default window for `after:` when a gesture gives no `within:`, seconds.
    public var sequenceWindow: Double = 1
    /// Seconds between a key's press and its release on the virtual device. 12 ms is
    /// ydotool's default and above the ~10 ms GNOME is reported to need: a press and
    /// release in the same instant are dropped by some compositors.
    public var keyDelay: Double = 0.012
    /// How many fingers a follow's swipe has on gestured's virtual touchpad (KDE Plasma,
    /// Hyprland, niri): nil, the desktop's own (KDE 4, Hyprland and niri 3; niri's
    /// overview 4).
    public var followFingers: Int?
    /// `accessibility:` (docs/ACCESSIBILITY.md); the default changes nothing.
    public var accessibility = AccessibilityProfile()

    public init() {}
}

/// The `grab:` section: which devices gestured takes for itself, by kind or by name.
public struct GrabSelection: Sendable, Equatable {
    public var kinds: Set<DeviceKind> = []
    public var nameGlobs: [String] = []
    /// `hold-back:`, seconds; 0: every frame passes at once.
    public var holdBack: Double = 0

    public init(kinds: Set<DeviceKind> = [], nameGlobs: [String] = [], holdBack: Double = 0) {
        self.kinds = kinds
        self.nameGlobs = nameGlobs
        self.holdBack = holdBack
    }

    public var isEmpty: Bool { kinds.isEmpty && nameGlobs.isEmpty }

    public func matches(_ device: DeviceInfo) -> Bool {
        kinds.contains(device.kind) || nameGlobs.contains { Glob.matches($0, device.name) }
    }
}

/// The `rotation:` section (docs/INPUT.md, "Screen rotation").
public struct RotationSettings: Sendable, Equatable {
    public var kinds: Set<DeviceKind> = [.touchscreen]
    public var nameGlobs: [String] = []
    /// Follow iio-sensor-proxy where the compositor does not tell.
    public var sensor = false
    /// Where neither the compositor nor the sensor tells.
    public var orientation = Orientation.normal
    /// The output the touchscreens show on; nil: the built-in panel.
    public var output: String?
    /// The output of each device whose name matches a glob (`output:` as a mapping), in
    /// the file's order: a second touchscreen on an external monitor.
    public var deviceOutputs: [(glob: String, output: String)] = []

    public init() {}

    public func follows(_ device: DeviceInfo) -> Bool {
        kinds.contains(device.kind) || nameGlobs.contains { Glob.matches($0, device.name) }
    }

    /// The output `device` shows on: the first glob its name matches, else `output`.
    public func output(for device: DeviceInfo) -> String? {
        deviceOutputs.first { Glob.matches($0.glob, device.name) }?.output ?? output
    }

    public static func == (a: RotationSettings, b: RotationSettings) -> Bool {
        a.kinds == b.kinds && a.nameGlobs == b.nameGlobs && a.sensor == b.sensor && a.orientation == b.orientation
            && a.output == b.output && a.deviceOutputs.elementsEqual(b.deviceOutputs) { $0 == $1 }
    }
}

/// What one configured gesture does: an action (a command, keys, a click, a scroll) per phase.
public struct Binding: Sendable, Equatable {
    public var name: String
    public var kind: GestureKind
    /// Line of the binding in its file, for log messages that point back at it.
    public var line: Int
    /// `.recognized` for discrete gestures (`command:`); `.began`, `.changed`,
    /// `.ended`, `.cancelled` for continuous ones (`begin:`, `update:`, `end:`, `cancel:`).
    public var actions: [GesturePhase: Action]
    /// `every:` — run `update` once per step crossed instead of on every change.
    public var step: Step?
    /// `update:`'s `reverse:`: what a step the other way does (else `update` itself).
    public var reverse: Action?
    /// `hold:` — keys pressed when the gesture begins and released however it ends.
    public var hold: KeyChord?
    /// `desktop:` — only on these desktops (`XDG_CURRENT_DESKTOP` entries); empty: everywhere.
    public var desktops: [String] = []
    /// `shortcut:` — a key combination that runs it without the gesture (on GNOME, through the extension).
    public var shortcut: Shortcut?

    /// Longest command, in bytes. It runs as one argument of `/bin/sh -c`, and Linux
    /// refuses any one argument longer than MAX_ARG_STRLEN (32 pages of 4 KiB, with its
    /// NUL) with E2BIG; `check` refuses it rather than have it fail at every gesture.
    public static let maximumCommandBytes = 32 * 4096 - 1

    public init(name: String, kind: GestureKind, line: Int = 0, actions: [GesturePhase: Action] = [:], step: Step? = nil,
                reverse: Action? = nil, hold: KeyChord? = nil) {
        self.name = name
        self.kind = kind
        self.line = line
        self.actions = actions
        self.step = step
        self.reverse = reverse
        self.hold = hold
    }

    /// Whether any phase (or `reverse:`) asks something of the desktop.
    public var hasDesktopAction: Bool { reverse?.sink == .desktop || actions.values.contains { $0.sink == .desktop } }

    /// Whether any phase needs the virtual input device.
    public var needsInput: Bool { hold != nil || reverse?.sink == .input || actions.values.contains { $0.sink == .input } }
}

/// The size of one `update` step.
public enum Step: Sendable, Equatable {
    /// Translation along an axis, mm; up and right count positive.
    case distance(mm: Double, axis: Axis)
    /// Rotation, degrees; clockwise counts positive.
    case angle(degrees: Double)
    /// Pinch scale factor (> 1); spreading counts positive.
    case scale(factor: Double)
}
