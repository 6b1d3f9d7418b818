import DesktopSession
import GestureInput
import GestureTestSupport
import Testing
@testable import Commands
@testable import DaemonLoop
import JSON
@testable import LiveView

/// The scrubber's timeline of a bundled recording, built in-process.
@Suite struct RecordingTimelineTests {
    static let path = Recordings.path("touchscreens_Atmel_maXTouch_Touchscreen.4-finger-drag-down.events")

    @Test func aLongRecordingIsDecimatedButKeepsEveryChangeOfFingerCount() throws {
        let recording = try Recording.load(path: Self.path)
        let whole = try #require(JSONValue.parse(Array(try RecordingTimeline(recording: recording, specs: DetectCatalogue.specs, bindings: []).build().json.utf8)))
        let all = try #require(whole["frames"]?.array)
        #expect(whole["decimated"] == nil)
        let few = try #require(JSONValue.parse(Array(try RecordingTimeline(recording: recording, specs: DetectCatalogue.specs, bindings: [],
                                                                           maximumFrames: 12).build().json.utf8)))
        let kept = try #require(few["frames"]?.array)
        #expect(few["decimated"] == .bool(true))
        #expect(kept.count <= 12 && kept.count >= 2 && kept.count < all.count)
        // Finger counts seen in order, without repeats: the same with all frames or few.
        func counts(_ frames: [JSONValue]) -> [Int] {
            frames.map { Int(StreamReading.number($0["fingers"]) ?? -1) }.reduce(into: []) { if $0.last != $1 { $0.append($1) } }
        }
        #expect(counts(kept) == counts(all), "\(counts(kept)) vs \(counts(all))")
    }

    /// A gesture not yet begun shows how far it is toward its threshold at each frame,
    /// as the daemon's `progress` lines say: the scrubber shows it filling up.
    @Test func aPossibleGestureShowsItsProgressTowardItsThreshold() throws {
        let recording = try Recording.load(path: Self.path)
        let timeline = try #require(JSONValue.parse(Array(try RecordingTimeline(recording: recording, specs: DetectCatalogue.specs, bindings: []).build().json.utf8)))
        let frames = try #require(timeline["frames"]?.array)
        // The 4-finger drag passes the swipe's threshold within the finger-count settle
        // window, so its swipe has nothing to show; a 3-finger hold fills as they land.
        var seen: [String: [Double]] = [:]
        for f in frames {
            for name in DetectCatalogue.specs.map(\.name) where f["states"]?[name]?["state"]?.string == "possible" {
                if let p = f["states"]?[name]?["progress"]?.number { seen[name, default: []].append(p) }
            }
        }
        let hold = seen["hold-3"] ?? []
        #expect(hold.contains { $0 > 0 && $0 < 1 } && hold == hold.sorted(), "\(seen)")
    }

    /// One clock (issue 38, item 1): a recording stamped with the epoch (evemu's older
    /// files: 1382570952.5 s) has its lines counted from its first event, as its frames
    /// are, and as `gestured replay` prints them.
    @Test func anEpochStampedRecordingsLinesCountFromItsStartAsItsFramesDo() throws {
        let recording = try Recording.load(path: Recordings.path("touchpads_CyPS2_Cypress_Trackpad.three_finger_tap.events"))
        let timeline = try #require(JSONValue.parse(Array(try RecordingTimeline(recording: recording, specs: DetectCatalogue.specs, bindings: []).build().json.utf8)))
        let start = try #require(timeline["start"]?.number)
        #expect(start > 1e9, "the fixture is stamped with the epoch")
        let frames = try #require(timeline["frames"]?.array).compactMap { $0["t"]?.number }
        let events = try #require(timeline["events"]?.array)
        #expect(frames.first == 0)
        let tap = try #require(events.first { $0["type"]?.string == "gesture" && $0["gesture"]?.string == "tap-3" })
        // `gestured replay --detect --json` says 0.455572: the tap waits out its double-tap window after the lift.
        #expect(tap["t"]?.number == 0.455572, "\(tap)")
        #expect(events.allSatisfy { ($0["t"]?.number ?? -1) >= 0 && ($0["t"]?.number ?? .infinity) < 10 }, "every line on the frames' clock")
    }

    @Test func aGestureThatEndsOnTheLiftShowsItsEndAtThatFrame() throws {
        let recording = try Recording.load(path: Self.path)
        let timeline = try #require(JSONValue.parse(Array(try RecordingTimeline(recording: recording, specs: DetectCatalogue.specs, bindings: []).build().json.utf8)))
        let frames = try #require(timeline["frames"]?.array)
        let events = try #require(timeline["events"]?.array)
        let done = try #require(events.first { $0["type"]?.string == "gesture" && ["recognized", "ended"].contains($0["phase"]?.string ?? "") })
        let name = try #require(done["gesture"]?.string)
        let phase = try #require(done["phase"]?.string)
        #expect(frames.contains { $0["states"]?[name]?["state"]?.string == phase }, "\(name) shows \(phase) at some frame")
    }
}
