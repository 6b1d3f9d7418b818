import GestureInput
import GestureTestSupport
import Glibc
import Testing
import TouchModel

/// Reading and writing recordings; bad files get an error naming file and line.
@Suite struct RecordingFormatTests {
    private func temp(_ text: String, _ name: String = "rec") throws -> String {
        let path = "/tmp/gestured-test-\(getpid())-\(name)-\(UInt32.random(in: 0...UInt32.max))"
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        try #require(fd >= 0)
        _ = text.withCString { write(fd, $0, strlen($0)) }
        close(fd)
        return path
    }

    @Test func libinputRecordRoundTripsThroughTheWriter() throws {
        let original = try Recordings.load("touchscreens_Atmel_maXTouch_Touchscreen.4-finger-drag-down.events")
        var text = RecordingWriter.header(for: original.device, node: "/dev/input/event7")
        var writer = RecordingWriter()
        for e in original.events { if let group = writer.add(e) { text += group } }
        let path = try temp(text)
        defer { unlink(path) }
        let back = try Recording.load(path: path)
        #expect(back.device.name == original.device.name)
        #expect(back.device.absinfo == original.device.absinfo)
        #expect(back.device.codes == original.device.codes)
        #expect(back.device.properties == original.device.properties)
        #expect(back.events.count == original.events.count)
        // Times are relative to the start, as libinput record writes them.
        let t0 = original.events.first!.time.microseconds
        for (a, b) in zip(original.events, back.events) {
            #expect(a.type == b.type && a.code == b.code && a.value == b.value)
            #expect(a.time.microseconds - t0 == b.time.microseconds)
        }
    }

