import Testing
import TouchModel

/// The panel-to-screen map: where each orientation puts the panel's corners and its
/// "down", and what udev's property text is accepted as.
@Suite struct ContactTransformTests {
    /// The panel's top-left corner and its "down", as the user sees them when the
    /// device is turned so.
    @Test(arguments: [
        (Orientation.normal, Point(x: 0, y: 0), Point(x: 0, y: 1)),
        (.quarter, Point(x: 1, y: 0), Point(x: -1, y: 0)),
        (.half, Point(x: 1, y: 1), Point(x: 0, y: -1)),
        (.threeQuarters, Point(x: 0, y: 1), Point(x: 1, y: 0)),
    ])
    func aTurnMovesTheCornerAndTheDirection(orientation: Orientation, topLeft: Point, down: Point) {
        let t = ContactTransform(orientation)
        #expect(t.apply(Point(x: 0, y: 0)) == topLeft)
        let moved = t.apply(Point(x: 0.5, y: 0.75)) - t.apply(Point(x: 0.5, y: 0.25))
        #expect(moved * 2 == down)
        #expect(t.swapsAxes == (orientation == .quarter || orientation == .threeQuarters))
    }

    @Test func aQuarterTurnSwapsTheScreensSides() {
        let size = Size(width: 294, height: 165)
        #expect(ContactTransform(.quarter).screenSize(of: size) == Size(width: 165, height: 294))
        #expect(ContactTransform(.half).screenSize(of: size) == size)
    }

    /// A calibration then a turn: four quarter turns are none.
    @Test func turnsCompose() {
        let q = ContactTransform(.quarter)
        #expect(q.then(q) == ContactTransform(.half))
        #expect(q.then(q).then(q).then(q) == .identity)
        #expect(ContactTransform(.quarter).then(ContactTransform(.threeQuarters)) == .identity)
    }

    @Test func udevsTextIsSixNumbers() {
        #expect(ContactTransform(calibration: "0 -1 1 1 0 0") == ContactTransform(.quarter))
        #expect(ContactTransform(calibration: "1.1 0 -0.05 0 1.1 -0.05") == ContactTransform(1.1, 0, -0.05, 0, 1.1, -0.05))
        #expect(ContactTransform(calibration: "0 -1 1 1 0 0").map(\.description) == "0 -1 1 1 0 0")
    }

    @Test(arguments: ["", "1 0 0 0 1", "1 0 0 0 1 0 0", "1 0 0 0 one 0", "nan 0 0 0 1 0", "inf 0 0 0 1 0",
                      "0 0 0 0 0 0", "1 1 0 1 1 0", "1,0,0,0,1,0", "\u{1b}[2J"])
    func anythingElseIsRefused(text: String) {
        #expect(ContactTransform(calibration: text) == nil)
    }

    @Test func orientationWords() {
        #expect(Orientation(name: "normal") == .normal)
        #expect(Orientation(name: "90") == .quarter)
        #expect(Orientation(name: "left-up") == .quarter)
        #expect(Orientation(name: "bottom-up") == .half)
        #expect(Orientation(name: "right-up") == .threeQuarters)
        #expect(Orientation(name: "45") == nil)
        #expect(Orientation(name: "Normal") == nil)
        #expect(Orientation.allCases.map(\.description) == ["normal", "90", "180", "270"])
    }
}
