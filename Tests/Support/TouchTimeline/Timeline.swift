import Glibc
import GestureInput
import LinuxSystem
import TouchModel

/// A scripted touch timeline, for gestures no recording holds (pinch, rotate, edge
/// pan, swipes on a given pad) and for hotplug. One step a line, `#` comments:
///
///     device FILE [DESCRIPTION]   take the device from a recording (and its .desc)
///     name TEXT                   give the virtual device another name
///     rate HZ                     frames per second while moving (default 100)
///     create | remove             plug the device in / unplug it
///     wait DURATION               nothing happens for a while (500ms, 1.5s)
///     await FILE                  wait until FILE exists (a cue from the scenario)
///     mark FILE                   create FILE (a cue to the scenario)
///     replay FILE [DESCRIPTION]   a recording's events, with their own timing
///     touch N at X Y [spread R] [angle DEG]
///                                 N fingers down, evenly on a circle of radius R
///                                 around (X, Y), the first at DEG
///     move [to X Y] [scale F] [rotate DEG] over DURATION
///                                 all fingers together: the circle's centre moves
///                                 to (X, Y), its radius scales by F, it turns DEG
///     lift                        all fingers up
///
/// Positions and lengths are `40%` of the axis's range or `12mm` (needs the
/// device's resolution); a percentage spread is of the x range. Fingers beyond the
/// device's slots are reported only through `BTN_TOOL_*TAP`, as a 2-slot pad does.
///
/// The same timeline plays two ways: into a uinput device on the real kernel
/// (`gestured-uinput-play --script`, the VM scenarios, Tests/vm), and in-process as a
/// `Recording` through `ReplayPipeline` (`recording()`, the text scenarios,
/// Tests/Scenarios).
public struct Timeline: Sendable {
    public var device: DeviceDescription
    /// The virtual device's name, when `name` gave another.
    public var name: String?
    /// Microseconds from the start, non-decreasing.
    public var steps: [(at: Int64, action: TimelineAction)]

    /// Reads the timeline file at `path`; `device` paths are relative to its directory.
    public static func load(path: String) throws(TimelineError) -> Timeline {
        let bytes: [UInt8]
        do throws(Errno) {
            let file = try OwnedFileDescriptor(opening: path, O_RDONLY)
            bytes = try file.descriptor.readToEnd(maximumBytes: 1 << 20)
        } catch {
            throw TimelineError("\(path): \(error)")
        }
        let directory = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        return try parse(String(decoding: bytes, as: UTF8.self), path: path, baseDirectory: directory)
    }

    /// Reads timeline text; `path` and `firstLine` name its lines in errors.
    public static func parse(_ text: String, path: String, firstLine: Int = 1, baseDirectory: String) throws(TimelineError) -> Timeline {
        var builder = Builder(baseDirectory: baseDirectory)
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let words = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
                .split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init)
            guard !words.isEmpty else { continue }
            do throws(TimelineError) {
                try builder.step(words)
            } catch {
                throw TimelineError("\(path):\(firstLine + index): \(error.description)")
            }
        }
        return try builder.finish(path: path)
    }

    /// The timeline's events as a recording of its device, timed from 1 s (so no
    /// frame is at the clock's zero). Creating, removing and the cues (`await`,
    /// `mark`) are the kernel's and the scenario's business: a recording has none.
    public func recording(path: String) -> Recording {
        var events: [InputEvent] = []
        for (at, action) in steps {
            guard case let .emit(type, code, value) = action else { continue }
            events.append(InputEvent(time: Timestamp(microseconds: 1_000_000 + at), type: type, code: code, value: value))
        }
        return Recording(path: path, device: device, events: events)
    }
}

/// What a timeline does, in order, each at an offset from its start.
public enum TimelineAction: Sendable, Equatable {
    /// Create the uinput device (again, after `remove`).
    case create
    /// Destroy it: the kernel removes `/dev/input/eventN`, as when hardware is unplugged.
    case remove
    case emit(type: UInt16, code: UInt16, value: Int32)
    /// Wait until a file exists (the scenario's cue, e.g. "the daemon is ready");
    /// everything after it moves later by the time waited.
    case await(path: String)
    /// Create a file: tells the scenario the timeline got this far.
    case mark(path: String)
}

/// A timeline that cannot be read, with the file and line.
public struct TimelineError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// Turns timeline steps into evdev events, keeping the fingers' circle as state.
private struct Builder {
    let baseDirectory: String
    var device: DeviceDescription?
    var name: String?
    var frameInterval: Int64 = 10_000
    var now: Int64 = 0
    var steps: [(at: Int64, action: TimelineAction)] = []
    var exists = false
    var nextTrackingID: Int32 = 1
    /// Touches landed so far, for `landingPressure`.
    var landings: Int32 = 0
    var fingers = 0
    var center = (x: 0.0, y: 0.0)
    var radius = 0.0
    var angle = 0.0

