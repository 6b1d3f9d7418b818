import DaemonCore
import DaemonLoop
import GestureActions
import GestureConfig
import GestureEngine
import GestureInput
import JSON
import PlainText
import TouchModel

/// `gestured replay FILE`: a recording through the whole pipeline.
enum ReplayCommand {
    static let help = """
    usage: gestured replay FILE [--description FILE] [--config PATH | --detect] [--app APP]
                                [--orientation normal|90|180|270] [--calibration 'A B C D E F']
                                [--json] [--frames] [--explain]

    Feeds a recording (evemu-record text, or libinput record YAML) through the whole
    pipeline — decoder, recognizers, actions — on the recording's own clock, and
    prints the gestures recognized and the commands that would run (nothing is run).

      --description FILE  the evemu device description, for event files without a header
      --config PATH       the config to use (default: the one `gestured run` would use)
      --detect            no config: run every recognizer kind × finger count × direction,
                          competing as usual, and say what the recording contains
      --app APP           as if APP had the focus (an app id or window class), for
                          gestures with 'apps:' or 'except-apps:'; default: no app
      --orientation O     as if the screen were turned so (90: the device turned a
                          quarter clockwise, as Wayland and GNOME count; sway's 270);
                          only devices that follow the screen (the config's
                          'rotation: devices:', by default touchscreens)
      --calibration M     as if udev gave the device LIBINPUT_CALIBRATION_MATRIX=M
                          (six numbers; replaces the recording's own)
      --json              one JSON object per gesture event: time, device, gesture, kind,
                          phase, fingers, direction and the gesture's values
      --frames            print each decoded frame: time, finger count, each contact's
                          id and position in mm
      --explain           also say why the recognizers that did not fire failed
    """

    static func run(_ args: ArraySlice<String>) throws -> GesturedCommand.ExitCode {
        let a = try Arguments(args, spec: .init(flags: ["frames", "json", "detect", "explain"], options: ["description", "config", "app", "orientation", "calibration"]))
        guard a.positionals.count == 1 else { throw UsageError("needs exactly one recording FILE") }
        if a.flag("detect") && a.option("config") != nil { throw UsageError("--detect uses no config; give one or the other") }
        let orientation = try a.option("orientation").map { name in
            guard let o = Orientation(name: name) else { throw UsageError("--orientation must be one of \(Orientation.names), not '\(name.printable)'") }
            return o
        } ?? .normal
        if let m = a.option("calibration"), ContactTransform(calibration: m) == nil {
            throw UsageError("--calibration needs six numbers, as udev writes LIBINPUT_CALIBRATION_MATRIX ('0 -1 1 1 0 0'), not '\(m.printable)'")
        }
        var recording: Recording
        do {
            recording = try Recording.load(path: a.positionals[0], descriptionPath: a.option("description"))
        } catch {
            Output.err("gestured replay: \(error)")
            return .failure
        }
        if let m = a.option("calibration") { recording.device.udevProperties[TouchDecoder.calibrationProperty] = m }
        var specs: [GestureSpec]
        var profile = AccessibilityProfile()
        var mapper: ActionMapper?
        var rotation = RotationSettings()
        if a.flag("detect") {
            specs = DetectCatalogue.specs
        } else {
            let source = resolveConfigPath(explicit: a.option("config"), environment: Logger.environment())
            let (config, diagnostics) = ConfigLoader.load(source)
            for d in diagnostics { Output.err(d.description.printable) }
            guard let config = config?.forDesktop(Logger.environment()["XDG_CURRENT_DESKTOP"]) else { return .invalidConfig }
            specs = config.specs
            mapper = ActionMapper(config: config)
            rotation = config.rotation
            profile = config.settings.accessibility
        }
        let pipeline: ReplayPipeline
        do {
            pipeline = try ReplayPipeline(recording: recording, specs: specs, orientation: pipelineOrientation(orientation, recording, rotation),
                                          profile: profile)
        } catch {
            Output.err("gestured replay: \(recording.path.printable) (\(recording.device.name.printable)): not a touch device: \(error)")
            return .failure
        }
        pipeline.engine.focusedApp = a.option("app")
        if !a.flag("json") && specs.contains(where: { !$0.apps.isEmpty }) {
            Output.line("focused app: \(a.option("app") ?? "none (give one with --app)")")
        }
        let start = recording.events.first?.time ?? Timestamp(microseconds: 0)
        let deviceName = recording.device.name
        var invocations: [Invocation] = []
        var count = 0
        let explain: (([ArenaDecision]) -> Void)? = a.flag("explain") && !a.flag("json") ? { decisions in
            for d in decisions {
                if let text = DecisionTrace.explanation(d) { Output.line(d.time.seconds(since: start).fixed(3) + "  " + text) }
            }
        } : nil
        pipeline.run(onFrame: { frame in
            if a.flag("frames") && !a.flag("json") { Output.out(describe(frame, since: start)) }
        }, onDecisions: explain, onEvents: { events in
            for e in events {
                count += 1
                let ignored = mapper?.map(e, device: pipeline.device, into: &invocations)
                let t = e.time.seconds(since: start)
                if a.flag("json") {
                    Output.out(GestureText.json(e, time: t, device: deviceName, commands: invocations.map(\.command)))
                } else {
                    for line in textLines(e, at: t, invocations: invocations) { Output.out(line) }
                    if let ignored { Output.out("    " + ignored.message) }
                }
                invocations.removeAll(keepingCapacity: true)
            }
        })
        let refused = pipeline.decoder.rejections
        if refused.undeclaredEvents + refused.truncatedFrames > 0 { Output.err("gestured replay: \(recording.path.printable): \(refused)") }
        if !a.flag("json") {
            Output.line(count == 0 ? "no gestures recognized in \(recording.path)" : "\(count) gesture event\(count == 1 ? "" : "s")")
        }
        return .success
    }

    /// What `replay` prints for one gesture event, `t` s after the recording's start:
    /// `0.310  ws-next: swipe left …`, then each command it would run, indented (the
    /// text scenarios, Tests/Scenarios, expect these lines).
    static func textLines(_ e: GestureEvent, at t: Double, invocations: [Invocation]) -> [String] {
        [(t.fixed(3) + "  " + GestureText.line(e)).printable]
            + invocations.map { "    would run: " + DryRunSink.describe($0).split(separator: "\n").joined(separator: "\n    ") }
    }

    /// Only a device that follows the screen (`rotation: devices:`, by default
    /// touchscreens) is turned, as in the daemon.
    static func pipelineOrientation(_ o: Orientation, _ recording: Recording, _ rotation: RotationSettings) -> Orientation {
        guard let caps = try? TouchCapabilities(recording.device) else { return o }
        return rotation.follows(caps.deviceInfo(name: recording.device.name)) ? o : .normal
    }

    /// `  0.123456  3 fingers  #0 (40.1, 16.8)  #1 (52.0, 17.3)  [resynced]`
    static func describe(_ f: TouchFrame, since start: Timestamp) -> String {
        var s = f.time.seconds(since: start).fixed(6) + "  " + String(f.fingerCount) + (f.fingerCount == 1 ? " finger " : " fingers")
        for c in f.contacts {
            s += "  #\(c.id) (\(c.position.x.fixed(1)), \(c.position.y.fixed(1)))"
        }
        if f.flags.contains(.resynced) { s += "  [resynced]" }
        if f.flags.contains(.buttonDown) { s += "  [button]" }
        return s
    }
}
