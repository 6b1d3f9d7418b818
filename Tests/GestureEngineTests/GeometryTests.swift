@testable import GestureEngine
import Testing
import TouchModel

@Suite struct GeometryTests {
    /// The constant angles `Direction.nearest` compares against are the unit vectors'.
    @Test(arguments: Direction.allCases)
    func eachDirectionsAngleIsItsUnitVectorsAngle(direction: Direction) {
        let u = direction.unitVector
        #expect(abs(Angle.normalized(direction.angle - Angle.atan2(u.y, u.x))) < 1e-9)
    }

    @Test(arguments: Direction.allCases)
    func aMotionAlongADirectionIsNearestToIt(direction: Direction) {
        let u = direction.unitVector
        // 20° off towards the next direction clockwise still reads as this one.
        let turned = Point(x: u.x * 0.9396926 - u.y * 0.3420201, y: u.x * 0.3420201 + u.y * 0.9396926)
        let r = Direction.nearest(to: turned * 12, among: Direction.allCases)
        #expect(r.direction == direction)
        #expect(abs(r.offDegrees - 20) < 1e-4)
    }
}
