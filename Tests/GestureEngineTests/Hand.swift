@testable import GestureEngine
import TouchModel
import Testing

/// The test devices: a large clickpad and a 14" laptop touchscreen.
enum TestDevice: String, CaseIterable, CustomTestStringConvertible {
    case touchpad, touchscreen

    var info: DeviceInfo {
        switch self {
        case .touchpad:
            return DeviceInfo(name: "Test Clickpad", kind: .touchpad, size: Size(width: 110, height: 75), isClickpad: true)
        case .touchscreen:
            return DeviceInfo(name: "Test Touchscreen", kind: .touchscreen, size: Size(width: 300, height: 190))
        }
    }

    var testDescription: String { rawValue }
}

/// A scripted hand: tests read like a description of what the fingers do.
///
///     let hand = Hand(.touchpad, [swipe3Left])
///     hand.down(3, apart: 0.005)          // 3 fingers, landing 5 ms apart, at the centre
///     hand.move(by: Point(x: -40, y: 0), over: 0.2)
///     hand.lift(earlyBy: 0.008)          // one finger lifts 8 ms before the others
///     #expect(hand.recognized == ["swipe-3-left"])
///
/// It keeps a manual clock and emits a `TouchFrame` per step at `rate` Hz; the engine
/// fires the deadlines due before each frame itself, and `wait` calls `timerFired(at:)`
/// as the daemon's timerfd does. It never sleeps.
final class Hand {
    struct Finger {
        var id: Int32
        var position: Point
    }

    let device: DeviceInfo
    let engine: GestureEngine
    /// Frames per second while fingers move.
    var rate = 100.0
    /// Semi-MT pads: only the first `trackedSlots` fingers are reported as contacts.
    var trackedSlots: Int?
    private(set) var now = Timestamp(seconds: 1000)
    private(set) var fingers: [Finger] = []
    private(set) var events: [GestureEvent] = []
    private(set) var frames: [TouchFrame] = []
    private var nextID: Int32 = 1
    private var buffer: [GestureEvent] = []

    init(_ device: TestDevice, _ specs: [GestureSpec], profile: AccessibilityProfile = AccessibilityProfile()) {
        self.device = device.info
        engine = GestureEngine(device: device.info, specs: specs, profile: profile)
    }

    init(device: DeviceInfo, _ specs: [GestureSpec]) {
        self.device = device
        engine = GestureEngine(device: device, specs: specs)
    }

    var centre: Point { Point(x: device.size.width / 2, y: device.size.height / 2) }

    // MARK: What the hand does

    /// `n` fingers land side by side, `spacing` mm apart, centred on `at` (default: the
    /// middle of the surface), the `i`-th one `apart` seconds after the previous.
    func down(_ n: Int, at: Point? = nil, spacing: Double = 15, apart: Double = 0) {
        let c = at ?? centre
        let width = Double(n - 1) * spacing
        down(at: (0..<n).map { Point(x: c.x - width / 2 + Double($0) * spacing, y: c.y) }, apart: apart)
    }

    /// Fingers land at these places, `apart` seconds one after the other.
    func down(at points: [Point], apart: Double = 0) {
        for (k, p) in points.enumerated() {
            if k > 0 && apart > 0 { step(to: now.adding(seconds: apart)) }
            fingers.append(Finger(id: nextID, position: p))
            nextID += 1
            if apart > 0 || k == points.count - 1 { send() }
        }
    }

    /// Every finger moves by `delta` mm in a straight line over `duration` seconds.
    func move(by delta: Point, over duration: Double) {
        animate(over: duration) { _, _, f in delta * f }
    }

    /// Only finger `index` moves.
    func moveFinger(_ index: Int, by delta: Point, over duration: Double) {
        animate(over: duration) { i, _, f in i == index ? delta * f : .zero }
    }

