import DaemonCore
import GestureConfig
import GestureEngine
import Testing
import TouchModel

/// The daemon's decisions with no daemon around them: typed inputs in, the outputs a
/// user would notice out (what fires, what runs, what is grabbed), on injected time.
@Suite struct DaemonCoreTests {
    static let screen = DaemonCore.Device(path: "/dev/input/event7",
                                          info: DeviceInfo(name: "Test Touchscreen", kind: .touchscreen, size: Size(width: 300, height: 190), maxFingers: 10),
                                          grabbable: true)
    static let pad = DaemonCore.Device(path: "/dev/input/event5",
                                       info: DeviceInfo(name: "Test Clickpad", kind: .touchpad, size: Size(width: 110, height: 75), maxFingers: 5, isClickpad: true))

    static let swipes = """
        gestures:
          - name: swipe-up
            gesture: swipe
            fingers: 3
            direction: up
            command: echo up
          - name: browser-swipe-left
            gesture: swipe
            fingers: 3
            direction: left
            apps: [firefox]
            command: echo back
          - name: pan-4
            gesture: pan
            fingers: 4
            begin: echo begin
            cancel: echo cancelled
        """

    static func config(_ text: String) throws -> Config {
        let (config, diagnostics) = ConfigLoader.parse(text, file: "test.yaml")
        return try #require(config, "\(diagnostics)")
    }

    /// Fingers on one device, frame by frame at 100 Hz, fed to the core.
    final class Fingers {
        let core: DaemonCore
        let device: String
        var now = Timestamp(seconds: 100)
        var points: [Point] = []
        var orientation = Orientation.normal
        /// Every output so far, as text a test can compare.
        var said: [String] = []

        init(_ core: DaemonCore, on device: String) {
            self.core = core
            self.device = device
        }

        func down(_ n: Int, at c: Point = Point(x: 150, y: 95)) {
            points = (0..<n).map { Point(x: c.x + Double($0 - n / 2) * 15, y: c.y) }
            frame()
        }

        func move(by d: Point, over seconds: Double) {
            let steps = Int(seconds * 100)
            let start = points
            for k in 1...steps {
                now = now.adding(seconds: 0.01)
                let f = Double(k) / Double(steps)
                points = start.map { Point(x: $0.x + d.x * f, y: $0.y + d.y * f) }
                frame()
            }
        }

        /// `n` fingers down, moved by `d` over 0.2 s, lifted.
        func swipe(_ n: Int, by d: Point) {
            down(n)
            move(by: d, over: 0.2)
            lift()
        }

        func lift() {
            now = now.adding(seconds: 0.01)
            points = []
            frame()
        }

        func frame() {
            var f = TouchFrame(time: now, contacts: ContactList(points.enumerated().map {
                Contact(id: Int32($0.offset + 1), slot: Int32($0.offset), position: $0.element)
            }))
            f.orientation = orientation
            withUnsafePointer(to: &f) { core.frame($0, device: device) }
            take()
        }

        func take() {
            for o in core.outputs { said.append(Self.text(o)) }
            core.outputs.removeAll(keepingCapacity: true)
        }

        static func text(_ o: DaemonOutput) -> String {
            switch o {
            case .decisions: return "decisions"
            case .event(_, let e, _): return "\(e.name) \(e.phase.rawValue)"
            case .claim(let d): return "claim \(d)"
            case .invocation(let inv): return "run \(inv.command)"
            case .grab(let d, let h): return "grab \(d) hold-back \(h.microseconds) µs, \(h.maxFingers) fingers"
            case .release(let d, let why): return "release \(d): \(why)"
            case .turned(let d): return "turned \(d)"
            case .log(let level, let m): return "\(level): \(m)"
            case .ignored(_, _, _, let why): return why
            }
        }

        /// What ran, in order.
        var ran: [String] { said.filter { $0.hasPrefix("run ") } }
    }

