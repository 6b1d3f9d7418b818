import DaemonLoop
import DesktopSession
import JSON
import LinuxSystem
import PlainText
import TouchModel

/// `gestured events`: the running daemon's event stream (`subscribe`, docs/CONTROL.md)
/// on stdout, raw or one readable line per event.
enum EventsCommand {
    static let help = """
    usage: gestured events [--json] [--rate N]

    Prints what the running daemon (this user's) sees and does, as it happens: devices
    added and removed, the touches (each device's frames at most N times a second),
    every recognizer's state changes with the reason a gesture failed, the gestures
    with their values, the commands and keys they ran and how those ended, config
    reloads and focus changes. Works while a device is grabbed. Ctrl-C stops it.

      --json     the stream itself: one JSON object per line (docs/CONTROL.md)
      --rate N   frames per second per device, 1…1000 (default 60)
    """

    static func run(_ args: ArraySlice<String>) throws -> GesturedCommand.ExitCode {
        let a = try Arguments(args, spec: .init(flags: ["json"], options: ["rate"]))
        guard a.positionals.isEmpty else { throw UsageError("unexpected argument '\(a.positionals[0])'") }
        var rate = ControlRequest.defaultStreamRate
        if let text = a.option("rate") {
            guard let n = Int(text), ControlRequest.streamRates.contains(n) else {
                throw UsageError("--rate takes frames per second, \(ControlRequest.streamRates.lowerBound)…\(ControlRequest.streamRates.upperBound)")
            }
            rate = n
        }
        let socket: StreamSocket
        do throws(ControlError) {
            socket = try ControlClient.connect(environment: Logger.environment())
        } catch {
            Output.err("gestured: \(error)")
            return .failure
        }
        let subscription = StreamSubscription(rate: rate)
        do throws(Errno) {
            try socket.sendAll(subscription.request)
        } catch {
            Output.err("gestured: cannot send the request: \(error)")
            return .failure
        }
        return follow(socket, subscription, json: a.flag("json"))
    }

    /// Reads the answer, then prints each line until the daemon closes the stream: the
    /// shared ring read at most `rate` times a second while the daemon writes to it,
    /// and asleep (`wait`) while it does not. A line longer than
    /// `LineReader.defaultMaximumLength` is skipped, and said.
    private static func follow(_ socket: borrowing StreamSocket, _ subscription: StreamSubscription, json: Bool) -> GesturedCommand.ExitCode {
        var reader = LineReader()
        var bytes: [UInt8] = []
        var answered = false
        /// When to read the ring next (ms from now), or -1: asleep until woken.
        var timeout: Int32 = -1
        let interval = Int32(max(1, 1000 / subscription.rate))
        func print() {
            reader.feed(bytes) { item in
                switch item {
                case .skipped(let n):
                    Output.err("gestured: skipped a line of \(n) bytes from the daemon: longer than the \(LineReader.defaultMaximumLength >> 20) MiB a line may have")
                case .line(let line):
                    let text = String(decoding: line, as: UTF8.self)
                    if json { Output.out(text) } else if let readable = readable(text) { Output.out(readable) }
                }
                return true
            }
            bytes.removeAll(keepingCapacity: true)
        }
        while true {
            let ready = (try? Poll.ready([socket.descriptor], timeoutMS: timeout))?.first ?? true
            if ready {
                let outcome = subscription.readSocket(socket, into: &bytes)
                answered = answered || !bytes.isEmpty || subscription.readsRing
                print()
                switch outcome {
                case .more: break
                case .ended(let why):
                    Output.err("gestured: \(why)")
                    return answered ? .success : .failure
                case .refused(let why):
                    Output.err("gestured: \(why)")
                    return .failure
                }
            }
            guard subscription.readsRing else {
                timeout = -1
                continue
            }
            let fresh = subscription.readRing(into: &bytes)
            if let failure = subscription.failure {
                print()
                Output.err("gestured: \(failure)")
                return .failure
            }
            if fresh || !subscription.sleepsNow {
                print()
                timeout = interval
            } else {
                do throws(Errno) {
                    try socket.sendAll(subscription.waitRequest)
                } catch {
                    Output.err("gestured: cannot ask the daemon for a wake-up: \(error)")
                    return .failure
                }
                timeout = -1
            }
        }
    }

