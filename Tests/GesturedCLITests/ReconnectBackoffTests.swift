import CLinux
@testable import DesktopSession
import Glibc
import Testing
@testable import Commands
@testable import DaemonLoop
import JSON
@testable import LiveView

/// Issue 26 item 10: any byte from the compositor reset the reconnect backoff, so a
/// peer that answered and closed was redialled every 0.5 s forever.
@Suite(.serialized) struct ReconnectBackoffTests {
    /// A fake sway that answers SUBSCRIBE and GET_TREE, then hangs up at once.
    @Test func aPeerThatClosesAfterEachReplyIsRedialledLessAndLessOften() throws {
        let dir = TempDir()
        let sway = I3IPCProtocolTests.FakeSway(dir.path + "/sway.sock")
        // 20 ms doubling to 160 ms: in 1 s, about 8 attempts (0.02 + 0.04 + 0.08 + 0.16 …).
        let h = try SourceHarness(I3IPCSource(name: "sway", socketPath: sway.server.path, retryInitial: 0.02, retryMaximum: 0.16))
        var connections = 0
        let deadline = clinux_monotonic_ns() + 1_000_000_000
        while clinux_monotonic_ns() < deadline {
            sway.serve()
            for fd in sway.server.clients where sway.answered.contains(fd) {
                sway.server.hangUp(fd)
                sway.answered.remove(fd)  // the next connection may get the same number
                connections += 1
            }
            h.loop.runOnce(timeoutMS: 5)
        }
        #expect(h.changes.first == FocusedApp(app: "XTerm", title: "xterm"), "each connection delivered the focus")
        // Reset by each reply, it was 1 s / 20 ms ≈ 50 (fewer on a busy machine, never ~8).
        #expect(connections >= 2 && connections <= 12, "\(connections) connections in 1 s; \(h.log.suffix(4))")
    }

    /// The rule, on a clock of the test's own: a connection that stayed up the longest
    /// delay (10 s) proved healthy, and the next loss waits the first delay again.
    @Test func onlyAConnectionThatLastedResetsTheBackoff() throws {
        let loop = try EventLoop()
        var clock: Int64 = 0
        let timer = ReconnectTimer(initial: 0.5, maximum: 10, now: { clock })
        var delays: [Double] = []
        func loseAfter(_ seconds: Double) {
            timer.connected()
            clock += Int64(seconds * 1e9)
            delays.append(timer.delay)
            timer.schedule(on: loop) {}
        }
        for _ in 0..<7 { loseAfter(0.1) }
        #expect(delays == [0.5, 1, 2, 4, 8, 10, 10], "short-lived connections keep backing off")
        loseAfter(9.9)
        #expect(timer.delay == 10, "9.9 s is not yet healthy")
        loseAfter(10)
        #expect(delays.last == 10 && timer.delay == 1, "after a healthy connection: 0.5 s now, then 1 s")
        timer.cancel()
    }
}
