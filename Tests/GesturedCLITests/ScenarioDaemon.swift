import GestureActions
import GestureConfig
import GestureEngine
import GestureInput
import TouchModel
@testable import GesturedCLI

/// The text scenarios' daemon: what `gestured run` does with one device's frames, its
/// timer, and what it hears besides (the focused app, the screen's rotation, a reload,
/// `gestured enable/disable`), written as the lines `gestured replay` prints.
///
/// The one place the scenarios know how the daemon behaves. Until the daemon has a pure
/// core, it does what `Daemon` and `DeviceSession` do, with the same engine, decoder
/// and mapper, call for call (each method names the code it follows); the core then
/// takes its body, and the scenarios' expected lines must not change.
///
/// Each input returns the lines it made `replay` print: each gesture event, and what
/// it would run. Time is the caller's: frames carry theirs, and `timer(at:)` is the
/// daemon's timerfd firing punctually (the caller calls it before each of the other
/// inputs, as a punctual timer would have fired first).
final class ScenarioDaemon {
    private let decoder: TouchDecoder
    private let name: String
    /// The instant printed times count from.
    private let start: Timestamp
    private var config: Config
    private var mapper: ActionMapper
    private var engine: GestureEngine
    /// The decoder's transform the engine was built for (`DeviceSession.engineTransform`).
    private var engineTransform: Int
    private var focusedApp: String?
    /// `gestured enable/disable` so far, by name (`Daemon.runtimeEnabled`).
    private var runtimeEnabled: [String: Bool] = [:]
    /// The screen's rotation as the compositor said it; nil: it has said nothing, and
    /// the config's `rotation: orientation:` stands (`ScreenRotation.choice`).
    private var screen: Orientation?
    /// The rotation the device follows; nil: it does not (`DeviceSession.rotation`).
    private var rotation: Orientation?
    private var events: [GestureEvent] = []
    private var invocations: [Invocation] = []
    private var lines: [String] = []

    /// The device adopted (`Daemon.adopt`): an engine for it, the daemon's state, the
    /// rotation it follows. `app`: the focused app when it starts.
    init(config: Config, decoder: TouchDecoder, name: String, app: String?, start: Timestamp) {
        self.config = config
        self.decoder = decoder
        self.name = name
        self.start = start
        focusedApp = app
        mapper = ActionMapper(config: config)
        engineTransform = decoder.transformGeneration
        engine = GestureEngine(device: decoder.deviceInfo(name: name), specs: config.specs, explains: false)
        prepare()
        followRotation()
    }

    // MARK: Inputs

    /// A frame of the device (`Daemon.deviceReadable`).
    func frame(_ frame: UnsafePointer<TouchFrame>) -> [String] {
        followTransform()
        engine.process(frame, into: &events)
        return dispatch()
    }

    /// The timer fired at `now` (`Daemon.handleTimer`).
    func timer(at now: Timestamp) -> [String] {
        engine.timerFired(at: now, into: &events)
        return dispatch()
    }

    /// The focused app changed (`Daemon.focusChanged`).
    func focus(_ app: String?) -> [String] {
        focusedApp = app
        engine.focusedApp = app
        return []
    }

    /// The compositor says the screen is turned so (`ScreenRotation`'s `onChange`).
    func rotate(_ orientation: Orientation) -> [String] {
        screen = orientation
        followRotation()
        return []
    }

    /// A valid config replaces the running one at `now` (`Daemon.reload`): what is in
    /// flight is cancelled, its `cancel:` from the old config.
    func reload(config new: Config, at now: Timestamp) -> [String] {
        runtimeEnabled = runtimeEnabled.filter { name, _ in new.specs.contains { $0.name == name } }
        // DeviceSession.replace(specs:at:)
        engineTransform = decoder.transformGeneration
        engine.cancelAll(at: now, into: &events)
        let fingersDown = engine.ignoresTouchesDown
        engine = GestureEngine(device: decoder.deviceInfo(name: name), specs: new.specs, explains: false)
        if fingersDown { engine.ignoreTouchesDown() }
        prepare()
        let cancelled = dispatch()
        config = new
        mapper = ActionMapper(config: new)
        // ScreenRotation.update: the new `rotation:` is asked again.
        followRotation()
        return cancelled
    }

    /// `gestured enable NAME` / `gestured disable NAME` (`Daemon.setEnabled`).
    func setEnabled(_ on: Bool, name: String) -> [String] {
        runtimeEnabled[name] = on
        engine.setEnabled(on, name: name)
        return []
    }

    // MARK: What the daemon does

    /// A new engine takes the daemon's state (`Daemon.prepare`).
    private func prepare() {
        engine.focusedApp = focusedApp
        for (name, on) in runtimeEnabled { engine.setEnabled(on, name: name) }
    }

    /// `Daemon.followRotation` with `ScreenRotation.choice`: a device that follows the
    /// screen takes the compositor's rotation, else the config's.
    private func followRotation() {
        let settings = config.rotation
        let choice = settings.follows(decoder.capabilities.deviceInfo(name: name)) ? screen ?? settings.orientation : nil
        guard choice != rotation else { return }
        rotation = choice
        // DeviceSession.setOrientation
        decoder.setOrientation(choice ?? .normal)
        followTransform()
    }

    /// `DeviceSession.followTransform`: the decoder took a new transform (a sequence
    /// begins), so the engine is built again for the device as now turned.
    private func followTransform() {
        guard engineTransform != decoder.transformGeneration else { return }
        engineTransform = decoder.transformGeneration
        engine = GestureEngine(device: decoder.deviceInfo(name: name), specs: config.specs, explains: false)
        prepare()
    }

    /// The events to the mapper (`Daemon.dispatch`), as `replay`'s lines: of the
    /// `GESTURE_*` environment under a command, only `GESTURE_STEP`.
    private func dispatch() -> [String] {
        defer { lines.removeAll(keepingCapacity: true) }
        for e in events {
            mapper.map(e, device: decoder.deviceInfo(name: name), into: &invocations)
            lines += ReplayCommand.textLines(e, at: e.time.seconds(since: start), invocations: invocations)
                .flatMap { $0.split(separator: "\n").map(String.init) }
                .filter { !$0.hasPrefix("        GESTURE_") || $0.hasPrefix("        GESTURE_STEP=") }
            invocations.removeAll(keepingCapacity: true)
        }
        events.removeAll(keepingCapacity: true)
        return lines
    }
}
