import DaemonCore
import DesktopActions
import DesktopSession
import GestureActions
import GestureConfig
import GestureTestSupport
import Testing
import TouchModel
@testable import DaemonLoop

/// A follow on KDE Plasma, Hyprland or niri: played on gestured's virtual touchpad as
/// the desktop's own touchpad swipe (the device itself, on the real kernel with libinput,
/// is Tests/vm/scenario/virtual-touchpad.sh and follow-touchpad.sh).
@Suite(.serialized) struct TouchpadFollowTests {
    static let config = try! #require(ConfigLoader.parse("""
        gestures:
          - {name: ws, gesture: pan, fingers: 4, axis: horizontal, command: {workspace: follow}}
        """, file: "follow.yaml").0)

    static func pan(_ sink: DesktopActions, dx: Double, steps: Int, end: FollowMotion.Phase) {
        for k in 0...steps {
            let phase: FollowMotion.Phase = k == 0 ? .begin : k == steps ? end : .update
            var inv = Invocation(gesture: "ws", trigger: "begin", action: .desktop(.follow(Follow(transition: .workspace))), environment: [])
            inv.motion = FollowMotion(phase: phase, time: Timestamp(microseconds: Int64(k) * 10_000), translation: Point(x: dx * Double(k + 1), y: 0),
                                      velocity: Point(x: dx * 100, y: 0), device: .touchscreen, surface: Size(width: 300, height: 190), fingers: 4)
            sink.submit(inv)
        }
    }

    /// The number of fingers down on the pad after each SYN_REPORT.
    static func fingersPerFrame(_ records: [FakeUinput.Record]) -> [Int] {
        var tool = 0, out: [Int] = []
        for r in records {
            if r.type == 1, (0x14d...0x14f).contains(r.code) || r.code == 0x145 || r.code == 0x148 {
                if r.value == 1 { tool = [0x145: 1, 0x14d: 2, 0x14e: 3, 0x14f: 4, 0x148: 5][r.code]! } else if r.value == 0 { tool = 0 }
            }
            if r.type == 0, r.code == 0 { out.append(tool) }
        }
        return out
    }

    @Test func kdesWorkspaceFollowIsAFourFingerSwipeOnTheVirtualTouchpad() throws {
        let fake = FakeUinput()
        let loop = try EventLoop()
        var lines: [String] = []
        let sink = DesktopActions(detected: .desktop(.kde(bus: "unix:path=/nonexistent")), loop: loop, log: { lines.append($1) })
        sink.makeTouchpad = { () throws(VirtualTouchpad.Failure) in try VirtualTouchpad(open: fake.open) }
        sink.prepareFollow(config: Self.config)
        let pad = try #require(sink.touchpad, "made before the first follow: \(lines)")
        #expect(lines == ["follows are played on \"gestured virtual touchpad\" (input-fake), as KDE Plasma's own touchpad swipes"])
        _ = fake.events()  // the device's setup
        Self.pan(sink, dx: -1, steps: 20, end: .end)
        // The paced frames (pre-roll, catch-up) go out on the daemon's timer.
        for _ in 0..<1000 {
            guard let due = sink.deadline else { break }
            sink.timerFired(at: due)
        }
        let fingers = Self.fingersPerFrame(fake.events())
        #expect(fingers.first == 4 && fingers.last == 0, "four fingers landed, then lifted: \(fingers)")
        #expect(fingers.dropLast().allSatisfy { $0 == 4 }, "one swipe: the fingers stay down until the end")
        #expect(pad.state == .idle)
        #expect(sink.lastFollowProgress.map { abs($0 - 21.0 / 300) < 1e-9 } == true, "21 mm of a 300 mm screen")
    }

    @Test func withNoVirtualTouchpadAFollowIsItsOneStep() throws {
        let loop = try EventLoop()
        var lines: [String] = []
        let sink = DesktopActions(detected: .desktop(.kde(bus: "unix:path=/nonexistent")), loop: loop, log: { lines.append($1) })
        sink.makeTouchpad = { () throws(VirtualTouchpad.Failure) in throw VirtualTouchpad.Failure("open /dev/uinput", .permissionDenied) }
        sink.prepareFollow(config: Self.config)
        #expect(sink.touchpad == nil)
        #expect(lines.first?.hasPrefix("follows will be one step, not moved with the fingers: no virtual touchpad: open /dev/uinput: EACCES") == true, "\(lines)")
        Self.pan(sink, dx: -1, steps: 3, end: .end)
        #expect(sink.lastFollowProgress == nil, "the end gives nothing; the one step went at the beginning")
        #expect(lines.contains { $0.contains("Switch One Desktop to the Right") || $0.contains("workspace next") }, "the step was asked of KDE: \(lines)")
    }
}