    /// Only the fingers at `indices` move by `delta`; with `spreadBy`, they also fan
    /// out sideways (perpendicular to `delta`) by up to that many mm, like a real hand.
    func moveFingers(_ indices: [Int], by delta: Point, over duration: Double, spreadBy spread: Double = 0) {
        let n = Double(max(1, indices.count - 1))
        let side = Point(x: -delta.y, y: delta.x) / max(delta.length, 1e-9)
        animate(over: duration) { i, _, f in
            guard let k = indices.firstIndex(of: i) else { return .zero }
            return (delta + side * (spread * (Double(k) / n - 0.5))) * f
        }
    }

    /// The fingers spread (scale > 1) or close around their centroid, while the hand
    /// slides by `drift` mm.
    func pinch(to scale: Double, over duration: Double, drift: Point = .zero) {
        let c = centroid
        animate(over: duration) { _, start, f in (start - c) * ((scale - 1) * f) + drift * f }
    }

    /// The fingers turn around their centroid, clockwise on screen for positive degrees.
    func rotate(by degrees: Double, over duration: Double) {
        twist(by: degrees, whileMoving: .zero, over: duration)
    }

    /// The fingers turn around their centroid while the hand moves by `delta` (a swipe
    /// whose wrist twists).
    func twist(by degrees: Double, whileMoving delta: Point, over duration: Double) {
        let c = centroid
        animate(over: duration) { _, start, f in
            let a = degrees * f * .pi / 180
            let r = start - c
            let (s, co) = (sinApprox(a), cosApprox(a))
            return Point(x: r.x * co - r.y * s, y: r.x * s + r.y * co) - r + delta * f
        }
    }

    /// The fingers turn about finger `pivot` (where it is now), clockwise on screen for
    /// positive degrees, while the whole hand slides by `drift` mm (a real pivot is never
    /// quite still): a knob turned with one finger kept down.
    func rotate(by degrees: Double, over duration: Double, about pivot: Int, drift: Point = .zero) {
        let c = fingers[pivot].position
        animate(over: duration) { _, start, f in
            let a = degrees * f * .pi / 180
            let r = start - c
            let (s, co) = (sinApprox(a), cosApprox(a))
            return Point(x: r.x * co - r.y * s, y: r.x * s + r.y * co) - r + drift * f
        }
    }

    /// Every finger moves by `delta` in a straight line over `duration`, each contact
    /// shaken by up to `jitter` mm each way every frame, seeded: a touchscreen's noise.
    func drag(by delta: Point, over duration: Double, jitter: Double, seed: UInt64 = 1) {
        var state = seed
        func noise() -> Double {  // xorshift64*, −1…1
            state ^= state >> 12; state ^= state << 25; state ^= state >> 27
            return Double((state &* 2_685_821_657_736_338_717) >> 11) / Double(1 << 52) - 1
        }
        animate(over: duration) { _, _, f in
            delta * f + Point(x: noise(), y: noise()) * jitter
        }
    }

    /// The whole hand goes round a circle of `radius` mm, `degrees` of it (clockwise on
    /// screen for positive), starting where it is: the circle's centre lies `radius`
    /// below the hand for a clockwise turn, above it for a counterclockwise one, so the
    /// hand first moves right either way.
    func circle(radius: Double, degrees: Double, over duration: Double) {
        let start = degrees > 0 ? -Double.pi / 2 : Double.pi / 2
        let from = Point(x: radius * cosApprox(start), y: radius * sinApprox(start))
        animate(over: duration) { _, _, f in
            let a = start + degrees * f * .pi / 180
            return Point(x: radius * cosApprox(a), y: radius * sinApprox(a)) - from
        }
    }

    /// Lifts the last `count` fingers (default all), `apart` seconds one after the other.
    func lift(_ count: Int? = nil, apart: Double = 0) {
        let n = min(count ?? fingers.count, fingers.count)
        for k in 0..<n {
            if k > 0 && apart > 0 { step(to: now.adding(seconds: apart)) }
            fingers.removeLast()
            if apart > 0 || k == n - 1 { send() }
        }
    }

    /// Lifts all fingers, one of them `earlyBy` seconds before the others.
    func lift(earlyBy early: Double) {
        lift(1)
        wait(early)
        lift()
    }

