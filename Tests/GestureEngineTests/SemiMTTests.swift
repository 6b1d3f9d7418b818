import GestureEngine
import Testing
import TouchModel

/// Semi-MT pads (`INPUT_PROP_SEMI_MT`): with two fingers down the two contacts are the
/// corners of the fingers' bounding box. Frames shaped like the Alps GlidePoint
/// recording's two-finger tap: the corners jump 4.6 mm while the fingers' box centre
/// moves 1.2 mm.
@Suite struct SemiMTTests {
    static func frames() -> [TouchFrame] {
        var t = Timestamp(microseconds: 5_000_000)
        var out: [TouchFrame] = []
        func frame(_ points: [(Int32, Double, Double)], fingers: Int? = nil) {
            out.append(TouchFrame(time: t, contacts: ContactList(points.map { Contact(id: $0.0, position: Point(x: $0.1, y: $0.2)) }),
                                  fingerCount: fingers))
            t = t.adding(seconds: 0.02)
        }
        frame([(0, 26.5, 30.6)])
        frame([(0, 26.2, 28.6)])
        frame([(0, 25.3, 25.0), (1, 46.0, 36.4)])
        frame([(0, 25.3, 25.0), (1, 46.0, 36.4)])
        frame([(0, 25.3, 20.4), (1, 46.0, 38.6)])
        frame([(0, 25.3, 20.4), (1, 46.0, 38.6)])
        frame([(0, 25.3, 25.0), (1, 46.0, 36.4)])
        frame([(0, 25.3, 25.0), (1, 46.0, 36.4)])
        frame([(0, 23.0, 18.2)])  // one finger lifted: the other is where it is
        frame([])
        return out
    }

    static func run(semiMT: Bool) -> (events: [GestureEvent], explanations: [String]) {
        let device = DeviceInfo(name: "AlpsPS/2 ALPS GlidePoint", kind: .touchpad, size: Size(width: 69, height: 50),
                                maxFingers: 3, isSemiMT: semiMT)
        let engine = GestureEngine(device: device, specs: [GestureSpec(name: "tap-2", kind: .tap, fingers: 2...2)])
        var events: [GestureEvent] = []
        for f in frames() { engine.process(f, into: &events) }
        engine.timerFired(at: Timestamp(microseconds: .max), into: &events)
        return (events, engine.explanations)
    }

    @Test func aTwoFingerTapIsMeasuredByTheBoundingBoxNotItsCorners() {
        let r = Self.run(semiMT: true)
        #expect(r.events.map(\.phase) == [.recognized], "\(r.explanations)")
        #expect(r.events.first?.fingers == 2)
    }

    @Test func theSameContactsOnAFullMultitouchPadAreFingersThatMoved() {
        let r = Self.run(semiMT: false)
        #expect(r.events.isEmpty)
        #expect(r.explanations.contains { $0.hasPrefix("tap-2: moved") }, "\(r.explanations)")
    }
}
