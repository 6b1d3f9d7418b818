import DaemonCore
import GestureConfig
import GestureEngine
import TouchModel

/// How a follow (`{workspace: follow}`, `{overview: follow}` on a pan) reaches a
/// desktop: each step of the pan (`FollowMotion`: begin, update, end, cancel) moves the
/// desktop's own transition, or, where the desktop animates none, does its one step.
public protocol FollowDriver: AnyObject {
    /// One step of `follow`; the progress the desktop was given (a fraction of a whole
    /// transition, + forward), or nil when it was given none.
    func step(_ follow: Follow, _ motion: FollowMotion, gesture: String) -> Double?
    /// When the driver has something more to write without a step (a paced frame), for
    /// the daemon's timer; nil: nothing.
    var deadline: Timestamp? { get }
    func timerFired(at now: Timestamp)
}

extension FollowDriver {
    public var deadline: Timestamp? { nil }
    public func timerFired(at now: Timestamp) {}
}

/// The arithmetic every driver shares: which way is forward, and how far is a whole
/// transition.
public enum FollowDrivers {
    /// The one-step action a follow stands for, forward or back: the next or previous
    /// workspace, the overview shown or hidden.
    public static func oneStep(_ f: Follow, forward: Bool) -> DesktopAction {
        switch f.transition {
        case .workspace: return .workspace(forward ? .next : .previous)
        case .overview: return .overview(forward ? .on : .off)
        }
    }

    /// The axis a transition moves along: the overview up and down; workspaces along
    /// the axis the fingers went (sideways on most desktops, up and down on niri and on
    /// a GNOME with its workspaces in a column), or the desktop's when it says (`axis`).
    public static func axis(_ f: Follow, _ m: FollowMotion, desktop: Axis? = nil) -> Axis {
        if f.transition == .overview { return .vertical }
        if let desktop { return desktop }
        return abs(m.translation.y) > abs(m.translation.x) ? .vertical : .horizontal
    }

    /// How far the fingers travel for a whole transition, mm: `distance:`, else on a
    /// touchscreen the screen's width or height along the axis (what is under the
    /// fingers stays there), else the desktop's own touchpad travel.
    public static func travel(_ f: Follow, _ m: FollowMotion, axis: Axis, touchpad: Double) -> Double {
        if let d = f.distanceMM { return d }
        if m.device == .touchscreen {
            let size = axis == .horizontal ? m.surface.width : m.surface.height
            if size > 0 { return size }
        }
        return touchpad
    }

    /// A touchpad's travel for a whole transition, mm: GNOME's own (400 and 300 of
    /// libinput's unaccelerated units, its TOUCHPAD_BASE_WIDTH and _HEIGHT, at 10.52
    /// units a mm with libinput's default profile; docs/GNOME.md), also where a
    /// desktop says none.
    public static func defaultTouchpadTravel(_ f: Follow) -> Double { f.transition == .workspace ? 38 : 28.5 }

    /// The fraction of a whole transition the fingers have gone, + forward: the
    /// desktops' own touchpad convention (natural scrolling, as GNOME, KDE and
    /// Hyprland have it by default), fingers left or up go forward (the next workspace
    /// comes in from the right, the overview opens); `reverse: true` flips it.
    public static func progress(_ f: Follow, _ m: FollowMotion, axis: Axis, travel: Double) -> Double {
        guard travel > 0 else { return 0 }
        let along = axis == .horizontal ? -m.translation.x : -m.translation.y
        let p = along / travel
        return f.reversed ? -p : p
    }
}

/// A desktop that animates no transition (sway, i3, an X11 window manager, a
/// compositor reached through ext-workspace-v1): a follow is the one step its direction
/// says, done once, as the pan begins (past its `min-distance`). `gestured check` says so.
final class OneStepFollow: FollowDriver {
    private let perform: (DesktopAction, String) -> Void

    init(perform: @escaping (DesktopAction, String) -> Void) { self.perform = perform }

    func step(_ follow: Follow, _ motion: FollowMotion, gesture: String) -> Double? {
        guard motion.phase == .begin else { return nil }
        let p = FollowDrivers.progress(follow, motion, axis: FollowDrivers.axis(follow, motion), travel: 1)
        guard p != 0 else { return nil }
        return step(follow, forward: p > 0, gesture: gesture)
    }

    /// The one step, forward or back.
    func step(_ follow: Follow, forward: Bool, gesture: String) -> Double {
        perform(FollowDrivers.oneStep(follow, forward: forward), gesture)
        return forward ? 1 : -1
    }

    /// What `check` says of a follow on such a desktop.
    static func note(_ desktop: String) -> String {
        "\(desktop) animates no transition: a follow is one step (the next or previous workspace, the overview shown or hidden) when the pan begins"
    }
}
