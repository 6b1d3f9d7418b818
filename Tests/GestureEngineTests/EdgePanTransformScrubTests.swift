import GestureEngine
import TouchModel
import Testing

@Suite struct EdgePanTests {
    static let edges: [Edge] = [.left, .right, .top, .bottom]

    /// From each edge, with 1–3 fingers, moving inward: began with the inward direction.
    @Test(arguments: Edge.allCases, 1...3)
    func edgePanFromEveryEdge(edge: Edge, fingers: Int) throws {
        let hand = Hand(.touchscreen, [Spec.edgePan(fingers, [edge], name: "edge"), Spec.swipe(fingers)])
        let size = hand.device.size
        let start: Point
        switch edge {
        case .left: start = Point(x: 3, y: size.height / 2)
        case .right: start = Point(x: size.width - 3, y: size.height / 2)
        case .top: start = Point(x: size.width / 2, y: 3)
        case .bottom: start = Point(x: size.width / 2, y: size.height - 3)
        }
        // Fingers side by side along the edge.
        let along = edge == .left || edge == .right ? Point(x: 0, y: 15) : Point(x: 15, y: 0)
        hand.down(at: (0..<fingers).map { start + along * Double($0) }, apart: 0.005)
        hand.wait(0.12)
        let inward: Direction = [.left: .right, .right: .left, .top: .down, .bottom: .up][edge]!
        hand.move(by: inward.times(40), over: 0.3)
        hand.lift()
        #expect(hand.recognized == ["edge"])
        let began = try #require(hand.events.first)
        #expect(began.direction == inward)
        #expect(hand.phases("edge").last == .ended)
    }

    /// A landing in the corner, nearer the top, counts for an edge pan from the left:
    /// the nearest of the edges it listens to, not of all four.
    @Test func cornerLandingCountsForTheEdgeItListensTo() throws {
        let hand = Hand(.touchscreen, [Spec.edgePan(1, [.left], name: "edge")])
        hand.down(at: [Point(x: 4, y: 2)])
        hand.move(by: Point(x: 40, y: 0), over: 0.3)
        hand.lift()
        #expect(hand.recognized == ["edge"])
        #expect(try #require(hand.events.first).direction == .right)
    }

    @Test func notFromTheEdge() {
        let hand = Hand(.touchscreen, [Spec.edgePan(1, name: "edge")])
        hand.down(1)
        hand.move(by: Point(x: 40, y: 0), over: 0.2)
        hand.lift()
        #expect(hand.explanations == ["edge: did not start at an edge it listens to"])
    }

    @Test func alongTheEdgeIsNotAnEdgePan() {
        let hand = Hand(.touchscreen, [Spec.edgePan(1, [.left], name: "edge")])
        hand.down(at: [Point(x: 2, y: 50)])
        hand.wait(0.12)
        hand.move(by: Point(x: 0, y: 40), over: 0.2)
        hand.lift()
        #expect(hand.explanations == ["edge: moved down, which it does not accept"])
    }

    @Test func touchpadsHaveNoScreenEdge() {
        let hand = Hand(.touchpad, [Spec.edgePan(1, name: "edge")])
        hand.down(at: [Point(x: 1, y: 30)])
        hand.move(by: Point(x: 40, y: 0), over: 0.2)
        hand.lift()
        #expect(hand.recognized.isEmpty)
        #expect(hand.explanations == ["edge: edge pans need a touchscreen"])
    }
}

@Suite struct TransformTests {
    /// Translation, scale and rotation together, whichever starts it.
    @Test(arguments: TestDevice.allCases, 2...5)
    func allThreeTogether(device: TestDevice, fingers: Int) throws {
        let hand = Hand(device, [Spec.transform(2...5)])
        hand.down(fingers, spacing: 15)
        hand.wait(0.15)
        hand.pinch(to: 1.5, over: 0.2)
        hand.rotate(by: 30, over: 0.2)
        hand.move(by: Point(x: 10, y: -5), over: 0.1)
        hand.lift()
        #expect(hand.recognized == ["transform"])
        let end = try #require(hand.last("transform"))
        #expect(end.phase == .ended)
        #expect(abs(end.scale - 1.5) < 0.001)
        #expect(abs(end.rotation - 30 * .pi / 180) < 0.001)
        #expect((end.translation - Point(x: 10, y: -5)).length < 0.001)
    }

    @Test(arguments: Stroke.grid)
    func aOneFingerTransformIsAPan(stroke: Stroke) throws {
        let hand = Hand(.touchscreen, [Spec.transform(1...5)])
        hand.down(stroke.fingers)
        hand.wait(0.15)
        hand.move(by: stroke.direction.times(20), over: 0.2)
        hand.lift()
        let end = try #require(hand.last("transform"))
        #expect((end.translation - stroke.direction.times(20)).length < 0.001)
    }
}

@Suite struct ScrubTests {
    /// The custom recognizer: three reversals of a horizontal stroke.
    @Test(arguments: TestDevice.allCases, 1...3)
    func threeReversalsScrub(device: TestDevice, fingers: Int) {
        let hand = Hand(device, [Spec.scrub(fingers)])
        hand.down(fingers)
        hand.wait(0.12)
        for dx in [15.0, -15, 15, -15] { hand.move(by: Point(x: dx, y: 0), over: 0.1) }
        hand.lift()
        #expect(hand.recognized == ["scrub"])
    }

    @Test func twoReversalsAreNotEnough() {
        let hand = Hand(.touchpad, [Spec.scrub()])
        hand.down(1)
        for dx in [15.0, -15, 15] { hand.move(by: Point(x: dx, y: 0), over: 0.1) }
        hand.lift()
        #expect(hand.explanations == ["scrub: reversed 2 times, needs 3"])
    }

    @Test func smallWigglesDoNotCount() {
        let hand = Hand(.touchpad, [Spec.scrub()])
        hand.down(1)
        for dx in [3.0, -3, 3, -3, 3, -3] { hand.move(by: Point(x: dx, y: 0), over: 0.05) }
        hand.lift()
        #expect(hand.recognized.isEmpty)
    }

    @Test func aVerticalScribbleIsNotAScrub() {
        let hand = Hand(.touchscreen, [Spec.scrub()])
        hand.down(1)
        for dx in [15.0, -15, 15, -15] { hand.move(by: Point(x: dx, y: 5), over: 0.1) }
        hand.lift()
        #expect(hand.explanations == ["scrub: drifted 15.5 mm vertically, allows 15.0 mm"])
    }
}
