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

/// Issue 10 against the daemon and the command line: findings 2 and 3 (what reaches
/// libmtdev) and 8 (log forging through a device name).
@Suite(.serialized) struct HostileDeviceTests {
    /// A pipe the logger writes to, read back without blocking.
    final class LogPipe {
        let readFD: Int32, writeFD: Int32
        var text = ""
        init() {
            var fds: [Int32] = [0, 0]
            _ = pipe(&fds)
            readFD = fds[0]; writeFD = fds[1]
            _ = fcntl(readFD, F_SETFL, O_NONBLOCK)
        }
        deinit { close(readFD); close(writeFD) }
        func drain() -> String {
            var buf = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = read(readFD, &buf, buf.count)
                guard n > 0 else { break }
                text += String(decoding: buf[0..<n], as: UTF8.self)
            }
            return text
        }
    }

    /// The fake 100 × 60 mm clickpad without slots: protocol A (contacts ended by
    /// `SYN_MT_REPORT`), read through libmtdev, with a touch-major axis.
    static let protocolAPad: DeviceDescription = {
        let abs: [UInt16: AbsInfo] = [
            AbsCode.x: AbsInfo(minimum: 0, maximum: 1000, resolution: 10),
            AbsCode.y: AbsInfo(minimum: 0, maximum: 600, resolution: 10),
            AbsCode.mtPositionX: AbsInfo(minimum: 0, maximum: 1000, resolution: 10),
            AbsCode.mtPositionY: AbsInfo(minimum: 0, maximum: 600, resolution: 10),
            AbsCode.mtTouchMajor: AbsInfo(minimum: 0, maximum: 255),
        ]
        return DeviceDescription(name: "Fake Touchpad", id: InputID(bustype: 0x18, vendor: 0x6cb, product: 0x1234),
                                 properties: [InputProperty.pointer, InputProperty.buttonpad],
                                 codes: [EventType.key: [KeyCode.btnLeft, KeyCode.btnTouch, KeyCode.btnToolFinger,
                                                         KeyCode.btnToolDoubleTap, KeyCode.btnToolTripleTap],
                                         EventType.abs: Set(abs.keys)],
                                 absinfo: abs, udevProperties: ["ID_INPUT_TOUCHPAD": "1"])
    }()

    /// One protocol-A frame: each contact's position then SYN_MT_REPORT.
    static func frame(_ pad: FakeTouchpad, _ xs: [Int32], major: Bool = false, at t: Timestamp) {
        for (i, x) in xs.enumerated() {
            pad.send(EventType.abs, AbsCode.mtPositionX, x, at: t)
            pad.send(EventType.abs, AbsCode.mtPositionY, 300, at: t)
            if major && i == xs.count - 1 { pad.send(EventType.abs, AbsCode.mtTouchMajor, 100, at: t) }
            pad.send(EventType.syn, SynCode.mtReport, 0, at: t)
        }
        if xs.isEmpty { pad.send(EventType.syn, SynCode.mtReport, 0, at: t) }
        pad.send(EventType.key, KeyCode.btnTouch, xs.isEmpty ? 0 : 1, at: t)
        pad.send(EventType.key, KeyCode.btnToolTripleTap, xs.count == 3 ? 1 : 0, at: t)
        pad.send(EventType.syn, SynCode.report, 0, at: t)
    }

    /// Finding 2 on the live path: libmtdev looped forever on this frame, with the
    /// daemon at 100 % CPU deaf to SIGTERM. Now the frame is cut short, the reason is
    /// logged, and the next gesture on the same device runs its command.
    @Test func thirtyTwoContactsOnAProtocolADeviceAreCutShortAndTheDaemonGoesOn() throws {
        let dir = TempDir()
        let out = dir.path + "/swiped"
        var options = Daemon.Options()
        options.configPath = dir.write("config.yaml", """
        gestures:
          - name: next
            gesture: swipe
            fingers: 3
            direction: right
            command: echo next > \(out)
        """)
        options.inputDirectory = dir.path + "/input"
        mkdir(options.inputDirectory, 0o700)
        let log = LogPipe()
        let daemon = try Daemon(options: options, logger: Logger(threshold: .info, environment: [:], fd: FileDescriptor(rawValue: log.writeFD)), environment: [:])
        let pad = try FakeTouchpad(description: Self.protocolAPad)
        daemon.adopt(pad.device, announce: true)

        // Sent together, stamped in the recent past, so the engine's clock never
        // passes the frames' own times between them.
        var t = Timestamp(microseconds: clinux_monotonic_ns() / 1000 - 500_000)
        Self.frame(pad, (0..<32).map { 100 + $0 * 25 }, major: true, at: t)
        t = t.adding(seconds: 0.05)
        Self.frame(pad, [], at: t)
        for step in 0...20 {
            t = t.adding(seconds: 0.01)
            Self.frame(pad, [300, 400, 500].map { $0 + Int32(step) * 20 }, at: t)
        }
        Self.frame(pad, [], at: t.adding(seconds: 0.01))
        #expect(LiveDeviceTests.spin(daemon) { LiveDeviceTests.read(out) == "next\n" }, "\(log.drain())")
        #expect(log.drain().contains("gestured: warning: fake:\(pad.readFD) (Fake Touchpad): 1 protocol-A frame cut short: more than 16 contacts or 256 events in one frame\n"))
    }

    /// Finding 8: a name with `\n<0>` made a second journal line at emergency priority.
    @Test func aDeviceNameCannotForgeAJournalLine() {
        let log = LogPipe()
        let logger = Logger(threshold: .info, environment: ["JOURNAL_STREAM": "8:1"], fd: FileDescriptor(rawValue: log.writeFD))
        logger.notice("added /dev/input/event9: touchpad \"pad\n<0>gestured: forged\r\u{1b}[2K\"")
        let text = log.drain()
        #expect(text == #"<5>added /dev/input/event9: touchpad "pad\n<0>gestured: forged\r\u001b[2K""# + "\n")
    }

    @Test func listDevicesEscapesWhatTheDeviceSays() {
        let text = ListDevicesCommand.text([DeviceReport(path: "/dev/input/event3", name: "kbd\n\u{1b}]0;owned\u{7}", status: .ignored("no touch axes"))])
        #expect(text.hasPrefix(#"/dev/input/event3  not used  "kbd\n\u001b]0;owned\u0007": no touch axes"# + "\n"))
    }

    /// A config's own text echoed in a diagnostic (an unknown key written with YAML's
    /// `\e`) reaches the terminal escaped, from `check` and from `replay`.
    @Test func configTextInADiagnosticIsEscaped() throws {
        let dir = TempDir()
        let config = dir.write("config.yaml", """
        gestures:
          - name: x
            gesture: swipe
            fingers: 3
            "\\e[2Jevil\\r": 1
            command: "true"
        """)
        let check = try Gestured.run(["check", "--config", config])
        #expect(check.stdout.contains(#"unknown key '\u001b[2Jevil\r'"#), "\(check.stdout)")
        #expect(!check.stdout.contains("\u{1b}") && !check.stdout.contains("\r"))
        let replay = try Gestured.run(["replay", Recordings.path("touchpads_CyPS2_Cypress_Trackpad.three_finger_tap.events"), "--config", config])
        #expect(replay.stderr.contains(#"unknown key '\u001b[2Jevil\r'"#), "\(replay.stderr)")
    }

    /// Findings 2 and 3 through `replay`, in a child process with a bounded wait: the
    /// frame libmtdev hung on, and axis codes that made it write onto its stack.
    @Test(arguments: ["0080", "00ff", "0100", "8000", "ffff", "32-contacts"])
    func aHostileProtocolARecordingReplaysWithoutCrashOrHang(_ what: String) throws {
        let dir = TempDir()
        let header = Self.readAll(Recordings.path("data_bcm5974.event"))
            .split(separator: "\n").filter { !$0.hasPrefix("E:") }.joined(separator: "\n")
        var events: [String] = []
        var t = 0
        func e(_ type: String, _ code: String, _ value: Int) { t += 1; events.append("E: 1.\(100_000 + t) \(type) \(code) \(value)") }
        if what == "32-contacts" {
            for i in 0..<32 {
                e("0003", "0035", 1000 + i * 40); e("0003", "0036", 2000)
                if i == 31 { e("0003", "0030", 100) }
                e("0000", "0002", 0)
            }
        } else {
            e("0003", "0035", 1000); e("0003", what, 0x4141_4141); e("0000", "0002", 0)
        }
        e("0000", "0000", 0)
        let path = dir.write("hostile.event", header + "\n" + events.joined(separator: "\n") + "\n")
        let p = try Gestured.Process(["replay", path, "--detect"])
        #expect(p.wait() == 0, "\(p.stderr)")
        #expect(p.stderr.contains(what == "32-contacts" ? "1 protocol-A frame cut short" : "code 0x\(String(UInt16(what, radix: 16)!, radix: 16))"))
    }

    static func readAll(_ path: String) -> String {
        let fd = open(path, O_RDONLY)
        defer { close(fd) }
        var bytes: [UInt8] = [], buf = [UInt8](repeating: 0, count: 65536)
        while case let n = read(fd, &buf, buf.count), n > 0 { bytes += buf[0..<n] }
        return String(decoding: bytes, as: UTF8.self)
    }
}
