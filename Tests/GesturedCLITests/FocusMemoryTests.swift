import CLinux
import DesktopSession
import Glibc
import Testing
@testable import Commands
@testable import DaemonLoop
import JSON
@testable import LiveView

/// Issue 26 item 9: a 16 MiB GET_TREE took the daemon from 12 to 503 MB, and 490 MB
/// stayed; a 3 MiB title cut `status` short and made `status --json` invalid.
@Suite(.serialized) struct FocusMemoryTests {
    /// A tree of `fillers` windows with many small members gestured does not read,
    /// then the focused one, titled `title`.
    static func tree(fillers: Int, title: String = "~") -> [UInt8] {
        let filler = #"{"type":"con","id":7,"rect":{"x":0,"y":0,"width":1,"height":1},"marks":[1,2,3,4,5,6,7,8],"urgent":false},"#
        return Array((#"{"type":"root","nodes":["# + String(repeating: filler, count: fillers)
            + #"{"type":"con","focused":true,"app_id":"foot","name":"\#(title)"}]}"#).utf8)
    }

    static func frame(_ type: UInt32, _ payload: [UInt8]) -> [UInt8] {
        var out = Array("i3-ipc".utf8)
        withUnsafeBytes(of: UInt32(payload.count)) { out += $0 }
        withUnsafeBytes(of: type) { out += $0 }
        return out + payload
    }

    /// Answers SUBSCRIBE and GET_TREE with `tree`, written as the reader takes it
    /// (the reader may be this thread's own loop).
    final class BigSway {
        let server: FakeSocketServer
        var pending: [Int32: ArraySlice<UInt8>] = [:]
        let tree: [UInt8]
        init(_ path: String, tree: [UInt8]) { server = FakeSocketServer(path: path); self.tree = tree }
        func serve() {
            server.pump()
            for fd in server.clients where pending[fd] == nil && (server.received[fd]?.count ?? 0) >= 14 + 20 + 14 {
                pending[fd] = (FocusMemoryTests.frame(2, Array(#"{"success":true}"#.utf8)) + FocusMemoryTests.frame(4, tree))[...]
            }
            for (fd, rest) in pending where !rest.isEmpty {
                let n = rest.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if n > 0 { pending[fd] = rest.dropFirst(n) }
            }
        }
    }

    static func kB(_ pid: pid_t, _ field: String) -> Int {
        let text = HostileDeviceTests.readAll("/proc/\(pid)/status")
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }) else { return -1 }
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? -1
    }

    /// The real daemon against a fake sway whose 3.9 MiB tree is ~60,000 windows of
    /// small members: the tree as values cost ~30× its text; what gestured reads of it
    /// costs a few MB, and goes back afterwards.
    @Test func aLargeTreeCostsLittleMemoryAndItGoesBack() throws {
        let s = ControlSocketTests.Session()
        let tree = Self.tree(fillers: 38_000)
        #expect(tree.count > 3_900_000 && tree.count < I3IPCSource.maxMessage)
        let sway = BigSway(s.dir.path + "/sway.sock", tree: tree)
        let d = try Gestured.Process(["run", "--config", s.config, "--input-dir", s.dir.path + "/input"],
                                     environment: s.env + ["SWAYSOCK=\(sway.server.path)"])
        defer { kill(d.pid, SIGTERM); _ = d.wait() }
        #expect(d.waitForLog("started:"))
        let before = Self.kB(d.pid, "VmRSS")
        var status = ""
        let deadline = clinux_monotonic_ns() + 60_000_000_000
        while !status.contains("focused app: foot (~)"), d.poll() == nil, clinux_monotonic_ns() < deadline {
            sway.serve()
            d.pump(ms: 20)
            status = (try? s.cli(["status"]).stdout) ?? ""
        }
        #expect(status.contains("focused app: foot (~) — from sway"), "\(status) \(d.stderr)")
        let peak = Self.kB(d.pid, "VmHWM"), after = Self.kB(d.pid, "VmRSS")
        // The buffer (4 MiB) and a little: the tree as values was > 100 MB.
        #expect(peak - before < 24_000, "peak \(peak) kB from \(before) kB")
        #expect(after - before < 4_000, "after \(after) kB from \(before) kB")
    }

    /// A 3 MiB title: `status` is whole, `status --json` valid, the title cut.
    @Test func aHugeTitleIsCutAndStatusStaysWhole() throws {
        let dir = TempDir()
        let sway = BigSway(dir.path + "/sway.sock", tree: Self.tree(fillers: 0, title: String(repeating: "t", count: 3 << 20)))
        var options = Daemon.Options()
        options.focus = FocusMonitor(source: I3IPCSource(name: "sway", socketPath: sway.server.path))
        let daemon = try LiveDeviceTests.makeDaemon(dir, config: "gestures: []\n", options: options)
        daemon.startFocus()
        #expect(LiveDeviceTests.spin(daemon, seconds: 20) { sway.serve(); return daemon.focus.app != nil })
        let title = try #require(daemon.focus.app?.title)
        #expect(title.unicodeScalars.count == FocusedApp.maxTitleLength && title.hasSuffix("…"))
        let text = daemon.answer(.status(json: false)).wire
        #expect(text.count < 4096 && text.hasSuffix("last gestures: none yet\n"), "\(text.prefix(300))")
        let json = try #require(JSONValue.parse(Array(daemon.answer(.status(json: true)).body.utf8)))
        #expect(json["focus"]?["title"]?.string == title)
    }
}

/// The reader's limits, unit by unit.
@Suite struct JSONLimitsTests {
    @Test func onlyTheKeysAskedForAreBuiltStringsAreCutAndTooManyValuesAreRefused() {
        let text = Array(#"{"a":{"b":[1,2,{"c":"xyz"}],"d":"long string"},"e":"é€😀é","skip":[[[{"deep":1}]]]}"#.utf8)
        let limits = JSONValue.Limits(keys: ["a", "d", "e"], maxStringScalars: 3)
        #expect(JSONValue.parse(text, limits: limits) == .object(["a": .object(["d": .string("lon")]), "e": .string("é€😀")]))
        #expect(JSONValue.parse(text, limits: JSONValue.Limits(maxValues: 13)) == nil)
        #expect(JSONValue.parse(text, limits: JSONValue.Limits(maxValues: 14))?["e"] == .string("é€😀é"))
        // What is skipped is still checked: a broken member is an error.
        #expect(JSONValue.parse(Array(#"{"skip":[1,}"#.utf8), limits: limits) == nil)
        #expect(JSONValue.parse(Array(#"{"skip":"\u12"}"#.utf8), limits: limits) == nil)
    }

    @Test func aLongStringIsCutBetweenCharactersNeverInOne() {
        let long = String(repeating: "a", count: 4095) + String(repeating: "é", count: 3000)
        let v = JSONValue.parse(Array("\"\(long)\"".utf8), limits: JSONValue.Limits(maxStringScalars: 5000))
        #expect(v == .string(String(long.prefix(5000))))
        #expect(JSONValue.parse(Array("\"\(long)\"".utf8)) == .string(long))
    }
}
