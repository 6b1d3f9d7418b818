@testable import GestureEngine
import TouchModel
import Testing

extension Spec {
    static func shape(_ fingers: Int, _ shapes: [String] = [], name: String? = nil) -> GestureSpec {
        var spec = GestureSpec(name: name ?? "shape-\(fingers)", kind: .shape, fingers: fingers...fingers)
        spec.shapes = shapes
        return spec
    }
}

extension Hand {
    /// The hand draws the polyline through `corners` (mm, from where it is), `speed`
    /// mm/s along it.
    func draw(_ corners: [Point], scale: Double = 1, speed: Double = 150) {
        var at = Point.zero
        for c in corners {
            let leg = (c - at) * scale
            move(by: leg, over: max(0.02, leg.length / speed))
            at = c
        }
    }
}

/// Corners of the shapes as a hand draws them, mm, from the first point.
enum Drawn {
    static let z = [Point(x: 30, y: 0), Point(x: 0, y: 30), Point(x: 30, y: 30)]
    static let n = [Point(x: 0, y: -30), Point(x: 30, y: 0), Point(x: 30, y: -30)]
    static let check = [Point(x: 10, y: 12), Point(x: 32, y: -20)]
    static let triangle = [Point(x: 15, y: 26), Point(x: -15, y: 26), Point(x: 0, y: 0)]
    static let caret = [Point(x: 15, y: -25), Point(x: 30, y: 0)]
}

@Suite struct ShapeTests {
    /// 1–5 fingers draw a 'z': recognized at the lift with its name and a score.
    @Test(arguments: TestDevice.allCases, 1...5)
    func aDrawnZIsAZ(device: TestDevice, fingers: Int) throws {
        let hand = Hand(device, [Spec.shape(fingers, ["z"], name: "zed")])
        hand.down(fingers, at: Point(x: 35, y: 20), spacing: 10, apart: 0.004)
        hand.wait(0.05)
        hand.draw(Drawn.z)
        #expect(hand.recognized.isEmpty, "a shape decides at the lift")
        hand.lift()
        #expect(hand.recognized == ["zed"])
        let e = try #require(hand.last("zed"))
        #expect(e.kind == .shape && e.phase == .recognized && e.fingers == fingers)
        #expect(e.shape == "z")
        #expect((e.score ?? 0) >= defaultShapeMinScore, "\(e.score ?? -1)")
        #expect(hand.engine.refusedTransitions == 0)
    }

    /// Each built-in shape drawn by the hand is taken for itself and not for another.
    @Test(arguments: [("z", Drawn.z), ("n", Drawn.n), ("check", Drawn.check), ("triangle", Drawn.triangle),
                      ("caret", Drawn.caret)] as [(String, [Point])])
    func eachShapeIsItself(name: String, corners: [Point]) throws {
        let hand = Hand(.touchscreen, [Spec.shape(1, name: "any")])
        hand.down(1, at: Point(x: 100, y: 100))
        hand.draw(corners)
        hand.lift()
        #expect(hand.recognized == ["any"], "\(hand.explanations)")
        #expect(hand.last("any")?.shape == name)
    }

    /// A shape it does not take fails with what it looked like; `--explain` says so.
    @Test func anNIsNoZ() {
        let hand = Hand(.touchpad, [Spec.shape(1, ["z"], name: "zed")])
        hand.down(1, at: Point(x: 40, y: 50))
        hand.draw(Drawn.n)
        hand.lift()
        #expect(hand.recognized.isEmpty)
        #expect(hand.explanations.count == 1)
        #expect(hand.explanations.first?.hasPrefix("zed: looked most like 'n' (") == true, "\(hand.explanations)")
        #expect(hand.explanations.first?.hasSuffix("which it does not take") == true)
    }

    /// A scribble scores low: the reason says how low and what it needs.
    @Test func aScribbleIsNoShape() {
        var spec = Spec.shape(1, name: "any")
        spec.thresholds.minScore = 0.95
        let hand = Hand(.touchscreen, [spec])
        hand.down(1, at: Point(x: 100, y: 100))
        hand.draw([Point(x: 30, y: 5), Point(x: 2, y: 20), Point(x: 25, y: 28), Point(x: 5, y: 3), Point(x: 28, y: 14)])
        hand.lift()
        #expect(hand.recognized.isEmpty)
        #expect(hand.explanations.first?.contains("), needs 0.95") == true, "\(hand.explanations)")
    }

