import GestureInput
import GestureTestSupport
import Testing
import TouchModel
import TouchTimeline

/// The timeline's steps of one finger, its circle and its daemon steps, decoded as the
/// daemon decodes a device: what a scenario writes is what the engine sees.
@Suite struct TimelineStepTests {
    static let screen = "device " + Recordings.path("touchscreens_Atmel_maXTouch_Touchscreen.4-finger-drag-down.events") + "\ncreate\n"
    static let twoSlotPad = "device " + Recordings.path("recordings_touchpads_SynPS2-Synaptics-TouchPad-Clickpad.two-finger-scroll-down.events")
        + " " + Recordings.path("recordings_touchpads_SynPS2-Synaptics-TouchPad-Clickpad.desc") + "\ncreate\n"

    static func timeline(_ text: String) throws -> Timeline {
        try Timeline.parse(text, path: "test.timeline", baseDirectory: "/")
    }

    /// Every frame the timeline's events make, as the daemon's decoder reads them.
    static func frames(_ text: String) throws -> [TouchFrame] {
        let recording = try timeline(text).recording(path: "test.timeline")
        let decoder = try TouchDecoder(description: recording.device)
        return recording.events.compactMap { decoder.feed($0) ? decoder.frame : nil }
    }

    @Test func aFingerLandsMovesAndLiftsOnItsOwn() throws {
        let frames = try Self.frames(Self.screen + """
            down rest at 30% 50%
            wait 200ms
            down tap at 60% 50%
            move tap by 10% 0 over 100ms
            up rest
            wait 50ms
            up tap
            """)
        #expect(frames.map(\.fingerCount) == [1] + Array(repeating: 2, count: 11) + [1, 0], "\(frames.map(\.fingerCount))")
        let rest = frames[0].contacts[0]
        let tap = try #require(frames[1].contacts.first { $0.id != rest.id })
        // The resting finger stays where it landed while the other moves 20 mm right.
        for f in frames[1...11] { #expect(f.contacts.contact(withID: rest.id)?.position == rest.position) }
        let moved = try #require(frames[11].contacts.contact(withID: tap.id))
        #expect(abs(moved.normalized.x - tap.normalized.x - 0.1) < 0.002 && moved.position.y == tap.position.y, "\(tap.position) → \(moved.position)")
        // Lifting the first leaves the second, the same touch, where it was.
        #expect(frames[12].contacts.map(\.id) == [tap.id] && frames[12].contacts[0].position == moved.position)
    }

    @Test func fingersListedTogetherLandMoveAndLiftInTheSameFrames() throws {
        let frames = try Self.frames(Self.screen + """
            down a at 40% 50%, b at 60% 50%
            move a to 30% 50%, b to 70% 50% over 50ms
            up a, b
            """)
        #expect(frames.map(\.fingerCount) == [2, 2, 2, 2, 2, 2, 0])
        let (a, b) = (frames[5].contacts[0].position.x - frames[0].contacts[0].position.x,
                      frames[5].contacts[1].position.x - frames[0].contacts[1].position.x)
        #expect(a < -25 && b > 25 && abs(a + b) < 0.1, "spread apart evenly: \(a), \(b)")
    }

    @Test func aLiftedFingersSlotIsTheNextFingersAndItIsANewTouch() throws {
        let frames = try Self.frames(Self.screen + """
            down a at 20% 50%
            down b at 40% 50%
            up a
            down c at 60% 50%
            """)
        let b = try #require(frames[1].contacts.first { $0.slot == 1 })
        let c = try #require(frames[3].contacts.first { $0.slot == 0 })
        #expect(frames[3].fingerCount == 2 && c.id != frames[0].contacts[0].id && c.id != b.id)
        #expect(c.position.x > b.position.x)
    }

    /// A 2-slot clickpad tracks two and counts the third only through
    /// BTN_TOOL_TRIPLETAP; when a slot frees, the third takes it.
    @Test func aFingerBeyondTheSlotsIsOnlyCountedUntilASlotFrees() throws {
        let frames = try Self.frames(Self.twoSlotPad + """
            down a at 30% 50%
            down b at 50% 50%
            down c at 70% 50%
            move c by 10% 0 over 20ms
            up a
            """)
        #expect(frames.map(\.fingerCount) == [1, 2, 3, 3, 3, 2])
        #expect(frames.map(\.contacts.count) == [1, 2, 2, 2, 2, 2])
        // c, moved while untracked, is tracked where it went: right of b.
        let last = frames[5].contacts
        #expect(last.first { $0.slot == 0 }!.position.x > last.first { $0.slot == 1 }!.position.x)
    }

    /// The hand's centre goes round the point, clockwise as drawn (+y down): from above
    /// the point, a quarter turn later it is to the right, and after a turn back on top.
    /// (In device units: this screen reports no resolution, so its units are taken as
    /// square, as a spread's are.)
    @Test func aCircleTakesTheHandRoundThePoint() throws {
        let frames = try Self.frames(Self.screen + """
            touch 2 at 50% 30% spread 2%
            circle about 50% 50% turns 1 over 400ms
            """)
        let span = Point(x: 799, y: 479)
        func center(_ f: TouchFrame) -> Point {
            Point(x: f.contacts.map(\.normalized.x).reduce(0, +) / 2 * span.x, y: f.contacts.map(\.normalized.y).reduce(0, +) / 2 * span.y)
        }
        let start = center(frames[0]), quarter = center(frames[10]), end = center(frames[40])
        let pivot = Point(x: 0.5 * span.x, y: 0.5 * span.y)
        let radius = pivot.y - start.y
        #expect(frames.count == 41 && frames.allSatisfy { $0.fingerCount == 2 })
        #expect(abs(quarter.x - (pivot.x + radius)) < 1 && abs(quarter.y - pivot.y) < 1, "\(start) → \(quarter), r \(radius)")
        #expect(abs(end.x - start.x) < 1 && abs(end.y - start.y) < 1)
        // The fingers keep their places around the centre: their distance stays.
        let gaps = frames.map { ($0.contacts[1].normalized.x - $0.contacts[0].normalized.x) * span.x }
        #expect(gaps.allSatisfy { abs($0 - gaps[0]) < 1.01 }, "\(gaps)")
    }

    @Test func daemonStepsAreTimedInTheTimelineAndNotInTheRecording() throws {
        let text = Self.screen + """
            focus firefox
            touch 1 at 50% 50%
            wait 100ms
            screen 90
            disable back
            lift
            reload second
            enable back
            reload
            focus none
            """
        let t = try Self.timeline(text)
        #expect(t.daemonSteps.map(\.at) == [0, 100_000, 100_000, 100_000, 100_000, 100_000, 100_000])
        #expect(t.daemonSteps.map(\.step) == [.focus("firefox"), .screen(.quarter), .enable(false, name: "back"), .reload("second"),
                                              .enable(true, name: "back"), .reload(nil), .focus(nil)])
        #expect(t.daemonSteps.map(\.step.description) == ["focus firefox", "screen 90", "disable back", "reload second",
                                                          "enable back", "reload", "focus none"])
        #expect(try Self.frames(text).map(\.fingerCount) == [1, 0])
    }

    @Test(arguments: [
        ("up a", "test.timeline:3: no finger 'a' is down (none is)"),
        ("down to at 10% 10%", "test.timeline:3: 'to': a finger is called by a word"),
        ("down a at 10% 10%\ndown a at 20% 20%", "test.timeline:4: 'a' is already down"),
        ("down a at 10% 10%\nmove a to 20% 20%", "test.timeline:4: usage: move F to X Y"),
        ("down a at 10% 10%\nmove b by 1mm 0 over 10ms", "test.timeline:4: no finger 'b' is down (down: a)"),
        ("touch 1 at 50% 50%\ncircle about 50% 60% turns once over 1s", "test.timeline:4: usage: circle about X Y turns T over DURATION"),
        ("screen 45", "test.timeline:3: usage: screen normal|90|180|270"),
        ("disable", "test.timeline:3: usage: disable NAME"),
    ])
    func mistakesSayTheirLine(text: String, message: String) {
        #expect {
            _ = try Self.timeline(Self.screen + text)
        } throws: { error in
            "\(error)".hasPrefix(message)
        }
    }
}
