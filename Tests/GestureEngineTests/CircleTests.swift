import GestureEngine
import TouchModel
import Testing

@Suite struct CircleTests {
    /// 1–5 fingers draw a circle either way round, on a touchpad and a touchscreen: it
    /// begins after three quarters of a turn with the way it went, reports the arc as
    /// its rotation, and ends at the lift with a full turn.
    @Test(arguments: TestDevice.allCases, [(1, 360.0), (1, -360.0), (2, 360.0), (3, -360.0), (4, 360.0), (5, -360.0)])
    func aDrawnCircleEitherWayRound(device: TestDevice, fingersAndDegrees: (Int, Double)) throws {
        let (fingers, degrees) = fingersAndDegrees
        let hand = Hand(device, [Spec.circle(fingers, name: "circle")])
        hand.down(fingers, spacing: 12, apart: 0.005)
        hand.wait(0.15)
        hand.circle(radius: 12, degrees: degrees, over: 0.8)
        hand.lift()
        #expect(hand.recognized == ["circle"])
        let began = try #require(hand.events.first)
        #expect(began.sense == (degrees > 0 ? .clockwise : .counterclockwise))
        #expect(abs(began.rotation) >= .pi * 1.5 && abs(began.rotation) < .pi * 1.7)
        let end = try #require(hand.last("circle"))
        #expect(end.phase == .ended)
        // The arc is counted segment to segment (2 mm each, 9.5° of a 12 mm circle): the
        // first segment only sets the heading, and the last, unfinished one is not in.
        #expect(abs(end.rotation * 180 / .pi - degrees) < 30, "\(end.rotation * 180 / .pi)°")
        #expect(hand.engine.refusedTransitions == 0)
    }

    /// Real circles come small and large, slow and quick, and rarely round: 1–3 fingers
    /// going 1¼ turns round circles of 6–30 mm radius in 0.5–2 s, and ovals of 1.5:1
    /// either way up, are all circles, the way they went.
    @Test(arguments: [1, 2, 3], [(6.0, 0.5), (12, 2.0), (30, 0.5), (30, 2.0)])
    func circlesOfEverySizeAndSpeed(fingers: Int, radiusAndSeconds: (Double, Double)) {
        let (radius, seconds) = radiusAndSeconds
        for degrees in [450.0, -450] {
            let hand = Hand(.touchscreen, [Spec.circle(fingers, name: "circle")])
            hand.down(fingers, spacing: 12, apart: 0.005)
            hand.wait(0.15)
            hand.circle(radius: radius, degrees: degrees, over: seconds)
            hand.lift()
            #expect(hand.recognized == ["circle"], "\(degrees)°: \(hand.explanations)")
            #expect(hand.last("circle")?.sense == (degrees > 0 ? .clockwise : .counterclockwise))
        }
    }

    @Test(arguments: [(30.0, 20.0), (20, 30)], [450.0, -450])
    func ovalsAreCircles(radii: (Double, Double), degrees: Double) {
        let hand = Hand(.touchpad, [Spec.circle(1, name: "circle")])
        hand.down(1)
        hand.wait(0.15)
        hand.trace(oval(radii.0, radii.1, degrees: degrees, points: 150), over: 1.5)
        hand.lift()
        #expect(hand.recognized == ["circle"], "\(hand.explanations)")
        #expect(hand.last("circle")?.sense == (degrees > 0 ? .clockwise : .counterclockwise))
    }

    /// `direction:` filters: a counterclockwise circle does not fire a clockwise binding.
    @Test func theOtherWayRoundFailsWithItsDirection() {
        let hand = Hand(.touchpad, [Spec.circle(1, [.clockwise], name: "cw")])
        hand.down(1)
        hand.wait(0.15)
        hand.circle(radius: 10, degrees: -360, over: 0.8)
        hand.lift()
        #expect(hand.recognized.isEmpty)
        #expect(hand.explanations == ["cw: turned counterclockwise, which it does not accept"])
    }

    /// A straight stroke, however long, turns no arc; an L turns 90°: neither is a circle.
    @Test(arguments: [[Point(x: 60, y: 0)], [Point(x: 30, y: 0), Point(x: 0, y: 30)]])
    func straightStrokesAndCornersAreNoCircle(legs: [Point]) {
        let hand = Hand(.touchscreen, [Spec.circle(1, name: "circle")])
        hand.down(1)
        hand.wait(0.15)
        for leg in legs { hand.move(by: leg, over: 0.3) }
        hand.lift()
        #expect(hand.recognized.isEmpty)
        #expect(hand.explanations.first?.hasPrefix("circle: went ") == true, "\(hand.explanations)")
        #expect(hand.explanations.first?.hasSuffix("° round, needs 270.0°") == true)
    }

