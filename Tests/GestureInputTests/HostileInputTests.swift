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
        let path = Self.temp(text)
        defer { unlink(path) }
        let back = try Recording.load(path: path)
        #expect(back.device.name == d.name)
        #expect(back.device.properties == d.properties)
    }

    static func temp(_ text: String) -> String {
        let path = "/tmp/gestured-hostile-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        _ = text.withCString { write(fd, $0, strlen($0)) }
        close(fd)
        return path
    }

    static func loadError(_ text: String) -> RecordingError? {
        let path = temp(text)
        defer { unlink(path) }
        do { _ = try Recording.load(path: path); return nil } catch { return error }
    }

    static let evemuHeader = "N: Tiny\nI: 0003 0001 0002 0003\nP: 00\nB: 00 0b\nB: 03 03\nA: 00 0 1000 0 0 10\nA: 01 0 500 0 0 10\n"

    /// Finding 4: a set bit past property byte 8192 trapped ("Not enough bits"). Every
    /// numeric field of an evemu file is range-checked: an error naming the line.
    @Test(arguments: [
        ("P: 00 00 00 00 01", "P: property bit 40 is past INPUT_PROP_MAX"), // after the header's own P: byte
        ("P: " + String(repeating: "00 ", count: 8192) + "01", "P: property bit 65544 is past INPUT_PROP_MAX"),
        ("P: " + String(repeating: "00 ", count: 30_000), "line longer than 16384 bytes"),
        ("I: 10000 0 0 0", "I: needs bustype"),
        ("B: 20 ff", "B: needs an event type"),
        ("B: 01 " + String(repeating: "ff ", count: 129), "B: bitmask for type 1 is longer"),
        ("A: 40 0 1 0 0", "A: needs an axis code"),
        ("A: 35 0 99999999999 0 0", "A: needs an axis code"),
        ("E: 99999999999.000000 0003 0000 1", "E: time"),
        ("E: -1.000000 0003 0000 1", "E: time"),
        ("E: 1.1234567 0003 0000 1", "E: time"),
        ("E: 1.000000 10000 0000 1", "E: type and code"),
        ("E: 1.000000 0003 0000 2147483648", "E: type and code"),
    ])
    func anEvemuNumberOutOfRangeIsAnError(_ line: String, _ message: String) throws {
        let error = try #require(Self.loadError(Self.evemuHeader + line + "\nE: 1.000000 0000 0000 0\n"))
        #expect(error.line == 8)
        #expect(error.message.hasPrefix(message), "\(error)")
    }

    static func libinputRecord(id: String = "[3, 1, 2, 3]", codes: String = "{0: [0], 3: [0, 1]}",
                               absinfo: String = "{0: [0, 1000, 0, 0, 10], 1: [0, 500, 0, 0, 10]}",
                               properties: String = "[]", event: String = "[0, 0, 3, 0, 5]") -> String {
        """
        version: 1
        ndevices: 1
        devices:
        - node: /dev/input/event3
          evdev:
            name: "Tiny"
            id: \(id)
            codes: \(codes)
            absinfo: \(absinfo)
            properties: \(properties)
          events:
          - evdev:
            - \(event)
            - [0, 0, 0, 0, 0]

        """
    }

    /// The same for `libinput record` YAML: numbers that used to be truncated or
    /// silently dropped are errors naming the line.
    @Test(arguments: [
        (libinputRecord(id: "[70000, 1, 2, 3]"), "id: must be"),
        (libinputRecord(codes: "{40: [0]}"), "codes: '40'"),
        (libinputRecord(codes: "{1: [70000]}"), "codes: '1'"),
        (libinputRecord(absinfo: "{64: [0, 1, 0, 0]}"), "absinfo: '64'"),
        (libinputRecord(absinfo: "{0: [0, 4294967296, 0, 0]}"), "absinfo: '0'"),
        (libinputRecord(properties: "[99999]"), "properties: must be"),
        (libinputRecord(event: "[99999999999, 0, 3, 0, 5]"), "an evdev event must be"),
        (libinputRecord(event: "[0, -1, 3, 0, 5]"), "an evdev event must be"),
        (libinputRecord(event: "[0, 0, 65536, 0, 5]"), "an evdev event must be"),
        (libinputRecord(event: "[0, 0, 3, 0, 99999999999999999999]"), "an evdev event must be"),
    ])
    func aLibinputRecordNumberOutOfRangeIsAnError(_ text: String, _ message: String) throws {
        let error = try #require(Self.loadError(text))
        #expect(error.line != nil)
        #expect(error.message.hasPrefix(message), "\(error)")
    }

    /// Finding 13: a 70 MB libinput record file took 903 MB as one YAML tree. Events
    /// are streamed now: a file whose event list alone has more nodes than the tree
    /// may keep (`YAMLStream.nodeLimit`) loads, and replays every event, in order.
    @Test func eventsAreStreamedNotKeptAsATree() throws {
        var text = Self.libinputRecord()
        let groups = 20_000 // × 6 nodes: past YAMLStream.limit.nodes (100 000)
        for i in 0..<groups { text += "  - evdev:\n    - [\(i / 1000), \(i % 1000), 0, 0, 0]\n" }
        let path = Self.temp(text)
        defer { unlink(path) }
        let r = try Recording.load(path: path)
        #expect(r.events.count == groups + 2)
        var n = 0, last: Int64 = -1, ordered = true
        for e in r.events { n += 1; ordered = ordered && e.time.microseconds >= last; last = e.time.microseconds }
        #expect(n == groups + 2 && ordered)
    }
}
