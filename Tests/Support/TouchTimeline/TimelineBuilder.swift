import Glibc
import GestureInput
import TouchModel

/// One finger while it is down.
struct Finger {
    /// What the steps of one finger call it: `1`…`N` for `touch N`, the name `down` gave.
    var label: String
    /// Its slot; nil beyond the device's slots (told only through `BTN_TOOL_*TAP`).
    var slot: Int?
    /// Where it is, device units, unclamped (clamped to the axes as it is sent).
    var x: Double
    var y: Double
    /// Where it is from the hand's centre, while the hand moves as one (`touch`,
    /// `move`, `circle`): its distance in x units, and its angle less the hand's
    /// (`Builder.handAngle`). nil after a step of one finger, until the next step of
    /// the hand measures it again. Kept, not measured from `x` and `y` each time, so
    /// a position that falls on half a unit rounds the same way every time.
    var polar: (radius: Double, phase: Double)?
}

/// Turns timeline steps into evdev events, keeping the fingers down as state.
struct Builder {
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
    /// The fingers down, in the order they landed (the first is the pointer's).
    var fingers: [Finger] = []
    /// The hand's centre, which `move` and `circle` move: `touch`'s centre, else the
    /// fingers' centroid.
    var center = (x: 0.0, y: 0.0)
    /// How far the hand has turned (radians, clockwise as the axes are drawn), since
    /// `touch` or since a step of one finger.
    var handAngle = 0.0

