import Glibc
import GestureEngine
import Testing
import TouchModel
@testable import GestureConfig

/// A config directory with a `shapes/` directory beside the config, removed afterwards.
private final class ShapeDir {
    let dir: String
    private var files: [String] = []
    init() {
        var template = Array("/tmp/gestured-shapes-XXXXXX".utf8CString)
        dir = String(cString: mkdtemp(&template))
        mkdir(dir + "/shapes", 0o755)
    }
    @discardableResult
    func write(_ name: String, _ contents: String) -> String {
        let path = dir + "/" + name
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        _ = contents.utf8CString.withUnsafeBufferPointer { Glibc.write(fd, $0.baseAddress, $0.count - 1) }
        close(fd)
        files.append(path)
        return path
    }
    deinit {
        for f in files { unlink(f) }
        rmdir(dir + "/shapes")
        rmdir(dir)
    }
}

@Suite struct ShapeFileTests {
    static let good = """
    gestured-shape 1
    # a hand-drawn 'q'
    sample 0,0 10,0 10,10 0,10 0,0 10,20
    \tsample 0,0 11,1 10,12 0,10 1,0 10,21

    """

    @Test func aFileReadsAsItsSamples() {
        let (templates, problems) = ShapeFile.parse(Array(Self.good.utf8), name: "q", file: "q.shape")
        #expect(problems.isEmpty)
        #expect(templates.count == 2 && templates.allSatisfy { $0.name == "q" })
        #expect(templates.first?.points.count == 6)
        #expect(templates.first?.points[5] == Point(x: 10, y: 20))
    }

