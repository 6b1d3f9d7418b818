import DaemonCore
import GestureActions
import GestureConfig
import GestureEngine
import JSON
import TouchModel

/// Writes the event stream's lines (docs/CONTROL.md, "subscribe"): one JSON object per
/// line, appended to `bytes`, which is reused (`removeAll()` keeps its capacity), so a
/// frame or gesture line costs no allocation once the buffer has grown. Knows nothing
/// of sockets: the daemon's subscribers and `gestured ui` write the same lines.
///
/// Times `t` are CLOCK_MONOTONIC seconds with six decimals, written from the
/// microseconds exactly; gesture values are `GestureField`'s, as `replay --json` and
/// `GESTURE_*` write them.
package struct StreamEncoder {
    private var out = JSONBytes()

    package init() {}

    /// The lines written so far (a copy: `withBytes` lends them without one).
    package var bytes: [UInt8] { out.bytes }
    package var isEmpty: Bool { out.count == 0 }
    package mutating func removeAll() { out.removeAll() }

    /// Lends the lines written so far without copying them.
    package func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try out.withBytes(body)
    }

    /// Adds `"source":"NAME"` to the line just written: whose line it is, when it is
    /// not the running config's (`try`: TryRun.swift).
    package mutating func tag(source: StaticString) {
        out.reopen()
        out.key("source")
        out.byte("\"")
        out.raw(source)
        out.byte("\"")
        out.end()
    }

    // MARK: Lines

    package mutating func hello(_ h: StreamLine.Hello) {
        out.begin(type: "hello")
        out.key("version"); out.string(h.version)
        out.key("pid"); out.int(h.pid)
        out.key("config"); out.string(h.config)
        out.key("dry_run"); out.bool(h.dryRun)
        out.key("rate"); out.int(h.rate)
        if let started = h.started { out.key("started"); out.seconds(microseconds: started.microseconds) }
        out.key("gestures"); list(h.gestures) { $0.gesture($1.spec, enabled: $1.enabled) }
        out.key("devices"); list(h.devices) { e, d in e.out.byte("{"); e.deviceFields(d); e.out.byte("}") }
        out.key("focus")
        if let f = h.focus { out.byte("{"); focusFields(f); out.byte("}") } else { out.null() }
        out.key("kinds"); kinds()
        out.end()
    }

    package mutating func device(_ event: StreamLine.DeviceEvent, _ d: StreamLine.Device) {
        out.begin(type: "device")
        out.key("event"); event == .added ? out.raw("\"added\"") : out.raw("\"removed\"")
        out.byte(",")
        deviceFields(d)
        out.end()
    }

    /// `{"type":"frame",…}`: the contacts in mm and normalized, the finger count.
    package mutating func frame(_ f: TouchFrame, device: String) {
        out.begin(type: "frame")
        out.key("device"); out.string(device)
        out.key("t"); out.seconds(microseconds: f.time.microseconds)
        out.key("t_us"); out.int(f.time.microseconds)
        out.key("fingers"); out.int(f.fingerCount)
        out.key("flags"); out.byte("[")
        if f.flags.contains(.resynced) { out.raw("\"resynced\"") }
        if f.flags.contains(.buttonDown) { out.raw(f.flags.contains(.resynced) ? ",\"button\"" : "\"button\"") }
        out.byte("]")
        out.key("contacts"); out.byte("[")
        for (i, c) in f.contacts.enumerated() {
            if i > 0 { out.byte(",") }
            out.byte("{")
            out.firstKey("id"); out.int(c.id)
            out.key("slot"); out.int(c.slot)
            out.key("x"); out.number(c.position.x, 2)
            out.key("y"); out.number(c.position.y, 2)
            out.key("nx"); out.number(c.normalized.x, 4)
            out.key("ny"); out.number(c.normalized.y, 4)
            out.key("major"); out.number(c.majorMM, 2)
            out.byte("}")
        }
        out.byte("]")
        out.end()
    }

    /// `{"type":"state",…}`: one arena decision, with the reason `--explain` prints.
    package mutating func state(_ d: ArenaDecision, kind: GestureKind?, device: String) {
        state(device: device, time: d.time, gesture: d.name, kind: kind, from: d.from, transition: d.transition, to: d.to,
              refused: d.refused, reason: d.reason?.text)
    }

    /// The same from its parts, the reason's text already written (`SharedStreamReader`:
    /// the ring carries the text, not the `FailureReason`).
    package mutating func state(device: String, time: Timestamp, gesture: String, kind: GestureKind?, from: RecognizerState,
                                transition: Transition, to: RecognizerState, refused: Bool, reason: String?) {
        out.begin(type: "state")
        out.key("device"); out.string(device)
        out.key("t"); out.seconds(microseconds: time.microseconds)
        out.key("gesture"); out.string(gesture)
        out.key("kind"); out.string(kind?.rawValue)
        out.key("from"); out.string(from.rawValue)
        out.key("to"); out.string(refused ? from.rawValue : to.rawValue)
        out.key("transition"); out.string(transition.rawValue)
        if refused { out.key("refused"); out.bool(true) }
        out.key("reason"); out.string(reason)
        out.end()
    }

    /// `{"type":"progress",…}`: how far a gesture that is still possible is toward its
    /// begin (or recognize) threshold, 0…1 in thousandths (`GestureEngine.forEachProgress`).
    package mutating func progress(_ spec: GestureSpec, thousandths: Int, time: Timestamp, device: String) {
        progress(gesture: spec.name, kind: spec.kind, thousandths: thousandths, time: time, device: device)
    }

    package mutating func progress(gesture: String, kind: GestureKind, thousandths: Int, time: Timestamp, device: String) {
        progressFields(gesture: gesture, kind: kind.rawValue, progress: Double(thousandths) / 1000, time: time, device: device)
        out.end()
    }

    private mutating func progressFields(gesture: String, kind: String, progress: Double, time: Timestamp, device: String) {
        out.begin(type: "progress")
        out.key("device"); out.string(device)
        out.key("t"); out.seconds(microseconds: time.microseconds)
        out.key("gesture"); out.string(gesture)
        out.key("kind"); out.string(kind)
        out.key("progress"); out.number(progress, 3)
    }

    /// `{"type":"progress",…,"follow":"workspace"}`: where a follow has the desktop's
    /// transition, as the desktop was given it: a fraction of one whole transition
    /// since the pan began, + forward (it may pass 1, or go below 0).
    package mutating func followProgress(gesture: String, transition: String, progress: Double, time: Timestamp, device: String) {
        progressFields(gesture: gesture, kind: GestureKind.pan.rawValue, progress: progress, time: time, device: device)
        out.key("follow"); out.string(transition)
        out.end()
    }

    /// `{"type":"gesture",…}`: an engine event's `GestureField`s (`replay --json`'s keys
    /// and rounding, the values `GESTURE_*` has), and
    /// `progress` toward the next step of an `every:` binding (`step`: whole steps
    /// taken), 1 for other continuous gestures (their begin threshold is behind
    /// them once they began), null for discrete ones.
    package mutating func gesture(_ e: GestureEvent, device: String, step: Step?) {
        gesture(e, device: device, steps: step.map { ActionMapper.steps($0, e) }.flatMap { $0.isFinite ? $0 : nil })
    }

    /// The same, with the binding's steps already counted (`ActionMapper.steps`), as a
    /// shared reader gets them from the ring.
    package mutating func gesture(_ e: GestureEvent, device: String, steps: Double?) {
        out.begin(type: "gesture")
        out.key("device"); out.string(device)
        out.key("t"); out.seconds(microseconds: e.time.microseconds)
        for field in GestureField.allCases {
            guard let key = field.key else { continue }
            out.key(key)
            switch field.value(of: e) {
            case .text(let text): out.string(text)
            case .integer(let n): out.int(n)
            case .number(let x, let places): out.number(x, places)
            }
        }
        out.key("progress")
        if e.kind.isDiscrete { out.null() } else if let steps { out.number(abs(steps) - abs(steps).rounded(.down), 3) } else { out.raw("1") }
        out.key("step")
        if let steps { out.int(ActionMapper.wholeSteps(steps)) } else { out.null() }
        out.end()
    }

    /// `{"type":"action",…}`: what ran for a gesture and how it ended.
    package mutating func action(_ a: StreamLine.Action) {
        out.begin(type: "action")
        out.key("gesture"); out.string(a.gesture)
        out.key("phase"); out.string(a.phase.rawValue)
        // One of the three is set, by the sink that carries the action out: the command's
        // text, the input written (`keys super+Page_Down`, `press alt`), or the desktop
        // request (`workspace next`).
        let sink = a.action.sink
        out.key("command")
        if case .command(let text) = a.action { out.string(text) } else { out.null() }
        out.key("keys")
        if sink == .input { out.string(a.action.description) } else { out.null() }
        out.key("desktop")
        if sink == .desktop { out.string(a.action.description) } else { out.null() }
        out.key("outcome"); out.byte("\""); out.raw(Self.word(a.outcome)); out.byte("\"")
        out.key("status")
        switch a.outcome {
        case .exited(_, let status?): out.int(status)
        case .killed(_, let signal): out.int(128 + signal)
        default: out.null()
        }
        out.key("pid")
        switch a.outcome {
        case .started(let pid), .exited(let pid, _), .killed(let pid, _), .timedOut(let pid): out.int(pid)
        case .dropped, .dryRun, .sent: out.null()
        }
        // `gesture`, or `manual` / `shortcut`: run by `gestured trigger` or a desktop's shortcut.
        out.key("by")
        switch a.origin {
        case nil: out.raw("\"gesture\"")
        case .manual?: out.raw("\"manual\"")
        case .shortcut?: out.raw("\"shortcut\"")
        }
        out.end()
    }

    package mutating func reload(_ r: StreamLine.Reload) {
        out.begin(type: "reload")
        out.key("file"); out.string(r.file)
        out.key("ok"); out.bool(r.ok)
        out.key("gestures"); out.int(r.gestures)
        out.key("message"); out.string(r.message)
        out.key("diagnostics"); list(r.diagnostics) { e, d in
            e.out.byte("{")
            e.out.firstKey("file"); e.out.string(d.file)
            e.out.key("line"); if let m = d.mark { e.out.int(m.line) } else { e.out.null() }
            e.out.key("column"); if let m = d.mark { e.out.int(m.column) } else { e.out.null() }
            e.out.key("severity"); e.out.string(d.severity.rawValue)
            e.out.key("message"); e.out.string(d.message)
            e.out.key("hint"); e.out.null()
            e.out.byte("}")
        }
        out.end()
    }

    package mutating func focus(_ f: StreamLine.Focus) {
        out.begin(type: "focus")
        out.byte(",")
        focusFields(f)
        out.end()
    }

    /// `{"type":"lost","lost":N}`: lines this subscriber did not get.
    package mutating func lost(_ n: Int) {
        out.begin(type: "lost")
        out.key("lost"); out.int(n)
        out.end()
    }

    // MARK: Pieces

    private static func word(_ o: StreamLine.Outcome) -> StaticString {
        switch o {
        case .started: return "started"
        case .exited: return "exited"
        case .killed: return "killed"
        case .timedOut: return "timed-out"
        case .dropped: return "dropped"
        case .dryRun: return "dry-run"
        case .sent: return "sent"
        }
    }

    private mutating func list<S: Sequence>(_ items: S, _ each: (inout StreamEncoder, S.Element) -> Void) {
        out.byte("[")
        var first = true
        for item in items {
            if !first { out.byte(",") }
            first = false
            each(&self, item)
        }
        out.byte("]")
    }

    private mutating func deviceFields(_ d: StreamLine.Device) {
        out.firstKey("path"); out.string(d.path)
        out.key("name"); out.string(d.info.name)
        out.key("kind"); out.string(d.info.kind.rawValue)
        out.key("width_mm"); out.number(d.info.size.width, 1)
        out.key("height_mm"); out.number(d.info.size.height, 1)
        out.key("size_estimated"); out.bool(d.info.sizeIsEstimated)
        out.key("slots"); out.int(d.slots)
        out.key("grabbed"); out.bool(d.grabbed)
        if let o = d.orientation { out.key("orientation"); out.string(o) }
    }

    private mutating func focusFields(_ f: StreamLine.Focus) {
        out.firstKey("app"); out.string(f.app)
        out.key("title"); out.string(f.title)
        out.key("source"); out.string(f.source)
    }

    /// `hello`'s `kinds`: for every gesture kind, whether it is discrete and the keys of
    /// the values its `gesture` lines report (`KindTraits.values`): what a reader shows
    /// for a kind, from the engine's own table.
    private mutating func kinds() {
        out.byte("{")
        for (i, kind) in GestureKind.allCases.enumerated() {
            if i > 0 { out.byte(",") }
            out.string(kind.rawValue)
            out.byte(":")
            out.byte("{")
            out.firstKey("discrete"); out.bool(kind.traits.discrete)
            out.key("values"); out.strings(kind.traits.values.compactMap { $0.key?.description })
            out.byte("}")
        }
        out.byte("}")
    }

    /// A configured gesture as `hello` lists it.
    private mutating func gesture(_ s: GestureSpec, enabled: Bool) {
        out.byte("{")
        out.firstKey("name"); out.string(s.name)
        out.key("kind"); out.string(s.kind.rawValue)
        out.key("fingers"); out.int(s.fingers.lowerBound)
        out.key("max_fingers"); out.int(s.fingers.upperBound)
        let directions = s.directions.map(\.rawValue).sorted() + s.senses.map(\.rawValue).sorted()
        out.key("direction"); out.string(directions.count == 1 ? directions[0] : nil)
        out.key("directions"); out.strings(directions)
        out.key("enabled"); out.bool(enabled)
        out.key("device"); out.string(s.devices.nameGlob ?? s.devices.kind?.rawValue ?? "any")
        out.key("edges")
        if s.edges.isEmpty { out.null() } else { out.strings(s.edges.map(\.rawValue).sorted()) }
        out.key("region")
        if let r = s.region {
            out.byte("{")
            out.firstKey("x"); out.number(r.x.lowerBound, 4)
            out.key("y"); out.number(r.y.lowerBound, 4)
            out.key("w"); out.number(r.x.upperBound - r.x.lowerBound, 4)
            out.key("h"); out.number(r.y.upperBound - r.y.lowerBound, 4)
            out.byte("}")
        } else {
            out.null()
        }
        out.key("apps"); out.strings(s.apps.only)
        out.key("except_apps"); out.strings(s.apps.except)
        out.byte("}")
    }
}
