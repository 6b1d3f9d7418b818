import DaemonCore
import GestureConfig
import GestureEngine
import Testing
import TouchModel

/// `{workspace: follow}` and `{overview: follow}`: the config's form, and the steps
/// the daemon's core hands the desktop for a pan from its beginning to its end.
@Suite struct FollowTests {
    static func config(_ text: String) -> (Config?, [String]) {
        let (c, d) = ConfigLoader.parse(text, file: "follow.yaml")
        return (c, d.map(\.description))
    }

    @Test func theFormOnAPanWithItsDistanceAndReverse() throws {
        let (c, d) = Self.config("""
            gestures:
              - {name: ws, gesture: pan, fingers: 4, axis: horizontal, command: {workspace: follow}}
              - {name: ov, gesture: pan, fingers: 3, axis: vertical, command: {overview: follow}, distance: 60mm, reverse: true}
            """)
        let config = try #require(c, "\(d)")
        #expect(config.bindings[0].actions[.began] == .desktop(.follow(Follow(transition: .workspace))))
        #expect(config.bindings[1].actions[.began] == .desktop(.follow(Follow(transition: .overview, distanceMM: 60, reversed: true))))
        #expect(DesktopAction.follow(Follow(transition: .overview)).description == "overview follow")
    }

    /// On a swipe, the follow moves from the moment the fingers start along the swipe's
    /// axis: its gesture is a pan with the swipe's fingers and directions; the desktop
    /// judges its speed at the lift.
    @Test func aSwipesFollowIsAPanAlongItsAxis() throws {
        let (c, d) = Self.config("""
            gestures:
              - {name: ws, gesture: swipe, fingers: 4, direction: [left, right], min-velocity: 50mm/s, command: {workspace: follow}, distance: 80mm}
              - {name: ov, gesture: swipe, fingers: 3, direction: up, command: {overview: follow}}
            """)
        let config = try #require(c, "\(d)")
        #expect(config.specs[0].kind == .pan && config.specs[0].axis == .horizontal && config.specs[0].fingers == 4...4)
        #expect(config.specs[0].directions == [.left, .right] && config.specs[0].thresholds.minVelocityMMPerS == nil)
        #expect(config.bindings[0].actions == [.began: .desktop(.follow(Follow(transition: .workspace, distanceMM: 80)))])
        #expect(config.specs[1].kind == .pan && config.specs[1].axis == .vertical && config.specs[1].directions == [.up])
        #expect(config.bindings[1].actions[.began] == .desktop(.follow(Follow(transition: .overview))))
    }

    @Test func whatTheFormRefusesSaysWhereAndWhy() {
        func error(_ gesture: String) -> String? {
            Self.config("gestures:\n  - " + gesture + "\n").1.first { $0.contains("error") }
        }
        #expect(error("{name: s, gesture: swipe, fingers: 4, direction: [left, up], command: {workspace: follow}}")?
            .contains("follow.yaml:2:") == true)
        #expect(error("{name: s, gesture: swipe, fingers: 4, command: {workspace: follow}}")?
            .contains("moves along the swipe's direction: give it 'direction:' left or right, or up or down") == true)
        #expect(error("{name: t, gesture: tap, fingers: 3, command: {workspace: follow}}")?
            .contains("needs a gesture that follows them: a pan or a swipe, not a tap") == true)
        #expect(error("{name: p, gesture: pan, fingers: 4, end: {workspace: follow}}")?
            .contains("goes in 'command:' (or 'begin:')") == true)
        #expect(error("{name: p, gesture: pan, fingers: 4, command: echo hi, distance: 60mm}")?
            .contains("'distance:' belongs to a follow") == true)
        #expect(error("{name: p, gesture: pan, fingers: 4, command: {workspace: sideways}}")?
            .contains("'workspace' takes next, previous") == true)
        #expect(error("{name: t, gesture: tap, fingers: 2, distance: 60mm, command: echo}")?
            .contains("'distance' does not apply to a tap") == true)
    }

    /// Every phase of the pan is a step, with where the fingers are; the binding's own
    /// `end:` still runs after the last one.
    @Test func aPanIsOneFollowFromItsBeginningToItsEnd() throws {
        let (c, _) = Self.config("""
            gestures:
              - {name: ov, gesture: pan, fingers: 4, axis: vertical, command: {overview: follow}, end: echo done}
            """)
        let core = DaemonCore(config: try #require(c))
        let screen = DaemonCore.Device(path: "/dev/input/event7", info: DeviceInfo(name: "Screen", kind: .touchscreen, size: Size(width: 300, height: 190), maxFingers: 10))
        core.add(screen)
        var t = Timestamp(seconds: 10)
        func frame(_ y: Double, fingers: Int = 4) {
            var f = TouchFrame(time: t, contacts: ContactList((0..<fingers).map { Contact(id: Int32($0 + 1), slot: Int32($0), position: Point(x: 100 + Double($0) * 15, y: y)) }))
            withUnsafePointer(to: &f) { core.frame($0, device: screen.path) }
            t = t.adding(seconds: 0.01)
        }
        for k in 0...30 { frame(150 - Double(k) * 1.6) }  // 48 mm up at 160 mm/s
        frame(0, fingers: 0)
        let steps = core.outputs.compactMap { o -> FollowMotion? in if case .invocation(let inv) = o { return inv.motion } else { return nil } }
        let ran = core.outputs.compactMap { o -> String? in if case .invocation(let inv) = o, inv.motion == nil { return inv.command } else { return nil } }
        #expect(steps.first?.phase == .begin)
        #expect(steps.last?.phase == .end)
        #expect(steps.dropFirst().dropLast().allSatisfy { $0.phase == .update } && steps.count > 20)
        #expect(steps.first!.translation.y < 0 && abs(steps.last!.translation.y + 48) < 2, "\(steps.last!.translation)")
        #expect(steps.allSatisfy { $0.device == .touchscreen && $0.surface == Size(width: 300, height: 190) && $0.fingers == 4 })
        #expect(ran == ["echo done"])
    }

    /// Cancelled on the way (here by a reload) is a cancel step: the desktop springs back.
    @Test func aCancelledPanIsACancelStep() throws {
        let text = "gestures:\n  - {name: ws, gesture: pan, fingers: 4, axis: horizontal, command: {workspace: follow}}\n"
        let core = DaemonCore(config: try #require(Self.config(text).0))
        let pad = DaemonCore.Device(path: "/dev/input/event5", info: DeviceInfo(name: "Pad", kind: .touchpad, size: Size(width: 110, height: 75), maxFingers: 5))
        core.add(pad)
        var t = Timestamp(seconds: 10)
        for k in 0...15 {
            var f = TouchFrame(time: t, contacts: ContactList((0..<4).map { Contact(id: Int32($0 + 1), slot: Int32($0), position: Point(x: 80 - Double(k) * 2 + Double($0) * 8, y: 40)) }))
            withUnsafePointer(to: &f) { core.frame($0, device: pad.path) }
            t = t.adding(seconds: 0.01)
        }
        core.outputs.removeAll()
        core.replace(config: try #require(Self.config(text).0), at: t)
        let steps = core.outputs.compactMap { o -> FollowMotion? in if case .invocation(let inv) = o { return inv.motion } else { return nil } }
        #expect(steps.map(\.phase) == [.cancel])
    }
}
