import DaemonCore
import GestureConfig
import GestureEngine
import GestureInput
import TouchModel
@testable import Commands
@testable import DaemonLoop
import JSON
@testable import LiveView

/// The text scenarios' daemon: the daemon's core (`DaemonCore`) fed one device's
/// frames, its timer, and what the daemon hears besides (the focused app, the screen's
/// rotation, a reload, `gestured enable/disable`), its outputs written as the lines
/// `gestured replay` prints. So the scenarios test what `gestured run` decides, not
/// only the engine.
///
/// What stays outside the core stays here as the daemon has it: the decoder (which
/// turns the positions) and which rotation the device follows (`ScreenRotation.choice`:
/// the compositor's, else the config's `rotation: orientation:`, for the devices
/// `rotation: devices:` names).
///
/// Each input returns the lines it made `replay` print: each gesture event, then what
/// it would run. Time is the caller's: frames carry theirs, and `timer(at:)` is the
/// daemon's timerfd firing punctually (the caller calls it before each of the other
/// inputs, as a punctual timer would have fired first).
final class ScenarioDaemon {
    private let decoder: TouchDecoder
    private let name: String
    private let path = "/dev/input/scenario"
    /// The instant printed times count from.
    private let start: Timestamp
    private let core: DaemonCore
    /// The screen's rotation as the compositor said it; nil: it has said nothing, and
    /// the config's `rotation: orientation:` stands (`ScreenRotation.choice`).
    private var screen: Orientation?
    /// The rotation the device follows; nil: it does not (`DeviceSession.rotation`).
    private var rotation: Orientation?

    /// The device adopted (`Daemon.adopt`): the rotation it follows first, then the
    /// core's session for it. `app`: the focused app when it starts.
    init(config: Config, decoder: TouchDecoder, name: String, app: String?, start: Timestamp) {
        self.decoder = decoder
        self.name = name
        self.start = start
        core = DaemonCore(config: config)
        core.focus(app)
        rotation = Self.choice(config, decoder, name, screen: nil)
        decoder.setOrientation(rotation ?? .normal)
        core.add(DaemonCore.Device(path: path, info: decoder.capabilities.deviceInfo(name: name), calibration: decoder.calibration,
                                   orientation: decoder.orientation))
        core.outputs.removeAll()
    }

    // MARK: Inputs

    func frame(_ frame: UnsafePointer<TouchFrame>) -> [String] {
        core.frame(frame, device: path)
        return lines()
    }

    func timer(at now: Timestamp) -> [String] {
        core.timer(at: now)
        return lines()
    }

    func focus(_ app: String?) -> [String] {
        core.focus(app)
        return lines()
    }

    /// The compositor says the screen is turned so (`Daemon.followRotation`).
    func rotate(_ orientation: Orientation) -> [String] {
        screen = orientation
        followRotation()
        return lines()
    }

    /// A valid config replaces the running one at `now` (`Daemon.reload`).
    func reload(config new: Config, at now: Timestamp) -> [String] {
        core.replace(config: new, at: now)
        let cancelled = lines()
        // ScreenRotation.update: the new `rotation:` is asked again.
        followRotation()
        return cancelled + lines()
    }

    func setEnabled(_ on: Bool, name: String) -> [String] {
        core.setEnabled(on, name: name)
        return lines()
    }

    // MARK: What the daemon does around the core

    /// `ScreenRotation.choice`: a device that follows the screen takes the
    /// compositor's rotation, else the config's; one that does not, none.
    private static func choice(_ config: Config, _ decoder: TouchDecoder, _ name: String, screen: Orientation?) -> Orientation? {
        let settings = config.rotation
        return settings.follows(decoder.capabilities.deviceInfo(name: name)) ? screen ?? settings.orientation : nil
    }

    /// `Daemon.followRotation`: the decoder turns the positions, the core the engine.
    private func followRotation() {
        let choice = Self.choice(core.config, decoder, name, screen: screen)
        guard choice != rotation else { return }
        rotation = choice
        decoder.setOrientation(choice ?? .normal)
        core.rotation(choice ?? .normal, device: path)
    }

    /// The core's outputs as `replay`'s lines: each event, then what it would run (the
    /// batch's invocations of its gesture and trigger); of the `GESTURE_*` environment
    /// under a command, only `GESTURE_STEP`.
    private func lines() -> [String] {
        defer { core.outputs.removeAll(keepingCapacity: true) }
        var events: [GestureEvent] = []
        var invocations: [Invocation] = []
        var ignored: [(gesture: String, phase: GesturePhase, why: String)] = []
        for o in core.outputs {
            switch o {
            case .event(_, let e, _): events.append(e)
            case .invocation(let inv): invocations.append(inv)
            case .ignored(let gesture, let phase, _, let why): ignored.append((gesture, phase, why))
            default: break
            }
        }
        var out: [String] = []
        for e in events {
            let trigger = ActionMapper.trigger(e.phase)
            let mine = invocations.filter { $0.gesture == e.name && ($0.trigger == trigger || $0.trigger == "hold") }
            invocations.removeAll { $0.gesture == e.name && ($0.trigger == trigger || $0.trigger == "hold") }
            out += ReplayCommand.textLines(e, at: e.time.seconds(since: start), invocations: mine)
                .flatMap { $0.split(separator: "\n").map(String.init) }
                .filter { !$0.hasPrefix("        GESTURE_") || $0.hasPrefix("        GESTURE_STEP=") }
            // As `replay` says a repeat `ignore-repeats` dropped, under its event.
            if let k = ignored.firstIndex(where: { $0.gesture == e.name && $0.phase == e.phase }) {
                out.append("    " + ignored.remove(at: k).why)
            }
        }
        return out
    }
}
