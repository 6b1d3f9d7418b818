import DaemonCore
import DesktopSession
import GestureActions
import GestureConfig
import GestureEngine
import JSON
import LinuxSystem
import PlainText
import TouchModel

/// What the control socket's requests do (ControlProtocol.swift).
package extension Daemon {
    package func answer(_ request: ControlRequest) -> ControlReply {
        switch request {
        case .status(let json):
            return .ok(json ? statusJSON() : statusText())
        case .enable(let name), .disable(let name):
            let on = request == .enable(name)
            let names = config.specs.map(\.name)
            guard names.contains(name) else {
                return .error("no gesture named '\(name)'" + DidYouMean.hint(for: name, among: names) + " (gestured status lists them)")
            }
            setEnabled(on, name: name)
            logClientTriggered("gesture \(name) \(on ? "enabled" : "disabled") (gestured \(on ? "enable" : "disable"))")
            return .ok("\(name): \(on ? "enabled" : "disabled")\n")
        case .trigger(let name, let app, let origin):
            let outcome = trigger(name, app: app, origin: origin)
            return outcome.ok ? .ok(outcome.summary(dryRun: options.dryRun) + "\n") : .error(outcome.reason.printable)
        case .tryConfig, .subscribe:
            return .error("this gestured has no event stream")  // the ControlServer hands these to `stream`
        case .reload:
            guard reload(reason: "gestured reload") else {
                return .error("the config has errors; still running the previous one (the log and 'gestured check' show them)")
            }
            return .ok("reloaded \(configName): \(config.specs.count) gesture\(config.specs.count == 1 ? "" : "s")\n")
        }
    }

    /// Runs binding `name` as if its gesture had been performed (`DaemonCore.trigger`:
    /// which binding, which actions, or why none): `app`, the `apps:` variant's app
    /// (nil: the focused one); `origin`, who asks (`gestured trigger`, a desktop
    /// shortcut). The actions go where a gesture's go (`carryOut`: the command runner
    /// with its caps and timeout, the virtual device, the desktop; in a dry run the
    /// printer), and the log says what ran and that no gesture did it; the outcome says
    /// which commands the runner's caps dropped at once. The one entry point for every
    /// way of running a binding without its gesture.
    @discardableResult
    package func trigger(_ name: String, app: String? = nil, origin: TriggerOrigin) -> TriggerOutcome {
        var outcome = core.trigger(name, app: app, origin: origin, at: Self.now())
        let how = origin == .manual ? "gestured trigger" : "a desktop shortcut"
        if outcome.ok {
            let actions = outcome.invocations.map { "\($0.trigger): \($0.command)" }.joined(separator: "; ")
            logClientTriggered("[\(outcome.binding ?? name)] run by \(how), not by a gesture\(outcome.app.map { ", for app \($0)" } ?? ""): \(actions)".printable
                               + (options.dryRun ? " (dry run: nothing ran)" : ""))
            droppedWhileTriggering = []
            carryOut()
            outcome.dropped = droppedWhileTriggering ?? []
            droppedWhileTriggering = nil
        } else {
            logClientTriggered("\(how) \(name.printable): \(outcome.reason.printable)")
        }
        return outcome
    }

    /// What control clients make the daemon log (enable, disable, refused and dropped
    /// clients) goes through one rate limit: 10,000 requests logged 10,000 lines.
    package func logClientTriggered(_ message: String, now: Int64 = monotonicNanoseconds()) {
        let (allowed, before) = controlLogLimit.admit(now: now)
        if before > 0 {
            logger.notice("control: \(before) more line\(before == 1 ? "" : "s") not logged (more than \(controlLogLimit.perWindow) in \(controlLogLimit.windowNs / 1_000_000_000) s)")
        }
        if allowed { logger.notice(message) }
    }

    package var configName: String { configSource == .builtIn ? ConfigLoader.builtInName : config.file }

    /// Whether each gesture is enabled now: the config's `enabled:`, or what
    /// `gestured enable/disable` said since.
    package func isEnabled(_ spec: GestureSpec) -> Bool { core.isEnabled(spec) }

    /// One line per fact. Device names, app ids, titles, globs and commands come from
    /// outside (hardware, any app, the config): each line is escaped whole, so none of
    /// them can clear the terminal or forge a line of its own.
    package func statusText() -> String {
        var lines = ["gestured \(Gestured.version), pid \(Process.currentID)\(options.dryRun ? ", dry run" : "")",
                     "config: \(configName) (\(config.specs.count) gesture\(config.specs.count == 1 ? "" : "s"))"]
        if let source = focus.source {
            let app = focus.app.map { $0.description } ?? (source.connected ? "no window" : "not known yet")
            lines.append("focused app: \(app) — from \(source.name) (\(source.endpoint))\(source.connected ? "" : ", not connected")"
                         + (source.problem.map { ": " + $0 } ?? ""))
        } else {
            lines.append("focused app: none known — \(focus.unavailable ?? "no source")")
        }
        lines.append(rotation.statusLine)
        lines.append("devices:\(sessions.isEmpty ? " none" : "")")
        for d in sessions.values.sorted(by: { $0.path < $1.path }) {
            lines.append("  \(d.path): \(d.info.kind.rawValue) \"\(d.info.name)\"\(d.device.passthrough.map { ", grabbed: the desktop reads \"\($0.clone.name)\"" } ?? "")"
                         + (d.rotation.flatMap { $0 == .unturned ? nil : ", screen \($0.orientation) from \($0.source)" } ?? ""))
        }
        lines.append("gestures:\(config.specs.isEmpty ? " none" : "")")
        let width = config.specs.map(\.name.count).max() ?? 0
        for spec in config.specs {
            var line = "  " + spec.name + String(repeating: " ", count: width - spec.name.count)
            line += "  \(spec.kind.rawValue)  \(isEnabled(spec) ? "enabled" : "disabled")"
            if core.runtimeEnabled[spec.name] != nil, core.runtimeEnabled[spec.name] != spec.enabled { line += " (at run time)" }
            if !spec.apps.only.isEmpty { line += "  apps: " + spec.apps.only.joined(separator: ", ") }
            if !spec.apps.except.isEmpty { line += "  except-apps: " + spec.apps.except.joined(separator: ", ") }
            lines.append(line)
        }
        lines.append("last gestures:\(core.recent.entries.isEmpty ? " none yet" : "")")
        let now = Self.now()
        for e in core.recent.entries.reversed() {
            let ago = Double(now.microseconds - e.time.microseconds) / 1e6
            lines.append("  \(ago.fixed(1)) s ago  \(e.gesture) \(e.phase.rawValue) on \"\(e.device)\"\(e.app.map { " in \($0)" } ?? "")"
                         + (e.commands.isEmpty ? ": no command" : ": " + e.commands.joined(separator: "; ")))
        }
        return lines.map(\.printable).joined(separator: "\n") + "\n"
    }

    package func statusJSON() -> String {
        let focusFields: [(String, String)]
        if let source = focus.source {
            focusFields = [("source", JSON.string(source.name)), ("endpoint", JSON.string(source.endpoint)),
                           ("connected", source.connected ? "true" : "false"),
                           ("problem", source.problem.map(JSON.string) ?? "null"),
                           ("app", focus.app.map { JSON.string($0.app) } ?? "null"),
                           ("title", focus.app.map { JSON.string($0.title) } ?? "null")]
        } else {
            focusFields = [("source", "null"), ("reason", JSON.string(focus.unavailable ?? "")), ("app", "null")]
        }
        let devices = sessions.values.sorted(by: { $0.path < $1.path }).map { (s: DeviceSession) -> String in
            let calibration = s.device.decoder.calibration
            let fields: [(String, String)] = [
                ("path", JSON.string(s.path)), ("type", JSON.string(s.info.kind.rawValue)), ("name", JSON.string(s.info.name)),
                ("grabbed_as", s.device.passthrough.map { JSON.string($0.clone.name) } ?? "null"),
                ("orientation", s.rotation.map { JSON.string($0.orientation.description) } ?? "null"),
                ("orientation_source", s.rotation.map { JSON.string($0.source) } ?? "null"),
                ("calibration", calibration.isIdentity ? "null" : JSON.string(calibration.description)),
            ]
            return JSON.object(fields)
        }
        func list(_ words: [String]) -> String { "[" + words.map(JSON.string).joined(separator: ", ") + "]" }
        let gestures = config.specs.indices.map { i in
            let spec = config.specs[i], binding = config.bindings[i]
            return JSON.object([("name", JSON.string(spec.name)), ("kind", JSON.string(spec.kind.rawValue)),
                                ("enabled", isEnabled(spec) ? "true" : "false"),
                                ("apps", list(spec.apps.only)), ("except_apps", list(spec.apps.except)),
                                ("fingers", String(spec.fingers.lowerBound)), ("fingers_max", String(spec.fingers.upperBound)),
                                ("directions", list(DaemonCore.directionWords(spec))),
                                ("does", JSON.string(DaemonCore.actionText(binding))),
                                ("desktops", list(binding.desktops)),
                                ("this_desktop", config.offDesktop.contains(spec.name) ? "false" : "true"),
                                ("shortcut", binding.shortcut.map { JSON.string($0.description) } ?? "null"),
                                ("variants", list(DaemonCore.variants(of: i, in: config).map { config.specs[$0].name }))])
        }
        let now = Self.now()
        let recentJSON = core.recent.entries.reversed().map { e in
            JSON.object([("seconds_ago", JSON.number(Double(now.microseconds - e.time.microseconds) / 1e6, 1)),
                         ("gesture", JSON.string(e.gesture)), ("phase", JSON.string(e.phase.rawValue)),
                         ("device", JSON.string(e.device)), ("app", e.app.map(JSON.string) ?? "null"),
                         ("commands", "[" + e.commands.map(JSON.string).joined(separator: ", ") + "]")])
        }
        return JSON.object([("version", JSON.string(Gestured.version)), ("pid", String(Process.currentID)),
                            ("dry_run", options.dryRun ? "true" : "false"), ("config", JSON.string(configName)),
                            ("focus", JSON.object(focusFields)),
                            ("devices", "[" + devices.joined(separator: ", ") + "]"),
                            ("gestures", "[" + gestures.joined(separator: ", ") + "]"),
                            ("recent", "[" + recentJSON.joined(separator: ", ") + "]")]) + "\n"
    }
}
