import DaemonCore
import DaemonLoop
import GestureConfig
import GestureEngine
import GestureInput
import JSON
import LinuxSystem
import LiveViewHTTP
import PlainText
import TouchModel

/// What the ui's API does (docs/UI.md, "Endpoints"; the HTTP side, tokens and checks
/// are `LiveViewServer`'s). It relays the daemon's stream to the pages, runs Record on
/// the frames in it, asks the daemon to run Try beside its config (`try PATH`: its
/// lines come back in the stream), and answers the page's requests.
package final class UIEndpoints {
    /// Frames per second the pages get.
    package static let pageRate = 60
    /// Frames per second asked of the daemon while Record keeps frames here: the
    /// stream's most, so that it sees (nearly) every frame the daemon's does.
    package static let engineRate = 1000

    package let mode: UIProcess.Mode
    /// The environment whose control socket is the daemon's (nil: none, replay mode).
    package let control: [String: String]?
    package let logger: Logger
    /// The config the page edits: `--config`, else the one the running daemon says it
    /// runs (its `hello`), else the one it would load.
    package private(set) var source: ConfigSource
    package let environment: [String: String]
    package private(set) var editing: ConfigEditing
    /// `--config` was given: the daemon's `hello` does not move the editor elsewhere.
    private let explicitConfig: Bool
    /// Sends a stream line to every page (`droppable`: a frame).
    package var broadcast: (String, Bool) -> Void = { _, _ in }
    /// Asks the loop to re-arm its timers (a deferred answer is ready to go).
    package var arm: () -> Void = {}

    /// Local mode: starts the private daemon now if it is not running (or, with true,
    /// even if it is) and says so; nil when it runs on, to be asked to reload.
    package var restartLocalDaemon: ((Bool) -> String?)?

    private weak var feed: DaemonFeed?
    /// Why the private daemon is not running (a `reload` line of `"source":"ui"`): what
    /// a page that connects is sent, until the daemon's next `hello`.
    private var stopped: String?
    /// The daemon's last `hello`, and the devices it has added since: what a page that
    /// connects now is sent first.
    private var hello: String?
    private var deviceLines: [(path: String, line: String)] = []
    private var devices: [String: DeviceInfo] = [:]
    /// The last frame sent to the pages per device (µs, fingers), to keep them at `pageRate`.
    private var forwarded: [String: (us: Int64, fingers: Int)] = [:]
    /// The daemon runs the edited config beside its own (`try PATH`).
    private var trying = false
    private var recorder = GestureRecorder()
    /// The recordings pages show, by id (`--replay`'s first).
    private var recordings = RecordingShelf()
    /// `--replay`'s hello: its device, and the gestures it is shown with.
    private var replayHello: String?
    /// Where uploaded recordings and the config tried are written for the reader and
    /// the daemon (mode 0700, removed at exit).
    private var uploads: String?

    private let loop: EventLoop

    package init(mode: UIProcess.Mode, options: UIProcess.Options, control: [String: String]?, loop: EventLoop, logger: Logger) throws {
        self.mode = mode
        self.loop = loop
        self.control = control
        self.logger = logger
        environment = options.environment
        source = resolveConfigPath(explicit: options.configPath, environment: options.environment)
        explicitConfig = options.configPath != nil
        editing = ConfigEditing(source: source, explicit: explicitConfig, environment: options.environment)
        if let path = options.replay { replayHello = try loadReplay(path, description: options.description) }
    }

    deinit {
        guard let uploads else { return }
        FileSystem.remove(uploads + "/try.yaml")
        FileSystem.remove(uploads)
    }

    package func attach(_ feed: DaemonFeed) {
        self.feed = feed
        feed.onLine = { [unowned self] in self.relay($0) }
        feed.onLost = { [unowned self] why in self.logger.notice("gestured ui: \(why); reconnecting") }
    }

    // MARK: The stream

    /// A page opened `/api/events`: the current `hello` and devices first.
    package func greet(_ stream: EventStream) {
        if let replayHello { return stream.send(replayHello) }
        if let hello { stream.send(hello) }
        for d in deviceLines { stream.send(d.line) }
        if let stopped { stream.send(stopped) }
    }

    /// The private daemon exited: the pages see why, as a refused reload with the
    /// config's diagnostics, from the ui (`"source":"ui"`).
    package func daemonStopped(_ why: String, _ diagnostics: [Diagnostic]) {
        let line = JSON.object([("type", JSON.string("reload")), ("source", JSON.string("ui")), ("t", JSON.number(Double(monotonicNanoseconds() / 1000) / 1e6, 6)), ("file", JSON.string(editing.path)),
                                ("ok", "false"), ("gestures", "0"), ("message", JSON.string(why)),
                                ("diagnostics", ConfigEditing.json(diagnostics))])
        stopped = line
        broadcast(line, false)
    }

    private func relay(_ bytes: [UInt8]) {
        guard let v = JSONValue.parse(bytes), let type = v["type"]?.string else { return }
        let line = String(decoding: bytes, as: UTF8.self)
        switch type {
        case "hello":
            hello = line
            stopped = nil
            followDaemonConfig(v["config"]?.string)
            deviceLines.removeAll()
            devices.removeAll()
            forwarded.removeAll()
            for d in v["devices"]?.array ?? [] { if let (p, info) = StreamReading.device(d) { devices[p] = info } }
            broadcast(line, false)
        case "device":
            relayDevice(v, line)
        case "frame":
            relayFrame(v, line)
        case "reload":
            broadcast(v["t"] == nil ? Self.stamped(line) : line, false)
            // A fresh hello carries the new gestures.
            if v["ok"]?.bool == true { feed?.resubscribe() }
        default:
            broadcast(line, false)
        }
    }

    /// A line that says no time, stamped with now (`t`) on the clock of the daemon's
    /// lines (CLOCK_MONOTONIC is the machine's, not a process's): the page shows every
    /// time of the live view from the daemon's start, a reload's too.
    private static func stamped(_ line: String) -> String {
        RecordingTimeline.adding(line, ("t", JSON.number(Double(monotonicNanoseconds() / 1000) / 1e6, 6)))
    }

    /// Save writes the file the daemon runs, not the one this process would have looked
    /// up (a daemon started with `--config X`). The built-in default has no file: the
    /// user's own is then created, as before.
    private func followDaemonConfig(_ name: String?) {
        guard !explicitConfig, let name, name.hasPrefix("/"), source != .file(name) else { return }
        source = .file(name)
        editing = ConfigEditing(source: source, explicit: false, environment: environment)
    }

    private func relayDevice(_ v: JSONValue, _ line: String) {
        guard let (path, info) = StreamReading.device(v) else { return }
        deviceLines.removeAll { $0.path == path }
        if v["event"]?.string == "removed" {
            devices[path] = nil
        } else {
            devices[path] = info
            deviceLines.append((path, line))
        }
        broadcast(line, false)
    }

    private func relayFrame(_ v: JSONValue, _ line: String) {
        guard let (path, frame) = StreamReading.frame(v) else { return }
        if let info = devices[path] {
            recorder.add(frame, device: path)
        }
        // At the engines' rate, the pages still get `pageRate`, and every change of finger count.
        let last = forwarded[path]
        let due = last.map { frame.time.microseconds - $0.us >= 1_000_000 / Int64(Self.pageRate) || frame.fingerCount != $0.fingers } ?? true
        if due || (feed?.rate ?? Self.pageRate) <= Self.pageRate {
            forwarded[path] = (frame.time.microseconds, frame.fingerCount)
            broadcast(line, true)
        }
    }

    /// The rate the daemon is asked for: higher while Record keeps the frames.
    private func updateRate() {
        let wanted = recorder.isRecording ? Self.engineRate : Self.pageRate
        if let feed, feed.rate != wanted { feed.resubscribe(rate: wanted) }
    }

    // MARK: Requests

    /// The most body each endpoint takes (bytes): a config's endpoints no more than a
    /// config file may be (Save's JSON twice that, for its escapes; its text is then held
    /// to the same), the rest a little. Over it: 413, before the body is read when its
    /// `Content-Length` says so. A recording's timeline is built on the one thread: 4 MiB
    /// (minutes of a touchpad, a minute of a 10-finger touchscreen) hold the page for
    /// about a second; a larger one is for `gestured ui --replay FILE`, built before the
    /// page is served (32 MiB held it 8 s).
    package static let bodyLimits: [String: Int] = [
        "/api/recording": 4 << 20,
        "/api/check": ConfigLoader.maximumFileSize,
        "/api/try": ConfigLoader.maximumFileSize,
        "/api/form": 2 * ConfigLoader.maximumFileSize,
        "/api/propose": ConfigLoader.maximumFileSize,
        "/api/save": 2 * ConfigLoader.maximumFileSize,
        "/api/enable": 4096, "/api/disable": 4096, "/api/trigger": 4096,
        "/api/record/start": 4096, "/api/record/stop": 4096, "/api/session": 4096,
    ]

    package func handle(_ r: HTTPRequest) -> HTTPServer.Reply? {
        let routes: [String: (method: String, run: (HTTPRequest) -> HTTPServer.Reply)] = [
            "/api/session": ("GET", { _ in .response(self.session()) }),
            "/api/check": ("POST", { .response(self.check($0.text)) }),
            "/api/try": ("POST", { self.tryConfig($0.text, on: $0.query["recording"]) }),
            "/api/save": ("POST", { self.save($0.body) }),
            "/api/form": ("POST", { .response(.json(FormEditing.answer($0.body))) }),
            "/api/propose": ("POST", { .response(self.propose($0)) }),
            "/api/recording": (r.method == "POST" ? "POST" : "GET", { r in .response(r.method == "POST" ? self.upload(r) : self.timeline(r.query["id"])) }),
            "/api/record/start": ("POST", { _ in .response(self.recordStart()) }),
            "/api/record/stop": ("POST", { _ in .response(self.recordStop()) }),
            "/api/enable": ("POST", { self.forward(.enable, $0.text) }),
            "/api/disable": ("POST", { self.forward(.disable, $0.text) }),
            "/api/trigger": ("POST", { self.forward(.trigger, $0.text) }),
        ]
        guard let route = routes[r.path] else { return nil }
        let method = r.method == "HEAD" ? "GET" : r.method
        guard method == route.method else { return .response(.text("method not allowed: \(route.method) \(r.path)", status: 405)) }
        return route.run(r)
    }

    /// Passes `request` to the daemon and answers with `answer(reply)` once it has
    /// answered, the connection suspended meanwhile (`ControlExchange`: nothing waits).
    private func ask(_ request: ControlRequest, _ answer: @escaping (Result<ControlReply, ControlError>) -> HTTPResponse) -> HTTPServer.Reply {
        guard let control else { return .response(answer(.failure(ControlError("no daemon in replay mode")))) }
        let deferred = DeferredResponse()
        ControlExchange.start(request, environment: control, loop: loop) { [arm] result in
            deferred.complete(answer(result))
            arm()
        }
        return .deferred(deferred)
    }

    /// The mode, the config (`exists`: false on a first run, when Save creates the file;
    /// `default`: the built-in default's text, to start from), `--replay`'s recording,
    /// and outside replay mode why no touch device is seen, in `list-devices`' words
    /// (`no_device`, null when one is: the page shows it when the daemon has none).
    private func session() -> HTTPResponse {
        let exists = FileSystem.exists(editing.path)
        let config = JSON.object([("path", JSON.string(editing.path)), ("text", JSON.string(editing.text())),
                                  ("in_use", editing.inUse ? "true" : "false"), ("exists", exists ? "true" : "false"),
                                  ("default", JSON.string(ConfigLoader.builtInText))])
        let noDevice = mode == .replay || !devices.isEmpty ? nil : DeviceScan.noDeviceAdvice(DeviceScan.scan(Udev().inputNodes()))
        return .json(JSON.object([("mode", JSON.string(mode.rawValue)), ("version", JSON.string(Gestured.version)),
                                  ("config", config), ("recording", recordings.first.map { JSON.string($0.name) } ?? "null"),
                                  ("no_device", noDevice.map { JSON.string($0.joined(separator: "\n")) } ?? "null")]))
    }

    private func check(_ text: String) -> HTTPResponse {
        let (config, diagnostics) = editing.check(text)
        return .json(JSON.object([("ok", config == nil ? "false" : "true"), ("diagnostics", ConfigEditing.json(diagnostics))]))
    }

    /// Try: on the recording the page shows (`recording`, its id), the edited config is
    /// replayed at once and the answer is its whole timeline (frames, states, events,
    /// what would run) and `fired`; live, the daemon runs it beside its own on its frames
    /// (`try PATH`, its lines back in the stream with `"source":"try"`); empty text stops it.
    private func tryConfig(_ text: String, on recordingID: String?) -> HTTPServer.Reply {
        guard !text.allSatisfy(\.isWhitespace) else {
            let stopped = JSON.object([("ok", "true"), ("diagnostics", "[]"), ("trying", "false")])
            guard trying, mode != .replay else { return .response(.json(stopped)) }
            trying = false
            return ask(.tryConfig(nil)) { _ in .json(stopped) }
        }
        let (parsed, diagnostics) = editing.check(text)
        var fields = [("ok", parsed == nil ? "false" : "true"), ("diagnostics", ConfigEditing.json(diagnostics))]
        guard let config = parsed?.forDesktop(environment["XDG_CURRENT_DESKTOP"]) else {
            return .response(.json(JSON.object(fields)))
        }
        let shown = recordingID.map { id in Int(id).flatMap { recordings[$0] } } ?? (mode == .replay ? recordings.first : nil)
        if let recordingID, shown == nil { return .response(Self.unknownRecording(recordingID)) }
        if let shown {
            do {
                let (timeline, fired) = try RecordingTimeline(recording: shown.recording, specs: config.specs, bindings: config.bindings)
                    .build(mapper: ActionMapper(config: config))
                fields += [("fired", "[" + fired.joined(separator: ",") + "]"), ("timeline", RecordingTimeline.adding(timeline, ("id", String(shown.id))))]
            } catch {
                return .response(.json(JSON.object([("ok", "false"), ("diagnostics", "[]"), ("message", JSON.string("\(error)"))])))
            }
        }
        guard mode != .replay else {
            fields.append(("trying", "true"))
            return .response(.json(JSON.object(fields)))
        }
        let file: String
        do {
            file = try privateDirectory() + "/try.yaml"
            try AtomicFile.write(Array(text.utf8), to: file, mode: 0o600)
        } catch {
            return .response(.json(JSON.object([("ok", "false"), ("diagnostics", "[]"), ("message", JSON.string("cannot write the config to try: \(error)"))])))
        }
        return ask(.tryConfig(file)) { [weak self] result in
            switch result {
            case .success(let reply) where reply.ok:
                self?.trying = true
                return .json(JSON.object(fields + [("trying", "true")]))
            case .success(let reply):
                return .json(JSON.object(fields + [("trying", "false"), ("message", JSON.string(reply.message))]))
            case .failure(let error):
                return .json(JSON.object(fields + [("trying", "false"), ("message", JSON.string(error.description))]))
            }
        }
    }

    /// This process's own directory in the runtime directory (mode 0700), made once.
    private func privateDirectory() throws -> String {
        if let uploads { return uploads }
        let dir = try FileSystem.makeTemporaryDirectory(prefix: (environment["XDG_RUNTIME_DIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp") + "/gestured-ui-")
        uploads = dir
        return dir
    }

    private func save(_ body: [UInt8]) -> HTTPServer.Reply {
        guard let v = JSONValue.parse(body), let text = v["text"]?.string else {
            return .response(.text("expected {\"text\": …, \"force\": bool}", status: 400))
        }
        guard text.utf8.count <= ConfigLoader.maximumFileSize else {
            return .response(.text("too large: a config is at most \(ConfigLoader.maximumFileSize >> 20) MiB", status: 413))
        }
        let force = v["force"]?.bool ?? false
        let (config, diagnostics) = editing.check(text)
        var fields: [(String, String)] = [("diagnostics", ConfigEditing.json(diagnostics))]
        if config == nil && !force {
            fields += [("saved", "false"), ("needs_confirm", "true"), ("backup", "null"), ("reload", "null")]
            return .response(.json(JSON.object(fields)))
        }
        let backup: String?
        do {
            backup = try editing.save(text)
        } catch {
            fields += [("saved", "false"), ("needs_confirm", "false"), ("backup", "null"), ("reload", "null"),
                       ("message", JSON.string("\(error)"))]
            return .response(.json(JSON.object(fields)))
        }
        logger.notice("gestured ui: saved \(editing.path)\(backup.map { " (the previous version is \($0))" } ?? "")")
        fields += [("saved", "true"), ("needs_confirm", "false"), ("backup", backup.map(JSON.string) ?? "null")]
        guard control != nil else { return .response(.json(JSON.object(fields + [("reload", "null")]))) }
        // Local mode: a private daemon that is not running starts again on the saved file,
        // and one running the built-in default starts over to take the user's new file.
        if let said = restartLocalDaemon?(!editing.inUse) {
            return .response(.json(JSON.object(fields + [("reload", JSON.string(said))])))
        }
        // Then `gestured reload`: the daemon's answer, `reloaded FILE: N gestures` or `error: …`.
        return ask(.reload) { result in
            let reload = switch result {
            case .success(let reply): reply.ok ? reply.body.trimmingNewlines : "error: " + reply.message
            case .failure(let error): "error: \(error)"
            }
            return .json(JSON.object(fields + [("reload", JSON.string(reload))]))
        }
    }

    /// What a card's button asks of the daemon about its gesture: Enable, Disable, Run
    /// (`trigger NAME`: the daemon's answer is what ran, or would in a dry run, or why not).
    private enum GestureRequest { case enable, disable, trigger }

    private func forward(_ what: GestureRequest, _ body: String) -> HTTPServer.Reply {
        let name = body.trimmingNewlines
        func answer(ok: Bool, _ message: String) -> HTTPResponse {
            .json(JSON.object([("ok", ok ? "true" : "false"), ("message", JSON.string(message))]))
        }
        guard !name.isEmpty, name.unicodeScalars.count <= 200, !name.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7f }) else {
            return .response(answer(ok: false, "a gesture name has no spaces or control characters"))
        }
        let request: ControlRequest = switch what {
        case .enable: .enable(name)
        case .disable: .disable(name)
        case .trigger: .trigger(name, origin: .manual)
        }
        return ask(request) { result in
            switch result {
            case .success(let reply): return answer(ok: reply.ok, reply.ok ? reply.body.trimmingNewlines : reply.message)
            case .failure(let error): return answer(ok: false, error.description)
            }
        }
    }

    private func recordStart() -> HTTPResponse {
        guard mode != .replay else { return .text("no live devices in replay mode", status: 409) }
        recorder.start()
        updateRate()
        return .json(JSON.object([("recording", "true")]))
    }

    private func recordStop() -> HTTPResponse {
        guard recorder.isRecording else { return .text("not recording (POST /api/record/start first)", status: 409) }
        let answer = recorder.stop(devices: devices)
        updateRate()
        return .json(answer)
    }

    // MARK: Recordings

    /// The specs a recording is shown with: the saved config's, or with no config file,
    /// every kind as `replay --detect` runs them. Read at each request, so that after a
    /// Save (or an edit by hand) the page shows the config as it now is.
    private func recordingConfig() -> (specs: [GestureSpec], bindings: [Binding]) {
        guard source != .builtIn, let config = ConfigLoader.load(source).0?.forDesktop(environment["XDG_CURRENT_DESKTOP"]) else {
            return (DetectCatalogue.specs, [])
        }
        return (config.specs, config.bindings)
    }

    /// `--replay`'s recording, checked whole and kept (id 1); the hello pages get.
    private func loadReplay(_ path: String, description: String?) throws -> String {
        let recording = try Recording.load(path: path, descriptionPath: description)
        let item = recordings.keep(replayed: recording)
        var e = StreamEncoder()
        let info = try ReplayPipeline(recording: recording, specs: []).device
        e.hello(StreamLine.Hello(version: Gestured.version, pid: Process.currentID, config: editing.path, dryRun: true, rate: 0,
                                 gestures: recordingConfig().specs.map { ($0, true) }, devices: [StreamLine.Device(path: item.name, info: info)],
                                 focus: nil))
        return RecordingTimeline.line(e)
    }

    /// The timeline of recording `id` (default: `--replay`'s) with the saved config, and its `id`.
    private func timeline(_ id: String?) -> HTTPResponse {
        guard let item = id.map({ Int($0).flatMap { recordings[$0] } }) ?? recordings.first else {
            return id.map(Self.unknownRecording) ?? .text("no recording (gestured ui --replay FILE)", status: 404)
        }
        do {
            return .json(try timelineJSON(item))
        } catch {
            return .text("cannot replay \(item.name): \("\(error)".printable)", status: 422)
        }
    }

    private func timelineJSON(_ item: RecordingShelf.Item) throws -> String {
        let (specs, bindings) = recordingConfig()
        let json = try RecordingTimeline(recording: item.recording, specs: specs, bindings: bindings).build().json
        return RecordingTimeline.adding(json, ("id", String(item.id)))
    }

    private static func unknownRecording(_ id: String) -> HTTPResponse {
        .text("no recording \(id.printable) here: the ui keeps the last \(RecordingShelf.capacity) opened; open it again", status: 404)
    }

    /// "Propose a binding" of a recognized card: `?recording=ID&gesture=NAME&t=SECONDS`
    /// (the frame on screen), the body the config the cards were made with (empty: the
    /// saved one, or every kind). The answer is `BindingProposal`'s YAML for that
    /// gesture's recognition at or before `t`, and the margin its minimums were given.
    private func propose(_ r: HTTPRequest) -> HTTPResponse {
        guard let id = r.query["recording"], let name = r.query["gesture"] else {
            return .text("propose needs ?recording=ID&gesture=NAME", status: 400)
        }
        guard let item = Int(id).flatMap({ recordings[$0] }) else { return Self.unknownRecording(id) }
        var specs = recordingConfig().specs
        if !r.text.allSatisfy(\.isWhitespace) {
            guard let config = editing.check(r.text).config?.forDesktop(environment["XDG_CURRENT_DESKTOP"]) else {
                return .text("the edited config has errors: see the diagnostics", status: 422)
            }
            specs = config.specs
        }
        let time = r.query["t"].flatMap(Double.init).flatMap { $0.isFinite ? $0 : nil }
        do {
            guard let (event, yaml, margin) = try BindingProposal.propose(recording: item.recording, specs: specs, gesture: name, at: time) else {
                return .text("\(name.printable) is not recognized in \(item.name): there is nothing to propose from", status: 404)
            }
            let start = item.recording.events.first?.time ?? event.time
            return .json(JSON.object([("gesture", JSON.string(name)), ("kind", JSON.string(event.kind.rawValue)),
                                      ("fingers", String(event.fingers)), ("direction", event.directionWord.map(JSON.string) ?? "null"),
                                      ("t", JSON.number(event.time.seconds(since: start), 6)), ("margin", JSON.number(margin, 2)),
                                      ("yaml", JSON.string(yaml))]))
        } catch {
            return .text("cannot replay \(item.name): \("\(error)".printable)", status: 422)
        }
    }

    /// A recording the page sent (dropped on it, or opened), `?name=` its file's name:
    /// the body is the file's bytes; for an evemu events file with its description file
    /// beside it, the description's bytes first (`?description=NAME&description_length=N`).
    /// Kept by id; the answer is its timeline.
    private func upload(_ r: HTTPRequest) -> HTTPResponse {
        let name = Self.fileName(r.query["name"], or: "recording")
        var events = r.body
        var description: (name: String, bytes: [UInt8])?
        if let length = r.query["description_length"] {
            guard let n = Int(length), n >= 0, n <= r.body.count else {
                return .text("description_length \(length.printable) is not a length within the body (\(r.body.count) bytes)", status: 400)
            }
            description = (Self.fileName(r.query["description"], or: "description"), Array(r.body[..<n]))
            events = Array(r.body[n...])
        }
        do {
            let recording = try RecordingShelf.read(events, name: name, description: description, in: try privateDirectory())
            let item = recordings.keep(sent: recording, name: name)
            return .json(try timelineJSON(item))
        } catch {
            return .text("not a recording gestured can read: \("\(error)".printable)", status: 422)
        }
    }

    /// A file name the page sent, as shown back: its last component, printable, bounded.
    private static func fileName(_ given: String?, or fallback: String) -> String {
        guard let given, let last = given.split(separator: "/").last, !last.isEmpty else { return fallback }
        return String(String(last).printable.prefix(200))
    }
}

package extension String {
    package var trimmingNewlines: String {
        String(reversed().drop { $0 == "\n" || $0 == "\r" || $0 == " " }.reversed().drop { $0 == " " })
    }
}
