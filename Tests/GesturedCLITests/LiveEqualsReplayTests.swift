import CLinux
import GestureConfig
import GestureEngine
import GestureInput
import GestureTestSupport
import Testing
import TouchModel
@testable import Commands
@testable import DaemonLoop
import JSON
@testable import LiveView

/// `replay` promises to be what the daemon does. For every bundled recording: the
/// daemon's live path (the real libevdev reading a fake device that describes itself
/// as the recorded one, the daemon's loop and timerfd) and `replay`'s pipeline must
/// report the same gesture events, with the same values, at the same times.
@Suite(.serialized) struct LiveEqualsReplayTests {
    /// Every kind at every finger count it takes, competing as `--detect` does, and a
    /// pan so continuous changes are compared too.
    static let config: String = {
        var s = "gestures:\n"
        func add(_ name: String, _ body: String) { s += "  - name: \(name)\n\(body)    command: \"true\"\n" }
        for f in 1...5 {
            add("tap-\(f)", "    gesture: tap\n    fingers: \(f)\n    requires-failure-of: double-tap-\(f)\n")
            add("double-tap-\(f)", "    gesture: tap\n    fingers: \(f)\n    taps: 2\n")
            add("hold-\(f)", "    gesture: hold\n    fingers: \(f)\n")
            add("swipe-\(f)", "    gesture: swipe\n    fingers: \(f)\n")
            if f >= 2 {
                add("pinch-\(f)", "    gesture: pinch\n    fingers: \(f)\n    simultaneous-with: rotate-\(f)\n")
                add("rotate-\(f)", "    gesture: rotate\n    fingers: \(f)\n")
            }
            add("edgepan-\(f)", "    gesture: edgepan\n    fingers: \(f)\n")
        }
        add("scrub", "    gesture: scrub\n")
        add("drag", "    gesture: pan\n    fingers: 1-5\n")
        return s
    }()

    @Test(arguments: Recordings.all)
    func theDaemonReportsWhatReplayReports(name: String, description: String?) throws {
        let loaded = try Recordings.load(name, description: description)
        let recording = Self.restamped(loaded)
        let events = Array(recording.events)
        let dir = TempDir()
        var options = Daemon.Options()
        options.runCommands = false
        // Seconds of frames poured in at once: a stall's backlog, were it live.
        options.staleFrameAge = nil
        var live: [GestureEvent] = []
        options.onGesture = { _, e in live.append(e) }
        let daemon = try LiveDeviceTests.makeDaemon(dir, config: Self.config, options: options)
        var replayed: [GestureEvent] = []
        try ReplayPipeline(recording: recording, specs: daemon.config.specs).run { replayed += $0 }

        let device = try FakeTouchpad(description: recording.device)
        daemon.adopt(device.device, announce: false)
        device.send(events)
        // The whole recording is in the pipe: one read drains it, then the timer fires
        // what is still pending. Done when as many events came and nothing is pending.
        _ = LiveDeviceTests.spin(daemon, seconds: 10) {
            live.count >= replayed.count && daemon.sessions.values.allSatisfy { $0.engine.nextDeadline == nil }
        }
        #expect(!replayed.isEmpty || name.contains("touch-release"), "the recording fired nothing at all")
        Self.expectSame(live, replayed)
    }

    /// `loaded` restamped to end a second ago on CLOCK_MONOTONIC, as a live device stamps
    /// (evemu recordings carry wall-clock times), the same for both paths.
    static func restamped(_ loaded: Recording) -> Recording {
        var events = Array(loaded.events)
        let shift = clinux_monotonic_ns() / 1000 - 1_000_000 - (events.last?.time.microseconds ?? 0)
        for i in events.indices { events[i].time.microseconds += shift }
        return Recording(path: loaded.path, device: loaded.device, events: events)
    }

    /// The daemon's events are the replay's, one for one; the first that differs is named.
    static func expectSame(_ live: [GestureEvent], _ replayed: [GestureEvent], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(live.count == replayed.count, sourceLocation: sourceLocation)
        for (l, r) in zip(live, replayed) where l != r {
            Issue.record("live: \(l.time) \(GestureText.line(l))\nreplay: \(r.time) \(GestureText.line(r))", sourceLocation: sourceLocation)
            break
        }
    }
}

/// The daemon keeps no decision log unless `--explain` or `watch` reads it. Without it
/// every recording must give the same gesture events, and nothing is kept.
@Suite struct ExplainsOffTests {
    @Test(arguments: Recordings.all)
    func noDecisionLogChangesNoEvent(name: String, description: String?) throws {
        let recording = try Recordings.load(name, description: description)
        let decoder = try TouchDecoder(description: recording.device)
        let info = decoder.capabilities.deviceInfo(name: recording.device.name)
        // Every kind at every finger count, and a drag, so most recordings give events.
        let specs = try #require(ConfigLoader.parse(Array(LiveEqualsReplayTests.config.utf8), file: "config.yaml").0).specs
        let explaining = GestureEngine(device: info, specs: specs)
        let quiet = GestureEngine(device: info, specs: specs, explains: false)
        var a: [GestureEvent] = [], b: [GestureEvent] = []
        var failures = 0
        for e in recording.events where decoder.feed(e) {
            explaining.process(decoder.framePointer, into: &a)
            quiet.process(decoder.framePointer, into: &b)
            failures += explaining.failures.count
            #expect(quiet.failures.isEmpty && quiet.explanations.isEmpty)
        }
        explaining.timerFired(at: Timestamp(microseconds: .max), into: &a)
        quiet.timerFired(at: Timestamp(microseconds: .max), into: &b)
        #expect(a == b)
        #expect(failures > 0)
        #expect(quiet.decisionCount == 0 && explaining.decisionCount > 0)
    }
}
