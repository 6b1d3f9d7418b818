@testable import GestureEngine
import Glibc
import Testing
import TouchModel

/// The tremor filter's 1€ filter (Casiez, Roussel, Vogel, CHI 2012) with the
/// profile's default parameters, on the two things a shaking hand needs from it: a
/// finger held still with a 5 Hz, 1 mm tremor stays still, and a fast stroke keeps
/// its speed. The figures are quoted in docs/ACCESSIBILITY.md ("The tremor filter").
@Suite struct OneEuroFilterTests {
    /// Frames every 8 ms (a 125 Hz touchpad).
    static let frameMicroseconds: Int64 = 8_000

    /// The largest distance from the finger's true place over the last second of `seconds`
    /// of a still finger shaking `amplitude` mm at `hz`, filtered, mm.
    static func residualTremor(_ settings: TremorFilterSettings = TremorFilterSettings(),
                               hz: Double = 5, amplitude: Double = 1, seconds: Double = 3) -> Double {
        var f = OneEuroFilter(settings)
        let rest = Point(x: 50, y: 30)
        f.reset(to: rest, at: Timestamp(microseconds: 0))
        var worst = 0.0
        var t: Int64 = 0
        while Double(t) < seconds * 1_000_000 {
            t += frameMicroseconds
            let s = Double(t) / 1_000_000
            let shake = amplitude * sin(2 * Double.pi * hz * s + 0.7)
            let out = f.filter(rest + Point(x: shake * 0.8, y: shake * 0.6), at: Timestamp(microseconds: t))
            if s > seconds - 1 { worst = max(worst, (out - rest).length) }
        }
        return worst
    }

    /// How far behind a stroke at `speed` mm/s from a still finger the filtered point
    /// is when the stroke has gone `distance` mm, in ms of the stroke (its distance
    /// behind over the speed).
    static func strokeLag(_ settings: TremorFilterSettings = TremorFilterSettings(),
                          speed: Double = 200, distance: Double = 20) -> Double {
        var f = OneEuroFilter(settings)
        let start = Point(x: 20, y: 20)
        f.reset(to: start, at: Timestamp(microseconds: 0))
        var t: Int64 = 0, out = start, travelled = 0.0
        while travelled < distance {
            t += frameMicroseconds
            travelled = min(distance, speed * Double(t) / 1_000_000)
            out = f.filter(start + Point(x: travelled * 0.6, y: travelled * 0.8), at: Timestamp(microseconds: t))
        }
        let behind = distance - (out - start).length
        return behind / speed * 1000
    }

    @Test func aStillFingerWithA5HzTremorIsSmoothedToAFraction() {
        let residual = Self.residualTremor()
        #expect(residual < Self.maxResidualMM, "residual tremor \(residual) mm")
        // The filter is what damps it: without it, all of the millimetre is left.
        #expect(Self.residualTremor(TremorFilterSettings(minCutoff: 1000, beta: 0, derivativeCutoff: 1)) > 0.9)
    }

    @Test func aFastStrokeKeepsItsSpeed() {
        let lag = Self.strokeLag()
        #expect(lag < Self.maxLagMS, "lag \(lag) ms")
    }

    /// A stroke's direction is kept: both axes share the cutoff (the point's speed).
    @Test func aDiagonalStrokeKeepsItsDirection() {
        var f = OneEuroFilter(TremorFilterSettings())
        f.reset(to: .zero, at: Timestamp(microseconds: 0))
        var out = Point.zero
        for i in 1...15 {
            let d = 200 * Double(i) * 0.008
            out = f.filter(Point(x: d * 0.6, y: d * 0.8), at: Timestamp(microseconds: Int64(i) * Self.frameMicroseconds))
        }
        #expect(abs(out.y / out.x - 0.8 / 0.6) < 1e-9)
    }

    /// A finger that lands starts its filter over at its landing point: no pull from
    /// where the last finger lifted, even with the same tracking id.
    @Test func aLandingFingerStartsOver() {
        let smoother = ContactSmoother(TremorFilterSettings())
        func frame(_ t: Int64, _ contacts: [(Int32, Point)]) -> TouchFrame {
            TouchFrame(time: Timestamp(microseconds: t), contacts: ContactList(contacts.map { Contact(id: $0.0, position: $0.1) }))
        }
        var a = frame(0, [(7, Point(x: 10, y: 10))])
        smoother.smooth(&a)
        var b = frame(8_000, [(7, Point(x: 12, y: 10))])
        smoother.smooth(&b)
        #expect(b.contacts[0].position.x > 10 && b.contacts[0].position.x < 12, "smoothed while down")
        var lifted = frame(16_000, [])
        smoother.smooth(&lifted)
        // Lands again far away (same id: synthesized ids repeat) with another beside it.
        var c = frame(24_000, [(7, Point(x: 80, y: 40)), (8, Point(x: 90, y: 40))])
        smoother.smooth(&c)
        #expect(c.contacts[0].position == Point(x: 80, y: 40))
        #expect(c.contacts[1].position == Point(x: 90, y: 40))
        // A finger that lands while another stays: the one down keeps its filter.
        var d = frame(32_000, [(7, Point(x: 82, y: 40)), (8, Point(x: 92, y: 40)), (9, Point(x: 30, y: 5))])
        smoother.smooth(&d)
        #expect(d.contacts[0].position.x < 82 && d.contacts[1].position.x < 92)
        #expect(d.contacts[2].position == Point(x: 30, y: 5))
    }

    /// Measured with the defaults (1 Hz, 0.02 per mm/s, 1 Hz): 0.24 mm and 19.7 ms.
    static let maxResidualMM = 0.3
    static let maxLagMS = 25.0
}