    /// A scrub's back-and-forth doubles back on itself: not round.
    @Test func aScrubIsNoCircle() {
        let hand = Hand(.touchpad, [Spec.circle(1, name: "circle"), Spec.scrub()])
        hand.down(1)
        hand.wait(0.15)
        for dx in [15.0, -15, 15, -15] { hand.move(by: Point(x: dx, y: 0), over: 0.1) }
        hand.lift()
        #expect(hand.recognized == ["scrub"])
        #expect(hand.explanations.first?.hasPrefix("circle: the path turned back by ") == true, "\(hand.explanations)")
    }

    /// Fingers turning about their own centre are a rotation, the whole hand going
    /// round is a circle: each fails the other's way.
    @Test func aRotationIsNoCircleAndACircleIsNoRotation() {
        let rotating = Hand(.touchpad, [Spec.circle(2, name: "circle"), Spec.rotate(2, name: "rotate")])
        rotating.down(2, spacing: 30)
        rotating.wait(0.15)
        rotating.rotate(by: 90, over: 0.5)
        rotating.lift()
        #expect(rotating.recognized == ["rotate"])
        #expect(rotating.explanations.contains("circle: fingers moved apart or around (a pinch or rotation), not together"))

        let circling = Hand(.touchpad, [Spec.circle(2, name: "circle"), Spec.rotate(2, name: "rotate")])
        circling.down(2, spacing: 15)
        circling.wait(0.15)
        circling.circle(radius: 12, degrees: 300, over: 0.8)
        circling.lift()
        #expect(circling.recognized == ["circle"])
        #expect(circling.explanations.contains("rotate: lost to circle"), "\(circling.explanations)")
    }

    /// The threshold is the spec's own (`min-arc`): a quarter turn suffices at 90°.
    @Test func itsArcIsConfigurable() {
        var spec = Spec.circle(1, name: "circle")
        spec.thresholds.minArcDeg = 90
        let hand = Hand(.touchscreen, [spec])
        hand.down(1)
        hand.wait(0.15)
        hand.circle(radius: 12, degrees: 120, over: 0.4)
        hand.lift()
        #expect(hand.recognized == ["circle"])
    }

    /// Issue 37: fingers turning about one of them (a thumb held still, the other finger
    /// going round it) carry their centroid round as far as they turn: a rotation, not
    /// the hand going round. With only circles bound for 1–3 fingers, and the hand first
    /// shifting 2 mm as it settles (so that the fingers count as moving together, as the
    /// 3M touchscreen's real rotation did), neither the clockwise pivot nor its mirror
    /// fires one, even with a short `min-arc` the pivot passes.
    @Test(arguments: [(0, 150.0), (1, -150.0)], [120.0, nil])
    func aPivotRotationIsNoCircle(pivotAndDegrees: (Int, Double), minArc: Double?) throws {
        let (pivot, degrees) = pivotAndDegrees
        let hand = Hand(.touchscreen, (1...3).map { n in
            var spec = Spec.circle(n)
            spec.thresholds.minArcDeg = minArc
            return spec
        })
        hand.down(2, spacing: 40)
        hand.wait(0.15)
        hand.move(by: Point(x: 0, y: 2), over: 0.05)
        hand.pivot(1 - pivot, about: pivot, by: minArc == nil ? degrees * 1.3 : degrees, over: 0.8)
        hand.lift()
        #expect(hand.recognized.isEmpty, "\(hand.log)")
        let why = try #require(hand.explanations.first { $0.hasPrefix("circle-2: ") })
        #expect(why.hasPrefix("circle-2: the fingers turned ") && why.hasSuffix(": a rotation, not the hand going round"), "\(why)")
    }

    /// The same pivot with a rotation bound beside the circle, as `replay --detect`
    /// binds them: the rotation fires, the circle does not, either way round, and with
    /// the 2 mm shift first (`drift`) as well. (It passes without issue 37's rules too:
    /// the rotation is recognized before the circle has gone round far enough;
    /// `aPivotRotationIsNoCircle` and `EvidenceArbitrationTests` are the ones that fail.)
    @Test(arguments: [(0, 150.0), (1, -150.0)], [false, true])
    func aPivotRotationFiresRotate(pivotAndDegrees: (Int, Double), drift: Bool) {
        let (pivot, degrees) = pivotAndDegrees
        var circle = Spec.circle(2, name: "circle")
        circle.thresholds.minArcDeg = 120
        let hand = Hand(.touchscreen, [circle, Spec.rotate(2, name: "rotate")])
        hand.down(2, spacing: 40)
        hand.wait(0.15)
        if drift { hand.move(by: Point(x: 0, y: 2), over: 0.05) }
        hand.pivot(1 - pivot, about: pivot, by: degrees, over: 0.8)
        hand.lift()
        #expect(hand.recognized == ["rotate"], "\(hand.explanations)")
        #expect(hand.last("rotate")?.sense == (degrees > 0 ? .clockwise : .counterclockwise))
    }

