import GestureEngine
import GestureInput
import GestureTestSupport
import PlainText
import TouchModel

/// How well `gesture: shape` tells its built-in shapes apart, how long a decision
/// takes, and how often an ordinary gesture would be taken for a shape (issue 24).
///
/// Synthetic samples, seeded: each built-in shape drawn as its own corners (not its
/// templates' points), every corner moved by up to 10 % of the size, the width
/// stretched 0.8–1.25× against the height, turned ±15°, 15–60 mm across, traced at
/// 40–400 mm/s and sampled at 60–250 Hz (so 10 to a few hundred points), each point
/// jittered by a normal 0.1–0.6 mm. Each goes through the real `ShapeRecognizer`
/// (TouchSnapshots, then the lift) with `min-score: 0`, so its best shape and score
/// are known; the matrix counts it under that shape when it scores at least the
/// default, else under "none".
///
/// The recordings: every bundled recording replayed through an engine with a shape
/// of any kind bound for 1–5 fingers, `min-score: 0`: what each ordinary stroke that
/// passes the size and bend rules scores, and how many reach the default.
enum ShapeAccuracy {
    /// The shapes as a hand draws them: corners in a unit box (+y down).
    static let drawn: [(String, [Point])] = {
        func p(_ xy: [(Double, Double)]) -> [Point] { xy.map { Point(x: $0.0, y: $0.1) } }
        var s: [Point] = []
        // The 's' as a smooth path of 17 corners from its template.
        if let template = ShapeTemplate.builtIn.first(where: { $0.name == "s" }) {
            s = stride(from: 0, to: template.points.count, by: 3).map { template.points[$0] }
        }
        return [
            ("z", p([(0, 0), (1, 0), (0, 1), (1, 1)])),
            ("n", p([(0, 1), (0, 0), (1, 1), (1, 0)])),
            ("s", s),
            ("l", p([(0, 0), (0, 1), (0.8, 1)])),
            ("check", p([(0, 0.55), (0.3, 1), (1, 0)])),
            ("caret", p([(0, 1), (0.5, 0), (1, 1)])),
            ("triangle", p([(0.5, 0), (1, 0.9), (0, 0.9), (0.5, 0)])),
            ("w", p([(0, 0), (0.25, 1), (0.5, 0.15), (0.75, 1), (1, 0)])),
        ]
    }()

    /// One synthetic sample of `corners`, mm, as the centroid's positions frame by frame.
    static func sample(_ corners: [Point], _ rng: inout SplitMix64) -> [Point] {
        let size = rng.uniform(15, 60)
        let stretch = rng.uniform(0.8, 1.25)
        let turn = rng.uniform(-15, 15) * .pi / 180
        let (c, s) = (cosine(turn), cosine(turn - .pi / 2))
        let speed = rng.uniform(40, 400), rate = rng.uniform(60, 250), jitter = rng.uniform(0.1, 0.6)
        let placed = corners.map { q -> Point in
            let x = (q.x + rng.uniform(-0.1, 0.1)) * size * stretch, y = (q.y + rng.uniform(-0.1, 0.1)) * size / stretch
            return Point(x: 100 + c * x - s * y, y: 100 + s * x + c * y)
        }
        var out: [Point] = []
        let stepMM = speed / rate
        for k in 1..<placed.count {
            let a = placed[k - 1], b = placed[k]
            let steps = max(1, Int(((b - a).length / stepMM).rounded()))
            for i in 0..<steps {
                let f = Double(i) / Double(steps)
                out.append(Point(x: a.x + f * (b.x - a.x) + jitter * rng.normal(), y: a.y + f * (b.y - a.y) + jitter * rng.normal()))
            }
        }
        out.append(placed[placed.count - 1])
        return out
    }

    static func cosine(_ a: Double) -> Double {
        var term = 1.0, sum = 0.0
        let x = a.truncatingRemainder(dividingBy: 2 * .pi)
        for k in 0..<20 { sum += term; term *= -x * x / Double((2 * k + 1) * (2 * k + 2)) }
        return sum
    }

    /// The recognizer's verdict on one path: its best shape and score, nil when the
    /// path failed before any match (too small or too straight); and the lift's time.
    /// Allocations counted while strokes were drawn (frames, not lifts) and in the
    /// lifts' decisions, over all samples.
    nonisolated(unsafe) static var drawingAllocations: UInt64 = 0
    nonisolated(unsafe) static var liftAllocations: UInt64 = 0

    static func recognize(_ recognizer: ShapeRecognizer, _ path: [Point]) -> (shape: String?, score: Double, ns: Int64) {
        var t = TouchSnapshot(time: Timestamp(microseconds: 1_000_000))
        t.fingers = 1; t.currentFingers = 1; t.maxFingers = 1; t.isSettled = true; t.isLifted = false
        let before = mallocs()
        for i in path.indices {
            t.time = Timestamp(microseconds: 1_000_000 + Int64(i) * 5000)
            t.location = path[i]
            _ = recognizer.evaluate(t, .touches, state: .possible)
        }
        drawingAllocations += mallocs() - before
        t.isLifted = true
        let lift = mallocs()
        let start = nowNS()
        let verdict = recognizer.evaluate(t, .lifted, state: .possible)
        let ns = nowNS() - start
        liftAllocations += mallocs() - lift
        var event = GestureEvent(name: "s", index: 0, kind: .shape, phase: .recognized, time: t.time, fingers: 1)
        recognizer.annotate(&event, t)
        recognizer.reset()
        guard case .recognize = verdict else { return (nil, 0, ns) }
        return (event.shape, event.score ?? 0, ns)
    }