    @Test func aSwipeRunsItsCommandAndOnlyOnItsOwnDevice() throws {
        let core = DaemonCore(config: try Self.config(Self.swipes))
        core.add(Self.screen)
        core.add(Self.pad)
        let screen = Fingers(core, on: Self.screen.path)
        screen.down(3)
        screen.move(by: Point(x: 0, y: -60), over: 0.2)
        screen.lift()
        #expect(screen.ran == ["run echo up"])
        #expect(core.recent.entries.map(\.gesture) == ["swipe-up"])
        #expect(core.recent.entries.first?.device == "Test Touchscreen")
        // A frame of a device the core was not given changes nothing.
        let stranger = Fingers(core, on: "/dev/input/event99")
        stranger.down(3)
        stranger.move(by: Point(x: 0, y: -60), over: 0.2)
        #expect(stranger.said.isEmpty)
    }

    @Test func theFocusedAppTakesTheSequencesThatBeginAfterIt() throws {
        let core = DaemonCore(config: try Self.config(Self.swipes))
        core.add(Self.screen)
        let f = Fingers(core, on: Self.screen.path)
        f.swipe(3, by: Point(x: -60, y: 0))
        #expect(f.ran.isEmpty, "browser-swipe-left is for firefox only")
        core.focus("firefox")
        f.swipe(3, by: Point(x: -60, y: 0))
        #expect(f.ran == ["run echo back"])
    }

    @Test func aDisabledGestureStaysDisabledAcrossAReloadThatKeepsIt() throws {
        let core = DaemonCore(config: try Self.config(Self.swipes))
        core.add(Self.screen)
        core.setEnabled(false, name: "swipe-up")
        let f = Fingers(core, on: Self.screen.path)
        f.swipe(3, by: Point(x: 0, y: -60))
        #expect(f.ran.isEmpty)
        core.replace(config: try Self.config(Self.swipes), at: f.now)
        f.swipe(3, by: Point(x: 0, y: -60))
        #expect(f.ran.isEmpty, "still disabled after the reload")
        core.setEnabled(true, name: "swipe-up")
        f.swipe(3, by: Point(x: 0, y: -60))
        #expect(f.ran == ["run echo up"])
    }

    @Test func aReloadCancelsWhatIsInFlightAndTheFingersStillDownStartNothing() throws {
        let core = DaemonCore(config: try Self.config(Self.swipes))
        core.add(Self.screen)
        let f = Fingers(core, on: Self.screen.path)
        f.down(4)
        f.move(by: Point(x: 40, y: 0), over: 0.2)
        #expect(f.ran == ["run echo begin"])
        let cancelled = core.replace(config: try Self.config(Self.swipes), at: f.now)
        f.take()
        #expect(cancelled == 1)
        #expect(f.ran == ["run echo begin", "run echo cancelled"], "the old config's cancel runs")
        f.move(by: Point(x: 40, y: 0), over: 0.2)
        f.lift()
        #expect(f.ran == ["run echo begin", "run echo cancelled"], "the same fingers begin no pan of the new config")
        f.down(4)
        f.move(by: Point(x: 40, y: 0), over: 0.2)
        #expect(f.ran.last == "run echo begin", "a new touch does")
    }

    @Test func aRotationWithAFingerDownWaitsForTheFrameThatBeginsTheNextSequence() throws {
        let core = DaemonCore(config: try Self.config(Self.swipes))
        core.add(Self.screen)
        let f = Fingers(core, on: Self.screen.path)
        f.down(3)
        core.rotation(.quarter, device: Self.screen.path)
        f.take()
        #expect(!f.said.contains("turned \(Self.screen.path)"), "not while a finger is down")
        #expect(core.session(Self.screen.path)?.info.size == Size(width: 300, height: 190))
        f.move(by: Point(x: 0, y: -60), over: 0.2)
        f.lift()
        #expect(f.ran == ["run echo up"], "the gesture under way finishes as it began")
        // The decoder turns the next sequence: its frames say so.
        f.orientation = .quarter
        f.down(3, at: Point(x: 95, y: 150))
        #expect(f.said.contains("turned \(Self.screen.path)"))
        #expect(core.session(Self.screen.path)?.info.size == Size(width: 190, height: 300), "the engine sees the screen as turned")
    }

