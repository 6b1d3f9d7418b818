import GestureConfig
import GestureEngine
import TouchModel

/// The daemon with its descriptors taken away: what it decides, with no system call,
/// no clock and no Glibc, as the engine is pure (keyd's core is the model). It takes
/// typed inputs (a frame, a device added or removed, a timer, the focused app, the
/// screen's rotation, a config, a gesture enabled or disabled, whether the event
/// stream is read, a binding run without its gesture) and appends what follows from each to `outputs`: the gesture
/// events, the actions to run, the touches to claim from the desktop, the devices to
/// grab or give back, log lines. `nextDeadline` is when it wants a `timer` input.
///
/// `gestured run` feeds it from its epoll loop (DaemonLoop's `Daemon`) and carries
/// the outputs out; `gestured ui`'s Try is a second core on the same frames, in dry
/// run; the text scenarios feed it a timeline.
public final class DaemonCore {
    public struct Options: Sendable {
        /// Whether actions are wanted at all (`watch` wants none: no `invocation`).
        public var mapsActions: Bool
        /// Whether `grab:` applies (the daemon that runs the actions; not `watch`,
        /// not `--dry-run`).
        public var grabs: Bool
        /// Whether the engines keep their arena decisions for `watch` and `--explain`
        /// (`decisions` outputs); they also do while the event stream is read.
        public var explains: Bool

        public init(mapsActions: Bool = true, grabs: Bool = false, explains: Bool = false) {
            self.mapsActions = mapsActions
            self.grabs = grabs
            self.explains = explains
        }
    }

    /// What arrives from outside, as one value (the scenarios and Try replay lists of
    /// them; the daemon calls the methods below directly).
    public enum Input {
        case frame(device: String, TouchFrame)
        case added(Device)
        case removed(device: String, at: Timestamp, reason: String)
        case timer(at: Timestamp)
        case focus(app: String?)
        case rotation(device: String, Orientation)
        case config(Config, at: Timestamp)
        case enable(name: String, Bool)
        case streaming(Bool)
    }

    /// A touch device as the core needs it: what it is, and how its positions are
    /// turned onto the screen before the screen's rotation (its calibration), so the
    /// core knows its size in each orientation.
    public struct Device: Sendable {
        public var path: String
        /// As the device reports itself, unturned.
        public var info: DeviceInfo
        public var calibration: ContactTransform
        /// The screen's rotation its frames are turned by from the start.
        public var orientation: Orientation
        /// Whether it can be grabbed at all (`grab:` outputs are only for those).
        public var grabbable: Bool

        public init(path: String, info: DeviceInfo, calibration: ContactTransform = .identity,
                    orientation: Orientation = .normal, grabbable: Bool = false) {
            self.path = path
            self.info = info
            self.calibration = calibration
            self.orientation = orientation
            self.grabbable = grabbable
        }

        /// `info` with the size the screen shows in orientation `o`.
        public func info(turned o: Orientation) -> DeviceInfo {
            var turned = info
            turned.size = calibration.then(ContactTransform(o)).screenSize(of: info.size)
            return turned
        }
    }

    public let options: Options
    public private(set) var config: Config
    public internal(set) var mapper: ActionMapper
    /// What the last input asked for, in order; the caller empties it (`removeAll
    /// (keepingCapacity:)`) once it has carried them out.
    public var outputs: [DaemonOutput] = []
    /// The devices, in the order they came.
    public private(set) var sessions: [Session] = []
    /// The focused application (per-application gestures), for the sequences that
    /// begin from now on.
    public private(set) var focusedApp: String?
    /// `gestured enable/disable` since start, by gesture name; outlives reloads.
    public private(set) var runtimeEnabled: [String: Bool] = [:]
    /// The last gestures and what ran for them (`gestured status`).
    public internal(set) var recent = RecentGestures()
    /// Whether someone reads the event stream: the engines then keep their decisions.
    public private(set) var streaming = false
    // Reused for every batch, so the per-frame path allocates nothing.
    private var invocations: [Invocation] = []

