import GestureEngine
import GestureTestSupport
import Testing
import TouchModel
import TouchTimeline
@testable import Commands
@testable import DaemonLoop
import JSON
@testable import LiveView

/// The real daemon, on its own loop, reading a timeline as a device (TimelineTouchSource):
/// frames when they are due, the daemon's timer between them, the device gone at the end.
@Suite(.serialized) struct TimelineTouchSourceTests {
    static let screen = "device " + Recordings.path("touchscreens_Atmel_maXTouch_Touchscreen.4-finger-drag-down.events") + "\ncreate\n"

    /// The daemon with `config`, and the gesture events it reports.
    final class Rig {
        let daemon: Daemon
        private(set) var events: [GestureEvent] = []

        init(_ dir: TempDir, config: String) throws {
            var options = Daemon.Options()
            options.runCommands = false
            var seen: [GestureEvent] = []
            options.onGesture = { _, e in seen.append(e) }
            daemon = try LiveDeviceTests.makeDaemon(dir, config: config, options: options)
            collect = { seen }
        }

        private var collect: () -> [GestureEvent] = { [] }

        /// Plays `timeline` to the daemon until the device is gone (bounded).
        func play(_ timeline: String) throws {
            let source = try TimelineTouchSource(timeline: try Timeline.parse(timeline, path: "test.timeline", baseDirectory: "/"))
            daemon.adopt(source, announce: false)
            try #require(daemon.sessions[source.path] != nil)
            #expect(LiveDeviceTests.spin(daemon, seconds: 20) { daemon.sessions[source.path] == nil }, "the timeline's device went at its end")
            events = collect()
        }
    }

    @Test func aSwipeInTheTimelineIsRecognizedByTheDaemon() throws {
        let rig = try Rig(TempDir(), config: "gestures:\n  - {name: next, gesture: swipe, fingers: 3, direction: left, command: \"true\"}\n")
        try rig.play(Self.screen + """
            touch 3 at 70% 50% spread 5%
            move to 30% 50% over 200ms
            lift
            """)
        #expect(rig.events.map(\.name) == ["next"] && rig.events.first?.direction == .left, "\(rig.events)")
    }

    /// Fingers held still send no frames: the hold begins from the daemon's timer, and
    /// the steps of one finger reach it as they do a scenario.
    @Test func aHoldBeginsOnTheDaemonsTimerBetweenFrames() throws {
        let rig = try Rig(TempDir(), config: "gestures:\n  - {name: press, gesture: hold, fingers: 2, begin: \"true\"}\n")
        try rig.play(Self.screen + """
            down a at 40% 50%, b at 45% 50%
            wait 700ms
            up a, b
            wait 100ms
            """)
        #expect(rig.events.map(\.phase) == [.began, .ended], "\(rig.events)")
        let began = try #require(rig.events.first)
        let ended = try #require(rig.events.last)
        #expect(abs(ended.time.seconds(since: began.time) - 0.2) < 0.001, "began 0.5 s in, ended at the lift 0.7 s in")
    }

    @Test func stepsForSomeoneElseAreRefused() throws {
        for step in ["focus firefox", "await /tmp/go", "remove\ncreate"] {
            #expect(throws: TimelineError.self, "\(step)") {
                _ = try TimelineTouchSource(timeline: try Timeline.parse(Self.screen + step, path: "test.timeline", baseDirectory: "/"))
            }
        }
    }
}
