import DaemonCore
import GestureConfig
import GestureEngine
import Testing
import TouchModel

/// `settings: accessibility: ignore-repeats:` (docs/ACCESSIBILITY.md): one action per
/// binding within the window, on the events' own timestamps.
@Suite struct IgnoreRepeatsTests {
    typealias Fingers = DaemonCoreTests.Fingers

    static func config(ignoreRepeats: String?) throws -> Config {
        let settings = ignoreRepeats.map { "settings:\n  accessibility:\n    ignore-repeats: \($0)\n" } ?? ""
        return try DaemonCoreTests.config(settings + """
            gestures:
              - name: swipe-up
                gesture: swipe
                fingers: 3
                direction: up
                command: echo up
              - name: swipe-down
                gesture: swipe
                fingers: 3
                direction: down
                command: echo down
              - name: pan-4
                gesture: pan
                fingers: 4
                begin: echo begin
                update: echo update
                end: echo end
            """)
    }

    /// Two swipes up, the second right after the first (a shaky hand that made one
    /// gesture twice), then the same after `gap` s more.
    static func twoSwipes(_ config: Config, pause: Double = 0) -> (ran: [String], said: [String], recognized: [Timestamp]) {
        let core = DaemonCore(config: config)
        core.add(DaemonCoreTests.screen)
        let f = Fingers(core, on: DaemonCoreTests.screen.path)
        f.swipe(3, by: Point(x: 0, y: -60))
        f.now = f.now.adding(seconds: pause)
        f.swipe(3, by: Point(x: 0, y: -60))
        return (f.ran, f.said, core.recent.entries.filter { $0.phase == .recognized }.map(\.time))
    }

    @Test func aShakyDoubleRecognitionActsOnce() throws {
        let without = Self.twoSwipes(try Self.config(ignoreRepeats: nil))
        #expect(without.ran == ["run echo up", "run echo up"])
        let with = Self.twoSwipes(try Self.config(ignoreRepeats: "500ms"))
        #expect(with.recognized.count == 2, "the engine still recognizes both (the event stream shows them)")
        #expect(with.ran == ["run echo up"])
        #expect(with.said.filter { $0.hasPrefix("ignored") } == ["ignored: repeat of swipe-up within 500ms (accessibility: ignore-repeats)"])
    }

    /// The window is measured between the events' kernel timestamps: two recognitions
    /// just more than the window apart both act, just less and the second is dropped.
    @Test func gesturesFartherApartThanTheWindowBothAct() throws {
        let times = Self.twoSwipes(try Self.config(ignoreRepeats: nil), pause: 0.3).recognized
        let apart = Int(times[1].seconds(since: times[0]) * 1000 + 0.5)
        #expect(apart > 400)
        #expect(Self.twoSwipes(try Self.config(ignoreRepeats: "\(apart - 1)ms"), pause: 0.3).ran == ["run echo up", "run echo up"])
        #expect(Self.twoSwipes(try Self.config(ignoreRepeats: "\(apart + 1)ms"), pause: 0.3).ran == ["run echo up"])
    }

    /// Another binding right after acts: the window is per binding.
    @Test func otherBindingsAreNotAffected() throws {
        let core = DaemonCore(config: try Self.config(ignoreRepeats: "1s"))
        core.add(DaemonCoreTests.screen)
        let f = Fingers(core, on: DaemonCoreTests.screen.path)
        f.swipe(3, by: Point(x: 0, y: -60))
        f.swipe(3, by: Point(x: 0, y: 60))
        #expect(f.ran == ["run echo up", "run echo down"])
    }

    /// A continuous gesture's own updates and end are not repeats; a pan that begins
    /// again within the window is dropped whole: no update, no end without its begin.
    @Test func aContinuousGestureActsWholeOrNotAtAll() throws {
        let core = DaemonCore(config: try Self.config(ignoreRepeats: "500ms"))
        core.add(DaemonCoreTests.screen)
        let f = Fingers(core, on: DaemonCoreTests.screen.path)
        f.down(4)
        f.move(by: Point(x: 40, y: 0), over: 0.8)
        f.lift()
        let first = f.ran
        #expect(first.first == "run echo begin")
        #expect(first.last == "run echo end")
        #expect(first.filter { $0 == "run echo update" }.count > 10)
        f.down(4)
        f.move(by: Point(x: 40, y: 0), over: 0.3)
        f.lift()
        #expect(f.ran == first, "the second pan ran nothing")
        #expect(f.said.filter { $0.hasPrefix("ignored") } == ["ignored: repeat of pan-4 within 500ms (accessibility: ignore-repeats)"])
        // Past the window, a pan acts again, whole.
        f.now = f.now.adding(seconds: 0.6)
        f.down(4)
        f.move(by: Point(x: 40, y: 0), over: 0.3)
        f.lift()
        #expect(f.ran.count > first.count)
        #expect(f.ran[first.count] == "run echo begin")
        #expect(f.ran.last == "run echo end")
    }
}
