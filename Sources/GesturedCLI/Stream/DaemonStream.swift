import DaemonCore
import FocusSources
import GestureActions
import GestureConfig
import GestureEngine
import LinuxSystem
import TouchModel

/// What the daemon tells the event stream (`subscribe`, StreamSubscribers.swift): the
/// facts as they happen, each a line. Every hook starts with `streaming`, so with no
/// subscriber the daemon does what it did before, and allocates nothing per frame.
extension Daemon {
    /// Someone is subscribed.
    var streaming: Bool { !(stream?.isEmpty ?? true) }

    /// The first line a new subscriber gets.
    func streamHello(rate: Int) -> StreamLine.Hello {
        StreamLine.Hello(version: GesturedCommand.version, pid: Process.currentID, config: configName, dryRun: options.dryRun, rate: rate,
                         gestures: config.specs.map { ($0, isEnabled($0)) },
                         devices: sessions.values.sorted { $0.path < $1.path }.map(streamDevice),
                         focus: streamFocus(focus.app))
    }

    func streamDevice(_ s: DeviceSession) -> StreamLine.Device {
        var d = StreamLine.Device(path: s.path, info: s.info, grabbed: s.device.passthrough != nil)
        d.orientation = s.rotation.flatMap { $0 == .unturned ? nil : $0.orientation.description }
        return d
    }

    func streamFocus(_ app: FocusedApp?) -> StreamLine.Focus? {
        guard let source = focus.source else { return nil }
        return StreamLine.Focus(app: app?.app, title: app?.title, source: source.name)
    }

    /// An action the sinks took without a report of their own: printed (dry run) or sent
    /// to the virtual device. Commands report through `CommandRunner.onOutcome`.
    func streamSubmitted(_ inv: Invocation, dryRun: Bool) {
        guard streaming, dryRun || inv.action.sink != .commands else { return }
        streamAction(gesture: inv.gesture, trigger: inv.trigger, action: inv.action, outcome: dryRun ? .dryRun : .sent)
    }

    func streamAction(gesture: String, trigger: String, action: GestureConfig.Action, outcome: StreamLine.Outcome) {
        guard let stream, streaming else { return }
        let phase = GesturePhase.allCases.first { ActionMapper.trigger($0) == trigger } ?? .recognized
        stream.broadcast { $0.action(StreamLine.Action(gesture: gesture, phase: phase, action: action, outcome: outcome)) }
    }

    func streamDeviceEvent(_ event: StreamLine.DeviceEvent, _ s: DeviceSession) {
        guard let stream else { return }
        if event == .removed { stream.forget(device: s.path) }
        guard streaming else { return }
        let d = streamDevice(s)
        stream.broadcast { $0.device(event, d) }
    }

    func streamFocusChanged(_ app: FocusedApp?) {
        guard let stream, streaming else { return }
        let f = streamFocus(app) ?? StreamLine.Focus(app: app?.app, title: app?.title, source: nil)
        stream.broadcast { $0.focus(f) }
    }

    func streamReload(ok: Bool, message: String, diagnostics: [Diagnostic]) {
        guard let stream else { return }
        for s in sessions.values { stream.forget(device: s.path) }  // new engines count decisions from 0
        guard streaming else { return }
        let r = StreamLine.Reload(file: configName, ok: ok, gestures: config.specs.count, message: message, diagnostics: diagnostics)
        stream.broadcast { $0.reload(r) }
    }

    /// Sets up the stream beside the control socket.
    func makeStream(loop: EventLoop, control: ControlServer) -> StreamSubscribers {
        let stream = StreamSubscribers(loop: loop) { [logger] in logger.notice($0) }
        stream.onActiveChange = { [unowned self, unowned stream] on in
            self.core.setStreaming(on)
            if on { for s in self.sessions.values { stream.skipDecisions(of: s.engine, device: s.path) } }
        }
        control.subscribe = { [unowned self, unowned stream] socket, rate in
            stream.add(socket, rate: rate, hello: self.streamHello(rate: rate))
        }
        loop.afterDispatch = { [weak stream] in stream?.flush() }
        return stream
    }
}