    /// Words a finger may not be called: they start the clauses of `move` and `down`.
    static let reservedWords: Set<String> = ["to", "by", "at", "over", "scale", "rotate", "about", "turns", "spread", "angle", "none"]

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
            fingers = []
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
            if let first = rest.first, !["to", "scale", "rotate", "over"].contains(first) {
                try moveFingers(rest)
            } else {
                try moveHand(rest)
            }
        case "circle":
            try circle(rest)
        case "lift":
            guard !fingers.isEmpty else { throw TimelineError("lift: no fingers are down") }
            try up(fingers.map(\.label))
        case "down":
            try down(rest)
        case "up":
            let labels = rest.flatMap { $0.split(separator: ",").map(String.init) }
            guard !labels.isEmpty else { throw TimelineError("usage: up F[, G …]") }
            try up(labels)
        case "focus", "screen", "reload", "enable", "disable":
            steps.append((now, .daemon(try daemonStep(words))))
        default:
            throw TimelineError("unknown step '\(words[0])': expected device, name, rate, create, remove, wait, await, mark, replay, "
                                + "touch, move, circle, lift, down, up, focus, screen, reload, enable or disable")
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
        guard fingers.isEmpty else { throw TimelineError("replay: 'lift' the timeline's fingers first") }
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
        guard fingers.isEmpty else { throw TimelineError("touch: fingers are already down; 'lift' first") }
        guard words.count >= 4, let n = Int(words[0]), (1...10).contains(n), words[1] == "at" else {
            throw TimelineError("usage: touch N at X Y [spread R] [angle DEG]")
        }
        center = (try position(words[2], axis: AbsCode.x, device), try position(words[3], axis: AbsCode.y, device))
        let options = try keywords(Array(words.dropFirst(4)), allowed: ["spread", "angle"])
        var radius = 0.0
        if let spread = options["spread"], n > 1 { radius = try length(spread, axis: AbsCode.x, device) }
        handAngle = try options["angle"].map(degrees) ?? 0
        let slots = slotCount(device)
        for i in 0..<n {
            fingers.append(Finger(label: String(i + 1), slot: i < slots ? i : nil, x: 0, y: 0,
                                  polar: (radius, 2 * Double.pi * Double(i) / Double(n))))
        }
        placeAroundCenter()
        try frame(landed: Set(fingers.map(\.label)))
    }

    /// Every finger together: the centre moves, their distances from it scale, they
    /// turn about it.
    private mutating func moveHand(_ words: [String]) throws(TimelineError) {
        guard !fingers.isEmpty, let device else { throw TimelineError("move: no fingers are down; 'touch' first") }
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
        measureHand()
        let (start, startCenter, startAngle) = (fingers, center, handAngle)
        try frames(over: try duration(over), moved: Set(fingers.map(\.label))) { b, t in
            b.center = (startCenter.x + (target.x - startCenter.x) * t, startCenter.y + (target.y - startCenter.y) * t)
            b.handAngle = startAngle + rotation * t
            for i in b.fingers.indices {
                b.fingers[i].polar!.radius = start[i].polar!.radius * (1 + (scale - 1) * t)
            }
            b.placeAroundCenter()
        }
    }

    /// Every finger together, keeping their places about their centre, which goes
    /// round a point.
    private mutating func circle(_ words: [String]) throws(TimelineError) {
        guard !fingers.isEmpty, let device else { throw TimelineError("circle: no fingers are down; 'touch' or 'down' first") }
        guard words.count == 7, words[0] == "about", words[3] == "turns", words[5] == "over", let turns = Double(words[4]) else {
            throw TimelineError("usage: circle about X Y turns T over DURATION (T > 0 clockwise, T < 0 counterclockwise)")
        }
        let pivot = (x: try position(words[1], axis: AbsCode.x, device), y: try position(words[2], axis: AbsCode.y, device))
        measureHand()
        let startCenter = center
        try frames(over: try duration(words[6]), moved: Set(fingers.map(\.label))) { b, t in
            let offset = b.turned(startCenter.x - pivot.x, startCenter.y - pivot.y, by: 2 * Double.pi * turns * t)
            b.center = (pivot.x + offset.x, pivot.y + offset.y)
            b.placeAroundCenter()
        }
    }

    /// `F at X Y, G at X Y`: the fingers land in one frame.
    private mutating func down(_ words: [String]) throws(TimelineError) {
        guard exists, let device else { throw TimelineError("down: no device: add 'create' first") }
        let usage = "usage: down F at X Y[, G at X Y …]"
        var landed: Set<String> = []
        for clause in try clauses(words, usage: usage) {
            guard clause.count == 4, clause[1] == "at" else { throw TimelineError(usage) }
            let label = try newLabel(clause[0])
            guard !landed.contains(label) else { throw TimelineError("down: '\(label)' twice") }
            fingers.append(Finger(label: label, slot: freeSlot(device),
                                  x: try position(clause[2], axis: AbsCode.x, device), y: try position(clause[3], axis: AbsCode.y, device)))
            landed.insert(label)
        }
        movedOneByOne()
        try frame(landed: landed)
    }

    /// `F to X Y, G by DX DY over DURATION`: those fingers, in straight lines.
    private mutating func moveFingers(_ words: [String]) throws(TimelineError) {
        guard !fingers.isEmpty, let device else { throw TimelineError("move: no fingers are down; 'down' first") }
        let usage = "usage: move F to X Y[, G by DX DY …] over DURATION"
        guard words.count >= 2, words[words.count - 2] == "over" else { throw TimelineError(usage) }
        let total = try duration(words[words.count - 1])
        var paths: [(index: Int, from: (x: Double, y: Double), to: (x: Double, y: Double))] = []
        for clause in try clauses(Array(words.dropLast(2)), usage: usage) {
            guard clause.count == 4, clause[1] == "to" || clause[1] == "by" else { throw TimelineError(usage) }
            let index = try finger(clause[0])
            guard !paths.contains(where: { $0.index == index }) else { throw TimelineError("move: '\(clause[0])' twice") }
            let from = (x: fingers[index].x, y: fingers[index].y)
            let to = clause[1] == "to"
                ? (x: try position(clause[2], axis: AbsCode.x, device), y: try position(clause[3], axis: AbsCode.y, device))
                : (x: from.x + (try length(clause[2], axis: AbsCode.x, device)), y: from.y + (try length(clause[3], axis: AbsCode.y, device)))
            paths.append((index, from, to))
        }
        try frames(over: total, moved: Set(paths.map { fingers[$0.index].label })) { b, t in
            for p in paths {
                b.fingers[p.index].x = p.from.x + (p.to.x - p.from.x) * t
                b.fingers[p.index].y = p.from.y + (p.to.y - p.from.y) * t
            }
        }
        movedOneByOne()
    }

    /// The fingers called so lift in one frame; their slots are free again, and a
    /// finger down beyond the slots takes one, as a new touch (as a 2-slot pad then
    /// tracks the third finger).
    private mutating func up(_ labels: [String]) throws(TimelineError) {
        var lifted: [Finger] = []
        for label in labels {
            let index = try finger(label)
            lifted.append(fingers.remove(at: index))
        }
        guard let device else { return }  // fingers are down only on a device
        var tracked: Set<String> = []
        for i in fingers.indices where fingers[i].slot == nil {
            guard let slot = freeSlot(device) else { break }
            fingers[i].slot = slot
            tracked.insert(fingers[i].label)
        }
        movedOneByOne()
        try frame(lifted: lifted, landed: tracked)
    }

    /// `focus`, `screen`, `reload`, `enable`, `disable`: told to the daemon, not the device.
    private func daemonStep(_ words: [String]) throws(TimelineError) -> DaemonStep {
        let rest = words.dropFirst()
        switch words[0] {
        case "focus":
            guard rest.count == 1 else { throw TimelineError("usage: focus APP | focus none") }
            return .focus(rest.first == "none" ? nil : rest.first)
        case "screen":
            guard rest.count == 1, let o = Orientation(name: rest.first!) else { throw TimelineError("usage: screen normal|90|180|270") }
            return .screen(o)
        case "reload":
            guard rest.count <= 1 else { throw TimelineError("usage: reload [NAME]") }
            return .reload(rest.first)
        default:
            guard !rest.isEmpty else { throw TimelineError("usage: \(words[0]) NAME") }
            return .enable(words[0] == "enable", name: rest.joined(separator: " "))
        }
    }

    // MARK: Fingers

    /// The words between commas (`a at 1 2, b at 3 4`: a comma may end a word or
    /// stand alone).
    private func clauses(_ words: [String], usage: String) throws(TimelineError) -> [[String]] {
        var result: [[String]] = [[]]
        for word in words {
            var w = Substring(word)
            let ends = w.hasSuffix(",")
            if ends { w = w.dropLast() }
            if !w.isEmpty { result[result.count - 1].append(String(w)) }
            if ends { result.append([]) }
        }
        guard !result.contains(where: \.isEmpty) else { throw TimelineError(usage) }
        return result
    }

    private func newLabel(_ word: String) throws(TimelineError) -> String {
        guard !word.isEmpty, word.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }),
              !Self.reservedWords.contains(word) else {
            throw TimelineError("'\(word)': a finger is called by a word of letters, digits, - and _, not \(Self.reservedWords.sorted().joined(separator: ", "))")
        }
        guard !fingers.contains(where: { $0.label == word }) else { throw TimelineError("'\(word)' is already down") }
        return word
    }

    private func finger(_ label: String) throws(TimelineError) -> Int {
        guard let index = fingers.firstIndex(where: { $0.label == label }) else {
            let down = fingers.map(\.label)
            throw TimelineError("no finger '\(label)' is down (\(down.isEmpty ? "none is" : "down: " + down.joined(separator: ", ")))")
        }
        return index
    }

    /// After a step of one finger: the hand is the fingers as they are now, around
    /// their centroid, to be measured again by its next step.
    private mutating func movedOneByOne() {
        for i in fingers.indices { fingers[i].polar = nil }
        guard !fingers.isEmpty else { return }
        let n = Double(fingers.count)
        center = (fingers.reduce(0) { $0 + $1.x } / n, fingers.reduce(0) { $0 + $1.y } / n)
        handAngle = 0
    }

    /// Before a step of the hand: each finger's place around the centre, where a step
    /// of one finger left it unknown.
    private mutating func measureHand() {
        for i in fingers.indices where fingers[i].polar == nil {
            let (dx, dy) = (fingers[i].x - center.x, (fingers[i].y - center.y) / yPerX)
            fingers[i].polar = ((dx * dx + dy * dy).squareRoot(), atan2(dy, dx) - handAngle)
        }
    }

    /// Each finger at its place around the centre, the hand turned `handAngle`.
    private mutating func placeAroundCenter() {
        for i in fingers.indices {
            guard let (r, phase) = fingers[i].polar else { continue }
            let theta = handAngle + phase
            fingers[i].x = center.x + r * cos(theta)
            fingers[i].y = center.y + r * yPerX * sin(theta)
        }
    }

    /// An offset in device units turned by `angle` radians (clockwise as the axes are
    /// drawn), as lengths: the axes' resolutions may differ.
    private func turned(_ dx: Double, _ dy: Double, by angle: Double) -> (x: Double, y: Double) {
        let (c, s) = (cos(angle), sin(angle))
        let y = dy / yPerX
        return (dx * c - y * s, (dx * s + y * c) * yPerX)
    }

    /// The frames of a motion over `total` µs, one per frame interval: `place` puts
    /// the fingers where they are at `t` (0…1] before each frame.
    private mutating func frames(over total: Int64, moved: Set<String>, place: (inout Builder, Double) -> Void) throws(TimelineError) {
        let count = max(1, Int(total / frameInterval))
        for k in 1...count {
            place(&self, Double(k) / Double(count))
            now += total * Int64(k) / Int64(count) - total * Int64(k - 1) / Int64(count)
            try frame(moved: moved)
        }
    }

    // MARK: Events

    /// One evdev frame, in the order kernel drivers send them: the slots of the
    /// fingers that lifted, then those that landed or moved (slot order), the
    /// `BTN_TOOL_*` of a new count, the single-touch axes of the finger down longest
    /// (the kernel's pointer emulation), `SYN_REPORT`.
    private mutating func frame(lifted: [Finger] = [], landed: Set<String> = [], moved: Set<String> = []) throws(TimelineError) {
        guard let device else { return }
        if slotCount(device) == 0 && !device.hasAbs(AbsCode.x) {
            throw TimelineError("the device has neither ABS_MT_SLOT nor ABS_X: nothing to touch with")
        }
        for f in lifted.sorted(by: bySlot) {
            guard let slot = f.slot else { continue }
            if hasSlots(device) { emit(EventType.abs, AbsCode.mtSlot, Int32(slot)) }
            emit(EventType.abs, AbsCode.mtTrackingID, -1)
        }
        for f in fingers.sorted(by: bySlot) where landed.contains(f.label) || moved.contains(f.label) {
            guard let slot = f.slot else { continue }
            if hasSlots(device) { emit(EventType.abs, AbsCode.mtSlot, Int32(slot)) }
            if landed.contains(f.label) {
                emit(EventType.abs, AbsCode.mtTrackingID, nextTrackingID)
                nextTrackingID += 1
                if let p = device.absinfo[AbsCode.mtPressure] { emit(EventType.abs, AbsCode.mtPressure, landingPressure(p)) }
            }
            emit(EventType.abs, AbsCode.mtPositionX, clamp(f.x, AbsCode.x))
            emit(EventType.abs, AbsCode.mtPositionY, clamp(f.y, AbsCode.y))
        }
        if !landed.isEmpty || !lifted.isEmpty { setTool(fingers.count, device) }
        if device.hasAbs(AbsCode.x), let pointer = fingers.first {
            emit(EventType.abs, AbsCode.x, clamp(pointer.x, AbsCode.x))
            emit(EventType.abs, AbsCode.y, clamp(pointer.y, AbsCode.y))
            if landed.contains(pointer.label), let p = device.absinfo[AbsCode.pressure] { emit(EventType.abs, AbsCode.pressure, landingPressure(p)) }
        }
        if fingers.isEmpty, !lifted.isEmpty, device.hasAbs(AbsCode.pressure) { emit(EventType.abs, AbsCode.pressure, 0) }
        if !landed.isEmpty { landings += 1 }
        emit(EventType.syn, SynCode.report, 0)
    }

    private func bySlot(_ a: Finger, _ b: Finger) -> Bool { (a.slot ?? .max) < (b.slot ?? .max) }

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

    /// The fingers the device tracks one by one: its slots, one for protocol A, none
    /// for a single-touch device.
    private func slotCount(_ device: DeviceDescription) -> Int {
        guard device.hasAbs(AbsCode.mtPositionX) else { return 0 }
        return device.absinfo[AbsCode.mtSlot].map { Int($0.maximum) + 1 } ?? 1
    }

    /// The lowest slot no finger has; nil when all are taken.
    private func freeSlot(_ device: DeviceDescription) -> Int? {
        let taken = Set(fingers.compactMap(\.slot))
        return (0..<slotCount(device)).first { !taken.contains($0) }
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
        return Double(info.minimum) + (try length(text, axis: code, device))
    }

    /// A length along an axis, in its units (signed: `by`'s offsets; `0` needs no unit).
    private func length(_ text: String, axis code: UInt16, _ device: DeviceDescription) throws(TimelineError) -> Double {
        guard let info = axis(code, device) else { throw TimelineError("the device has no axis \(code)") }
        if text == "0" { return 0 }
        if let percent = number(text, suffix: "%") { return percent / 100 * Double(info.maximum - info.minimum) }
        if let mm = number(text, suffix: "mm") {
            guard info.resolution > 0 else { throw TimelineError("'\(text)': the device reports no resolution; use %") }
            return mm * Double(info.resolution)
        }
        throw TimelineError("'\(text)': expected a position or length like 40% or 12mm")
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
