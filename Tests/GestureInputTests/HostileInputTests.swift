import Glibc
import GestureInput
import GestureTestSupport
import Testing
import TouchModel

/// Issue 10: a device or recording that lies. Findings 2 and 3 (what reaches libmtdev),
/// 4 (numeric fields of both formats), 9 (a device name that injects YAML keys).
@Suite struct HostileInputTests {
    /// bcm5974: a protocol-A touchpad, decoded through libmtdev.
    static func protocolADecoder() throws -> TouchDecoder {
        let r = try Recordings.load("data_bcm5974.event")
        return try TouchDecoder(description: r.device)
    }

    static func event(_ type: UInt16, _ code: UInt16, _ value: Int32, _ usec: Int64) -> InputEvent {
        InputEvent(time: Timestamp(microseconds: 1_000_000 + usec), type: type, code: code, value: value)
    }

    /// One contact, then SYN_REPORT; true if it made a frame with that contact.
    static func oneContact(_ decoder: TouchDecoder, at usec: Int64) -> Bool {
        for e in [event(EventType.abs, AbsCode.mtPositionX, 1000, usec), event(EventType.abs, AbsCode.mtPositionY, 2000, usec),
                  event(EventType.abs, AbsCode.mtTouchMajor, 100, usec), event(EventType.syn, SynCode.mtReport, 0, usec),
                  event(EventType.key, KeyCode.btnTouch, 1, usec)] { _ = decoder.feed(e) }
        return decoder.feed(event(EventType.syn, SynCode.report, 0, usec)) && decoder.frame.contacts.count == 1
    }

    /// Codes ≥ 0x40 indexed libmtdev's tables unchecked and wrote the value onto its stack (SIGSEGV).
    @Test(arguments: [UInt16(0x40), 0x80, 0xff, 0x100, 0x8000, 0xffff])
    func anUndeclaredAxisCodeNeverReachesLibmtdev(_ code: UInt16) throws {
        let decoder = try Self.protocolADecoder()
        var frames = 0
        for e in [Self.event(EventType.abs, AbsCode.mtPositionX, 1000, 1), Self.event(EventType.abs, AbsCode.mtPositionY, 2000, 2),
                  Self.event(EventType.abs, code, 0x4141_4141, 3), Self.event(EventType.syn, SynCode.mtReport, 0, 4),
                  Self.event(EventType.key, KeyCode.btnTouch, 1, 5), Self.event(EventType.syn, SynCode.report, 0, 6)]
            where decoder.feed(e) { frames += 1 }
        #expect(frames == 1)
        #expect(decoder.frame.contacts.count == 1)
        #expect(decoder.rejections.undeclaredEvents == 1)
        #expect(decoder.rejections.description.contains("code 0x\(String(code, radix: 16))"))
    }

    @Test func anEventTypeOutOfRangeIsDropped() throws {
        let decoder = try Self.protocolADecoder()
        #expect(!decoder.feed(Self.event(0xffff, 0, 1, 1)))
        #expect(!decoder.feed(Self.event(EventType.syn, 0x7fff, 1, 2)))
        #expect(Self.oneContact(decoder, at: 3))
        #expect(decoder.rejections.undeclaredEvents == 1, "EV_SYN with an unknown code counts; EV_0xffff is simply not read")
    }

    /// 32 contacts in one frame, the last with ABS_MT_TOUCH_MAJOR, made libmtdev loop
    /// forever (a hang here would hang the test run; GesturedCLITests checks it with a
    /// bounded wait on a child process and on the live daemon).
    @Test func aFrameOfThirtyTwoContactsIsCutShortAndLogged() throws {
        let decoder = try Self.protocolADecoder()
        var t: Int64 = 0
        func feed(_ type: UInt16, _ code: UInt16, _ value: Int32) -> Bool { t += 1; return decoder.feed(Self.event(type, code, value, t)) }
        for i in 0..<32 {
            _ = feed(EventType.abs, AbsCode.mtPositionX, 1000 + Int32(i) * 40)
            _ = feed(EventType.abs, AbsCode.mtPositionY, 2000)
            if i == 31 { _ = feed(EventType.abs, AbsCode.mtTouchMajor, 100) }
            _ = feed(EventType.syn, SynCode.mtReport, 0)
        }
        #expect(feed(EventType.syn, SynCode.report, 0))
        #expect(decoder.frame.contacts.count == TouchCapabilities.anonymousSlots)
        #expect(decoder.rejections.truncatedFrames == 1)
        #expect(decoder.rejections.description.contains("more than 16 contacts or 256 events"))
        // The next, ordinary frame goes through whole.
        _ = feed(EventType.abs, AbsCode.mtPositionX, 1000)
        _ = feed(EventType.abs, AbsCode.mtPositionY, 2000)
        _ = feed(EventType.syn, SynCode.mtReport, 0)
        #expect(feed(EventType.syn, SynCode.report, 0))
        #expect(decoder.frame.contacts.count == 1)
        #expect(decoder.rejections.truncatedFrames == 1)
    }

    @Test func aFloodOfEventsWithoutSynReportIsBounded() throws {
        let decoder = try Self.protocolADecoder()
        for i in 0..<100_000 { _ = decoder.feed(Self.event(EventType.abs, AbsCode.pressure, Int32(i & 255), Int64(i))) }
        _ = decoder.feed(Self.event(EventType.syn, SynCode.report, 0, 100_001))
        #expect(decoder.rejections.truncatedFrames == 1)
        #expect(Self.oneContact(decoder, at: 100_002), "the next frame goes through")
    }

    /// Finding 9: `record` wrote the raw name into a `# Name:` comment, so a newline
    /// injected keys that replay then used.
    @Test func aHostileDeviceNameRoundTripsThroughARecording() throws {
        let pad = try FakeTouchpad()
        var d = pad.device.description
        d.name = "evil\n    name: Injected\n    properties: [1, 2, 3]\n\u{1b}[31m\"q\"\\"
        var text = RecordingWriter.header(for: d, node: "/dev/input/event9")
        var writer = RecordingWriter()
        for e in [Self.event(EventType.abs, AbsCode.mtSlot, 0, 0), Self.event(EventType.abs, AbsCode.mtTrackingID, 1, 1),
                  Self.event(EventType.abs, AbsCode.mtPositionX, 100, 2), Self.event(EventType.syn, SynCode.report, 0, 3)] {
            if let group = writer.add(e) { text += group }
        }
        #expect(!text.contains("\n    name: Injected"))
        let path = "/tmp/gestured-hostile-name-\(getpid()).yaml"
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        _ = text.withCString { write(fd, $0, strlen($0)) }
        close(fd)
        defer { unlink(path) }
        let back = try Recording.load(path: path)
        #expect(back.device.name == d.name)
        #expect(back.device.properties == d.properties)
    }
}
