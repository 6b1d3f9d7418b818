import CLinux
import GestureInput
import GestureTestSupport
import Glibc
import LinuxSystem
import Testing
import TouchModel
@testable import Commands
@testable import DaemonLoop
import JSON
@testable import LiveView

/// `try PATH` on the control socket (gestured ui's Try): the daemon runs a second
/// config beside its own, in dry run, on the very frames it reads, and says what it
/// decides on the event stream with `"source":"try"`.
@Suite(.serialized) struct TryRunTests {
    /// Writes `text` beside the daemon's config and returns its path.
    static func file(_ s: EventStreamTests.Session, _ text: String, name: String = "try.yaml") throws -> String {
        let path = s.dir.path + "/" + name
        try AtomicFile.write(Array(text.utf8), to: path, mode: 0o600)
        return path
    }

    static func ask(_ s: EventStreamTests.Session, _ request: String) throws -> String {
        let c = try EventStreamTests.Client(s.socket, request: request)
        #expect(s.spin { c.read(); return c.answer != nil }, "no answer to \(request)")
        return c.answer ?? ""
    }

    /// Tried with the running config itself, every line the try says is a line the
    /// daemon said, to the byte, but for its source: the try saw the daemon's own frames,
    /// not a copy rounded on its way through JSON.
    @Test func aTryOfTheRunningConfigSaysWhatTheDaemonSaysToTheByte() throws {
        let s = try EventStreamTests.Session()
        let reader = try s.subscribe()
        #expect(try Self.ask(s, "try " + Self.file(s, EventStreamTests.config)) == "ok")
        let pad = try FakeTouchpad(name: "Pad")
        s.daemon.adopt(pad.device, announce: true)
        LiveDeviceTests.swipe(pad, dxMM: -40)
        #expect(s.spin { reader.read(); return reader.raw.contains { $0.contains("\"source\":\"try\"") && $0.contains("\"phase\":\"recognized\"") } })
        let tried = reader.raw.filter { $0.contains(",\"source\":\"try\"}") && ($0.hasPrefix("{\"type\":\"gesture\"") || $0.hasPrefix("{\"type\":\"state\"")) }
        let own = Set(reader.raw.filter { !$0.contains("\"source\"") })
        #expect(tried.count >= 3, "\(tried)")
        for line in tried {
            let untagged = line.replacing(",\"source\":\"try\"}", with: "}")
            #expect(own.contains(untagged), "the try said what the daemon did not: \(line)")
        }
        // What it would run is said, never run.
        #expect(reader.raw.contains { $0.hasPrefix("{\"type\":\"action\"") && $0.contains("\"outcome\":\"dry-run\"") && $0.contains("\"source\":\"try\"") })
    }

    /// The try ends with the process that asked for it (gestured ui killed does not
    /// leave it running), at `try off`, and when another replaces it.
    @Test func aTryLastsAsLongAsTheProcessThatAskedForIt() throws {
        let s = try EventStreamTests.Session()
        let reader = try s.subscribe()
        let path = try Self.file(s, "gestures:\n  - {name: tried, gesture: swipe, fingers: 3, direction: left, command: echo tried}\n")
        // Another process asks (socat, as a script would), then exits.
        let child = try Process.spawn("/bin/sh", arguments: ["sh", "-c", "printf 'try \(path)\\n' | socat -t 1 - UNIX-CONNECT:\(s.socket)"],
                                      environment: Process.environment(), stdout: .standardError, stderr: .standardError, newProcessGroup: false)
        defer { _ = try? Process.reap(child, blocking: true) }
        var exited = false
        #expect(s.spin { if !exited { exited = (try? Process.reap(child, blocking: false)) != nil }; return s.daemon.tryRun != nil || exited })
        guard s.daemon.tryRun != nil else {
            Issue.record("the child's try was not taken (socat: sudo apt-get install socat)")
            return
        }
        #expect(s.spin { s.daemon.tryRun == nil }, "the try outlived its process")
        _ = reader

        #expect(try Self.ask(s, "try " + path) == "ok")
        #expect(s.daemon.tryRun?.file == path)
        let other = try Self.file(s, EventStreamTests.config, name: "other.yaml")
        #expect(try Self.ask(s, "try " + other) == "ok")
        #expect(s.daemon.tryRun?.file == other, "a second try replaces the first")
        #expect(try Self.ask(s, "try off") == "ok")
        #expect(s.daemon.tryRun == nil)
    }

    @Test func aTryIsRefusedWithNobodyReadingOrAConfigWithErrors() throws {
        let s = try EventStreamTests.Session()
        let good = try Self.file(s, EventStreamTests.config)
        #expect(try Self.ask(s, "try " + good).hasPrefix("error: what a try does is said on the event stream"))
        let reader = try s.subscribe()
        let bad = try Self.file(s, "gestures:\n  - {name: x, gesture: swipe, fingers: 3, direction: sideways}\n", name: "bad.yaml")
        #expect(try Self.ask(s, "try " + bad).hasPrefix("error: \(bad): 1 error"))
        #expect(try Self.ask(s, "try relative.yaml").hasPrefix("error: 'try' takes the absolute path"))
        #expect(s.daemon.tryRun == nil)
        _ = reader
    }
}
