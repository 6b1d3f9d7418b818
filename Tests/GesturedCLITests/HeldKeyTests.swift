import CLinux
import DaemonCore
import GestureActions
import GestureInput
import GestureTestSupport
import Glibc
import Testing
import TouchModel
@testable import Commands
@testable import DaemonLoop
import JSON
@testable import LiveView

/// The Alt+Tab switcher through the whole live path: a fake touchpad read by the real
/// libevdev, the engine, the mapper, and the virtual device writing into a fake
/// /dev/uinput. Whatever way the pan ends, Alt comes up.
@Suite(.serialized) struct HeldKeyTests {
    static let config = """
        gestures:
          - name: switcher
            gesture: pan
            fingers: 3
            axis: horizontal
            every: 10mm
            hold: alt
            update: {keys: tab, reverse: shift+tab}
        """

    /// A daemon running `config` (in `dir`, which must outlive it) whose virtual device
    /// writes into a fake /dev/uinput.
    static func daemonWithFakeUinput(_ dir: TempDir, config: String) throws -> (Daemon, FakeUinput) {
        let fake = FakeUinput()
        var options = Daemon.Options()
        options.openUinput = fake.open
        return (try LiveDeviceTests.makeDaemon(dir, config: config, options: options), fake)
    }

    enum WayOut: String, CaseIterable { case lift, unplugged, reload, shutdown }

    @Test(arguments: WayOut.allCases)
    func altIsReleasedOnEveryWayOut(_ way: WayOut) throws {
        let dir = TempDir()
        let (daemon, fake) = try Self.daemonWithFakeUinput(dir, config: Self.config)
        #expect(fake.created, "the config uses keys: the device is made at start")
        let pad = try FakeTouchpad()
        daemon.adopt(pad.device, announce: true)
        var seen: [FakeUinput.Record] = []
        LiveDeviceTests.swipe(pad, dxMM: 40, lift: way == .lift)
        let tab = FakeUinput.Record(type: 1, code: 15, value: 1)
        #expect(LiveDeviceTests.spin(daemon) { seen += fake.events(); return seen.filter { $0 == tab }.count >= 3 }, "\(seen)")
        switch way {
        case .lift: break
        case .unplugged: daemon.remove(pad.device.path, reason: "unplugged")
        case .reload: daemon.reload(reason: "test")
        case .shutdown: daemon.shutdown()
        }
        let altUp = FakeUinput.Record(type: 1, code: 56, value: 0)
        if way == .shutdown {
            seen += fake.events()  // the loop has stopped: nothing may be left for its timer
            #expect(seen.contains(altUp), "\(seen)")
        } else {
            #expect(LiveDeviceTests.spin(daemon) { seen += fake.events(); return seen.contains(altUp) }, "\(seen)")
        }
        let keys = seen.filter { $0.type == 1 }.map { "\($0.value == 1 ? "+" : "-")\($0.code)" }
        #expect(keys.first == "+56", "Alt goes down first")
        #expect(keys.last == "-56", "and comes up last")
        #expect(keys.dropFirst().dropLast().allSatisfy { $0 == "+15" || $0 == "-15" }, "\(keys)")
        #expect(daemon.virtualInput?.heldKeys == [])
    }

    /// A hold holding Super loses to the swipe that may follow it (`after: hold`):
    /// the arena cancels the running hold, and Super comes up with it.
    @Test func aHeldKeyIsReleasedWhenItsGestureLosesToAnother() throws {
        let dir = TempDir()
        let (daemon, fake) = try Self.daemonWithFakeUinput(dir, config: """
            gestures:
              - {name: hold, gesture: hold, fingers: 3, hold: super}
              - {name: swipe, gesture: swipe, fingers: 3, direction: left, after: hold, command: {keys: Page_Down}}
            """)
        let pad = try FakeTouchpad()
        daemon.adopt(pad.device, announce: true)
        LiveDeviceTests.swipe(pad, dxMM: -40, stillFor: 0.7)
        var seen: [String] = []
        #expect(LiveDeviceTests.spin(daemon) {
            seen += fake.events().filter { $0.type == 1 }.map { "\($0.value == 1 ? "+" : "-")\($0.code)" }
            return seen.count >= 4
        }, "\(seen)")
        // Super down at the hold, up when the swipe wins, before the swipe's Page_Down
        // (the arena reports the winner first: the daemon moves the release ahead).
        #expect(seen == ["+125", "-125", "+109", "-109"])
        #expect(daemon.virtualInput?.heldKeys == [])
    }

    @Test(arguments: ["gestured virtual input", "gestured virtual touchpad"])
    func gesturedNeverReadsItsOwnDevice(name: String) throws {
        let dir = TempDir()
        let (daemon, fake) = try Self.daemonWithFakeUinput(dir, config: Self.config)
        let pad = try FakeTouchpad(name: name)
        daemon.adopt(pad.device, announce: false)
        #expect(daemon.sessions.isEmpty)
    }
}
