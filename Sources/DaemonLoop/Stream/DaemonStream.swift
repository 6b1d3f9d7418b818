import DaemonCore
import DesktopSession
import GestureActions
import GestureConfig
import GestureEngine
import LinuxSystem
import TouchModel

/// What the daemon tells the event stream (`subscribe`, StreamSubscribers.swift): the
/// facts as they happen, each a line. Every hook starts with `streaming`, so with no
/// subscriber the daemon does what it did before, and allocates nothing per frame.
package extension Daemon {
    /// Someone is subscribed.
    package var streaming: Bool { !(stream?.isEmpty ?? true) }

    /// The first line a new subscriber gets.
    package func streamHello(rate: Int) -> StreamLine.Hello {
        var hello = StreamLine.Hello(version: Gestured.version, pid: Process.currentID, config: configName, dryRun: options.dryRun, rate: rate,
                                     gestures: config.specs.map { ($0, isEnabled($0)) },
                                     devices: sessions.values.sorted { $0.path < $1.path }.map(streamDevice),
                                     focus: streamFocus(focus.app))
        hello.started = startedAt
        return hello
    }

    package func streamDevice(_ s: DeviceSession) -> StreamLine.Device {
        var d = StreamLine.Device(path: s.path, info: s.info, grabbed: s.device.passthrough != nil)
        d.orientation = s.rotation.flatMap { $0 == .unturned ? nil : $0.orientation.description }
        return d
    }

    package func streamFocus(_ app: FocusedApp?) -> StreamLine.Focus? {
        guard let source = focus.source else { return nil }
        return StreamLine.Focus(app: app?.app, title: app?.title, source: source.name)
    }

    /// An action the sinks took without a report of their own: printed (dry run) or sent
    /// to the virtual device. Commands report through `CommandRunner.onOutcome`.
    package func streamSubmitted(_ inv: Invocation, dryRun: Bool) {
        guard streaming, dryRun || inv.action.sink != .commands else { return }
        streamAction(gesture: inv.gesture, trigger: inv.trigger, action: inv.action, origin: inv.origin, outcome: dryRun ? .dryRun : .sent)
    }

    package func streamAction(gesture: String, trigger: String, action: GestureConfig.Action, origin: TriggerOrigin?, outcome: StreamLine.Outcome) {
        guard let stream, streaming else { return }
        let phase = GesturePhase.allCases.first { ActionMapper.trigger($0) == trigger } ?? .recognized
        stream.broadcast { $0.action(StreamLine.Action(gesture: gesture, phase: phase, action: action, outcome: outcome, origin: origin)) }
    }

    package func streamDeviceEvent(_ event: StreamLine.DeviceEvent, _ s: DeviceSession) {
        guard let stream else { return }
        if event == .removed { stream.forget(device: s.path) }
        guard streaming else { return }
        let d = streamDevice(s)
        stream.broadcast { $0.device(event, d) }
    }

    package func streamFocusChanged(_ app: FocusedApp?) {
        guard let stream, streaming else { return }
        let f = streamFocus(app) ?? StreamLine.Focus(app: app?.app, title: app?.title, source: nil)
        stream.broadcast { $0.focus(f) }
    }

    package func streamReload(ok: Bool, message: String, diagnostics: [Diagnostic]) {
        guard let stream else { return }
        for s in sessions.values { stream.forget(device: s.path) }  // new engines count decisions from 0
        guard streaming else { return }
        let r = StreamLine.Reload(file: configName, ok: ok, gestures: config.specs.count, message: message, diagnostics: diagnostics)
        stream.broadcast { $0.reload(r) }
    }

    /// Sets up the stream beside the control socket.
    package func makeStream(loop: EventLoop, control: ControlServer) -> StreamSubscribers {
        let stream = StreamSubscribers(loop: loop) { [logger] in logger.notice($0) }
        stream.onActiveChange = { [unowned self, unowned stream] on in
            self.core.setStreaming(on)
            if on { for s in self.sessions.values { stream.skipDecisions(of: s.engine, device: s.path) } }
        }
        control.subscribe = { [unowned self, unowned stream] socket, rate, shared in
            stream.add(socket, rate: rate, shared: shared, hello: self.streamHello(rate: rate))
        }
        control.tryConfig = { [unowned self] path, pid in self.startTry(path, owner: pid) }
        loop.afterDispatch = { [weak stream] in stream?.flush() }
        return stream
    }

    /// `try PATH` (gestured ui's Try): the config at `path` beside the running one, in
    /// dry run, on every device from now, until `try off` (nil), another try, or the
    /// end of the process that asked (`owner`: a ui killed does not leave it running).
    package func startTry(_ path: String?, owner: ProcessID?) -> ControlReply {
        guard let path else {
            stopTry(why: "try off")
            return .ok("not trying\n")
        }
        guard streaming else { return .error("what a try does is said on the event stream: subscribe first") }
        guard let owner, let pidfd = try? Process.descriptor(of: owner) else {
            return .error("a try lasts as long as the process that asks for it, and the kernel did not say which process that is")
        }
        let (parsed, diagnostics) = ConfigLoader.load(path: path)
        guard let config = parsed?.forDesktop(environment["XDG_CURRENT_DESKTOP"]) else {
            let n = diagnostics.filter(\.isError).count
            return .error("\(path): \(n) error\(n == 1 ? "" : "s") (gestured check \(path) shows them); not trying it")
        }
        stopTry(why: "another try")
        let t = TryRun(config: config, file: path)
        let fd = pidfd.descriptor
        do {
            try loop.add(fd) { [unowned self, unowned t] _ in
                if self.tryRun === t { self.stopTry(why: "pid \(owner), which asked for it, has exited") }
            }
        } catch {
            return .error("cannot watch the process that asks (\(error))")
        }
        t.owner = .some(consume pidfd)
        t.core.focus(core.focusedApp)
        for s in core.sessions { t.core.add(DaemonCore.Device(path: s.path, info: s.device.info, calibration: s.device.calibration,
                                                             orientation: sessions[s.path]?.device.decoder.orientation ?? s.orientation,
                                                             grabbable: false)) }
        t.core.outputs.removeAll()
        tryRun = t
        logClientTriggered("try: \(path), \(config.specs.count) gesture\(config.specs.count == 1 ? "" : "s"), in dry run beside the running config")
        return .ok("trying \(path): \(config.specs.count) gesture\(config.specs.count == 1 ? "" : "s")\n")
    }

    package func stopTry(why: String) {
        guard let t = tryRun else { return }
        tryRun = nil
        if let fd = t.owner?.descriptor { loop.remove(fd) }
        logClientTriggered("try: \(t.file) stopped (\(why))")
        rearm()
    }

    /// What the try's core decided, to the stream.
    package func reportTry(progressOf device: String? = nil, at time: Timestamp? = nil) {
        guard let tryRun else { return }
        guard let stream else { return tryRun.core.outputs.removeAll(keepingCapacity: true) }
        tryRun.report(progressOf: device, at: time) { line in stream.broadcast { $0 = line } }
    }
}