    init(baseDirectory: String) { self.baseDirectory = baseDirectory }

    mutating func step(_ words: [String]) throws(TimelineError) {
        let rest = Array(words.dropFirst())
        switch words[0] {
        case "device":
            device = try recording(rest, usage: "device FILE [DESCRIPTION]").device
        case "name":
            name = rest.joined(separator: " ")
        case "rate":
            guard rest.count == 1, let hz = Double(rest[0]), hz >= 1, hz <= 1000 else { throw TimelineError("usage: rate HZ (1…1000)") }
            frameInterval = Int64(1_000_000 / hz)
        case "create":
            guard device != nil else { throw TimelineError("create before any 'device' line") }
            guard !exists else { throw TimelineError("create: the device already exists") }
            exists = true
            steps.append((now, .create))
        case "remove":
            guard exists else { throw TimelineError("remove: no device to remove") }
            exists = false
            fingers = 0
            steps.append((now, .remove))
        case "wait":
            guard rest.count == 1 else { throw TimelineError("usage: wait DURATION") }
            now += try duration(rest[0])
        case "await":
            guard rest.count == 1 else { throw TimelineError("usage: await FILE") }
            steps.append((now, .await(path: rest[0])))
        case "mark":
            guard rest.count == 1 else { throw TimelineError("usage: mark FILE") }
            steps.append((now, .mark(path: rest[0])))
        case "replay":
            try replay(rest)
        case "touch":
            try touch(rest)
        case "move":
            try move(rest)
        case "lift":
            guard fingers > 0 else { throw TimelineError("lift: no fingers are down") }
            try lift()
        default:
            throw TimelineError("unknown step '\(words[0])': expected device, name, rate, create, remove, wait, await, mark, replay, touch, move or lift")
        }
    }

    mutating func finish(path: String) throws(TimelineError) -> Timeline {
        guard let device else { throw TimelineError("\(path): no 'device' line") }
        if exists { steps.append((now, .remove)) }
        return Timeline(device: device, name: name, steps: steps)
    }

    // MARK: Steps

    private func recording(_ words: [String], usage: String) throws(TimelineError) -> Recording {
        guard (1...2).contains(words.count) else { throw TimelineError("usage: \(usage)") }
        let paths = words.map { $0.hasPrefix("/") ? $0 : baseDirectory + "/" + $0 }
        do {
            return try Recording.load(path: paths[0], descriptionPath: paths.count > 1 ? paths[1] : nil)
        } catch {
            throw TimelineError("\(error)")
        }
    }

    /// The recording's events at their recorded offsets from now; it must leave
    /// no finger down, so the timeline's own touches start from a clean state.
    private mutating func replay(_ words: [String]) throws(TimelineError) {
        guard exists else { throw TimelineError("replay: no device: add 'create' first") }
        guard fingers == 0 else { throw TimelineError("replay: 'lift' the timeline's fingers first") }
        let events = try recording(words, usage: "replay FILE [DESCRIPTION]").events
        let start = events.first?.time.microseconds ?? 0
        let base = now
        for event in events {
            now = base + max(0, event.time.microseconds - start)
            emit(event.type, event.code, event.value)
        }
    }

    private mutating func touch(_ words: [String]) throws(TimelineError) {
        guard exists, let device else { throw TimelineError("touch: no device: add 'create' first") }
        guard fingers == 0 else { throw TimelineError("touch: fingers are already down; 'lift' first") }
        guard words.count >= 4, let n = Int(words[0]), (1...10).contains(n), words[1] == "at" else {
            throw TimelineError("usage: touch N at X Y [spread R] [angle DEG]")
        }
        center = (try position(words[2], axis: AbsCode.x, device), try position(words[3], axis: AbsCode.y, device))
        let options = try keywords(Array(words.dropFirst(4)), allowed: ["spread", "angle"])
        radius = 0
        angle = 0
        if let spread = options["spread"] { radius = try length(spread, device) }
        if let first = options["angle"] { angle = try degrees(first) }
        fingers = n
        try frame(down: true)
    }