    /// A file saved on Windows (CRLF) or an old Mac (CR) reads as the same samples, and
    /// an error in it is at the line an editor shows. `sample` may be followed by a tab,
    /// as SHAPES.md says points are separated by spaces or tabs.
    @Test(arguments: ["\r\n", "\r"])
    func otherLineEndsReadAsTheSameSamples(end: String) {
        let crlf = Self.good.replacingLineEnds(with: end)
        let (templates, problems) = ShapeFile.parse(Array(crlf.utf8), name: "q", file: "q.shape")
        #expect(problems.isEmpty, "\(problems)")
        #expect(templates.map(\.points) == ShapeFile.parse(Array(Self.good.utf8), name: "q", file: "q.shape").0.map(\.points))
        let bad = "gestured-shape 1\(end)# a comment\(end)sample 0,0 1,x\(end)"
        #expect(ShapeFile.parse(Array(bad.utf8), name: "q", file: "q.shape").1.map(\.description)
                == ["q.shape:3:12: error: expected a point 'x,y' (two numbers, mm), found '1,x'"])
    }

    @Test func aTabMaySeparateSampleFromItsPoints() {
        let (templates, problems) = ShapeFile.parse(Array("gestured-shape 1\nsample\t0,0\t10,0 0,10\n".utf8), name: "t", file: "t.shape")
        #expect(problems.isEmpty, "\(problems)")
        #expect(templates.first?.points == [Point(x: 0, y: 0), Point(x: 10, y: 0), Point(x: 0, y: 10)])
    }

    /// What `record-shape` writes reads back as what it recorded.
    @Test func aRenderedFileReadsBack() {
        let samples = [[Point(x: 0, y: 0), Point(x: 12.5, y: 3), Point(x: 1, y: 20.25)]]
        let text = ShapeFile.render(name: "hook", samples: samples, comment: "from a test")
        let (templates, problems) = ShapeFile.parse(Array(text.utf8), name: "hook", file: "hook.shape")
        #expect(problems.isEmpty)
        #expect(templates.map(\.points) == samples)
    }

    /// A hostile or broken file: one clear error with its line and column.
    @Test(arguments: [
        ("sample 0,0 1,1\n", "f.shape:1:1: error: a shape file begins with 'gestured-shape 1', found 'sample 0,0 1,1'"),
        ("gestured-shape 1\nsample 0,0 1,x 3,3\n", "f.shape:2:12: error: expected a point 'x,y' (two numbers, mm), found '1,x'"),
        ("gestured-shape 1\nsample 0,0 nan,1\n", "f.shape:2:12: error: expected a point 'x,y' (two numbers, mm), found 'nan,1'"),
        ("gestured-shape 1\nsample 0,0 1e300,1\n", "f.shape:2:12: error: expected a point 'x,y' (two numbers, mm), found '1e300,1'"),
        ("gestured-shape 1\n  points 0,0\n", "f.shape:2:3: error: expected 'sample' and its points (x,y x,y …), found 'points 0,0'"),
        ("gestured-shape 1\nsample 4,4 4,4\n", "f.shape:2:1: error: a sample needs at least 2 points that are not all the same"),
        ("gestured-shape 1\n# nothing\n", "f.shape:3:1: error: the file has no 'sample' line"),
        ("", "f.shape:1:1: error: the file is empty; a shape file begins with 'gestured-shape 1'"),
    ] as [(String, String)])
    func aBadFileSaysWhereItIsBad(text: String, message: String) {
        let (templates, problems) = ShapeFile.parse(Array(text.utf8), name: "f", file: "f.shape")
        #expect(templates.isEmpty)
        #expect(problems.map(\.description) == [message])
    }

    /// The bounds: size, samples and points per sample.
    /// A shape's name travels inline in every event (`ShapeName`, 31 bytes): a longer
    /// one is an error at its place, and a name that fits comes back whole.
    @Test func aShapesNameFitsInItsEvent() throws {
        let long = String(repeating: "s", count: ShapeName.capacity + 1)
        #expect(check("gestures:\n  - {name: a, gesture: shape, shape: \(long), command: x}\n")
                == ["config.yaml:2:38: error: a shape's name is at most 31 bytes, found 32"])
        for name in ["z", "check", "ünïcode-shape", String(repeating: "w", count: ShapeName.capacity)] {
            #expect(try #require(ShapeName(name)).string == name)
        }
        #expect(ShapeName(long) == nil)
        var e = GestureEvent(name: "a", index: 0, kind: .shape, phase: .recognized, time: Timestamp(microseconds: 0), fingers: 1)
        e.shape = "triangle"
        #expect(e.shape == "triangle" && e.shapeName == ShapeName("triangle"))
        #expect(ShapeName("n") != ShapeName("z"))
    }

    @Test func aHugeFileIsRefused() {
        let many = "gestured-shape 1\n" + String(repeating: "sample 0,0 1,1\n", count: ShapeFile.maximumSamples + 1)
        #expect(ShapeFile.parse(Array(many.utf8), name: "f", file: "f").1.first?.description
            == "f:\(ShapeFile.maximumSamples + 2):1: error: more than \(ShapeFile.maximumSamples) samples; a few (3–10) are plenty")
        let long = "gestured-shape 1\nsample" + String(repeating: " 1,2", count: ShapeFile.maximumPoints + 1) + "\n"
        #expect(ShapeFile.parse(Array(long.utf8), name: "f", file: "f").1.first?.description.contains("more than \(ShapeFile.maximumPoints) points") == true)
        let big = [UInt8](repeating: 0x20, count: ShapeFile.maximumBytes + 1)
        #expect(ShapeFile.parse(big, name: "f", file: "f").1.first?.description.contains("at most 256 KiB") == true)
        #expect(ShapeFile.parse([0xff, 0xfe], name: "f", file: "f").1.first?.description == "f: error: the file is not UTF-8 text")
    }

    /// A config naming a recorded shape reads `shapes/NAME.shape` beside it: every shape
    /// gesture then knows it; `check` reports a broken one at its own line and column.
    @Test func aConfigReadsItsRecordedShapes() throws {
        let d = ShapeDir()
        d.write("shapes/q.shape", Self.good)
        let config = d.write("config.yaml", """
        gestures:
          - {name: q, gesture: shape, shape: q, command: x}
          - {name: z, gesture: shape, fingers: 2, shape: z, command: x}
        """)
        let (c, problems) = ConfigLoader.load(path: config)
        #expect(problems.map(\.description) == [])
        #expect(c?.specs.map(\.shapeTemplates.count) == [2, 2])
        #expect(c?.specs.first?.shapes == ["q"])

        let broken = d.write("shapes/q.shape", "gestured-shape 1\nsample 0,0 1;1\n")
        let (none, errors) = ConfigLoader.load(path: config)
        #expect(none == nil)
        #expect(errors.map(\.description) == ["\(broken):2:12: error: expected a point 'x,y' (two numbers, mm), found '1;1'"])
    }

    @Test func anUnknownShapeSaysWhereToRecordIt() throws {
        let d = ShapeDir()
        let config = d.write("config.yaml", "gestures:\n  - {name: q, gesture: shape, shape: trinagle, command: x}\n")
        let (_, errors) = ConfigLoader.load(path: config)
        #expect(errors.map(\.description) == ["\(config):2:38: error: unknown shape 'trinagle': the built-in shapes are z, n, s, l, check, caret, triangle, w, and there is no \(d.dir)/shapes/trinagle.shape (record it with 'gestured record-shape trinagle'); did you mean 'triangle'?"])
    }

    /// A swipe bound beside a shape for the same fingers is told it acts at the lift;
    /// one for other fingers, or simultaneous with the shape, is not.
    @Test func aSwipeBesideAShapeIsToldItWaits() {
        let (_, d) = ConfigLoader.parse("""
        gestures:
          - {name: zed, gesture: shape, fingers: 3, shape: z, command: x}
          - {name: left, gesture: swipe, fingers: 3, direction: left, command: x}
          - {name: up, gesture: swipe, fingers: 4, direction: up, command: x}
          - {name: down, gesture: swipe, fingers: 3, direction: down, simultaneous-with: zed, command: x}
        """, file: "c.yaml")
        #expect(d.map(\.description) == ["c.yaml:3:5: warning: swipe 'left' waits for shape 'zed' (line 2), bound for the same fingers: it fires when the fingers lift, not as it crosses its distance; bind the shape for other fingers to keep the swipe early"])
    }

    /// Two shape gestures for different shapes do not shadow each other; the same
    /// shapes twice do.
    @Test func differentShapesAreDifferentGestures() {
        let (_, d) = ConfigLoader.parse("""
        gestures:
          - {name: a, gesture: shape, shape: z, command: x}
          - {name: b, gesture: shape, shape: n, command: x}
          - {name: c, gesture: shape, shape: [z], command: x}
        """, file: "c.yaml")
        #expect(d.map(\.description) == ["c.yaml:4:5: warning: gesture 'c' can never fire: 'a' (line 2) is the same shape and comes first; add 'simultaneous-with' or change one of them"])
    }
}

extension String {
    /// The text with each "\n" written as `end`.
    func replacingLineEnds(with end: String) -> String {
        split(separator: "\n", omittingEmptySubsequences: false).joined(separator: end)
    }
}
