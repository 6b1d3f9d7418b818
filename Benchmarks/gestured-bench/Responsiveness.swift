import GestureEngine
import GestureInput
import TouchModel

/// How soon a gesture acts, which users feel more than throughput (issue 15): for
/// every swipe `replay --detect` finds in the recordings, how long after the fingers
/// started moving it was recognized, and how long before they lifted. A tool that
/// acts only at the lift (libinput-gestures) is 0 ms before the lift.
///
/// Motion starts at the first frame of the touch sequence in which a contact is
/// `motionStartMM` from where it landed (below that is sensor jitter); the lift is
/// the frame in which the last finger lifts. Times are the engine's (kernel) times,
/// so the figures are the recognizers', not this machine's.
enum Responsiveness {
    static let motionStartMM = 1.0

    /// A desktop's workspace swipes: 3 and 4 fingers, four directions each, with a
    /// 2- and 3-finger tap and a 4-finger hold beside them. Nothing takes five fingers
    /// and nothing but swipes, taps and holds competes: a swipe may act sooner (issue
    /// 24, "sooner").
    static let workspaceSwipes: [GestureSpec] =
        [3, 4].flatMap { f in [Direction.left, .right, .up, .down].map {
            GestureSpec(name: "swipe-\(f)-\($0.rawValue)", kind: .swipe, fingers: f...f, directions: [$0])
        } } + [GestureSpec(name: "tap-2", kind: .tap, fingers: 2...2), GestureSpec(name: "tap-3", kind: .tap, fingers: 3...3),
               GestureSpec(name: "hold-4", kind: .hold, fingers: 4...4)]

    struct Row {
        var recording: String
        var gesture: String
        var afterMotionMS: Double
        var beforeLiftMS: Double
    }

    /// `specs`: the gestures bound (default: `replay --detect`'s, every kind at every
    /// finger count, where nothing can act sooner than the settle window and 20 mm).
    static func swipes(_ workloads: [Workload], specs: [GestureSpec] = KindTraits.detectCatalogue) -> [Row] {
        var rows: [Row] = []
        for w in workloads {
            let decoder = w.makeDecoder()
            let engine = GestureEngine(device: decoder.capabilities.deviceInfo(name: w.device.name), specs: specs)
            var events: [GestureEvent] = []
            var landed: [Int32: Point] = [:]
            var motionStart: Timestamp?
            var pending: [(name: String, time: Timestamp)] = []
            var down = false
            for e in w.events where decoder.feed(e) {
                let f = decoder.frame
                engine.process(f, into: &events)
                for g in events where g.kind == .swipe && g.phase == .recognized { pending.append((g.name, g.time)) }
                events.removeAllKeepingCapacity()
                if f.fingerCount > 0 {
                    if !down { down = true; landed.removeAll(); motionStart = nil }
                    for c in f.contacts {
                        guard let start = landed[c.id] else { landed[c.id] = c.position; continue }
                        if motionStart == nil, (c.position - start).length >= motionStartMM { motionStart = f.time }
                    }
                } else if down {
                    down = false
                    for p in pending {
                        let start = motionStart ?? p.time
                        rows.append(Row(recording: w.name, gesture: p.name,
                                        afterMotionMS: p.time.seconds(since: start) * 1000,
                                        beforeLiftMS: f.time.seconds(since: p.time) * 1000))
                    }
                    pending.removeAll()
                }
            }
        }
        return rows
    }
}
