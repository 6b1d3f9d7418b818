import DaemonCore
import DesktopActions
import DesktopSession
import GestureActions
import GestureConfig
import GestureEngine
import GestureInput
import Glibc
import LinuxSystem
import PlainText
import TouchModel

/// The running daemon: devices → the core (`DaemonCore`) → actions, on one epoll loop.
/// It holds the descriptors, the sources and the sinks; what to do with each frame,
/// timer, focus change, rotation and reload is the core's, whose outputs it carries
/// out (`carryOut`).
///
/// Sources on the loop: each device's fd, a timerfd armed at the earliest engine
/// deadline (and disarmed when none), a signalfd (TERM/INT exit, HUP reloads), inotify
/// on the config file's directory, hotplug (`Hotplug`: the udev monitor, or inotify
/// on /dev/input where udev does not run), and the command runner's fd. Nothing
/// polls: with no finger down there is nothing to wake for.
package final class Daemon {
    package struct Options {
        package var configPath: String?
        package var dryRun = false
        /// `--device PATH|NAME`: only these (a path, or a glob over the name).
        package var deviceFilters: [String] = []
        package var inputDirectory = "/dev/input"
        /// Observers of what the engines report (watch, --explain), called per event.
        package var onGesture: ((DeviceSession, GestureEvent) -> Void)?
        /// Observers of the arena's decisions (watch, --explain), after each frame or timer.
        package var onDecisions: ((DeviceSession, [ArenaDecision]) -> Void)?
        /// No commands at all (watch).
        package var runCommands = true
        /// How the virtual input device's /dev/uinput is opened (tests pass a fake's).
        package var openUinput: ((String) -> Int32)?
        /// Told of every change of the focused app (watch, --explain, --dry-run).
        package var onFocus: ((FocusedApp?) -> Void)?
        /// The focused-app source; nil: the one the session's environment offers.
        package var focus: FocusMonitor?
        /// The control socket to claim (`run`: $XDG_RUNTIME_DIR/gestured.sock); nil: none.
        package var controlSocket: String?
        /// Devices the caller opened, used from the start beside the ones found (the
        /// browser tests' daemon fed by the fake device: GesturedCommand.runDaemon).
        package var adopted: [any TouchSource] = []
        /// How a grab's watchdog child is started (`run`: this binary); nil: grabs
        /// without one (tests, whose fake devices a child could not reach).
        package var grabWatchdog: GrabWatchdog.Launcher?
        /// `--ui-parent PID`: gestured ui's private daemon, which ends when that process
        /// does, however it ends (SIGKILL too), and removes its control socket's directory.
        package var parent: pid_t?
        /// `staleFrameAge`; nil: no frame is stale (a test pouring a whole recording in
        /// at once, which is a backlog by design).
        package var staleFrameAge: Int64? = Daemon.staleFrameAge

        package init() {}
    }

    /// A frame read this much later than its kernel timestamp (µs) is the backlog of a
    /// stall (SIGSTOP, a hang): dropped, never fired from nor passed to the desktop.
    /// Healthy reads take well under a millisecond; a second is never a live gesture.
    package static let staleFrameAge: Int64 = 1_000_000

    package let options: Options
    /// When this daemon started, on the clock of its frames and lines (CLOCK_MONOTONIC):
    /// the hello says it, so a page counts the times it shows from it.
    package let startedAt = Daemon.now()
    package let logger: Logger
    package let environment: [String: String]
    package let loop: EventLoop
    /// Armed at the earliest engine deadline.
    private var timer: MonotonicTimer
    /// SIGTERM, SIGINT and SIGHUP as readable events, not handlers. SIGCHLD is not
    /// among them: the command runner reaps each child through its own pidfd, which
    /// cannot race with another waiter, so the loop never wakes for it.
    private let signals: SignalDescriptor
    private let notifier: SystemdNotifier
    private let hotplug: Hotplug
    private var configWatcher: ConfigWatcher?
    /// Watches for the user's own config while running from /etc or the built-in one.
    private var userConfigWatcher: ConfigWatcher?
    package private(set) var configSource: ConfigSource
    /// What the daemon decides, without its descriptors.
    package let core: DaemonCore
    package var config: Config { core.config }
    private let sink: InvocationSink?
    private let runner: CommandRunner?
    /// Keys, clicks and scrolls: the virtual device's sink (nil for watch and dry runs).
    package private(set) var virtualInput: VirtualInput?
    /// `{workspace: next}` and the other desktop actions: the running desktop's sink.
    package private(set) var desktopActions: DesktopActions?
    package private(set) var sessions: [String: DeviceSession] = [:]
    package private(set) var exitCode: Gestured.ExitCode = .success
    /// Reloads that took effect (tests watch it).
    package private(set) var reloadCount = 0
    /// Where the focused app comes from (per-application gestures).
    package let focus: FocusMonitor
    /// How the screen is turned, for the devices that follow it (Rotation/).
    package let rotation: ScreenRotation
    /// `gestured status|enable|disable|reload` (Control/).
    private var control: ControlServer?
    /// The pidfd of `options.parent`, while it is watched.
    private var parentWatch: OwnedFileDescriptor?
    /// The event stream's subscribers (`subscribe`, Stream/), beside the control socket.
    /// Set once at start and read at every frame, from the loop's thread only: unchecked.
    @exclusivity(unchecked) package private(set) var stream: StreamSubscribers?
    /// `try PATH`: a second core in dry run on the same frames, while someone reads
    /// the stream it reports to (Stream/TryRun.swift).
    package var tryRun: TryRun?
    /// While `trigger` carries its actions out: the commands the runner dropped at once
    /// (`max-children`, `queue-length`), for its answer (DaemonControl.swift).
    package var droppedWhileTriggering: [String]?
    /// The log lines control clients trigger: at most 10 per 10 s (DaemonControl.swift).
    package var controlLogLimit = LogRateLimit(perWindow: 10, windowNs: 10_000_000_000)

    /// Loads the config and sets up every source; throws a message for the user when
    /// the daemon cannot start (an unusable config at start is fatal: there is no
    /// old one to keep running).
    package init(options: Options, logger: Logger, environment: [String: String]) throws {
        self.options = options
        self.logger = logger
        self.environment = environment
        configSource = resolveConfigPath(explicit: options.configPath, environment: environment)
        let (parsed, diagnostics) = ConfigLoader.load(configSource)
        for d in diagnostics { logger.log(d.isError ? .error : .warning, d.description) }
        guard let loaded = parsed?.forDesktop(environment["XDG_CURRENT_DESKTOP"]) else { throw StartError.config(diagnostics.filter(\.isError).count) }
        core = DaemonCore(config: loaded, options: DaemonCore.Options(
            mapsActions: options.runCommands, grabs: options.runCommands && !options.dryRun, explains: options.onDecisions != nil))
        loop = try EventLoop()
        timer = try MonotonicTimer()
        signals = try SignalDescriptor([SIGTERM, SIGINT, SIGHUP])
        hotplug = Hotplug(inputDirectory: options.inputDirectory)
        notifier = SystemdNotifier(environment: environment)
        focus = options.focus ?? FocusMonitor(environment: environment)
        rotation = ScreenRotation(environment: environment, settings: loaded.rotation)
        if !options.runCommands {
            sink = nil
            runner = nil
        } else if options.dryRun {
            sink = DryRunSink { Output.out($0) }
            runner = nil
        } else {
            let logger = self.logger
            let r = try CommandRunner(settings: loaded.settings, log: { logger.log($0, $1) })
            let open = options.openUinput
            let input = try VirtualInput(settings: loaded.settings, log: { logger.log($0, $1) }, makeDevice: { c throws(VirtualDevice.Failure) in
                if let open { return try VirtualDevice(capabilities: c, open: open) }
                return try VirtualDevice(capabilities: c)
            })
            let desktop = DesktopActions(environment: environment, loop: loop, log: { logger.log($0, $1) })
            if let open {
                desktop.makeTouchpad = { () throws(VirtualTouchpad.Failure) in try VirtualTouchpad(open: open) }
            }
            desktop.prepareFollow(config: loaded)
            runner = r
            virtualInput = input
            desktopActions = desktop
            sink = ActionRouter(commands: r, input: input, desktop: desktop)
        }
        try loop.add(signals.descriptor) { [unowned self] _ in self.handleSignals() }
        try loop.add(timer.descriptor) { [unowned self] _ in self.handleTimer() }
        if let runner { try loop.add(runner.fd) { _ in runner.handleEvents() } }
        if let virtualInput {
            try loop.add(virtualInput.descriptor) { _ in virtualInput.handleTimer() }
            virtualInput.configure(VirtualDevice.Capabilities(config: loaded), settings: loaded.settings)
        }
        if let parent = options.parent { try watchParent(parent) }
        watchConfig()
        // `shortcut:` on GNOME: its extension says which was pressed; the binding runs as
        // `gestured trigger` runs it, said to come from a shortcut.
        desktopActions?.onShortcut = { [unowned self] name in self.trigger(name, origin: .shortcut) }
        desktopActions?.prepareShortcuts(config: loaded)
        hotplug.watch(on: loop, logger: logger) { [unowned self] change in
            switch change {
            case .added(let node): self.open(node, announce: true)
            case .removed(let path): self.remove(path, reason: "unplugged")
            }
        }
    }

    /// The socket and its subscribers go while the loop they are on is still here.
    deinit {
        stream = nil
        control = nil
    }

    package enum StartError: Error, CustomStringConvertible {
        case config(Int)
        package var description: String {
            switch self {
            case .config(let n): return "the config has \(n) error\(n == 1 ? "" : "s"); not starting (gestured check shows them)"
            }
        }
    }

    // MARK: Running

    /// Builds the daemon and runs it to the end: what `run` and `watch` share.
    package static func start(options: Options, logger: Logger, environment: [String: String]) -> Gestured.ExitCode {
        // A log reader that goes away (journald restarted, the terminal closed) must
        // not kill the daemon at its next line: writes fail with EPIPE instead.
        Signals.ignoreBrokenPipe()
        let daemon: Daemon
        do {
            daemon = try Daemon(options: options, logger: logger, environment: environment)
        } catch let error as StartError {
            logger.error(error.description)
            return .invalidConfig
        } catch {
            logger.error("cannot start: \(error)")
            return .failure
        }
        return daemon.run()
    }

    /// Opens the devices, says READY=1, and runs until SIGTERM/SIGINT.
    package func run() -> Gestured.ExitCode {
        guard startControl() else { return .failure }
        for node in hotplug.presentNodes() { open(node, announce: false) }
        for device in options.adopted { adopt(device, announce: false) }
        let name = configSource == .builtIn ? ConfigLoader.builtInName : config.file
        logger.notice("started: config \(name), \(config.specs.count) gesture\(config.specs.count == 1 ? "" : "s"), \(sessions.count) device\(sessions.count == 1 ? "" : "s")\(options.dryRun ? ", dry run" : "")")
        if sessions.isEmpty && !hotplug.isWatching {
            // Nothing would tell us about a device plugged in later: don't promise to wait.
            logger.notice("no touchpad or touchscreen found, and one plugged in later would not be seen (hotplug unavailable, see above): plug it in, then restart gestured (systemctl --user restart gestured); gestured list-devices says what it finds")
        } else if sessions.isEmpty {
            logger.notice("no touchpad or touchscreen found; waiting for one to be plugged in (gestured list-devices says why devices are not used)")
        }
        if sessions.isEmpty {
            logger.notice("to see gestures recognized without a device: gestured replay Tests/Recordings/touchscreens_Atmel_maXTouch_Touchscreen.4-finger-drag-down.events --detect")
        }
        startFocus()
        notifier.send("READY=1\nSTATUS=\(status)")
        loop.run()
        shutdown()
        return exitCode
    }

    /// Claims the control socket, if there is one to claim (run does; tests driving
    /// `runOnce` call it); false when it cannot be had.
    package func startControl() -> Bool {
        guard let path = options.controlSocket, control == nil else { return true }
        do {
            let server = try ControlServer(path: path, loop: loop, log: { [unowned self] in self.logClientTriggered($0) }) { [unowned self] in self.answer($0) }
            control = server
            stream = makeStream(loop: loop, control: server)
            runner?.onOutcome = { [unowned self] gesture, trigger, command, origin, outcome in
                if outcome == .dropped { self.droppedWhileTriggering?.append(command) }
                self.streamAction(gesture: gesture, trigger: trigger, action: .command(command), origin: origin, outcome: outcome)
            }
        } catch {
            logger.error("\(error)")
            return false
        }
        return true
    }

    /// Runs one loop iteration (tests drive the daemon with this).
    package func runOnce(timeoutMS: Int32) -> Bool { loop.runOnce(timeoutMS: timeoutMS) }

    /// Commands running now (tests).
    package var runningCommands: Int { runner?.runningCount ?? 0 }

    package var status: String { "\(sessions.count) device\(sessions.count == 1 ? "" : "s"), \(config.specs.count) gestures" }

    /// What SIGTERM and SIGINT end with (tests call it directly: a signal would go to any thread).
    package func shutdown() {
        notifier.send("STOPPING=1")
        focus.stop()
        rotation.stop()
        stream = nil
        control = nil
        // gestured ui's private daemon: the directory its socket was made in is ours.
        if options.parent != nil, let socket = options.controlSocket, let slash = socket.lastIndex(of: "/") {
            FileSystem.remove(String(socket[..<slash]))
        }
        core.cancel(at: Self.now())
        carryOut()
        // The releases just queued go out now, not a key delay later, before the device goes.
        virtualInput?.finish()
        for s in sessions.values { releaseGrab(s, reason: "stopping") }
        logger.notice("stopped")
    }

    // MARK: Devices

    private func wanted(_ path: String, name: String) -> Bool {
        guard !options.deviceFilters.isEmpty else { return true }
        return options.deviceFilters.contains { f in
            f == path || Glob.matches(f, name) || name == f
        }
    }

    /// Opens a node if it is a touch device we want. `announce`: log it as hotplugged.
    func open(_ node: Udev.Node, announce: Bool) {
        guard sessions[node.path] == nil, !Self.isOwnVirtualDevice(node.path) else { return }
        let device: EvdevDevice
        do throws(DeviceError) {
            device = try EvdevDevice(path: node.path, udevProperties: node.properties)
        } catch {
            switch error {
            case .unsupported: logger.debug(error.description)
            case .open(_, let e) where e == .noSuchFileOrDirectory || e == .noSuchDevice: logger.debug(error.description)
            case .open: logger.warning(error.description)
            }
            return
        }
        guard wanted(node.path, name: device.name) else {
            logger.debug("\(node.path) (\(device.name)): not selected by --device")
            return
        }
        adopt(device, announce: announce)
    }

    /// gestured's own output, never input: the virtual device of built-in actions, the
    /// virtual touchpad of `follow` bindings, and the clones of grabbed devices (`grab:`).
    package static func isOwnDevice(named name: String) -> Bool {
        name == VirtualDevice.name || name == VirtualTouchpad.name || CloneDevice.isClone(name: name)
    }

    /// An own device (`isOwnDevice`), known by its name in sysfs before opening it (so
    /// not even a permission warning is logged for it while udev sets its group).
    package static func isOwnVirtualDevice(_ path: String) -> Bool {
        let sysfs = "/sys/class/input/" + (path.split(separator: "/").last.map(String.init) ?? "") + "/device/name"
        guard let bytes = try? FileSystem.prefix(of: sysfs, maximumBytes: 255), !bytes.isEmpty else { return false }
        let line = bytes.split(separator: UInt8(ascii: "\n"), maxSplits: 1, omittingEmptySubsequences: false)[0]
        return isOwnDevice(named: String(decoding: line, as: UTF8.self))
    }

    /// Starts reading an open touch source with its own engine.
    package func adopt(_ device: any TouchSource, announce: Bool) {
        guard !Self.isOwnDevice(named: device.name), sessions[device.path] == nil else { return }
        // The rotation first: the core builds the engine for the screen as turned now.
        let choice = startRotation(device)
        let d = device.decoder
        core.add(DaemonCore.Device(path: device.path, info: d.capabilities.deviceInfo(name: device.name), calibration: d.calibration,
                                   orientation: d.orientation, grabbable: device.grabbable != nil))
        guard let coreSession = core.session(device.path) else { return }
        let session = DeviceSession(device: device, core: coreSession)
        session.rotation = choice
        do {
            try loop.add(device.descriptor) { [unowned self, unowned session] _ in self.deviceReadable(session) }
        } catch {
            logger.error("\(device.path): cannot watch: \(error)")
            core.remove(device.path, at: Self.now(), reason: "cannot watch")
            core.outputs.removeAll(keepingCapacity: true)
            return
        }
        sessions[device.path] = session
        tryRun?.core.add(coreSession.device)
        reportTry()
        let info = device.info
        logger.notice("\(announce ? "added" : "using") \(device.path): \(info.kind.rawValue) \"\(info.name)\", \(info.size.width.fixed(0)) × \(info.size.height.fixed(0)) mm\(info.sizeIsEstimated ? " (estimated)" : "")")
        carryOut(session)
        streamDeviceEvent(.added, session)
        session.announced = true
        notifier.send("STATUS=\(status)")
    }

    /// Forgets a device; whatever it had in flight is cancelled (and `cancel` runs).
    package func remove(_ path: String, reason: String) {
        guard let s = sessions[path] else { return }
        loop.remove(s.device.descriptor)
        core.remove(path, at: Self.now(), reason: reason)
        carryOut(s)
        tryRun?.core.remove(path, at: Self.now(), reason: reason)
        reportTry()
        tryRun?.forget(path)
        sessions[path] = nil
        releaseGrab(s, reason: reason)
        streamDeviceEvent(.removed, s)
        logger.notice("removed \(path) (\(s.info.name)): \(reason)")
        notifier.send("STATUS=\(status)")
        rearm()
    }

    package func deviceReadable(_ s: DeviceSession) {
        let now = Self.now()
        s.device.passthrough?.watchdog?.heartbeat(now: now)
        var askedWatchdog = false
        let result = s.device.readAvailable(staleBefore: options.staleFrameAge.map { now.microseconds - $0 } ?? .min, log: { [logger] in logger.warning($0) }) { frame in
            // A stall's backlog (or a resync after one): did the watchdog give the device
            // back meanwhile? Then nothing more goes to the clone.
            if !askedWatchdog, !frame.pointee.flags.isDisjoint(with: [.stale, .resynced]) {
                askedWatchdog = true
                checkWatchdog(s)
            }
            // The core's engine fires the deadlines due before this frame itself, in time order.
            core.frame(frame, device: s.path)
            if let stream, !stream.isEmpty {
                stream.frame(frame, device: s.path)
                stream.progress(of: s.engine, device: s.path, at: frame.pointee.time)
            }
            if !core.outputs.isEmpty { carryOut(s) }
            if let tryRun {
                tryRun.core.frame(frame, device: s.path)
                reportTry(progressOf: s.path, at: frame.pointee.time)
            }
        }
        checkClone(s)
        switch result {
        case .drained:
            regrabIfLifted(s)
            rearm()
        case .gone: remove(s.path, reason: "device gone")
        case .failed(let e): remove(s.path, reason: "read error \(e)")
        }
    }

    /// Carries out what the core asked for, in its order; `hint`: the session the
    /// outputs are most likely about (a path's hash costs more than a comparison).
    package func carryOut(_ hint: DeviceSession? = nil) {
        func session(_ path: String) -> DeviceSession? {
            if let hint, hint.path == path { return hint }
            return sessions[path]
        }
        var device = hint?.path ?? ""
        for output in core.outputs {
            switch output {
            case .decisions(let path):
                guard let s = session(path) else { continue }
                if let onDecisions = options.onDecisions {
                    let decisions = s.trace.take(from: s.engine)
                    if !decisions.isEmpty { onDecisions(s, decisions) }
                }
                if let stream, streaming { stream.decisions(of: s.engine, device: path) }
            case .event(let path, let e, let step):
                device = path
                if let stream, streaming { stream.gesture(e, device: path, step: step) }
                if let onGesture = options.onGesture, let s = session(path) { onGesture(s, e) }
            case .claim(let path):
                session(path)?.device.passthrough?.claim()
            case .invocation(let inv):
                guard let sink else { continue }
                sink.submit(inv)
                if let m = inv.motion, case .desktop(.follow(let f)) = inv.action {
                    // What the desktop was given, for the live view's card; with no desktop to
                    // give it to (a dry run, none detected), what it would be given.
                    if let stream, streaming, let p = followProgress(f, m) {
                        stream.broadcast { $0.followProgress(gesture: inv.gesture, transition: f.transition.rawValue, progress: p, time: m.time, device: device) }
                    }
                    continue
                }
                streamSubmitted(inv, dryRun: runner == nil)
            case .grab(let path, let holdBack):
                guard let s = session(path) else { continue }
                s.grabWanted = holdBack
                applyGrab(s)
            case .release(let path, let reason):
                guard let s = session(path) else { continue }
                s.grabWanted = nil
                s.grabDue = nil
                releaseGrab(s, reason: reason)
            case .turned(let path):
                if let s = session(path), s.announced { streamDeviceEvent(.added, s) }
            case .ignored(let gesture, let phase, let action, let why):
                logger.log(.info, why)
                if let action { streamAction(gesture: gesture, trigger: ActionMapper.trigger(phase), action: action, origin: nil, outcome: .dropped) }
            case .log(let level, let message):
                logger.log(level, message)
            }
        }
        core.outputs.removeAll(keepingCapacity: true)
    }

    /// The progress a follow step gave the desktop (or, with none, would have given it).
    private func followProgress(_ f: Follow, _ m: FollowMotion) -> Double? {
        if let d = desktopActions, case .desktop = d.detected { return d.lastFollowProgress }
        let axis = FollowDrivers.axis(f, m)
        return FollowDrivers.progress(f, m, axis: axis, travel: FollowDrivers.travel(f, m, axis: axis, touchpad: FollowDrivers.defaultTouchpadTravel(f)))
    }

    /// Connects the focused-app source (run does; tests driving `runOnce` call it).
    package func startFocus() {
        focus.start(on: loop, logger: logger) { [unowned self] in self.focusChanged($0) }
        rotation.start(on: loop, logger: logger) { [unowned self] in
            for s in self.sessions.values { self.followRotation(s) }
        }
        reportDesktopActions()
    }

    /// Where the config's desktop actions go, and each one this desktop cannot do.
    private func reportDesktopActions() {
        guard let desktopActions, config.bindings.contains(where: \.hasDesktopAction) else { return }
        switch desktopActions.detected {
        case .desktop(let d):
            logger.notice("desktop actions through \(desktopActions.description)")
            for p in d.problems(in: config) { logger.warning(p) }
        case .none(let why):
            logger.warning("desktop actions ({workspace: …} and the like) will do nothing: \(why)")
        }
    }

    /// `gestured enable/disable NAME`: every device, and devices and reloads to come.
    package func setEnabled(_ on: Bool, name: String) { core.setEnabled(on, name: name) }

    /// The engines take the new app for the touch sequences that begin from now on.
    private func focusChanged(_ app: FocusedApp?) {
        core.focus(app?.app)
        tryRun?.core.focus(app?.app)
        logger.debug("focus: \(app?.description ?? "no window")")
        streamFocusChanged(app)
        options.onFocus?(app)
    }

    // MARK: Time

    /// CLOCK_MONOTONIC in the engine's units: the clock live devices stamp events with.
    package static func now() -> Timestamp { Timestamp(microseconds: monotonicNanoseconds() / 1000) }

    package func rearm() {
        var earliest = core.nextDeadline
        if let d = tryRun?.core.nextDeadline, earliest == nil || d < earliest! { earliest = d }
        // A follow's paced frames (the virtual touchpad's pre-roll and spring-back).
        if let d = desktopActions?.deadline, earliest == nil || d < earliest! { earliest = d }
        for s in sessions.values {
            // Frames a grabbed device holds back (grab: hold-back:) are due too.
            if let d = s.device.passthrough?.deadline, earliest == nil || d < earliest! { earliest = d }
            // A grab put off by a reload storm (recloneInterval).
            if let d = s.grabDue, earliest == nil || d < earliest! { earliest = d }
        }
        timer.arm(atNanoseconds: earliest.map { $0.microseconds * 1000 })
    }

    private func handleTimer() {
        timer.acknowledge()
        let now = Self.now()
        for s in sessions.values {
            // Frames the kernel already holds come before a hold-back runs out: one of
            // them may complete the gesture that claims the held frames.
            if s.device.passthrough?.deadline != nil {
                deviceReadable(s)
                guard sessions[s.path] === s else { continue }  // it went while being read
            }
            core.timer(at: now, device: s.path)
            if !core.outputs.isEmpty { carryOut(s) }
            tryRun?.core.timer(at: now, device: s.path)
            reportTry()
        }
        desktopActions?.timerFired(at: now)
        for s in sessions.values {
            s.device.passthrough?.timerFired(at: now)
            checkClone(s)
            grabIfDue(s, now: now)
        }
        rearm()
    }

    /// Ends the loop once `pid` has exited (its pidfd turns readable). Gone already:
    /// pidfd_open fails (ESRCH), and so does the start, which is what the parent wants.
    private func watchParent(_ pid: pid_t) throws(Errno) {
        let pidfd = try Process.descriptor(of: pid)
        let fd = pidfd.descriptor
        try loop.add(fd) { [unowned self] _ in
            logger.notice("pid \(pid), which started this private daemon, has exited: exiting")
            loop.remove(fd)
            loop.stop()
        }
        parentWatch = .some(consume pidfd)
    }

    // MARK: Signals and reload

    private func handleSignals() {
        for sig in signals.drain() {
            switch sig {
            case SIGTERM, SIGINT:
                logger.notice("received \(sig == SIGTERM ? "SIGTERM" : "SIGINT"), exiting")
                loop.stop()
            case SIGHUP:
                reload(reason: "SIGHUP")
            default:
                break
            }
        }
    }

    private func watchConfig() {
        if case .file(let path) = configSource {
            do {
                configWatcher = try ConfigWatcher(path: path, loop: loop, logger: logger, onChange: reloadOnSave(path))
            } catch {
                logger.warning("cannot watch \(DirectoryWatcher.split(path).directory) for config changes (\(error)); reload with SIGHUP (systemctl --user reload gestured)")
            }
        }
        // Running from /etc or the built-in default: a config the user makes in their
        // own directory takes over, as it would at the next start.
        guard options.configPath == nil, let user = configSearchPath(environment: environment).first,
              configSource != .file(user) else { return }
        do {
            userConfigWatcher = try ConfigWatcher(path: user, loop: loop, logger: logger, awaitingDirectory: true) { [unowned self] in
                if FileSystem.exists(user) { self.adoptUserConfig(user) }
            }
        } catch {
            logger.notice("cannot watch for \(user) (\(error)); if you create it, restart gestured to use it")
        }
    }

    /// What a save of the config at `path` does: reload it (not when the save removed it).
    private func reloadOnSave(_ path: String) -> () -> Void {
        { [unowned self] in
            if FileSystem.exists(path) { self.reload(reason: "\(path) changed", keepOnEmpty: true) }
        }
    }

    /// The user's own config appeared while running from another: it is the config from
    /// now on (reloads, SIGHUP, `gestured reload`), even if this first version is broken.
    private func adoptUserConfig(_ path: String) {
        let previous = switch configSource {
        case .file(let old): old
        case .builtIn: "the built-in default"
        }
        configSource = .file(path)
        configWatcher = userConfigWatcher
        userConfigWatcher = nil
        logger.notice("\(path) was created; it replaces \(previous) from now on")
        reload(reason: "\(path) created")
        configWatcher?.onChange = reloadOnSave(path)
    }

    /// Parses the config again; a valid one replaces the old between frames (what was
    /// in flight is cancelled), an invalid one is reported and the old one stays (false).
    /// `keepOnEmpty` (a reload on save): a file with no gestures after one with some is
    /// most likely an editor's write caught half-way, and is not taken; SIGHUP takes it.
    @discardableResult
    package func reload(reason: String, keepOnEmpty: Bool = false) -> Bool {
        notifier.send("RELOADING=1\nMONOTONIC_USEC=\(monotonicNanoseconds() / 1000)")
        defer { notifier.send("READY=1\nSTATUS=\(status)") }
        let (parsed, diagnostics) = ConfigLoader.load(configSource)
        for d in diagnostics { logger.log(d.isError ? .error : .warning, d.description) }
        guard let loaded = parsed?.forDesktop(environment["XDG_CURRENT_DESKTOP"]) else {
            let n = diagnostics.filter(\.isError).count
            logger.error("reload (\(reason)): the new config has \(n) error\(n == 1 ? "" : "s"); still running the previous one")
            streamReload(ok: false, message: "error: the new config has \(n) error\(n == 1 ? "" : "s"); still running the previous one", diagnostics: diagnostics)
            return false
        }
        if keepOnEmpty, loaded.specs.isEmpty, !config.specs.isEmpty {
            streamReload(ok: false, message: "error: the file has no gestures now; still running the previous ones", diagnostics: diagnostics)
            logger.warning("reload (\(reason)): the file has no gestures now, likely an editor's write caught half-way; still running the previous \(config.specs.count) gesture\(config.specs.count == 1 ? "" : "s") (save again, or reload with SIGHUP to run with none)")
            return false
        }
        let cancelled = core.replace(config: loaded, at: Self.now())
        carryOut()
        rotation.update(loaded.rotation)
        reportDesktopActions()
        runner?.update(settings: loaded.settings)
        virtualInput?.configure(VirtualDevice.Capabilities(config: loaded), settings: loaded.settings)
        desktopActions?.prepareFollow(config: loaded)
        desktopActions?.prepareShortcuts(config: loaded)
        reloadCount += 1
        rearm()
        logger.notice("reloaded (\(reason)): \(loaded.specs.count) gestures\(cancelled > 0 ? ", \(cancelled) in flight cancelled" : "")")
        streamReload(ok: true, message: "reloaded \(configName): \(loaded.specs.count) gesture\(loaded.specs.count == 1 ? "" : "s")", diagnostics: diagnostics)
        return true
    }
}