    private mutating func move(_ words: [String]) throws(TimelineError) {
        guard fingers > 0, let device else { throw TimelineError("move: no fingers are down; 'touch' first") }
        var rest = words
        var target = center
        if rest.first == "to" {
            guard rest.count >= 3 else { throw TimelineError("usage: move [to X Y] [scale F] [rotate DEG] over DURATION") }
            target = (try position(rest[1], axis: AbsCode.x, device), try position(rest[2], axis: AbsCode.y, device))
            rest.removeFirst(3)
        }
        let options = try keywords(rest, allowed: ["scale", "rotate", "over"])
        guard let over = options["over"] else { throw TimelineError("move: needs 'over DURATION'") }
        var scale = 1.0, rotation = 0.0
        if let text = options["scale"] { scale = try factor(text) }
        if let text = options["rotate"] { rotation = try degrees(text) }
        let total = try duration(over)
        let frames = max(1, Int(total / frameInterval))
        let (start, startRadius, startAngle) = (center, radius, angle)
        for k in 1...frames {
            let t = Double(k) / Double(frames)
            center = (start.x + (target.x - start.x) * t, start.y + (target.y - start.y) * t)
            radius = startRadius * (1 + (scale - 1) * t)
            angle = startAngle + rotation * t
            now += total * Int64(k) / Int64(frames) - total * Int64(k - 1) / Int64(frames)
            try frame(down: false)
        }
    }

    private mutating func lift() throws(TimelineError) {
        guard let device else { return }
        for slot in 0..<trackedSlots(device) {
            if hasSlots(device) { emit(EventType.abs, AbsCode.mtSlot, Int32(slot)) }
            emit(EventType.abs, AbsCode.mtTrackingID, -1)
        }
        setTool(0, device)
        if device.hasAbs(AbsCode.pressure) { emit(EventType.abs, AbsCode.pressure, 0) }
        emit(EventType.syn, SynCode.report, 0)
        fingers = 0
    }

    // MARK: Events

    /// One evdev frame: every tracked finger's slot, then the single-touch axes
    /// and buttons, then `SYN_REPORT`, in the order kernel drivers send them.
    private mutating func frame(down: Bool) throws(TimelineError) {
        guard let device else { return }
        let slots = trackedSlots(device)
        if slots == 0 && !device.hasAbs(AbsCode.x) {
            throw TimelineError("the device has neither ABS_MT_SLOT nor ABS_X: nothing to touch with")
        }
        for slot in 0..<slots {
            let (x, y) = contact(slot)
            if hasSlots(device) { emit(EventType.abs, AbsCode.mtSlot, Int32(slot)) }
            if down {
                emit(EventType.abs, AbsCode.mtTrackingID, nextTrackingID)
                nextTrackingID += 1
                if let p = device.absinfo[AbsCode.mtPressure] { emit(EventType.abs, AbsCode.mtPressure, landingPressure(p)) }
            }
            emit(EventType.abs, AbsCode.mtPositionX, x)
            emit(EventType.abs, AbsCode.mtPositionY, y)
        }
        if down { setTool(fingers, device) }
        if device.hasAbs(AbsCode.x) {
            let (x, y) = contact(0)
            emit(EventType.abs, AbsCode.x, x)
            emit(EventType.abs, AbsCode.y, y)
            if down, let p = device.absinfo[AbsCode.pressure] { emit(EventType.abs, AbsCode.pressure, landingPressure(p)) }
        }
        if down { landings += 1 }
        emit(EventType.syn, SynCode.report, 0)
    }

    /// A landing finger's pressure: mid-range, and never what the touch before it had,
    /// as no two real touches do. The kernel drops a value a slot already has, so with
    /// one pressure for all, a reader that missed a touch (libinput on a device a grab
    /// was just released from) never learns this one's and, detecting touches by
    /// pressure, never sees it land.
    private func landingPressure(_ p: AbsInfo) -> Int32 {
        (p.minimum + p.maximum) / 2 + (landings % 2 == 0 ? 0 : 1)
    }

    /// `BTN_TOUCH` and the one `BTN_TOOL_*` that says how many fingers are down.
    private mutating func setTool(_ count: Int, _ device: DeviceDescription) {
        if device.hasKey(KeyCode.btnTouch) { emit(EventType.key, KeyCode.btnTouch, count > 0 ? 1 : 0) }
        let tools = [KeyCode.btnToolFinger, KeyCode.btnToolDoubleTap, KeyCode.btnToolTripleTap,
                     KeyCode.btnToolQuadTap, KeyCode.btnToolQuintTap]
        for (index, tool) in tools.enumerated() where device.hasKey(tool) {
            let on = count > 0 && (index == min(count, tools.count) - 1)
            emit(EventType.key, tool, on ? 1 : 0)
        }
    }

    private func hasSlots(_ device: DeviceDescription) -> Bool { device.hasAbs(AbsCode.mtSlot) }

    private func trackedSlots(_ device: DeviceDescription) -> Int {
        guard device.hasAbs(AbsCode.mtPositionX) else { return 0 }
        let slots = device.absinfo[AbsCode.mtSlot].map { Int($0.maximum) + 1 } ?? 1
        return min(fingers, slots)
    }