    /// Time passes with no frame (the fingers rest, or are off the surface).
    func wait(_ seconds: Double) {
        let target = now.adding(seconds: seconds)
        fireDeadlines(upTo: target)
        now = target
    }

    /// The device dropped events: the next frame carries the resynchronized state.
    func resync() {
        send(flags: .resynced)
    }

    /// The clickpad is pressed down (BTN_LEFT) or released.
    var buttonDown = false {
        didSet { send() }
    }

    /// The device vanished or the config was swapped.
    func cancelAll() {
        buffer.removeAll(keepingCapacity: true)
        engine.cancelAll(at: now, into: &buffer)
        events += buffer
    }

    // MARK: What the engine said

    /// "name phase" for every event, in order.
    var log: [String] { events.map { "\($0.name) \($0.phase.rawValue)" } }
    /// Names of the gestures that were recognized or began.
    var recognized: [String] {
        events.filter { $0.phase == .recognized || $0.phase == .began }.map(\.name)
    }
    func events(_ name: String) -> [GestureEvent] { events.filter { $0.name == name } }
    func phases(_ name: String) -> [GesturePhase] { events(name).map(\.phase) }
    func last(_ name: String) -> GestureEvent? { events(name).last }
    var explanations: [String] { engine.explanations }
    func clearEvents() { events.removeAll() }

    // MARK: Frames

    private var centroid: Point {
        fingers.reduce(Point.zero) { $0 + $1.position } / Double(max(1, fingers.count))
    }

    /// Moves each finger by `offset(index, startPosition, fraction)` over `duration`, a frame per 1/rate s.
    private func animate(over duration: Double, _ offset: (Int, Point, Double) -> Point) {
        let starts = fingers.map(\.position)
        let steps = max(1, Int((duration * rate).rounded()))
        let t0 = now
        for s in 1...steps {
            let f = Double(s) / Double(steps)
            step(to: t0.adding(seconds: duration * f))
            for i in fingers.indices { fingers[i].position = starts[i] + offset(i, starts[i], f) }
            send()
        }
    }

    /// Moves the clock to `t`; the next frame's `process` fires the deadlines on the way.
    private func step(to t: Timestamp) {
        now = t
    }

    /// The daemon's timer firing at `t`.
    private func fireDeadlines(upTo t: Timestamp) {
        buffer.removeAll(keepingCapacity: true)
        engine.timerFired(at: t, into: &buffer)
        events += buffer
    }

    private func send(flags: TouchFrame.Flags = []) {
        var contacts = ContactList()
        let tracked = min(trackedSlots ?? fingers.count, fingers.count)
        for (slot, f) in fingers.prefix(tracked).enumerated() {
            contacts.append(Contact(id: f.id, slot: Int32(slot), position: f.position,
                                    normalized: Point(x: f.position.x / device.size.width,
                                                      y: f.position.y / device.size.height)))
        }
        let frame = TouchFrame(time: now, contacts: contacts, fingerCount: fingers.count,
                               flags: buttonDown ? flags.union(.buttonDown) : flags)
        frames.append(frame)
        buffer.removeAll(keepingCapacity: true)
        engine.process(frame, into: &buffer)
        events += buffer
    }
}

/// sin and cos for test geometry (the engine and tests import no libm wrappers).
func sinApprox(_ x: Double) -> Double {
    var x = Angle.normalized(x)
    var term = x, sum = 0.0
    x *= x
    for k in stride(from: 1.0, through: 29, by: 2) {
        sum += term
        term *= -x / ((k + 1) * (k + 2))
    }
    return sum
}

func cosApprox(_ x: Double) -> Double { sinApprox(x + .pi / 2) }