    /// One device and its own engine: a device's frames never reach another's
    /// recognizers.
    public final class Session {
        public let device: Device
        public private(set) var engine: GestureEngine
        /// The orientation `engine` was built for.
        public private(set) var orientation: Orientation
        /// The orientation the device's frames are turned by now (the last frame's, or
        /// a rotation taken while no finger was down); the engine follows it between
        /// sequences (`settle`).
        fileprivate var turned: Orientation
        /// Whether the last frame had a finger down (a rotation then waits for the
        /// next sequence, as the decoder does).
        public fileprivate(set) var fingersDown = false
        fileprivate var events: [GestureEvent] = []
        /// `engine.decisionCount` when its decisions were last handed on (-1: a new engine).
        fileprivate var decisionsOut = -1

        init(_ device: Device, specs: [GestureSpec], explains: Bool, profile: AccessibilityProfile) {
            self.device = device
            orientation = device.orientation
            turned = device.orientation
            engine = GestureEngine(device: device.info(turned: device.orientation), specs: specs, explains: explains, profile: profile)
            events.reserveCapacity(16)
        }

        public var path: String { device.path }
        /// The device as the engine sees it: its size as the screen is turned now.
        public var info: DeviceInfo { engine.device }

        fileprivate func rebuild(specs: [GestureSpec], orientation o: Orientation, explains: Bool,
                                 profile: AccessibilityProfile) {
            orientation = o
            engine = GestureEngine(device: device.info(turned: o), specs: specs, explains: explains, profile: profile)
            decisionsOut = -1
        }

        /// A new config's gestures; what was in flight is cancelled into `events` (its
        /// `cancel` runs, from the old config). Fingers still down belong to no gesture
        /// of the new one: a fresh engine would take them for a new sequence and fire
        /// the gesture they were making a second time.
        fileprivate func replace(specs: [GestureSpec], at time: Timestamp, explains: Bool, profile: AccessibilityProfile) {
            engine.cancelAll(at: time, into: &events)
            let down = engine.ignoresTouchesDown
            rebuild(specs: specs, orientation: orientation, explains: explains, profile: profile)
            if down { engine.ignoreTouchesDown() }
        }
    }

    public init(config: Config, options: Options = Options()) {
        self.config = config
        self.options = options
        mapper = ActionMapper(config: config)
        outputs.reserveCapacity(64)
        invocations.reserveCapacity(16)
    }

    /// The earliest instant an engine wants a `timer` input (a hold's duration, a
    /// tap's timeout); nil: none.
    public var nextDeadline: Timestamp? {
        var earliest: Timestamp?
        for s in sessions {
            if let d = s.engine.nextDeadline, earliest == nil || d < earliest! { earliest = d }
        }
        return earliest
    }

    public func session(_ path: String) -> Session? {
        // A list, not a dictionary: there are one or two devices, and a path's hash
        // cost more than comparing them (asked at every frame).
        for s in sessions where s.device.path == path { return s }
        return nil
    }

    // MARK: Inputs

    public func handle(_ input: Input) {
        switch input {
        case .frame(let device, var frame): withUnsafePointer(to: &frame) { self.frame($0, device: device) }
        case .added(let d): add(d)
        case .removed(let path, let time, let reason): remove(path, at: time, reason: reason)
        case .timer(let time): timer(at: time)
        case .focus(let app): focus(app)
        case .rotation(let path, let o): rotation(o, device: path)
        case .config(let c, let time): replace(config: c, at: time)
        case .enable(let name, let on): setEnabled(on, name: name)
        case .streaming(let on): setStreaming(on)
        }
    }

    /// A frame of `device`: deadlines due before it fire first, in time order (the
    /// engine does it). A frame turned by another rotation than the engine's (the
    /// decoder turns only at a sequence's first frame) has the engine built again for
    /// the device's size as now turned, before it sees the frame (`settle`).
    public func frame(_ frame: UnsafePointer<TouchFrame>, device path: String) {
        guard let s = session(path) else { return }
        if frame.pointee.orientation != s.orientation {
            s.turned = frame.pointee.orientation
            if !s.fingersDown {
                // What was due before this frame fires on the engine that began it.
                s.engine.timerFired(at: frame.pointee.time, into: &s.events)
                if !s.events.isEmpty { dispatch(s) }
                settle(s)
            }
        }
        s.fingersDown = frame.pointee.fingerCount > 0
        s.engine.process(frame, into: &s.events)
        if !s.events.isEmpty || explains { dispatch(s) }
    }