    /// One stream line as text: `12.345678  ws-next: possible → failed (moved 12 mm, needs 20 mm)`.
    /// Every string from the stream is escaped for the terminal.
    static func readable(_ line: String) -> String? {
        guard let v = JSONValue.parse(Array(line.utf8)), let type = v["type"]?.string else { return nil }
        func s(_ key: String) -> String { (v[key]?.string ?? "?").printable }
        func n(_ key: String, _ decimals: Int = 1) -> String { v[key]?.number.map { $0.fixed(decimals) } ?? "?" }
        let t = v["t"]?.number.map { $0.fixed(6) + "  " } ?? ""
        switch type {
        case "hello":
            return "gestured \(s("version")) (pid \(n("pid", 0))): config \(s("config")), \(v["gestures"]?.array?.count ?? 0) gestures, \(v["devices"]?.array?.count ?? 0) devices, frames at \(n("rate", 0))/s\(v["dry_run"] == .bool(true) ? ", dry run" : "")"
        case "device":
            return "device \(s("event")) \(s("path")): \(s("kind")) \"\(s("name"))\", \(n("width_mm", 0)) × \(n("height_mm", 0)) mm\(v["grabbed"] == .bool(true) ? ", grabbed" : "")"
        case "frame":
            var text = t + "\(s("device"))  \(n("fingers", 0)) finger\(v["fingers"]?.number == 1 ? "" : "s")"
            for c in v["contacts"]?.array ?? [] {
                text += "  #\(c["id"]?.number.map { $0.fixed(0) } ?? "?") (\(c["x"]?.number.map { $0.fixed(1) } ?? "?"), \(c["y"]?.number.map { $0.fixed(1) } ?? "?"))"
            }
            return text
        case "state":
            return t + "\(s("gesture")): \(s("from")) → \(s("to"))" + (v["reason"]?.string.map { " (\($0.printable))" } ?? "")
        case "progress":
            return t + "\(s("gesture")): possible, \(n("progress", 2)) of the way"
        case "gesture":
            var text = t + "\(s("gesture"))  \(s("kind")) \(s("phase"))  \(n("fingers", 0)) fingers"
            if let d = v["direction"]?.string { text += "  \(d.printable)" }
            text += "  Δ(\(n("dx_mm")), \(n("dy_mm"))) mm  v(\(n("vx_mm_s", 0)), \(n("vy_mm_s", 0))) mm/s"
            if let p = v["progress"]?.number { text += "  progress \(p.fixed(2))" }
            if let step = v["step"]?.number { text += "  step \(step.fixed(0))" }
            return text
        case "action":
            let what = v["command"]?.string.map { "'\($0.printable)'" } ?? v["keys"]?.string?.printable ?? s("desktop")
            var text = "\(s("gesture")) \(s("phase")): \(what) \(s("outcome"))"
            if let status = v["status"]?.number { text += " \(status.fixed(0))" }
            if let pid = v["pid"]?.number { text += " (pid \(pid.fixed(0)))" }
            switch v["by"]?.string {
            case "manual"?: text += ", run by gestured trigger, not by the gesture"
            case "shortcut"?: text += ", run by its shortcut, not by the gesture"
            default: break
            }
            return text
        case "reload":
            var text = v["ok"] == .bool(true) ? "reload: \(s("message"))" : "reload refused: \(s("message"))"
            for d in v["diagnostics"]?.array ?? [] {
                text += "\n  \((d["file"]?.string ?? "?").printable):\(d["line"]?.number.map { $0.fixed(0) } ?? "?"):\(d["column"]?.number.map { $0.fixed(0) } ?? "?"): \((d["severity"]?.string ?? "?").printable): \((d["message"]?.string ?? "").printable)"
            }
            return text
        case "focus":
            return "focus: " + (v["app"]?.string.map { $0.printable } ?? "no window") + (v["title"]?.string.map { " \"\($0.printable)\"" } ?? "")
        case "lost":
            return "(\(n("lost", 0)) lines lost: this reader fell behind)"
        default:
            return nil
        }
    }
}
