import Glibc
import GestureInput
import GestureTestSupport
import Testing
import TouchModel

/// `gestured import` as a user runs it: the help, the files it writes and refuses
/// to write, hostile input, and an imported config driving a replay.
@Suite struct ImportCommandTests {
    static let imports: String = Recordings.repository + "/Tests/Imports"

    @Test func helpSaysWhatItReadsAndWrites() throws {
        let r = try Gestured.run(["import", "--help"])
        #expect(r.status == 0)
        #expect(r.stdout == """
            usage: gestured import FILE [--from libinput-gestures|fusuma|touchegg] [-o FILE] [--force]

            Writes a gestured config that does what another gesture tool's config does:
            libinput-gestures (libinput-gestures.conf), fusuma (config.yml) or touchegg
            (touchegg.conf). The format is found from the file unless --from names it.
            Each gesture says where it came from (file:line); what gestured cannot do is
            kept as a comment in its place, with the reason. The result passes
            `gestured check`; a summary and the command to try it go to standard error.

              --from FORMAT      libinput-gestures, fusuma or touchegg
              -o, --output FILE  write to FILE instead of standard output; an existing
                                 FILE is never replaced without --force, and a failed
                                 import leaves no file
              --force            replace FILE if it exists

            exit codes: 0 imported, 1 a file could not be read or written, 2 usage error,
                        3 FILE is not a valid config of its format (file:line:column: why), or
                          its translation is more than a gestured config may hold

            """)
    }

    /// Each fixture through the binary: the file written passes `gestured check`.
    @Test(arguments: ["libinput-gestures.conf", "fusuma-default.yml", "touchegg.conf"])
    func theWrittenFilePassesCheck(fixture: String) throws {
        let dir = TempDir()
        let out = dir.path + "/config.yaml"
        let r = try Gestured.run(["import", Self.imports + "/" + fixture, "-o", out])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "")
        #expect(r.stderr.contains(" bindings imported, "))
        #expect(r.stderr.hasSuffix("try it: gestured run --config \(out) --dry-run\n"))
        let check = try Gestured.run(["check", out])
        #expect(check.status == 0, "\(check.stdout)")
        #expect(check.stdout.contains("\(out): ok, "))
    }

    @Test func anExistingFileIsReplacedOnlyWithForce() throws {
        let dir = TempDir()
        let out = dir.write("config.yaml", "# mine\n")
        let input = Self.imports + "/fusuma-default.yml"
        let r = try Gestured.run(["import", input, "-o", out])
        #expect(r.status == 1)
        #expect(r.stderr == "gestured import: \(out) exists; --force replaces it\n")
        #expect(UIProcessTests.read(out) == "# mine\n")
        let forced = try Gestured.run(["import", input, "-o", out, "--force"])
        #expect(forced.status == 0)
        #expect(UIProcessTests.read(out)?.hasPrefix("# Imported by `gestured import` from fusuma's \(input).") == true)
        #expect(FileSystemProbe.names(in: dir.path).filter { !$0.hasPrefix(".") || $0.count > 2 }.sorted() == ["config.yaml"])  // no temporary file left
    }

    /// Input gestured cannot take: an error naming the file (and the place, for text
    /// that is not its format), a status of its own, and no output file. The huge file
    /// (100 MB, sparse) is refused from its size, unread.
    @Test(arguments: [
        ("touchegg.conf", "<touchégg>\n  <gesture type=SWIPE>\n", 0, Int32(3), ":2:17: error: the value of 'type' must be quoted (read as touchegg; --from names another format)"),
        ("huge.conf", "", 100 << 20, Int32(1), ": error: not a regular file of at most 4 MiB (a gesture config is far smaller)"),
    ])
    func badInputIsAnErrorAndWritesNothing(name: String, text: String, size: Int, status: Int32, message: String) throws {
        let dir = TempDir()
        let input = dir.write(name, text)
        if size > 0 { #expect(truncate(input, off_t(size)) == 0) }
        let out = dir.path + "/config.yaml"
        let r = try Gestured.run(["import", input, "-o", out])
        #expect(r.status == status)
        #expect(r.stderr == input + message + "\n")
        #expect(access(out, F_OK) != 0)
    }

    /// A NUL in a command, and a file whose translation is more than a config may be
    /// (every later line for one gesture keeps the earlier as a comment): each an error
    /// with exit status 3 and no output file, not "a bug in gestured import".
    @Test func aNULOrAnOversizedTranslationIsAnErrorWithStatus3() throws {
        let dir = TempDir()
        let nul = dir.path + "/nul.conf"
        let fd = open(nul, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        let bytes = Array("gesture swipe up 3 echo a\u{0}b\n".utf8)
        #expect(write(fd, bytes, bytes.count) == bytes.count)
        close(fd)
        let big = dir.write("big.conf", String(repeating: "gesture swipe up 3 notify-send " + String(repeating: "x", count: 60) + "\n", count: 40_000))
        let out = dir.path + "/config.yaml"
        let r = try Gestured.run(["import", nul, "-o", out])
        #expect(r.status == 3)
        #expect(r.stderr == nul + ":1:26: error: a NUL character: no config holds one, and a command would be cut short there (read as libinput-gestures; --from names another format)\n")
        let b = try Gestured.run(["import", big, "-o", out])
        #expect(b.status == 3)
        #expect(b.stderr.hasPrefix(big + ": error: the gestured config would be more than"), "\(b.stderr)")
        #expect(b.stderr.contains("the gestured config would be more than the 4 MiB a config may be (1 binding imported, 39999 kept as comments): remove"))
        #expect(access(out, F_OK) != 0)
    }

    @Test func aFIFOIsRefusedWithoutBlocking() throws {
        let dir = TempDir()
        let fifo = dir.path + "/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        let r = try Gestured.run(["import", fifo])
        #expect(r.status == 1)
        #expect(r.stderr == "\(fifo): error: not a regular file\n")
    }

    @Test func anUnknownFormatGetsADidYouMean() throws {
        let r = try Gestured.run(["import", "x.conf", "--from", "touchgg"])
        #expect(r.status == 2)
        #expect(r.stderr.hasPrefix("gestured import: --from takes libinput-gestures, fusuma, touchegg, not 'touchgg'; did you mean 'touchegg'?"))
    }

    /// The example, round trip: `gesture swipe left 3 xdotool key super+Right`
    /// imported, then a 3-finger swipe left on a touchpad replayed through the result
    /// fires it and presses super+Right.
    @Test func aReplayedSwipeFiresTheImportedBinding() throws {
        let dir = TempDir()
        let input = dir.write("libinput-gestures.conf", "gesture swipe left 3 xdotool key super+Right\n")
        let config = dir.path + "/config.yaml"
        #expect(try Gestured.run(["import", input, "-o", config]).status == 0)
        var s = EventScript()
        for slot: Int32 in 0..<3 { s.down(slot: slot, id: 10 + slot, x: 600 + slot * 100, y: 300) }
        s.key(KeyCode.btnTouch, 1); s.key(KeyCode.btnToolTripleTap, 1); s.syn()
        for step: Int32 in 1...20 {
            s.wait(ms: 10)
            for slot: Int32 in 0..<3 { s.move(slot: slot, x: 600 + slot * 100 - step * 20, y: 300) }
            s.syn()
        }
        s.wait(ms: 10)
        for slot: Int32 in 0..<3 { s.up(slot: slot) }
        s.key(KeyCode.btnTouch, 0); s.key(KeyCode.btnToolTripleTap, 0); s.syn()
        var text = RecordingWriter.header(for: syntheticTouchpad(), node: "/dev/input/event5")
        var writer = RecordingWriter()
        for e in s.events { if let group = writer.add(e) { text += group } }
        let recording = dir.write("swipe.yml", text)
        let r = try Gestured.run(["replay", recording, "--config", config])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("swipe-left-3  swipe recognized  3 fingers  left"), "\(r.stdout)")
        #expect(r.stdout.contains("would run: [swipe-left-3] command: keys super+Right"), "\(r.stdout)")
    }

    /// A bundled recording (a 4-finger drag down on a touchscreen) through touchegg's
    /// default config: its `SWIPE 4 DOWN` → `CHANGE_DESKTOP auto` fires.
    @Test func aBundledRecordingFiresToucheggsDefault() throws {
        let dir = TempDir()
        let config = dir.path + "/config.yaml"
        #expect(try Gestured.run(["import", Self.imports + "/touchegg.conf", "-o", config]).status == 0)
        let r = try Gestured.run(["replay", Recordings.path("touchscreens_Atmel_maXTouch_Touchscreen.4-finger-drag-down.events"), "--config", config])
        #expect(r.stdout.contains("would run: [swipe-down-4] command: workspace previous"), "\(r.stdout)")
    }
}
