import GestureEngine
import LinuxSystem
import PlainText
import TouchModel
import YAMLTree

/// A user's shape templates: `shapes/NAME.shape` beside the config file, written by
/// `gestured record-shape NAME` (docs/SHAPES.md). Plain text, read as hostile:
///
/// ```
/// gestured-shape 1
/// # comments and blank lines anywhere
/// sample 0.0,0.0 12.5,0.3 1.2,11.8 13.0,12.1
/// sample …
/// ```
///
/// The first line that is not blank or a comment says the format; each `sample` line
/// is one drawn example, its points `x,y` in mm (any unit: only the form counts).
public enum ShapeFile {
    public static let header = "gestured-shape 1"
    /// Bounds: a file, the samples in it, the points of one sample, a coordinate.
    public static let maximumBytes = 256 << 10
    public static let maximumSamples = 32
    public static let maximumPoints = 2048
    public static let maximumCoordinate = 100_000.0
    /// The file's extension.
    public static let suffix = ".shape"

    /// Where the shapes of the config file `configFile` live: `shapes/` beside it (a
    /// relative path: beside it from the working directory); nil for a config that
    /// is no file (the built-in one).
    public static func directory(besideConfig configFile: String) -> String? {
        guard !configFile.isEmpty, configFile != ConfigLoader.builtInName else { return nil }
        guard let slash = configFile.lastIndex(of: "/") else { return "shapes" }
        return String(configFile[..<slash]) + "/shapes"
    }

    /// The templates in a file's text, or the diagnostics (errors with line:column)
    /// that make it unusable. `name` is the shape the file holds (its file name).
    public static func parse(_ bytes: [UInt8], name: String, file: String) -> ([ShapeTemplate], [Diagnostic]) {
        func error(_ line: Int, _ column: Int, _ message: String) -> ([ShapeTemplate], [Diagnostic]) {
            ([], [Diagnostic(.error, file: file, mark: SourceMark(line: line, column: column), message)])
        }
        guard bytes.count <= maximumBytes else {
            return ([], [Diagnostic(.error, file: file, mark: nil, "the file is \(bytes.count) bytes; a shape file may be at most \(maximumBytes >> 10) KiB")])
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return ([], [Diagnostic(.error, file: file, mark: nil, "the file is not UTF-8 text")])
        }
        var templates: [ShapeTemplate] = []
        var sawHeader = false
        var lineNumber = 0
        for line in text.textLines {
            lineNumber += 1
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            let indent = line.count - trimmed.count
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            if !sawHeader {
                guard trimmed == header[...] else {
                    return error(lineNumber, indent + 1, "a shape file begins with '\(header)', found '\(trimmed.prefix(40))'")
                }
                sawHeader = true
                continue
            }
            let keyword = trimmed.prefix { $0 != " " && $0 != "\t" }
            guard keyword == "sample" else {
                return error(lineNumber, indent + 1, "expected 'sample' and its points (x,y x,y …), found '\(trimmed.prefix(40))'")
            }
            guard templates.count < maximumSamples else {
                return error(lineNumber, indent + 1, "more than \(maximumSamples) samples; a few (3–10) are plenty")
            }
            var points: [Point] = []
            var column = indent + keyword.count
            var rest = trimmed.dropFirst(keyword.count)
            while !rest.isEmpty {
                let spaces = rest.prefix { $0 == " " || $0 == "\t" }
                column += spaces.count
                rest = rest.dropFirst(spaces.count)
                guard !rest.isEmpty else { break }
                let word = rest.prefix { $0 != " " && $0 != "\t" }
                guard points.count < maximumPoints else {
                    return error(lineNumber, column + 1, "more than \(maximumPoints) points in one sample")
                }
                let parts = word.split(separator: ",", omittingEmptySubsequences: false)
                guard parts.count == 2, let x = Double(parts[0]), let y = Double(parts[1]),
                      x.isFinite, y.isFinite, abs(x) <= maximumCoordinate, abs(y) <= maximumCoordinate else {
                    return error(lineNumber, column + 1, "expected a point 'x,y' (two numbers, mm), found '\(word.prefix(40))'")
                }
                points.append(Point(x: x, y: y))
                column += word.count
                rest = rest.dropFirst(word.count)
            }
            guard points.count >= 2, QRecognizer.Cloud(points) != nil else {
                return error(lineNumber, indent + 1, "a sample needs at least 2 points that are not all the same")
            }
            templates.append(ShapeTemplate(name: name, points: points))
        }
        guard sawHeader else { return error(1, 1, "the file is empty; a shape file begins with '\(header)'") }
        guard !templates.isEmpty else { return error(lineNumber, 1, "the file has no 'sample' line") }
        return (templates, [])
    }

