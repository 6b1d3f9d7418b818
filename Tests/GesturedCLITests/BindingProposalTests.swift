import GestureConfig
import GestureEngine
import GestureInput
import GestureTestSupport
import Testing
import TouchModel
@testable import DaemonLoop
@testable import LiveView

/// "Propose a binding from this recording" (issue 38, item 6): the YAML proposed from a
/// gesture a recording made passes `gestured check`, and the recording replayed with it
/// fires it.
@Suite struct BindingProposalTests {
    /// What `gestured check` says of a config holding the one proposed binding, and the
    /// names it fires when the recording is replayed with it.
    static func checkAndReplay(_ yaml: String, on recording: Recording) throws -> (errors: [String], fired: Set<String>) {
        let (config, diagnostics) = ConfigLoader.parse("gestures:\n" + yaml, file: "proposed.yaml")
        let errors = diagnostics.filter { $0.severity == .error }.map { "\($0)" }
        guard let config else { return (errors.isEmpty ? ["no config"] : errors, []) }
        var fired = Set<String>()
        try ReplayPipeline(recording: recording, specs: config.specs).run { list in
            for e in list where e.phase == .recognized || e.phase == .began { fired.insert(e.name) }
        }
        return (errors, fired)
    }

    /// Where `replay --detect` recognizes nothing: the Synaptics scrolls are slow pans
    /// (`--detect` runs no pan; the clickpad's swipe-2 "moved 17.8 mm, needs 20.0 mm").
    static let nothingDetected: Set<String> = [
        "recordings_touchpads_SynPS2-Synaptics-TouchPad-Clickpad.two-finger-scroll-down.events",
        "recordings_touchpads_SynPS2-Synaptics-TouchPad-Clickpad.two-finger-scroll-up.events",
        "recordings_touchpads_SynPS2-Synaptics-TouchPad-two-finger-scroll-down.events",
    ]

    /// The strongest test: from every bundled recording, every kind `--detect` saw there
    /// (each kind × fingers × direction once) is proposed, checked and replayed alone;
    /// the proposed gesture fires.
    @Test(arguments: Recordings.all.map(\.name))
    func everyGestureDetectedInABundledRecordingIsProposedAndFiresAgain(_ name: String) throws {
        let description = Recordings.all.first { $0.name == name }?.description
        let recording = try Recording.load(path: Recordings.path(name), descriptionPath: description.map(Recordings.path))
        let specs = DetectCatalogue.specs
        var fired: [String] = []
        try ReplayPipeline(recording: recording, specs: specs).run { list in
            for e in list where (e.phase == .recognized || e.phase == .began) && !fired.contains(e.name) { fired.append(e.name) }
        }
        #expect(!fired.isEmpty || Self.nothingDetected.contains(name), "\(name): --detect sees something")
        for gesture in fired {
            let (event, yaml, _) = try #require(try BindingProposal.propose(recording: recording, specs: specs, gesture: gesture, at: nil))
            let proposedName = try #require(yaml.split(separator: "\n").first?.split(separator: " ").last.map(String.init))
            let (errors, again) = try Self.checkAndReplay(yaml, on: recording)
            #expect(errors.isEmpty, "\(name): \(gesture): \(errors)\n\(yaml)")
            #expect(again.contains(proposedName), "\(name): \(gesture) (\(event.kind.rawValue)) proposed as\n\(yaml)fires no more: \(again)")
        }
    }

    /// A config's own card: its name is the config's, its proposal says the recording's
    /// fingers and direction, and its min-distance is a margin under the distance the
    /// fingers had travelled when it was recognized.
    @Test func aConfiguredSwipeIsProposedWithTheRecordingsFingersDirectionAndDistance() throws {
        let recording = try Recording.load(path: Recordings.path("touchscreens_Atmel_maXTouch_Touchscreen.4-finger-drag-down.events"))
        let config = try #require(ConfigLoader.parse("""
            gestures:
              - name: show-desktop
                gesture: swipe
                fingers: 4
                command: true
            """, file: "config.yaml").0)
        let (event, yaml, margin) = try #require(try BindingProposal.propose(recording: recording, specs: config.specs, gesture: "show-desktop", at: nil))
        #expect(margin == BindingProposal.underMargin)
        #expect(event.fingers == 4 && event.direction == .down)
        let distance = event.translation.length
        let proposed = try #require(yaml.split(separator: "\n").first { $0.contains("min-distance:") })
        let mm = try #require(Double(proposed.split(separator: " ").last!.dropLast(2)))
        #expect(mm <= BindingProposal.underMargin * distance && mm > BindingProposal.underMargin * distance - 0.11,
                "\(mm) mm for \(distance) mm travelled")
        #expect(yaml.contains("  fingers: 4\n") && yaml.contains("  direction: down\n"), "\(yaml)")
        let (errors, fired) = try Self.checkAndReplay(yaml, on: recording)
        #expect(errors.isEmpty && fired.contains("swipe-4-down"), "\(errors) \(fired)")
    }

    /// bcm5974's two-finger swipe is up-left when recognized at 20.2 mm, but up at 80 %
    /// and 90 % of that: the proposal, replayed alone, fires only at 100 %, and says so.
    @Test func aProposalThatWouldNotFireAtItsMarginIsMadeAtTheNext() throws {
        let recording = try Recording.load(path: Recordings.path("data_bcm5974.event"))
        let (event, yaml, margin) = try #require(try BindingProposal.propose(recording: recording, specs: DetectCatalogue.specs,
                                                                              gesture: "swipe-2", at: nil))
        #expect(event.direction == .upLeft)
        #expect(margin == 1.0 && yaml.contains("min-distance: 20.2mm"), "\(yaml)")
        let (errors, fired) = try Self.checkAndReplay(yaml, on: recording)
        #expect(errors.isEmpty && fired.contains("swipe-2-up-left"), "\(errors) \(fired)")
    }

    /// A tap's limits are above what the recording's touches did: its max-duration above
    /// the touch's length.
    @Test func aTapsMaxDurationIsAboveTheRecordingsTouch() throws {
        let recording = try Recording.load(path: Recordings.path("touchpads_CyPS2_Cypress_Trackpad.three_finger_tap.events"))
        let (event, yaml, _) = try #require(try BindingProposal.propose(recording: recording, specs: DetectCatalogue.specs, gesture: "tap-3", at: nil))
        var frames: [TouchFrame] = []
        try ReplayPipeline(recording: recording, specs: []).run(onFrame: { frames.append($0) }, onEvents: { _ in })
        let touch = try #require(BindingProposal.touches(frames, before: event.time, last: 1))
        let line = try #require(yaml.split(separator: "\n").first { $0.contains("max-duration:") })
        let ms = try #require(Double(line.split(separator: " ").last!.dropLast(2)))
        #expect(ms / 1000 >= BindingProposal.overMargin * touch.longest && ms / 1000 > touch.longest, "\(ms) ms for a \(touch.longest) s touch")
    }
}
