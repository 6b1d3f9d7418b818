import DaemonCore
import GestureActions
import GestureConfig
import GestureEngine
import LinuxSystem
import TouchModel

/// KDE Plasma, Hyprland and niri: a follow is played on gestured's virtual touchpad as
/// the desktop's own N-finger touchpad swipe (docs/INPUT.md, "The virtual touchpad"),
/// so the compositor's libinput makes a swipe of it and its own animated transition
/// moves. At the lift the fingers lift where they are, and the desktop decides, as for
/// its own touchpad; a cancel takes them back to where the swipe began first.
final class VirtualTouchpadFollow: FollowDriver {
    /// A desktop's own touchpad swipe for a transition: its finger count, the axis it
    /// moves along when the desktop fixes one, and the virtual fingers' travel for a
    /// whole transition, mm (KWin: 200 accelerated units, about 19 mm at the speeds of a
    /// swipe; Hyprland's `workspace_swipe_distance` and niri's step: 300 units, 28.5 mm
    /// at libinput's 10.52 unaccelerated units a mm).
    struct Swipe: Equatable {
        var fingers: Int
        var axis: Axis?
        var travelMM: Double
    }

    static func swipe(_ desktop: Desktop, _ t: Follow.Transition) -> Swipe? {
        switch (desktop, t) {
        case (.kde, _): return Swipe(fingers: 4, axis: t == .overview ? .vertical : nil, travelMM: 19)
        case (.hyprland, .workspace): return Swipe(fingers: 3, axis: nil, travelMM: 28.5)
        case (.niri, .workspace): return Swipe(fingers: 3, axis: .vertical, travelMM: 28.5)
        case (.niri, .overview): return Swipe(fingers: 4, axis: .vertical, travelMM: 28.5)
        default: return nil
        }
    }

    private let pad: () -> VirtualTouchpad?
    private let desktop: Desktop
    private let fingers: Int?
    private let now: () -> Timestamp
    private let fallback: OneStepFollow
    private var playing: VirtualTouchpad?
    private var axis = Axis.horizontal
    private var travel = 0.0
    private var virtualTravel = 0.0
    /// Which way the virtual fingers pre-rolled: fingers left or up are forward.
    private var sign = FloatingPointSign.minus

    /// `pad`: the device, made once beforehand (a compositor takes a moment to add
    /// one); nil when it could not be made, and a follow is then its one step.
    init(pad: @escaping () -> VirtualTouchpad?, desktop: Desktop, fingers: Int?, fallback: OneStepFollow, now: @escaping () -> Timestamp) {
        self.pad = pad
        self.desktop = desktop
        self.fingers = fingers
        self.fallback = fallback
        self.now = now
    }

    func step(_ follow: Follow, _ motion: FollowMotion, gesture: String) -> Double? {
        if motion.phase == .begin {
            playing = nil
            guard let swipe = Self.swipe(desktop, follow.transition), let device = pad() else {
                return fallback.step(follow, motion, gesture: gesture)
            }
            playing = device
            axis = FollowDrivers.axis(follow, motion, desktop: swipe.axis)
            travel = FollowDrivers.travel(follow, motion, axis: axis, touchpad: swipe.travelMM)
            virtualTravel = swipe.travelMM
            let p = FollowDrivers.progress(follow, motion, axis: axis, travel: travel)
            sign = p >= 0 ? .minus : .plus
            let t = now()
            device.begin(fingers: fingers ?? swipe.fingers, axis: axis, sign: sign, at: t)
            device.move(to: abs(p) * virtualTravel, at: t)
            return p
        }
        guard let device = playing else { return nil }
        let p = FollowDrivers.progress(follow, motion, axis: axis, travel: travel)
        let mm = p * virtualTravel * (sign == .minus ? 1 : -1)
        switch motion.phase {
        case .begin, .update:
            device.move(to: mm, at: now())
        case .end:
            let t = now()
            device.move(to: mm, at: t)
            device.end(commit: true, at: t)
            playing = nil
        case .cancel:
            device.end(commit: false, at: now())
            playing = nil
        }
        return p
    }

    var deadline: Timestamp? { pad()?.deadline }

    func timerFired(at now: Timestamp) { pad()?.timerFired(at: now) }
}