    @Test func aRotationWithNoFingerDownTurnsTheEngineAtOnce() throws {
        let core = DaemonCore(config: try Self.config(Self.swipes))
        core.add(Self.screen)
        core.rotation(.threeQuarters, device: Self.screen.path)
        #expect(core.outputs.contains { if case .turned = $0 { return true } else { return false } })
        #expect(core.session(Self.screen.path)?.info.size == Size(width: 190, height: 300))
        core.outputs.removeAll()
        // Its frames, turned by the decoder at once, rebuild nothing more.
        let f = Fingers(core, on: Self.screen.path)
        f.orientation = .threeQuarters
        f.down(3, at: Point(x: 95, y: 150))
        #expect(!f.said.contains("turned \(Self.screen.path)"))
    }

    @Test func grabFollowsTheConfigAndAGestureClaimsTheTouches() throws {
        let grabbing = try Self.config("grab: {devices: [touchscreen], hold-back: 40ms}\n" + Self.swipes)
        let core = DaemonCore(config: grabbing, options: DaemonCore.Options(grabs: true))
        core.add(Self.screen)
        core.add(Self.pad)  // not grabbable: no word of a grab for it
        let f = Fingers(core, on: Self.screen.path)
        f.take()
        #expect(f.said == ["grab \(Self.screen.path) hold-back 40000 µs, 4 fingers"])
        f.down(3)
        f.move(by: Point(x: 0, y: -60), over: 0.2)
        #expect(f.said.contains("claim \(Self.screen.path)"))
        #expect(f.said.firstIndex(of: "claim \(Self.screen.path)")! < f.said.firstIndex(of: "run echo up")!,
                "the desktop loses the touches before the command runs")
        f.lift()
        f.said.removeAll()
        core.replace(config: try Self.config(Self.swipes), at: f.now)
        f.take()
        #expect(f.said == ["release \(Self.screen.path): not in grab: any more"])
    }

    @Test func watchGetsEventsAndNoActions() throws {
        let core = DaemonCore(config: try Self.config(Self.swipes), options: DaemonCore.Options(mapsActions: false, explains: true))
        core.add(Self.screen)
        let f = Fingers(core, on: Self.screen.path)
        f.swipe(3, by: Point(x: 0, y: -60))
        #expect(f.said.contains("swipe-up recognized"))
        #expect(f.said.contains("decisions"))
        #expect(f.ran.isEmpty)
        #expect(core.recent.entries.isEmpty)
    }

    @Test func aHoldFiresOnTheTimerAtItsOwnDeadline() throws {
        let core = DaemonCore(config: try Self.config("""
            gestures:
              - {name: hold-3, gesture: hold, fingers: 3, min-duration: 500ms, command: echo held}
            """))
        core.add(Self.screen)
        let f = Fingers(core, on: Self.screen.path)
        f.down(3)
        let deadline = try #require(core.nextDeadline)
        #expect(deadline.microseconds > f.now.microseconds)
        core.timer(at: deadline)
        f.take()
        #expect(f.ran == ["run echo held"])
    }

    @Test func aRemovedDeviceCancelsWhatItHadInFlight() throws {
        let core = DaemonCore(config: try Self.config(Self.swipes))
        core.add(Self.screen)
        let f = Fingers(core, on: Self.screen.path)
        f.down(4)
        f.move(by: Point(x: 40, y: 0), over: 0.2)
        core.remove(Self.screen.path, at: f.now, reason: "unplugged")
        f.take()
        #expect(f.ran == ["run echo begin", "run echo cancelled"])
        #expect(core.sessions.isEmpty)
    }
}