    /// Straight strokes and tiny ones are no shape, whatever they resemble.
    @Test func straightAndTinyStrokesAreNoShape() {
        let hand = Hand(.touchpad, [Spec.shape(2, name: "any")])
        hand.down(2, at: Point(x: 40, y: 40))
        hand.draw([Point(x: 40, y: 2)])
        hand.lift()
        #expect(hand.explanations.first?.hasPrefix("any: the stroke was straight (bend ") == true, "\(hand.explanations)")
        hand.wait(1)
        hand.clearEvents()
        hand.down(2, at: Point(x: 40, y: 40))
        hand.draw(Drawn.z, scale: 0.2)
        hand.lift()
        #expect(hand.recognized.isEmpty)
        #expect(hand.explanations.first?.hasPrefix("any: drew 6.0 mm across, a shape needs 10.0 mm") == true, "\(hand.explanations)")
    }

    /// Issue 37: with no template to compare with (each built-in replaced by a recording
    /// of one point), a drawn `z` fails for that, not as "too small".
    @Test func noTemplateSaysSoNotTooSmall() {
        var spec = Spec.shape(1, name: "any")
        spec.shapeTemplates = ShapeTemplate.builtInNames.map { ShapeTemplate(name: $0, points: [Point(x: 5, y: 5), Point(x: 5, y: 5)]) }
        let hand = Hand(.touchpad, [spec])
        hand.down(1)
        hand.draw(Drawn.z)
        hand.lift()
        #expect(hand.recognized.isEmpty)
        #expect(hand.explanations == ["any: no shape template to compare it with (each one's points are all in one place)"])
    }

    /// Shape against swipe, both ways: a drawn 'z' with a swipe right bound for the
    /// same fingers fires the shape (its first stroke went 30 mm right, past the
    /// swipe's distance); a plain swipe with the shape bound fires the swipe, at the lift.
    @Test(arguments: TestDevice.allCases)
    func aShapeWinsOnlyWhatIsNoSwipe(device: TestDevice) throws {
        let specs = [Spec.swipe(3, [.right], name: "swipe-right"), Spec.shape(3, ["z"], name: "zed")]
        let hand = Hand(device, specs)
        hand.down(3, at: Point(x: 40, y: 20), spacing: 10, apart: 0.004)
        hand.wait(0.15)
        hand.draw(Drawn.z)
        hand.lift()
        #expect(hand.recognized == ["zed"])
        hand.wait(1)
        hand.clearEvents()
        hand.down(3, at: Point(x: 30, y: 40), spacing: 10, apart: 0.004)
        hand.wait(0.15)
        hand.move(by: Point(x: 45, y: 1), over: 0.2)
        #expect(hand.recognized.isEmpty, "the swipe waits for the shape to fail")
        hand.lift()
        #expect(hand.recognized == ["swipe-right"])
        #expect(hand.last("swipe-right")?.direction == .right)
        #expect(hand.explanations.contains { $0.hasPrefix("zed: the stroke was straight") }, "\(hand.explanations)")
    }

    /// A pan for the same fingers begins while the stroke is drawn, and wins: a shape
    /// never takes a scroll.
    @Test func aPanWinsBeforeTheShapeDecides() {
        let hand = Hand(.touchpad, [Spec.shape(2, ["z"], name: "zed"), Spec.pan(2...2, name: "scroll")])
        hand.down(2, at: Point(x: 40, y: 20))
        hand.wait(0.15)
        hand.draw(Drawn.z)
        hand.lift()
        #expect(hand.phases("scroll").first == .began)
        #expect(hand.recognized == ["scroll"])
        #expect(hand.explanations.contains("zed: lost to scroll"), "\(hand.explanations)")
    }

    /// A shape holds up no pinch for its fingers.
    @Test func aPinchIsNotHeldUpByAShape() {
        let hand = Hand(.touchscreen, [Spec.shape(2, name: "any"), Spec.pinch(2, name: "zoom")])
        hand.down(2, spacing: 30)
        hand.wait(0.15)
        hand.pinch(to: 1.6, over: 0.3)
        #expect(hand.phases("zoom").first == .began)
        hand.lift()
    }

    /// While a stroke is drawn, a frame allocates nothing: the path lives in a buffer
    /// allocated with the recognizer, thinned when full (a 3 m stroke).
    @Test func aLongStrokeStaysBounded() throws {
        let hand = Hand(.touchscreen, [Spec.shape(1, name: "any")])
        hand.down(1, at: Point(x: 150, y: 95))
        for _ in 0..<25 { hand.draw([Point(x: 60, y: 0), Point(x: 0, y: 60), Point(x: 0, y: 0)], speed: 600) }
        hand.lift()
        #expect(hand.engine.refusedTransitions == 0)
        #expect(hand.explanations.count == 1, "it decided, on a thinned path")
    }
}