    static func report(root: String, samplesPerShape: Int = 200, seed: UInt64 = 24) {
        var spec = GestureSpec(name: "any", kind: .shape, fingers: 1...1)
        spec.thresholds.minScore = 0
        let recognizer = ShapeRecognizer(spec: spec)
        let names = drawn.map(\.0)
        let columns = names + ["none"]
        var rng = SplitMix64(seed: seed)
        var times: [Double] = []
        var own: [Double] = []
        var matrix = [[Int]](repeating: [Int](repeating: 0, count: columns.count), count: names.count)
        var points: [Int] = []
        for (row, (_, corners)) in drawn.enumerated() {
            for _ in 0..<samplesPerShape {
                let path = sample(corners, &rng)
                points.append(path.count)
                let (shape, score, ns) = recognize(recognizer, path)
                times.append(Double(ns))
                if shape == names[row] { own.append(score) }
                let column = shape.flatMap { s in score >= defaultShapeMinScore ? names.firstIndex(of: s) : nil } ?? names.count
                matrix[row][column] += 1
            }
        }
        say("== shape accuracy: \(samplesPerShape) seeded synthetic samples a built-in shape (seed \(seed); turned ±15°, 15–60 mm, 40–400 mm/s at 60–250 Hz, \(points.min() ?? 0)–\(points.max() ?? 0) points, jitter 0.1–0.6 mm), min-score \(defaultShapeMinScore.fixed(2))")
        say("   " + pad("drawn \\ taken for", 18) + columns.map { pad($0, 9) }.joined() + "correct")
        var correct = 0
        for (row, name) in names.enumerated() {
            correct += matrix[row][row]
            let rate = Double(matrix[row][row]) / Double(samplesPerShape) * 100
            say("   " + pad(name, 18) + matrix[row].map { pad("\($0)", 9) }.joined() + rate.fixed(1) + " %")
        }
        var wrong = 0
        for r in names.indices { for c in names.indices where c != r { wrong += matrix[r][c] } }
        say("   all: \(correct) of \(names.count * samplesPerShape) correct (\((Double(correct) / Double(names.count * samplesPerShape) * 100).fixed(1)) %), \(wrong) taken for another shape, the rest none")
        say("   score against their own shape: p5 \(percentile(own, 5).fixed(2)), p25 \(percentile(own, 25).fixed(2)), p50 \(median(own).fixed(2)), min \((own.min() ?? 0).fixed(2))")
        say("   allocations: \(drawingAllocations) over the \(points.reduce(0, +)) frames of drawing, \(liftAllocations) in the \(points.count) decisions at the lift")
        say("   time per recognition (the lift: resample, bend, $Q against \(ShapeTemplate.builtIn.count) templates): median \((median(times) / 1000).fixed(1)) µs, p99 \((percentile(times, 99) / 1000).fixed(1)) µs")
        recordings(root: root)
    }

    /// The bundled recordings' ordinary gestures, each with a shape bound for its fingers.
    static func recordings(root: String) {
        var strokes = 0, compared: [Double] = [], bends: [Double] = [], closest = ""
        var fired: [String] = []
        for w in Workloads.recordings(root: root) {
            let decoder = w.makeDecoder()
            let specs = (1...5).map { f -> GestureSpec in
                var s = GestureSpec(name: "shape-\(f)", kind: .shape, fingers: f...f)
                s.thresholds.minScore = 0
                return s
            }
            let engine = GestureEngine(device: decoder.capabilities.deviceInfo(name: w.device.name), specs: specs)
            var events: [GestureEvent] = []
            var down = false
            for e in w.events where decoder.feed(e) {
                let f = decoder.frame
                engine.process(f, into: &events)
                for g in events where g.kind == .shape {
                    if (g.score ?? 0) > (compared.max() ?? -1) { closest = "'\(g.shape ?? "?")', \(g.fingers) fingers, \(w.name)" }
                    compared.append(g.score ?? 0)
                    if (g.score ?? 0) >= defaultShapeMinScore { fired.append("\(w.name): '\(g.shape ?? "?")' \((g.score ?? 0).fixed(2))") }
                }
                events.removeAllKeepingCapacity()
                if f.fingerCount > 0 { down = true } else if down {
                    down = false
                    strokes += 1
                    for line in engine.explanations {
                        guard let r = line.firstRange(of: "(bend ") else { continue }
                        if let b = Double(line[r.upperBound...].prefix { $0 != "," }) { bends.append(b) }
                    }
                }
            }
        }
        say("== shapes over the bundled recordings' ordinary gestures (a shape of any kind bound for 1–5 fingers)")
        say("   \(strokes) touch sequences; \(bends.count) failed as too straight (bend \((bends.min() ?? 0).fixed(2))–\((bends.max() ?? 0).fixed(2)), needs \(shapeMinBend.fixed(2))), \(compared.count) compared with the templates, scoring at most \((compared.max() ?? 0).fixed(2)) (\(closest))")
        say("   false positives at min-score \(defaultShapeMinScore.fixed(2)): \(fired.count) of \(strokes) (\((Double(fired.count) / Double(max(1, strokes)) * 100).fixed(1)) %)" + (fired.isEmpty ? "" : ": " + fired.joined(separator: "; ")))
    }
}

extension SplitMix64 {
    mutating func uniform(_ lo: Double, _ hi: Double) -> Double {
        lo + (hi - lo) * Double(next() >> 11) / Double(1 << 53)
    }
    /// A normal deviate (sum of 12 uniforms, minus 6).
    mutating func normal() -> Double { (0..<12).reduce(0.0) { s, _ in s + uniform(0, 1) } - 6 }
}