    /// A `libinput record` file saved with CRLF line ends (a Windows editor, a mail)
    /// is still found to be one (past its first line, a comment as libinput writes it),
    /// and reads as the same events.
    @Test func libinputRecordWithCRLFLineEndsReadsTheSame() throws {
        let original = try Recordings.load("touchscreens_Atmel_maXTouch_Touchscreen.4-finger-drag-down.events")
        var text = RecordingWriter.header(for: original.device, node: "/dev/input/event7")
        var writer = RecordingWriter()
        for e in original.events { if let group = writer.add(e) { text += group } }
        text = "# libinput record\n" + text
        let path = try temp(text.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\r\n"))
        defer { unlink(path) }
        let back = try Recording.load(path: path)
        #expect(back.device.name == original.device.name)
        #expect(back.events.count == original.events.count)
    }

    @Test func libinputRecordWithUdevPropertiesClassifiesByThem() throws {
        let text = """
        version: 1
        ndevices: 1
        devices:
        - node: /dev/input/event3
          evdev:
            name: "Weird Touch Thing"
            id: [3, 1, 2, 3]
            codes:
              0: [0]
              1: [330]
              3: [0, 1, 47, 53, 54, 57]
            absinfo:
              0: [0, 1000, 0, 0, 10]
              1: [0, 500, 0, 0, 10]
              47: [0, 9, 0, 0, 0]
              53: [0, 1000, 0, 0, 10]
              54: [0, 500, 0, 0, 10]
              57: [0, 65535, 0, 0, 0]
            properties: []
          udev:
            properties:
            - ID_INPUT=1
            - ID_INPUT_TOUCHPAD=1
          events:
          - evdev:
            - [  0,      0,   3,  47,      0] # EV_ABS / ABS_MT_SLOT
            - [  0,      0,   3,  57,      5]
            - [  0,      0,   3,  53,    200]
            - [  0,      0,   3,  54,    100]
            - [  0,      0,   0,   0,      0]
          - evdev:
            - [  0,  12000,   3,  57,     -1]
            - [  0,  12000,   0,   0,      0]
        """
        let path = try temp(text)
        defer { unlink(path) }
        let r = try Recording.load(path: path)
        #expect(try TouchCapabilities(r.device).kind == .touchpad, "udev says touchpad, though the bits alone say touchscreen")
        let decoder = try TouchDecoder(description: r.device)
        var frames: [TouchFrame] = []
        for e in r.events where decoder.feed(e) { frames.append(decoder.frame) }
        #expect(frames.map(\.fingerCount) == [1, 0])
        #expect(frames[0].contacts[0].position == Point(x: 20, y: 10))
        #expect(frames[1].time.microseconds == 12000)
    }

    @Test(arguments: [
        ("N: Broken\nA: 35 0\n", 2, "A: needs"),
        ("N: Broken\nE: 1.000000 0003 0035\n", 2, "E: needs"),
        ("N: Broken\nE: 1.0000000000 0003 0035 1\n", 2, "not seconds.microseconds"),
        ("N: Broken\nE: 1.000000 zz 0035 1\n", 2, "hex"),
        ("N: Broken\nI: 0003 00zz\n", 2, "I: needs"),
        ("N: Broken\nB: 99 ff\n", 2, "event type"),
        ("hello world\n", 1, "unexpected 'hello'"),
    ])
    func garbageEvemuNamesFileAndLine(text: String, line: Int, fragment: String) throws {
        let path = try temp(text)
        defer { unlink(path) }
        do {
            _ = try Recording.load(path: path)
            Issue.record("\(text) was accepted")
        } catch {
            #expect(error.line == line)
            #expect(error.path == path)
            #expect(error.description.hasPrefix("\(path):\(line): "))
            #expect(error.description.contains(fragment), "\(error)")
        }
    }

    @Test func missingDescriptionSaysWhatToPass() throws {
        let path = try temp("E: 1.000000 0003 0035 1\n")
        defer { unlink(path) }
        #expect(throws: RecordingError.self) { try Recording.load(path: path) }
        do { _ = try Recording.load(path: path) } catch {
            #expect(error.description.contains("--description"))
        }
    }

    @Test func truncatedRecordingsStillLoadTheirCompleteLines() throws {
        let full = try String(decoding: readAll(Recordings.path("touchpads_CyPS2_Cypress_Trackpad.three_finger_tap.events")), as: UTF8.self)
        let lines = full.split(separator: "\n", omittingEmptySubsequences: false)
        // Cut mid-way through an E: line: the half line is an error naming that line.
        let cutAt = lines.firstIndex { $0.hasPrefix("E:") }! + 20
        let truncated = lines[..<cutAt].joined(separator: "\n") + "\n" + lines[cutAt].prefix(20)
        let path = try temp(String(truncated))
        defer { unlink(path) }
        do {
            _ = try Recording.load(path: path)
            Issue.record("a truncated E: line was accepted")
        } catch {
            #expect(error.line == cutAt + 1)
        }
    }

    @Test func malformedYAMLNamesTheLine() throws {
        let path = try temp("version: 1\ndevices:\n- evdev: [unclosed\n  name: x\n")
        defer { unlink(path) }
        do {
            _ = try Recording.load(path: path)
            Issue.record("malformed YAML was accepted")
        } catch {
            #expect(error.line != nil)
            #expect(error.description.hasPrefix(path + ":"))
        }
    }

    @Test func yamlAliasesAreRefused() throws {
        let path = try temp("version: 1\ndevices: &a [*a]\n")
        defer { unlink(path) }
        #expect(throws: RecordingError.self) { try Recording.load(path: path) }
    }

    @Test func missingFileNamesTheErrno() {
        do {
            _ = try Recording.load(path: "/nonexistent/rec.events")
            Issue.record("a missing file was accepted")
        } catch {
            #expect(error.description == "/nonexistent/rec.events: ENOENT (No such file or directory)")
        }
    }

    /// Bounded fuzz: random lines mixed into a valid recording never crash the reader.
    @Test func randomLinesNeverCrashTheReader() throws {
        let base = try String(decoding: readAll(Recordings.path("tablets_Wacom_ISDv4_E6_Finger.2fg-tap.events")), as: UTF8.self)
        let desc = Recordings.path("tablets_Wacom_ISDv4_E6_Finger.desc")
        var rng = SplitMix64(seed: 42)
        let alphabet = Array("NIPBAE: 0123456789abcdefx.-#\t\r")
        var accepted = 0, rejected = 0
        for _ in 0..<300 {
            var lines = base.split(separator: "\n").map(String.init)
            for _ in 0..<3 {
                let n = Int(rng.next() % 30)
                let junk = String((0..<n).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] })
                lines.insert(junk, at: Int(rng.next() % UInt64(lines.count + 1)))
            }
            let path = try temp(lines.joined(separator: "\n"))
            defer { unlink(path) }
            do {
                let r = try Recording.load(path: path, descriptionPath: desc)
                if let decoder = try? TouchDecoder(description: r.device) {
                    for e in r.events { _ = decoder.feed(e) }
                }
                accepted += 1
            } catch {
                #expect(error.line != nil || error.description.contains("no "))
                rejected += 1
            }
        }
        #expect(rejected > 0)
    }

    private func readAll(_ path: String) throws -> [UInt8] {
        let fd = open(path, O_RDONLY)
        try #require(fd >= 0)
        defer { close(fd) }
        var out: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = read(fd, &buf, buf.count)
            if n <= 0 { break }
            out += buf[0..<n]
        }
        return out
    }
}
