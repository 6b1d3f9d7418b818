import GestureEngine
import TouchModel
import Testing

@Suite struct PinchRotateTests {
    static let scales = [0.5, 1.6]

    /// Pinch in and out with 2–5 fingers: it begins, reports the scale of the
    /// outermost fingers, and ends; the swipes and pans configured alongside stay quiet.
    @Test(arguments: TestDevice.allCases, [(2, 0.5), (2, 1.6), (3, 0.5), (3, 1.6), (4, 0.5), (4, 1.6), (5, 0.5), (5, 1.6)])
    func pinchInAndOut(device: TestDevice, fingersAndScale: (Int, Double)) throws {
        let (fingers, scale) = fingersAndScale
        let hand = Hand(device, [Spec.swipe(fingers), Spec.pan(fingers...fingers), Spec.pinch(fingers, name: "pinch")])
        hand.down(fingers, spacing: 15, apart: 0.005)
        hand.wait(0.15)
        hand.pinch(to: scale, over: 0.3)
        hand.lift()
        #expect(hand.recognized == ["pinch"])
        let end = try #require(hand.last("pinch"))
        #expect(end.phase == .ended)
        #expect(abs(end.scale - scale) < 0.001)
        let began = try #require(hand.events.first)
        #expect(scale > 1 ? began.scaleVelocity > 0 : began.scaleVelocity < 0)
    }

    @Test(arguments: TestDevice.allCases, [(2, 45.0), (2, -45.0), (3, 60.0), (3, -60.0), (4, 40.0), (5, -40.0)])
    func rotateBothWays(device: TestDevice, fingersAndDegrees: (Int, Double)) throws {
        let (fingers, degrees) = fingersAndDegrees
        let hand = Hand(device, [Spec.swipe(fingers), Spec.pan(fingers...fingers), Spec.rotate(fingers, name: "rotate")])
        hand.down(fingers, spacing: 15)
        hand.wait(0.15)
        hand.rotate(by: degrees, over: 0.3)
        hand.lift()
        #expect(hand.recognized == ["rotate"])
        let end = try #require(hand.last("rotate"))
        #expect(abs(end.rotation - degrees * .pi / 180) < 0.001)
        let began = try #require(hand.events.first)
        #expect(degrees > 0 ? began.rotationVelocity > 0 : began.rotationVelocity < 0)
    }

    /// Fingers moving together are a swipe, never a pinch or rotation.
    @Test(arguments: TestDevice.allCases, Stroke.multiFingerGrid)
    func aSwipeIsNeitherPinchNorRotate(device: TestDevice, stroke: Stroke) {
        let hand = Hand(device, [Spec.pinch(stroke.fingers), Spec.rotate(stroke.fingers), Spec.swipe(stroke.fingers, name: "swipe")])
        hand.down(stroke.fingers, apart: 0.005)
        hand.wait(0.15)
        hand.move(by: stroke.direction.times(30), over: 0.2)
        hand.lift()
        #expect(hand.recognized == ["swipe"])
        // It waited while the swipe could still win (issue 24), and lost when it did.
        #expect(hand.explanations.contains("pinch-\(stroke.fingers): lost to swipe"), "\(hand.explanations)")
    }

    /// A pinch with one still finger (the thumb stays, the index moves) is still a pinch.
    @Test func pinchWithOneStillFinger() {
        let hand = Hand(.touchscreen, [Spec.swipe(2), Spec.pan(2...2), Spec.pinch(2, name: "pinch")])
        hand.down(2, spacing: 30)
        hand.wait(0.15)
        hand.moveFinger(1, by: Point(x: 20, y: 0), over: 0.3)
        hand.lift()
        #expect(hand.recognized == ["pinch"])
    }

    @Test func tooLittlePinchExplains() {
        let hand = Hand(.touchpad, [Spec.pinch(2)])
        hand.down(2, spacing: 40)
        hand.wait(0.15)
        hand.pinch(to: 1.05, over: 0.1)
        hand.lift()
        #expect(hand.explanations == ["pinch-2: scaled 1.05x, needs 1.10x"])
    }

    /// Pinch and rotate compete by default: a pinch wins alone.
    @Test func pinchAndRotateCompeteByDefault() {
        let hand = Hand(.touchscreen, [Spec.rotate(2, name: "rotate"), Spec.pinch(2, name: "pinch")])
        hand.down(2, spacing: 40)
        hand.wait(0.15)
        hand.pinch(to: 1.5, over: 0.2)
        hand.rotate(by: 30, over: 0.2)
        hand.lift()
        #expect(hand.recognized == ["pinch"])
        #expect(hand.explanations.contains("rotate: lost to pinch"))
    }

    /// On a semi-MT pad the slots do not say where the fingers are: no pinch.
    @Test func semiMTPadsOnlySwipe() {
        let hand = Hand(.touchpad, [Spec.pinch(3), Spec.swipe(3, name: "swipe")])
        hand.trackedSlots = 2
        hand.down(3)
        hand.wait(0.15)
        hand.pinch(to: 1.8, over: 0.2)
        hand.lift()
        #expect(!hand.recognized.contains("pinch-3"))
    }
}