    /// The engines' deadlines due by `now`, on every device (or only `device`).
    public func timer(at now: Timestamp, device path: String? = nil) {
        for s in sessions where path == nil || s.device.path == path {
            s.engine.timerFired(at: now, into: &s.events)
            if !s.events.isEmpty || explains { dispatch(s) }
            if s.turned != s.orientation { settle(s) }
        }
    }

    /// Starts a device with its own engine: its config warnings, then its grab.
    public func add(_ device: Device) {
        guard session(device.path) == nil else { return }
        let s = Session(device, specs: config.specs, explains: explains, profile: config.settings.accessibility)
        sessions.append(s)
        prepare(s)
        for warning in ConfigCheck.warnings(for: config, device: s.info) { outputs.append(.log(.warning, warning)) }
        applyGrab(s)
    }

    /// Forgets a device; whatever it had in flight is cancelled (and `cancel` runs).
    public func remove(_ path: String, at time: Timestamp, reason: String) {
        guard let i = sessions.firstIndex(where: { $0.device.path == path }) else { return }
        let s = sessions.remove(at: i)
        s.engine.cancelAll(at: time, into: &s.events)
        dispatch(s)
    }

    /// Cancels what `device` (or every device) has in flight: the daemon stopping, a
    /// grab's watchdog gone.
    public func cancel(at time: Timestamp, device path: String? = nil) {
        for s in sessions where path == nil || s.device.path == path {
            s.engine.cancelAll(at: time, into: &s.events)
            dispatch(s)
        }
    }

    /// The engines take the new app for the touch sequences that begin from now on.
    public func focus(_ app: String?) {
        focusedApp = app
        for s in sessions { s.engine.focusedApp = app }
    }

    /// `device`'s frames are turned by `o` from now on: at once when no finger is
    /// down (as the decoder takes it), else from its next sequence (its frames then
    /// carry `o`; `frame` sees it).
    public func rotation(_ o: Orientation, device path: String) {
        guard let s = session(path), !s.fingersDown else { return }
        s.turned = o
        settle(s)
    }

    /// The engine is built again for the orientation the frames are turned by, between
    /// sequences, and not while it waits for a deadline: a tap waiting to see whether
    /// a second one comes still fires (or becomes the double tap) on the engine it
    /// began on, and the turn follows once it has (`timer`, the next sequence).
    private func settle(_ s: Session) {
        guard s.turned != s.orientation, !s.fingersDown, s.engine.nextDeadline == nil else { return }
        s.rebuild(specs: config.specs, orientation: s.turned, explains: explains, profile: config.settings.accessibility)
        prepare(s)
        outputs.append(.turned(device: s.path))
    }

    /// `gestured enable/disable NAME`: every device, and devices and reloads to come.
    public func setEnabled(_ on: Bool, name: String) {
        runtimeEnabled[name] = on
        for s in sessions { s.engine.setEnabled(on, name: name) }
    }

    /// Whether each gesture is enabled now: the config's `enabled:`, or what
    /// `gestured enable/disable` said since.
    public func isEnabled(_ spec: GestureSpec) -> Bool { runtimeEnabled[spec.name] ?? spec.enabled }

    /// Someone reads the event stream (or no one any more): its state lines need the
    /// arena's decisions.
    public func setStreaming(_ on: Bool) {
        streaming = on
        for s in sessions { s.engine.explains = explains }
    }

