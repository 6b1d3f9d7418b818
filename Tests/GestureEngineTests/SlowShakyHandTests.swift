import GestureEngine
import GestureInput
import GestureTestSupport
import Testing
import TouchModel

/// Issue 36's first must-show: the bundled real recordings slowed 2.5× with a 5 Hz,
/// 1 mm hand tremor (`SlowShakyHand`), each gesture in them bound alone. With
/// `timing-scale: 2.5` and `tremor-filter: true` each is recognized as at normal speed
/// with the profile off: the same gestures, in the same directions, as many times
/// (a shaky circle once, not twice). docs/ACCESSIBILITY.md, "What was measured",
/// quotes how many the profile-off engine loses on the same frames.
@Suite struct SlowShakyHandTests {
    /// One recording and the one gesture bound for it.
    struct Case: CustomTestStringConvertible, Sendable {
        var recording: String
        var description: String?
        var spec: GestureSpec
        /// What fires at normal speed with the profile off, as `fired` writes it.
        var expected: [String]
        var testDescription: String { "\(spec.name) in \(recording)" }
    }

    static func bind(_ name: String, _ kind: GestureKind, _ fingers: Int, taps: Int = 1,
                     _ directions: Set<Direction> = [], senses: Set<Sense> = []) -> GestureSpec {
        GestureSpec(name: name, kind: kind, fingers: fingers...fingers, directions: directions, senses: senses, taps: taps)
    }

    static let synaptics = "recordings_touchpads_SynPS2-Synaptics-TouchPad"
    static let atmel = "touchscreens_Atmel_maXTouch_Touchscreen"

    static let cases: [Case] = [
        Case(recording: "touchpads_AlpsPS2_ALPS_GlidePoint.double-tap.events", spec: bind("double-tap", .tap, 1, taps: 2),
             expected: ["double-tap recognized"]),
        Case(recording: "\(atmel).1-finger-fast-taps.events", spec: bind("tap", .tap, 1),
             expected: Array(repeating: "tap recognized", count: 9)),
        Case(recording: "touchpads_AlpsPS2_ALPS_GlidePoint.2-finger-tap.events", spec: bind("tap-2", .tap, 2),
             expected: ["tap-2 recognized"]),
        Case(recording: "tablets_Wacom_Bamboo_16FG_4x5_Finger_double-tap.events", description: "tablets_Wacom_Bamboo_16FG_4x5_Finger.desc",
             spec: bind("tap-2", .tap, 2), expected: ["tap-2 recognized"]),
        Case(recording: "tablets_Wacom_ISDv4_E6_Finger.2fg-tap.events", description: "tablets_Wacom_ISDv4_E6_Finger.desc",
             spec: bind("tap-2", .tap, 2), expected: ["tap-2 recognized"]),
        Case(recording: "python_evemu_tests_data_ntrig-xt2_ntrig-xt2-2-tap.event", description: "python_evemu_tests_data_ntrig-xt2_ntrig-xt2.device",
             spec: bind("tap-2", .tap, 2), expected: ["tap-2 recognized"]),
        Case(recording: "touchpads_CyPS2_Cypress_Trackpad.three_finger_tap.events", spec: bind("tap-3", .tap, 3),
             expected: ["tap-3 recognized"]),
        Case(recording: "data_bcm5974.event", spec: bind("tap-4", .tap, 4), expected: ["tap-4 recognized", "tap-4 recognized"]),
        Case(recording: "\(atmel).4-finger-drag-down.events", spec: bind("swipe-4-down", .swipe, 4, [.down]),
             expected: ["swipe-4-down recognized down"]),
        Case(recording: "\(synaptics)-Clickpad.two-finger-scroll-down.events", description: "\(synaptics)-Clickpad.desc",
             spec: bind("scroll", .pan, 2), expected: ["scroll began down", "scroll ended"]),
        Case(recording: "\(synaptics)-Clickpad.two-finger-scroll-up.events", description: "\(synaptics)-Clickpad.desc",
             spec: bind("scroll", .pan, 2), expected: ["scroll began up", "scroll ended"]),
        Case(recording: "\(synaptics)-two-finger-scroll-down.events", description: "\(synaptics).desc",
             spec: bind("scroll", .pan, 2), expected: ["scroll began left", "scroll ended"]),
        Case(recording: "tablets_Wacom_Bamboo_16FG_4x5_Finger_double-center-scroll.events", description: "tablets_Wacom_Bamboo_16FG_4x5_Finger.desc",
             spec: bind("swipe-2-down", .swipe, 2, [.down]), expected: ["swipe-2-down recognized down"]),
        Case(recording: "tablets_Wacom_ISDv4_E6_Finger.double-center-scroll.events", description: "tablets_Wacom_ISDv4_E6_Finger.desc",
             spec: bind("swipe-2-down", .swipe, 2, [.down]), expected: ["swipe-2-down recognized down"]),
        Case(recording: "\(atmel).1-finger-drag-up-down.events", spec: bind("swipe-up", .swipe, 1, [.up]),
             expected: ["swipe-up recognized up"]),
        Case(recording: "\(atmel).1-finger-drag-up-down.events", spec: bind("drag", .pan, 1),
             expected: ["drag began up", "drag ended"]),
        Case(recording: "\(atmel).2-fingers-touch-release.events", spec: bind("hold-2", .hold, 2),
             expected: ["hold-2 began", "hold-2 ended"]),
        Case(recording: "data_bcm5974.event", spec: bind("circle-1", .circle, 1),
             expected: ["circle-1 began counterclockwise", "circle-1 ended"]),
        Case(recording: "data_bcm5974.event", spec: bind("circle-2", .circle, 2),
             expected: ["circle-2 began counterclockwise", "circle-2 ended"]),
        Case(recording: "data_bcm5974.event", spec: bind("circle-3", .circle, 3),
             expected: ["circle-3 began clockwise", "circle-3 ended"]),
    ]

