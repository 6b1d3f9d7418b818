import GestureEngine
import TouchModel
import Testing

@Suite struct PanTests {
    /// A pan follows the fingers: began, changed while they move, ended at the lift,
    /// with UIKit's translation and velocity in mm and mm/s.
    @Test(arguments: TestDevice.allCases, Stroke.grid)
    func panInEveryDirection(device: TestDevice, stroke: Stroke) throws {
        let hand = Hand(device, [Spec.pan(stroke.fingers...stroke.fingers, name: "pan")])
        hand.down(stroke.fingers, apart: 0.005)
        hand.wait(0.15)
        hand.move(by: stroke.direction.times(30), over: 0.3)   // 100 mm/s
        hand.wait(0.02)
        hand.lift()
        let phases = hand.phases("pan")
        #expect(phases.first == .began)
        #expect(phases.last == .ended)
        #expect(phases.dropFirst().dropLast().allSatisfy { $0 == .changed })
        #expect(phases.count > 20)
        let ended = try #require(hand.last("pan"))
        let expected = stroke.direction.times(30)
        #expect((ended.translation - expected).length < 0.01)
        let began = try #require(hand.events.first)
        #expect(began.direction == stroke.direction)
        #expect(abs(began.velocity.length - 100) < 1)
        #expect(began.fingers == stroke.fingers)
    }

    @Test(arguments: 1...5)
    func fingerRangeAdmitsEveryCountInIt(fingers: Int) {
        let hand = Hand(.touchpad, [Spec.pan(2...4, name: "pan")])
        hand.down(fingers)
        hand.wait(0.15)
        hand.move(by: Point(x: 10, y: 0), over: 0.1)
        hand.lift()
        #expect(hand.recognized == ((2...4).contains(fingers) ? ["pan"] : []))
    }

    @Test func horizontalAxisLockKeepsOnlyX() throws {
        let hand = Hand(.touchpad, [Spec.pan(2...2, axis: .horizontal, name: "pan")])
        hand.down(2)
        hand.wait(0.15)
        hand.move(by: Point(x: 20, y: 5), over: 0.2)
        hand.lift()
        let e = try #require(hand.last("pan"))
        #expect(e.translation == Point(x: 20, y: 0) || abs(e.translation.x - 20) < 1e-9 && e.translation.y == 0)
        #expect(e.velocity.y == 0)
    }

    @Test func verticalAxisLockFailsOnAHorizontalStart() {
        let hand = Hand(.touchpad, [Spec.pan(3...3, axis: .vertical, name: "volume")])
        hand.down(3)
        hand.wait(0.15)
        hand.move(by: Point(x: 20, y: 0), over: 0.2)
        hand.lift()
        #expect(hand.recognized.isEmpty)
        #expect(hand.explanations == ["volume: moved 90.0° off its axis, allows 30.0°"])
    }

    @Test func stillFingersAreNotAPan() {
        let hand = Hand(.touchscreen, [Spec.pan(1...1, name: "pan")])
        hand.down(1)
        hand.move(by: Point(x: 1, y: 1), over: 0.1)
        hand.lift()
        #expect(hand.recognized.isEmpty)
        #expect(hand.explanations == ["pan: moved 1.4 mm, needs 3.0 mm"])
    }
}