    /// A new config between frames: what was in flight is cancelled (its `cancel`
    /// runs, from the old one), every device gets an engine for the new gestures, the
    /// gestures enabled or disabled at run time that it still has stay so, and the
    /// grabs follow its `grab:`. Returns how many gestures in flight were cancelled.
    @discardableResult
    public func replace(config new: Config, at time: Timestamp) -> Int {
        runtimeEnabled = runtimeEnabled.filter { name, _ in new.specs.contains { $0.name == name } }
        var cancelled = 0
        for s in sessions {
            for warning in ConfigCheck.warnings(for: new, device: s.info) { outputs.append(.log(.warning, warning)) }
            s.replace(specs: new.specs, at: time, explains: explains, profile: new.settings.accessibility)
            prepare(s)
            cancelled += s.events.filter { $0.phase == .cancelled }.count
            dispatch(s)
        }
        config = new
        mapper = ActionMapper(config: new)
        for s in sessions {
            settle(s)  // a turn put off for a deadline the old engine had
            applyGrab(s)
        }
        return cancelled
    }

    // MARK: What follows

    private var explains: Bool { options.explains || streaming }

    /// A new engine (device added, config reloaded, screen turned) takes the focused
    /// app and the gestures enabled or disabled at run time.
    private func prepare(_ s: Session) {
        s.engine.focusedApp = focusedApp
        for (name, on) in runtimeEnabled { s.engine.setEnabled(on, name: name) }
    }

    private func applyGrab(_ s: Session) {
        guard options.grabs, s.device.grabbable else { return }
        if config.grab.matches(s.info) {
            outputs.append(.grab(device: s.path, holdBack: DaemonOutput.HoldBack(
                microseconds: Int64(config.grab.holdBack * 1e6), maxFingers: config.maximumFingers(on: s.info))))
        } else {
            outputs.append(.release(device: s.path, reason: "not in grab: any more"))
        }
    }

    /// A session's events, in order: the decisions behind them, each event, the claim
    /// of the device's touches, then the actions.
    private func dispatch(_ s: Session) {
        // Only when there are new ones: with the stream read, a `decisions` output each
        // frame made the daemon carry out outputs at every frame for nothing.
        if explains, s.engine.decisionCount != s.decisionsOut {
            s.decisionsOut = s.engine.decisionCount
            outputs.append(.decisions(device: s.path))
        }
        guard !s.events.isEmpty else { return }
        var claims = false
        for e in s.events {
            let step = config.bindings.indices.contains(e.index) ? config.bindings[e.index].step : nil
            outputs.append(.event(device: s.path, e, step: step))
            if e.phase == .began || e.phase == .recognized { claims = true }
        }
        if claims && options.grabs && s.device.grabbable { outputs.append(.claim(device: s.path)) }
        if options.mapsActions {
            for e in s.events {
                let first = invocations.count
                if let ignored = mapper.map(e, device: s.info, into: &invocations) {
                    let binding = config.bindings.indices.contains(e.index) ? config.bindings[e.index] : nil
                    outputs.append(.ignored(gesture: e.name, phase: e.phase, action: binding?.actions[e.phase], why: ignored.message))
                }
                if e.phase != .changed {  // what `recent` keeps; updates stay allocation-free
                    recent.record(e, device: s.info.name, app: focusedApp, invocations: Array(invocations[first...]))
                }
            }
            Invocation.releasesFirst(&invocations)
            for inv in invocations { outputs.append(.invocation(inv)) }
            invocations.removeAll(keepingCapacity: true)
        }
        s.events.removeAllKeepingCapacity()
    }
}

/// The last gestures the daemon saw and what ran for them, for `gestured status`.
public struct RecentGestures {
    public struct Entry {
        public var time: Timestamp
        public var gesture: String
        public var phase: GesturePhase
        public var device: String
        public var app: String?
        public var commands: [String]
    }

    public static let capacity = 10
    public private(set) var entries: [Entry] = []

    /// Keeps the gestures' beginnings, ends and recognitions (not every update: the
    /// per-frame path stays free of allocations).
    public mutating func record(_ e: GestureEvent, device: String, app: String?, invocations: [Invocation]) {
        guard e.phase != .changed else { return }
        if entries.count == Self.capacity { entries.removeFirst() }
        entries.append(Entry(time: e.time, gesture: e.name, phase: e.phase, device: device, app: app,
                             commands: invocations.map(\.command)))
    }
}