    /// The profile issue 36 asks for.
    static var profile: AccessibilityProfile {
        var p = AccessibilityProfile()
        p.timingScale = 2.5
        p.tremorFilter = TremorFilterSettings()
        return p
    }

    /// What fires, one line per recognized/began/ended/cancelled event, with the
    /// direction it was recognized or began in: "circle-1 began counterclockwise" (changes
    /// are left out: how many depends on the frame rate; an end's net direction too: a
    /// drag up and back down ends wherever the hand stopped).
    static func fired(_ frames: [TouchFrame], _ device: DeviceInfo, _ spec: GestureSpec,
                      profile: AccessibilityProfile = AccessibilityProfile()) -> [String] {
        let engine = GestureEngine(device: device, specs: [spec], explains: false, profile: profile)
        var events: [GestureEvent] = [], out: [String] = []
        func take() {
            for e in events where e.phase != .changed {
                let way = e.phase == .ended || e.phase == .cancelled ? nil : e.direction?.rawValue ?? e.sense?.rawValue
                out.append("\(e.name) \(e.phase.rawValue)" + (way.map { " " + $0 } ?? ""))
            }
            events.removeAll(keepingCapacity: true)
        }
        for f in frames {
            engine.process(f, into: &events)
            take()
        }
        engine.timerFired(at: Timestamp(microseconds: .max), into: &events)
        take()
        return out
    }

    static func load(_ c: Case) throws -> (frames: [TouchFrame], slowed: [TouchFrame], device: DeviceInfo) {
        let r = try Recordings.load(c.recording, description: c.description)
        let decoder = try TouchDecoder(description: r.device)
        return (try Recordings.framesOf(r), try SlowShakyHand().frames(of: r), decoder.capabilities.deviceInfo(name: r.device.name))
    }

    @Test(arguments: cases)
    func slowShakyGesturesAreRecognizedWithTheProfileAsAtNormalSpeed(_ c: Case) throws {
        let (frames, slowed, device) = try Self.load(c)
        #expect(Self.fired(frames, device, c.spec) == c.expected, "normal speed, profile off")
        #expect(Self.fired(slowed, device, c.spec, profile: Self.profile) == c.expected, "slowed 2.5×, tremor, profile on")
    }

    /// The Atmel's two-finger press drifts 4.2 mm of the 5 mm a hold allows on its own;
    /// where each finger lands the tremor has displaced it by up to its 1 mm amplitude,
    /// which the filter, starting from that point, cannot know. With the filter on, the
    /// movement limits a gesture does not set itself allow for it
    /// (`tremorLandingAllowanceMM`); without that room the press fails on its movement
    /// by less than the tremor's amplitude. A limit the gesture sets is its own.
    @Test func aShakyPressHasRoomForTheTremorWhereItLands() throws {
        let c = Self.cases.first { $0.spec.name == "hold-2" }!
        let (_, slowed, device) = try Self.load(c)
        #expect(Self.fired(slowed, device, c.spec, profile: Self.profile) == c.expected)
        var tight = c.spec
        tight.thresholds.maxMovementMM = 5
        let engine = GestureEngine(device: device, specs: [tight], profile: Self.profile)
        var events: [GestureEvent] = []
        for f in slowed { engine.process(f, into: &events) }
        engine.timerFired(at: Timestamp(microseconds: .max), into: &events)
        #expect(events.isEmpty)
        guard case let .movedTooFar(mm, limit)? = engine.failures.first?.reason else {
            Issue.record("\(engine.explanations)")
            return
        }
        #expect(limit == 5 && mm > limit && mm < limit + 1, "\(engine.explanations)")
    }

    /// The tremor's phase where the fingers land decides most of what is lost: five
    /// phases, every case, the profile on and off. docs/ACCESSIBILITY.md quotes these
    /// counts; the test keeps them honest.
    @Test func acrossTremorPhasesTheProfileKeepsWhatTheSlowShakyHandLoses() throws {
        var lostOff = 0, lostOn = 0, runs = 0
        for phase in [0.0, 0.7, 1.5, 3.0, 4.5] {
            var hand = SlowShakyHand()
            hand.phase = phase
            for c in Self.cases {
                let r = try Recordings.load(c.recording, description: c.description)
                let decoder = try TouchDecoder(description: r.device)
                let device = decoder.capabilities.deviceInfo(name: r.device.name)
                let slowed = try hand.frames(of: r)
                runs += 1
                if Self.fired(slowed, device, c.spec) != c.expected { lostOff += 1 }
                if Self.fired(slowed, device, c.spec, profile: Self.profile) != c.expected { lostOn += 1 }
            }
        }
        print("slow shaky hand, \(runs) runs: profile off lost \(lostOff), profile on lost \(lostOn)")
        #expect(runs == 100)
        #expect(lostOn == 0, "profile on lost \(lostOn) of \(runs)")
        #expect(lostOff >= 20, "profile off lost \(lostOff) of \(runs)")
    }

    /// The profile off on the slowed, shaking frames: how many of the gestures are lost
    /// (recognized otherwise than at normal speed). docs/ACCESSIBILITY.md quotes it;
    /// this keeps the figure honest.
    @Test func withoutTheProfileTheSlowShakyHandLosesGestures() throws {
        var lost: [String] = []
        for c in Self.cases {
            let (_, slowed, device) = try Self.load(c)
            if Self.fired(slowed, device, c.spec) != c.expected { lost.append(c.testDescription) }
        }
        #expect(lost.count == 8, "\(lost)")
    }
}
