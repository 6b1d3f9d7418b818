import GestureTestSupport
import Glibc
import Testing

/// `gesture: shape` from the command line: bound over every bundled recording it takes
/// nothing that is no shape; `record-shape --from` makes a template `check` accepts
/// and `replay` recognizes, with `kind`, `shape` and `score` in `--json`.
@Suite struct ShapeReplayTests {
    /// A shape of any kind bound for every finger count, beside the default config's
    /// swipes: no bundled recording (taps, swipes, scrolls, drags, circles) fires one.
    @Test(arguments: Recordings.all)
    func aBoundShapeFiresNothingOnOrdinaryGestures(name: String, description: String?) throws {
        let dir = TempDir()
        let config = dir.write("config.yaml", """
        gestures:
        \((1...5).map { "  - {name: shape-\($0), gesture: shape, fingers: \($0), command: \"true\"}" }.joined(separator: "\n"))
        """)
        let lines = try ReplayTests.replay(name, description, ["--config", config])
        #expect(lines.isEmpty, "\(lines.map(\.text))")
    }

    /// The bcm5974's 1-finger circle recorded as a shape 'loop' (a user's own template
    /// from a real pad), then bound: replaying the recording finds it, with its score.
    @Test func aRecordedShapeIsRecognizedInTheRecordingItCameFrom() throws {
        let dir = TempDir()
        let config = dir.write("config.yaml", """
        gestures:
          - {name: loop, gesture: shape, fingers: 1, shape: loop, command: "echo $GESTURE_SHAPE $GESTURE_SCORE"}
        """)
        let recording = CommandLineTests.recordings + "/data_bcm5974.event"
        let r = try Gestured.run(["record-shape", "loop", "--from", recording, "--config", config, "--samples", "3"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("wrote 3 samples of 'loop' to \(dir.path)/shapes/loop.shape"), "\(r.stdout)")
        let check = try Gestured.run(["check", "--config", config])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        let lines = try ReplayTests.replay("data_bcm5974.event", nil, ["--config", config])
        let loops = lines.filter { $0["gesture"] == "loop" }
        #expect(!loops.isEmpty, "\(lines.map(\.text))")
        for l in loops {
            #expect(l["kind"] == "shape" && l["shape"] == "loop" && l["phase"] == "recognized")
            #expect((l["score"].flatMap(Double.init) ?? 0) >= 0.8, "\(l.text)")
        }
        let shown = try Gestured.run(["replay", recording, "--config", config])
        #expect(shown.stdout.contains("GESTURE_SHAPE=loop"), "\(shown.stdout)")
    }

    /// `record-shape` into `shapes/loop.shape` beside `config`, from the bcm5974's circle.
    static func recordLoop(_ config: String) throws -> Gestured.Result {
        try Gestured.run(["record-shape", "loop", "--from", CommandLineTests.recordings + "/data_bcm5974.event",
                          "--config", config, "--samples", "3"])
    }

    /// An earlier shape file writable by everyone is replaced by one that `check`
    /// accepts, and replaced whole: a reader that had the old file open still reads the
    /// old samples, never a truncated file.
    @Test func aRecordedShapeReplacesTheOldFileWholeWithAModeCheckAccepts() throws {
        let dir = TempDir()
        let config = dir.write("config.yaml", "gestures:\n  - {name: loop, gesture: shape, fingers: 1, shape: loop, command: \"true\"}\n")
        #expect(mkdir(dir.path + "/shapes", 0o755) == 0)
        let old = "gestured-shape 1\nsample 0,0 10,0 0,10\n"
        let path = dir.write("shapes/loop.shape", old, mode: 0o666)
        let reader = open(path, O_RDONLY)
        defer { close(reader) }
        let r = try Self.recordLoop(config)
        #expect(r.status == 0, "\(r.stderr)")
        var st = stat()
        #expect(stat(path, &st) == 0 && st.st_mode & 0o7777 == 0o644)
        #expect(try Gestured.run(["check", "--config", config]).status == 0)
        var buf = [UInt8](repeating: 0, count: 256)
        let n = read(reader, &buf, buf.count)
        #expect(n > 0 && String(decoding: buf[..<n], as: UTF8.self) == old)
    }

    /// A symbolic link or a FIFO where the shape file goes is refused: nothing is written
    /// through the link, and the FIFO is never opened (which would block).
    @Test func aShapeFileThatIsALinkOrAFIFOIsRefused() throws {
        let dir = TempDir()
        let config = dir.write("config.yaml", "gestures: []\n")
        #expect(mkdir(dir.path + "/shapes", 0o755) == 0)
        let victim = dir.write("victim", "mine\n")
        #expect(symlink(victim, dir.path + "/shapes/loop.shape") == 0)
        let linked = try Self.recordLoop(config)
        #expect(linked.status == 1)
        #expect(linked.stderr.contains("\(dir.path)/shapes/loop.shape: is a symbolic link; record-shape replaces only a regular file"), "\(linked.stderr)")
        #expect(UIProcessTests.read(victim) == "mine\n")
        #expect(unlink(dir.path + "/shapes/loop.shape") == 0 && mkfifo(dir.path + "/shapes/loop.shape", 0o600) == 0)
        let p = try Gestured.Process(["record-shape", "loop", "--from", CommandLineTests.recordings + "/data_bcm5974.event",
                                      "--config", config, "--samples", "3"])
        let status = p.wait(timeoutMS: 20_000)
        if status == nil { kill(p.pid, SIGKILL); _ = p.wait() }
        #expect(status == 1, "record-shape blocked on the FIFO")
        #expect(p.stderr.contains("is a FIFO (named pipe); record-shape replaces only a regular file"), "\(p.stderr)")
    }

    /// A recording of straight strokes makes no shape: they are a swipe's, which a
    /// shape gesture would fail before comparing.
    @Test func straightStrokesAreNoSamples() throws {
        let dir = TempDir()
        let config = dir.write("config.yaml", "gestures: []\n")
        let r = try Gestured.run(["record-shape", "drag", "--config", config, "--from",
                                  CommandLineTests.recordings + "/touchscreens_Atmel_maXTouch_Touchscreen.4-finger-drag-down.events"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("skipped 1 stroke too straight to be a shape (a swipe's: bend under 0.20)"), "\(r.stderr)")
        #expect(r.stderr.contains("nothing written"))
    }

    /// A broken template file: `check` fails and names the file, line and column.
    @Test func checkReportsABrokenShapeFile() throws {
        let dir = TempDir()
        let config = dir.write("config.yaml", "gestures:\n  - {name: q, gesture: shape, shape: q, command: x}\n")
        let shapes = dir.path + "/shapes"
        _ = shapes.withCString { mkdir($0, 0o755) }
        _ = dir.write("shapes/q.shape", "gestured-shape 1\nsample 0,0 5,5 9,x\n")
        let r = try Gestured.run(["check", "--config", config])
        #expect(r.status == 3)
        #expect((r.stdout + r.stderr).contains("\(shapes)/q.shape:2:16: error: expected a point 'x,y' (two numbers, mm), found '9,x'"),
                "\(r.stdout)\(r.stderr)")
    }
}
