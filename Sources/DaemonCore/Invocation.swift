import GestureConfig
import GestureEngine
import TouchModel

/// One action to carry out, with the gesture that caused it. Gesture values travel
/// only in `environment`; a command is the config's text, untouched.
public struct Invocation: Sendable, Equatable {
    /// The binding's name: actions of one gesture run in order, and log lines carry it.
    public var gesture: String
    /// The config key that produced it (`command`, `begin`, `update`, `end`, `cancel`, `hold`).
    public var trigger: String
    public var action: Action
    /// `GESTURE_*` variables, added to the daemon's own environment.
    public var environment: [(name: String, value: String)]
    /// A follow's step (`{workspace: follow}`): where the fingers are, for the desktop's
    /// transition; nil for every other action.
    public var motion: FollowMotion?
    /// Who asked for it when not a gesture: `gestured trigger` (.manual) or a desktop's
    /// shortcut; nil for a gesture's own action. The event stream's `by` says it.
    public var origin: TriggerOrigin?

    public init(gesture: String, trigger: String, action: Action, environment: [(name: String, value: String)]) {
        self.gesture = gesture
        self.trigger = trigger
        self.action = action
        self.environment = environment
    }

    public init(gesture: String, trigger: String, command: String, environment: [(name: String, value: String)]) {
        self.init(gesture: gesture, trigger: trigger, action: .command(command), environment: environment)
    }

    /// The action as text: a command's own text (what the runner runs), or
    /// `keys super+Page_Down` for a built-in action (what dry runs print).
    public var command: String { action.description }

    public static func == (a: Invocation, b: Invocation) -> Bool {
        a.gesture == b.gesture && a.trigger == b.trigger && a.action == b.action && a.motion == b.motion && a.origin == b.origin
            && a.environment.elementsEqual(b.environment) { $0.name == $1.name && $0.value == $1.value }
    }

    public func value(of name: String) -> String? {
        environment.first { $0.name == name }?.value
    }
}

extension Invocation {
    /// Moves each key release of a batch (one frame's gesture events) as early as its
    /// own gesture's order allows: the arena reports a winner before the gesture it
    /// cancels, and a key the loser held must not still be down for the winner's keys
    /// (`super` held by a hold would turn the swipe's Page_Down into super+Page_Down).
    /// A gesture's own actions keep their order, so a press is never moved past its release.
    public static func releasesFirst(_ batch: inout [Invocation]) {
        guard batch.count > 1, batch.contains(where: { if case .release = $0.action { return true } else { return false } }) else { return }
        var out: [Invocation] = []
        out.reserveCapacity(batch.count)
        for inv in batch {
            guard case .release = inv.action else { out.append(inv); continue }
            let after = out.lastIndex { $0.gesture == inv.gesture }.map { $0 + 1 } ?? 0
            out.insert(inv, at: after)
        }
        batch = out
    }
}

/// What became of an invocation, as the event stream reports it (`action` lines).
public enum ActionOutcome: Equatable, Sendable {
    /// A command was spawned.
    case started(pid: Int32)
    /// It exited by itself; `status` nil when someone else reaped it.
    case exited(pid: Int32, status: Int32?)
    /// It died of a signal gestured did not send.
    case killed(pid: Int32, signal: Int32)
    /// It ran past `command-timeout` and gestured signalled its group.
    case timedOut(pid: Int32)
    /// The caps (`max-children`, `queue-length`) left no room, or it could not start.
    case dropped
    /// `--dry-run`: printed, not run.
    case dryRun
    /// Keys, a click or a scroll, sent to the virtual device.
    case sent
}

/// Priorities as syslog and journald number them.
public enum LogPriority: Int, Sendable, Comparable {
    case error = 3, warning = 4, notice = 5, info = 6, debug = 7
    public static func < (a: LogPriority, b: LogPriority) -> Bool { a.rawValue < b.rawValue }
}

/// One step of a follow (`{workspace: follow}`, `{overview: follow}` on a pan): what the
/// desktop's transition is moved by. The sink turns the translation into the desktop's
/// own progress (its travel, its direction convention, the binding's `distance:` and
/// `reverse:`); values, not text, so a frame's step costs no allocation.
public struct FollowMotion: Sendable, Equatable {
    public enum Phase: String, Sendable {
        /// The pan began: the transition starts, already as far as the fingers went.
        case begin
        /// The fingers moved.
        case update
        /// They lifted: the desktop commits or springs back, by position and speed.
        case end
        /// The gesture was cancelled (it lost, the device went, a reload, the daemon
        /// stopping): the transition always springs back.
        case cancel
    }

    public var phase: Phase
    /// The frame's time (CLOCK_MONOTONIC in the daemon), for the desktop's own
    /// velocity window.
    public var time: Timestamp
    /// The fingers' travel since they landed, mm, on the screen as the user sees it
    /// (+x right, +y down).
    public var translation: Point
    /// mm/s, the same axes.
    public var velocity: Point
    /// What the fingers are on: a touchpad follows the desktop's touchpad travel, a
    /// touchscreen its own size (the content stays under the fingers).
    public var device: DeviceKind
    /// The surface's size as turned, mm.
    public var surface: Size
    public var fingers: Int

    public init(phase: Phase, time: Timestamp, translation: Point, velocity: Point, device: DeviceKind, surface: Size, fingers: Int) {
        self.phase = phase
        self.time = time
        self.translation = translation
        self.velocity = velocity
        self.device = device
        self.surface = surface
        self.fingers = fingers
    }
}