    /// Finger `index` of `fingers`, on the circle, clamped to the axis ranges.
    private func contact(_ index: Int) -> (Int32, Int32) {
        let theta = (angle + 2 * Double.pi * Double(index) / Double(max(fingers, 1)))
        let r = fingers > 1 ? radius : 0
        let yScale = yPerX
        let x = center.x + r * cos(theta)
        let y = center.y + r * yScale * sin(theta)
        return (clamp(x, AbsCode.x), clamp(y, AbsCode.y))
    }

    /// Device units along y per unit along x for the same physical length.
    private var yPerX: Double {
        guard let device, let rx = axis(AbsCode.x, device)?.resolution, let ry = axis(AbsCode.y, device)?.resolution,
              rx > 0, ry > 0 else { return 1 }
        return Double(ry) / Double(rx)
    }

    private func clamp(_ value: Double, _ axisCode: UInt16) -> Int32 {
        guard let device, let info = axis(axisCode, device) else { return Int32(value.rounded()) }
        return Int32(min(max(value.rounded(), Double(info.minimum)), Double(info.maximum)))
    }

    private mutating func emit(_ type: UInt16, _ code: UInt16, _ value: Int32) {
        steps.append((now, .emit(type: type, code: code, value: value)))
    }

    // MARK: Units

    /// The MT axis where there is one, else the single-touch axis.
    private func axis(_ code: UInt16, _ device: DeviceDescription) -> AbsInfo? {
        let mt = code == AbsCode.x ? AbsCode.mtPositionX : AbsCode.mtPositionY
        return device.absinfo[mt] ?? device.absinfo[code]
    }

    private func position(_ text: String, axis code: UInt16, _ device: DeviceDescription) throws(TimelineError) -> Double {
        guard let info = axis(code, device) else { throw TimelineError("the device has no axis \(code)") }
        if let percent = number(text, suffix: "%") {
            return Double(info.minimum) + percent / 100 * Double(info.maximum - info.minimum)
        }
        if let mm = number(text, suffix: "mm") {
            guard info.resolution > 0 else { throw TimelineError("'\(text)': the device reports no resolution; use %") }
            return Double(info.minimum) + mm * Double(info.resolution)
        }
        throw TimelineError("'\(text)': expected a position like 40% or 12mm")
    }

    /// A length along x, in x units.
    private func length(_ text: String, _ device: DeviceDescription) throws(TimelineError) -> Double {
        guard let info = axis(AbsCode.x, device) else { throw TimelineError("the device has no x axis") }
        if let percent = number(text, suffix: "%") { return percent / 100 * Double(info.maximum - info.minimum) }
        if let mm = number(text, suffix: "mm") {
            guard info.resolution > 0 else { throw TimelineError("'\(text)': the device reports no resolution; use %") }
            return mm * Double(info.resolution)
        }
        throw TimelineError("'\(text)': expected a length like 10% or 8mm")
    }

    private func duration(_ text: String) throws(TimelineError) -> Int64 {
        if let ms = number(text, suffix: "ms"), ms >= 0 { return Int64(ms * 1000) }
        if let s = number(text, suffix: "s"), s >= 0 { return Int64(s * 1_000_000) }
        throw TimelineError("'\(text)': expected a duration like 300ms or 1.5s")
    }

    private func degrees(_ text: String) throws(TimelineError) -> Double {
        guard let deg = number(text, suffix: "deg") ?? Double(text) else { throw TimelineError("'\(text)': expected an angle like 90deg") }
        return deg * Double.pi / 180
    }

    private func factor(_ text: String) throws(TimelineError) -> Double {
        guard let f = number(text, suffix: "x") ?? Double(text), f > 0 else { throw TimelineError("'\(text)': expected a scale like 1.8x") }
        return f
    }

    private func number(_ text: String, suffix: String) -> Double? {
        guard text.hasSuffix(suffix) else { return nil }
        return Double(text.dropLast(suffix.count))
    }

    private func keywords(_ words: [String], allowed: Set<String>) throws(TimelineError) -> [String: String] {
        guard words.count % 2 == 0 else { throw TimelineError("'\(words.joined(separator: " "))': expected KEY VALUE pairs") }
        var result: [String: String] = [:]
        for pair in stride(from: 0, to: words.count, by: 2) {
            guard allowed.contains(words[pair]) else {
                throw TimelineError("unknown '\(words[pair])': expected \(allowed.sorted().joined(separator: ", "))")
            }
            result[words[pair]] = words[pair + 1]
        }
        return result
    }
}