/// Specs for tests, named the way users name them.
enum Spec {
    static func tap(_ fingers: Int, taps: Int = 1, name: String? = nil) -> GestureSpec {
        GestureSpec(name: name ?? "tap-\(fingers)" + (taps > 1 ? "x\(taps)" : ""), kind: .tap,
                    fingers: fingers...fingers, taps: taps)
    }
    static func hold(_ fingers: Int, taps: Int = 1, name: String? = nil) -> GestureSpec {
        GestureSpec(name: name ?? "hold-\(fingers)", kind: .hold, fingers: fingers...fingers, taps: taps)
    }
    static func swipe(_ fingers: Int, _ directions: Set<Direction> = [], name: String? = nil) -> GestureSpec {
        GestureSpec(name: name ?? "swipe-\(fingers)" + (directions.count == 1 ? "-\(directions.first!.rawValue)" : ""),
                    kind: .swipe, fingers: fingers...fingers, directions: directions)
    }
    static func pan(_ fingers: ClosedRange<Int>, axis: Axis? = nil, name: String? = nil) -> GestureSpec {
        GestureSpec(name: name ?? "pan-\(fingers.lowerBound)", kind: .pan, fingers: fingers, axis: axis)
    }
    static func pinch(_ fingers: Int, _ senses: Set<Sense> = [], name: String? = nil) -> GestureSpec {
        GestureSpec(name: name ?? "pinch-\(fingers)" + (senses.count == 1 ? "-\(senses.first!.rawValue)" : ""),
                    kind: .pinch, fingers: fingers...fingers, senses: senses)
    }
    static func rotate(_ fingers: Int, _ senses: Set<Sense> = [], name: String? = nil) -> GestureSpec {
        GestureSpec(name: name ?? "rotate-\(fingers)" + (senses.count == 1 ? "-\(senses.first!.rawValue)" : ""),
                    kind: .rotate, fingers: fingers...fingers, senses: senses)
    }
    static func edgePan(_ fingers: Int, _ edges: Set<Edge> = [], name: String? = nil) -> GestureSpec {
        GestureSpec(name: name ?? "edge-\(fingers)", kind: .edgePan, fingers: fingers...fingers, edges: edges)
    }
    static func transform(_ fingers: ClosedRange<Int>, name: String? = nil) -> GestureSpec {
        GestureSpec(name: name ?? "transform", kind: .transform, fingers: fingers)
    }
    static func circle(_ fingers: Int, _ senses: Set<Sense> = [], name: String? = nil) -> GestureSpec {
        GestureSpec(name: name ?? "circle-\(fingers)", kind: .circle, fingers: fingers...fingers, senses: senses)
    }
    /// A tip-tap (or, `swipe: true`, a tip-swipe) of `fingers` beside one resting finger.
    static func tipTap(_ fingers: Int = 1, _ sides: Set<Side> = [], swipe directions: Set<Direction>? = nil,
                       name: String? = nil) -> GestureSpec {
        var spec = GestureSpec(name: name ?? (directions == nil ? "tip-tap" : "tip-swipe") + (sides.count == 1 ? "-\(sides.first!.rawValue)" : ""),
                               kind: directions == nil ? .tipTap : .tipSwipe, fingers: fingers...fingers,
                               directions: directions ?? [])
        spec.sides = sides
        return spec
    }
    static func scrub(_ fingers: Int = 1, name: String? = nil) -> GestureSpec {
        GestureSpec(name: name ?? "scrub", kind: .scrub, fingers: fingers...fingers)
    }
}

extension Direction {
    /// A displacement of `mm` in this direction.
    func times(_ mm: Double) -> Point { unit * mm }

    var unit: Point { unitVector }
}

extension Direction: CustomTestStringConvertible {
    public var testDescription: String { rawValue }
}

/// One cell of the fingers × directions grid, printed readably in test output.
struct Stroke: CustomTestStringConvertible, Sendable {
    var fingers: Int
    var direction: Direction
    var testDescription: String { "\(fingers)f \(direction.rawValue)" }

    /// Fingers 1–5 × the eight directions.
    static let grid: [Stroke] = (1...5).flatMap { f in Direction.allCases.map { Stroke(fingers: f, direction: $0) } }
    /// Fingers 2–5 × the eight directions (pinch and rotate need two).
    static let multiFingerGrid: [Stroke] = grid.filter { $0.fingers >= 2 }
}