    /// Issue 37: a U (down 35 mm, round a bend of 17.5 mm radius, up 35 mm: 180° of arc
    /// over 125 mm, as the tablet's 187° over 118 mm) turns back once: no circle, either
    /// way round, on either device.
    @Test(arguments: TestDevice.allCases, [1.0, -1.0])
    func aUTurnIsNoCircle(device: TestDevice, side: Double) throws {
        let hand = Hand(device, [Spec.circle(1, name: "circle")])
        hand.down(1, at: Point(x: hand.centre.x - 17.5 * side, y: 15))
        hand.wait(0.15)
        let leg = 35.0, r = 17.5
        var path = (1...35).map { Point(x: 0, y: leg * Double($0) / 35) }
        path += (1...55).map { k in
            let a = Double.pi * Double(k) / 55
            return Point(x: side * r * (1 - cosApprox(a)), y: leg + r * sinApprox(a))
        }
        path += (1...35).map { Point(x: side * 2 * r, y: leg - leg * Double($0) / 35) }
        hand.trace(path, over: 1.2)
        hand.lift()
        #expect(hand.recognized.isEmpty)
        let why = try #require(hand.explanations.first)
        #expect(why.hasPrefix("circle: went 1") && why.hasSuffix("° round, needs 270.0°"), "\(why)")
    }

    /// A stroke that runs 25 mm straight into a curl of 10 mm radius goes round no one
    /// place: the centre read from its points half a turn apart moves as the curl
    /// leaves the leg behind. The curl alone, drawn from where it starts, is a circle.
    @Test(arguments: [1.0, -1.0])
    func aStrokeIntoACurlIsNoCircle(side: Double) throws {
        let r = 10.0
        let curl = (1...100).map { k in
            let a = 1.9 * Double.pi * Double(k) / 100
            return Point(x: side * r * (1 - cosApprox(a)), y: r * sinApprox(a))
        }
        let hooked = Hand(.touchscreen, [Spec.circle(1, name: "circle")])
        hooked.down(1, at: Point(x: hooked.centre.x, y: 40))
        hooked.wait(0.15)
        hooked.trace((1...25).map { Point(x: 0, y: Double($0)) } + curl.map { $0 + Point(x: 0, y: 25) }, over: 1.2)
        hooked.lift()
        #expect(hooked.recognized.isEmpty)
        let why = try #require(hooked.explanations.first)
        #expect(why.hasPrefix("circle: the path's centre moved ") && why.hasSuffix(" mm: not round"), "\(why)")

        let curled = Hand(.touchscreen, [Spec.circle(1, name: "circle")])
        curled.down(1)
        curled.wait(0.15)
        curled.trace(curl, over: 1.0)
        curled.lift()
        #expect(curled.recognized == ["circle"], "\(curled.explanations)")
    }
}

/// An oval of radii `rx` and `ry` mm, `degrees` of it (clockwise on screen for
/// positive), as offsets from its top (its bottom for counterclockwise): it first heads right.
private func oval(_ rx: Double, _ ry: Double, degrees: Double, points: Int) -> [Point] {
    let start = degrees > 0 ? -Double.pi / 2 : Double.pi / 2
    return (1...points).map { k in
        let a = start + degrees * .pi / 180 * Double(k) / Double(points)
        return Point(x: rx * cosApprox(a), y: ry * (sinApprox(a) - sinApprox(start)))
    }
}

extension Hand {
    /// Every finger follows `path` (offsets from where each is now, mm), one point a
    /// frame, evenly over `duration`.
    func trace(_ path: [Point], over duration: Double) {
        var at = Point.zero
        for p in path {
            move(by: p - at, over: duration / Double(path.count))
            at = p
        }
    }

    /// Finger `moving` goes round finger `pivot`, which stays, `degrees` (clockwise on
    /// screen for positive) over `duration`, a step a frame.
    func pivot(_ moving: Int, about pivot: Int, by degrees: Double, over duration: Double) {
        let centre = fingers[pivot].position, arm = fingers[moving].position - centre
        let steps = max(1, Int((duration * rate).rounded()))
        for s in 1...steps {
            let a = degrees * .pi / 180 * Double(s) / Double(steps)
            let (sn, cs) = (sinApprox(a), cosApprox(a))
            let target = centre + Point(x: arm.x * cs - arm.y * sn, y: arm.x * sn + arm.y * cs)
            moveFinger(moving, by: target - fingers[moving].position, over: 1 / rate)
        }
    }
}
