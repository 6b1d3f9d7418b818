import DaemonCore
import GestureActions
import GestureConfig
import GestureEngine
import Testing
import TouchModel

private let touchpad = DeviceInfo(name: "SynPS/2 Synaptics TouchPad", kind: .touchpad, size: Size(width: 100, height: 60))

private func event(_ index: Int, _ kind: GestureKind, _ phase: GesturePhase, name: String = "g",
                   dy: Double = 0, dx: Double = 0, scale: Double = 1, rotationDeg: Double = 0,
                   direction: Direction? = nil) -> GestureEvent {
    GestureEvent(name: name, index: index, kind: kind, phase: phase, time: Timestamp(microseconds: 1),
                 fingers: 3, direction: direction, location: Point(x: 50, y: 30),
                 translation: Point(x: dx, y: dy), velocity: Point(x: 3, y: 4), scale: scale,
                 rotation: rotationDeg * .pi / 180, duration: 0.25)
}

private func config(_ yaml: String) throws -> Config {
    let (c, d) = ConfigLoader.parse(yaml, file: "t.yaml")
    #expect(d.filter(\.isError).isEmpty, "\(d)")
    return try #require(c)
}

@Suite struct ActionMapperTests {
    @Test func discreteGestureRunsItsCommandWithTheGestureInTheEnvironment() throws {
        let c = try config("""
            gestures:
              - name: next
                gesture: swipe
                fingers: 3
                command: swaymsg workspace next
            """)
        var mapper = ActionMapper(config: c)
        var out: [Invocation] = []
        mapper.map(event(0, .swipe, .recognized, name: "next", dy: -2.5, dx: -31.256, direction: .left), device: touchpad, into: &out)
        #expect(out.count == 1)
        let inv = try #require(out.first)
        #expect(inv.command == "swaymsg workspace next")
        #expect(inv.gesture == "next")
        #expect(inv.trigger == "command")
        #expect(inv.environment.map { "\($0.name)=\($0.value)" } == [
            "GESTURE_NAME=next", "GESTURE_KIND=swipe", "GESTURE_PHASE=recognized", "GESTURE_FINGERS=3",
            "GESTURE_DIRECTION=left", "GESTURE_SIDE=", "GESTURE_X_MM=50.00", "GESTURE_Y_MM=30.00",
            "GESTURE_DX_MM=-31.26", "GESTURE_DY_MM=-2.50", "GESTURE_VELOCITY=5.0", "GESTURE_VX=3.0", "GESTURE_VY=4.0",
            "GESTURE_SCALE=1.0000", "GESTURE_SCALE_VELOCITY=0.000", "GESTURE_ROTATION_DEG=0.00",
            "GESTURE_ROTATION_VELOCITY_DEG_S=0.0", "GESTURE_DURATION_S=0.250",
            "GESTURE_SHAPE=", "GESTURE_SCORE=", "GESTURE_DEVICE=SynPS/2 Synaptics TouchPad", "GESTURE_DEVICE_KIND=touchpad",
        ])
    }

    /// A tip-tap's command sees the side it tapped on; other gestures' GESTURE_SIDE is empty.
    @Test func aTipTapsCommandSeesItsSide() throws {
        let c = try config("gestures:\n  - {name: tip, gesture: tip-tap, side: left, command: echo tip}\n")
        var mapper = ActionMapper(config: c)
        var out: [Invocation] = []
        var e = event(0, .tipTap, .recognized, name: "tip")
        e.side = .left
        mapper.map(e, device: touchpad, into: &out)
        let env = try #require(out.first).environment.map { "\($0.name)=\($0.value)" }
        #expect(env.contains("GESTURE_SIDE=left") && env.contains("GESTURE_KIND=tip-tap"), "\(env)")
        #expect(c.specs[0].sides == [.left])
    }

    @Test(arguments: [GesturePhase.began, .changed, .ended, .cancelled])
    func continuousPhasesRunTheirCommands(_ phase: GesturePhase) throws {
        let c = try config("""
            gestures:
              - name: drag
                gesture: pan
                fingers: 3
                begin: echo begin
                update: echo update
                end: echo end
                cancel: echo cancel
            """)
        var mapper = ActionMapper(config: c)
        var out: [Invocation] = []
        mapper.map(event(0, .pan, phase), device: nil, into: &out)
        let word = ["began": "begin", "changed": "update", "ended": "end", "cancelled": "cancel"][phase.rawValue]!
        #expect(out.map(\.command) == ["echo \(word)"])
        #expect(out.map(\.trigger) == [word])
        #expect(out.first?.value(of: "GESTURE_STEP") == nil)
    }

    @Test func commandOnAContinuousGestureRunsWhenItBegins() throws {
        let c = try config("gestures:\n  - {name: overview, gesture: hold, fingers: 4, command: open-overview}\n")
        var mapper = ActionMapper(config: c)
        var out: [Invocation] = []
        for phase in [GesturePhase.began, .changed, .ended] { mapper.map(event(0, .hold, phase), device: nil, into: &out) }
        #expect(out.map(\.command) == ["open-overview"])
    }

    /// A 3-finger vertical pan in 10 mm steps: up 25 mm, back down to 22 mm below the start.
    @Test func steppedPanFiresOncePerStepAndReverses() throws {
        let c = try config("""
            gestures:
              - name: volume
                gesture: pan
                fingers: 3
                axis: vertical
                every: 10mm
                update: wpctl set-volume @DEFAULT_AUDIO_SINK@ "5%$GESTURE_STEP_SIGN"
            """)
        var mapper = ActionMapper(config: c)
        var out: [Invocation] = []
        mapper.map(event(0, .pan, .began), device: touchpad, into: &out)
        var fired: [[String]] = []
        // +y is down: moving up is negative dy.
        for dy in [-5.0, -9.9, -12, -25, -15, -11, -9, 2, -0.5, 22] {
            out.removeAll()
            mapper.map(event(0, .pan, .changed, dy: dy), device: touchpad, into: &out)
            fired.append(out.map { "\($0.value(of: "GESTURE_STEP")!)\($0.value(of: "GESTURE_STEP_SIGN")!)" })
        }
        #expect(fired == [[], [], ["1+"], ["1+"], [], [], ["-1-"], ["-1-"], [], ["-1-", "-1-"]])
        #expect(out.map { $0.value(of: "GESTURE_STEPS") } == ["-1", "-2"])
        #expect(out.allSatisfy { $0.command == #"wpctl set-volume @DEFAULT_AUDIO_SINK@ "5%$GESTURE_STEP_SIGN""# })
    }

    @Test func stepsRestartWithEachGesture() throws {
        let c = try config("gestures:\n  - {name: h, gesture: pan, axis: horizontal, every: 10mm, update: step}\n")
        var mapper = ActionMapper(config: c)
        var out: [Invocation] = []
        mapper.map(event(0, .pan, .began), device: nil, into: &out)
        mapper.map(event(0, .pan, .changed, dx: 15), device: nil, into: &out)
        mapper.map(event(0, .pan, .cancelled, dx: 15), device: nil, into: &out)
        mapper.map(event(0, .pan, .began), device: nil, into: &out)
        mapper.map(event(0, .pan, .changed, dx: 8), device: nil, into: &out)
        #expect(out.count == 1)
    }

    /// Issue 10, finding 1: `every: 1e-17mm` trapped the daemon converting GESTURE_STEPS
    /// to an integer. Now `check` refuses such steps; at the extremes it accepts, no
    /// value an event can carry traps, and each event still runs at most the cap.
    @Test(arguments: ["every: 0.01mm", "every: 10000mm", "every: 0.01deg", "every: 360deg", "every: 1.001x", "every: 100x"])
    func theExtremeStepsCheckAcceptsNeverTrapOnAnyValue(_ every: String) throws {
        let kind = every.hasSuffix("mm") ? "pan, axis: horizontal" : every.hasSuffix("deg") ? "rotate" : "pinch"
        let c = try config("gestures:\n  - {name: s, gesture: \(kind), \(every), update: step}\n")
        let gestureKind: GestureKind = every.hasSuffix("mm") ? .pan : every.hasSuffix("deg") ? .rotate : .pinch
        let extremes: [Double] = [0, 1e-300, -1e-300, 1, -1, 1e15, -1e15, 1e300, -1e300,
                                  .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .leastNonzeroMagnitude, 0]
        var mapper = ActionMapper(config: c)
        var out: [Invocation] = []
        mapper.map(event(0, gestureKind, .began), device: nil, into: &out)
        for x in extremes {
            out.removeAll()
            mapper.map(event(0, gestureKind, .changed, dx: x, scale: Swift.max(abs(x), .leastNonzeroMagnitude), rotationDeg: x),
                       device: nil, into: &out)
            #expect(out.count <= ActionMapper.maxStepsPerEvent)
            #expect(out.allSatisfy { Int($0.value(of: "GESTURE_STEPS") ?? "") != nil }, "\(every) at \(x)")
        }
    }

    @Test func absurdJumpsAreBoundedAndNonFiniteValuesIgnored() throws {
        let c = try config("gestures:\n  - {name: h, gesture: pan, axis: horizontal, every: 1mm, update: step}\n")
        var mapper = ActionMapper(config: c)
        var out: [Invocation] = []
        mapper.map(event(0, .pan, .began), device: nil, into: &out)
        mapper.map(event(0, .pan, .changed, dx: 1e9), device: nil, into: &out)
        #expect(out.count == ActionMapper.maxStepsPerEvent)
        out.removeAll()
        mapper.map(event(0, .pan, .changed, dx: .infinity), device: nil, into: &out)
        mapper.map(event(0, .pan, .changed, dx: .nan), device: nil, into: &out)
        #expect(out.isEmpty)
        mapper.map(event(0, .pan, .changed, dx: 1e9 + 1), device: nil, into: &out)
        #expect(out.compactMap { $0.value(of: "GESTURE_STEP") } == ["1"])
    }

    @Test func pinchStepsAreRatios() throws {
        let c = try config("gestures:\n  - {name: zoom, gesture: pinch, every: 1.25x, update: zoom}\n")
        var mapper = ActionMapper(config: c)
        var out: [Invocation] = []
        mapper.map(event(0, .pinch, .began), device: nil, into: &out)
        var steps: [[String]] = []
        for scale in [1.2, 1.26, 1.6, 1.2, 0.7] {
            out.removeAll()
            mapper.map(event(0, .pinch, .changed, scale: scale), device: nil, into: &out)
            steps.append(out.compactMap { $0.value(of: "GESTURE_STEP") })
        }
        // 1.25 and 1.5625 are the first two steps out; 1.25, 1, 0.8 the three back.
        #expect(steps == [[], ["1"], ["1"], ["-1"], ["-1", "-1"]])
    }

    @Test func rotationStepsAreDegreesClockwisePositive() throws {
        let c = try config("gestures:\n  - {name: turn, gesture: rotate, every: 15deg, update: turn}\n")
        var mapper = ActionMapper(config: c)
        var out: [Invocation] = []
        mapper.map(event(0, .rotate, .began), device: nil, into: &out)
        mapper.map(event(0, .rotate, .changed, rotationDeg: 46), device: nil, into: &out)
        mapper.map(event(0, .rotate, .changed, rotationDeg: -16), device: nil, into: &out)
        #expect(out.compactMap { $0.value(of: "GESTURE_STEP") } == ["1", "1", "1", "-1", "-1", "-1", "-1"])
    }

    @Test func eventsForUnknownIndicesOrUnboundPhasesRunNothing() throws {
        let c = try config("gestures:\n  - {name: t, gesture: tap, command: x}\n")
        var mapper = ActionMapper(config: c)
        var out: [Invocation] = []
        mapper.map(event(7, .tap, .recognized), device: nil, into: &out)
        mapper.map(event(-1, .tap, .recognized), device: nil, into: &out)
        mapper.map(event(0, .tap, .began), device: nil, into: &out)
        #expect(out.isEmpty)
    }

    @Test func dryRunPrintsCommandAndEnvironment() {
        var printed: [String] = []
        let sink = DryRunSink { printed.append($0) }
        sink.submit(Invocation(gesture: "next", trigger: "command", command: "swaymsg workspace next",
                               environment: [(name: "GESTURE_NAME", value: "next"), (name: "GESTURE_FINGERS", value: "3")]))
        #expect(printed == ["[next] command: swaymsg workspace next\n    GESTURE_NAME=next\n    GESTURE_FINGERS=3"])
    }
}

/// A pinch or rotation bound with `command:` alone runs once, when it is recognized
/// at the lift (issue 24: on its net change), and its command sees which way it went;
/// the events of a pinch that began and ran (another binding's) run nothing of it.
@Suite struct PinchDirectionMapperTests {
    @Test(arguments: [Sense.in, .out, .clockwise, .counterclockwise])
    func gestureDirectionSaysWhichWay(sense: Sense) throws {
        let kind: GestureKind = sense == .in || sense == .out ? .pinch : .rotate
        let c = try config("""
            gestures:
              - {name: g, gesture: \(kind.rawValue), direction: \(sense.rawValue), command: zoom}
            """)
        var mapper = ActionMapper(config: c)
        var out: [Invocation] = []
        for phase in [GesturePhase.began, .changed, .changed, .ended, .recognized] {
            var e = event(0, kind, phase)
            e.sense = sense
            mapper.map(e, device: touchpad, into: &out)
        }
        #expect(out.count == 1)
        #expect(out.first?.environment.first { $0.name == "GESTURE_DIRECTION" }?.value == sense.rawValue)
    }
}