    /// The text of a file holding `samples` of a shape.
    public static func render(name: String, samples: [[Point]], comment: String? = nil) -> String {
        var s = header + "\n# shape '\(name)' for gestured (docs/SHAPES.md)\n"
        if let comment { s += "# \(comment)\n" }
        for sample in samples {
            s += "sample"
            for p in sample { s += " " + p.x.fixed(2) + "," + p.y.fixed(2) }
            s += "\n"
        }
        return s
    }
}

extension ConfigParser {
    /// `shape:` — names of built-in shapes or of files in the shape directory; each
    /// file is read (once per config) and its errors reported where they are.
    mutating func shapes(_ v: YAMLNode, into d: inout Draft) {
        let list = names(v, "shape").filter { name, mark in
            // A shape's name travels inline in each event (`ShapeName`).
            guard name.utf8.count <= ShapeName.capacity else {
                log.error(mark, "a shape's name is at most \(ShapeName.capacity) bytes, found \(name.utf8.count)")
                return false
            }
            return true
        }
        for (name, mark) in list where !loadedShapes.contains(name) {
            let path = shapeDirectory.map { $0 + "/" + name + ShapeFile.suffix }
            if let path, FileSystem.exists(path) {
                loadedShapes.insert(name)
                switch ConfigLoader.readFile(path, uid: Process.userID) {
                case .failure(let problem): log.append(problem)
                case .success(let bytes):
                    let (templates, problems) = ShapeFile.parse(bytes, name: name, file: path)
                    for p in problems { log.append(p) }
                    userShapes += templates
                }
            } else if !ShapeTemplate.builtInNames.contains(name) {
                let known = ShapeTemplate.builtInNames
                log.error(mark, "unknown shape '\(name)': the built-in shapes are \(known.joined(separator: ", "))"
                    + (path.map { ", and there is no \($0) (record it with 'gestured record-shape \(name)')" } ?? "")
                    + DidYouMean.hint(for: name, among: known))
            }
        }
        d.spec.shapes = list.map(\.0)
    }
}

extension ConfigParser {
    /// A swipe bound for the same fingers as a shape waits for the shape to fail (the
    /// arena's rule, docs/ENGINE.md "Shape"), so it fires at the lift: said once per
    /// swipe, naming the first such shape.
    mutating func warnSwipesWaitingForShapes() {
        let shapes = drafts.indices.filter { drafts[$0].valid && drafts[$0].spec.kind.traits.swipesWaitForIt && drafts[$0].spec.enabled }
        guard !shapes.isEmpty else { return }
        // The ones that would act mid-stroke (a swipe; a scrub decides at the lift anyway).
        for w in drafts where w.valid && w.spec.kind.traits.discrete && w.spec.kind.traits.takesTranslation
            && w.spec.kind.traits.gate != .atLift {
            guard let s = shapes.first(where: { i in
                let shape = drafts[i].spec
                return shape.fingers.overlaps(w.spec.fingers)
                    && (shape.devices.kind == nil || w.spec.devices.kind == nil || shape.devices.kind == w.spec.devices.kind)
                    && !shape.simultaneousWith.contains(w.spec.name) && !w.spec.simultaneousWith.contains(shape.name)
            }) else { continue }
            log.warning(w.mark, "\(w.spec.kind.rawValue) '\(w.spec.name)' waits for shape '\(drafts[s].spec.name)' (line \(drafts[s].mark.line)), bound for the same fingers: it fires when the fingers lift, not as it crosses its distance; bind the shape for other fingers to keep the swipe early")
        }
    }
}
