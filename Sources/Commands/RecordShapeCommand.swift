import DaemonLoop
import GestureConfig
import GestureEngine
import GestureInput
import Glibc
import LinuxSystem
import PlainText
import TouchModel

/// `gestured record-shape NAME [DEVICE | --from RECORDING]`: a few drawn samples of a
/// shape into `shapes/NAME.shape` beside the config (docs/SHAPES.md).
enum RecordShapeCommand {
    static let help = """
    usage: gestured record-shape NAME [DEVICE] [--from RECORDING [--description FILE]]
                                 [--samples N] [--config PATH]

    Records a shape for `gesture: shape` with `shape: NAME`: draw it on DEVICE (a
    touchpad or touchscreen, /dev/input/eventN) N times, lifting the fingers after
    each, or take every stroke of a recording (`gestured record`, evemu). Writes
    shapes/NAME.shape beside the config (~/.config/gestured/shapes/ by default),
    replacing an earlier file of that name; a recorded shape named like a built-in
    one replaces it. Strokes under 10 mm across are skipped.

      --from RECORDING    read the strokes from a recording instead of a device
      --description FILE  the evemu device description, for event files without a header
      --samples N         how many samples to take (default 5 from a device, all from a
                          recording; at most \(ShapeFile.maximumSamples))
      --config PATH       the config whose shapes/ directory to write to
    """

    static func run(_ args: ArraySlice<String>) throws -> GesturedCommand.ExitCode {
        let a = try Arguments(args, spec: .init(flags: [], options: ["from", "description", "samples", "config"]))
        guard let name = a.positionals.first else { throw UsageError("needs the shape's NAME, e.g. gestured record-shape hook") }
        guard !name.isEmpty, name.utf8.count <= ShapeName.capacity, name.unicodeScalars.allSatisfy({ c in
            c.properties.isAlphabetic || ("0"..."9").contains(c) || c == "-" || c == "_" || c == "."
        }), !name.hasPrefix(".") else {
            throw UsageError("'\(name)' is not a usable shape name; expected at most \(ShapeName.capacity) letters, digits, '-', '_' or '.'")
        }
        var limit: Int?
        if let s = a.option("samples") {
            guard let n = Int(s), (1...ShapeFile.maximumSamples).contains(n) else {
                throw UsageError("--samples takes a count from 1 to \(ShapeFile.maximumSamples), found '\(s)'")
            }
            limit = n
        }
        let directory: String
        let environment = Logger.environment()
        if let config = a.option("config") {
            guard let d = ShapeFile.directory(besideConfig: config) else {
                throw UsageError("--config \(config): not a file path")
            }
            directory = d
        } else if let d = configSearchPath(environment: environment).first.flatMap(ShapeFile.directory(besideConfig:)) {
            directory = d
        } else {
            Output.err("gestured record-shape: neither HOME nor XDG_CONFIG_HOME says where the config lives; pass --config")
            return .failure
        }
        var samples: [[Point]]
        let source: String
        if let from = a.option("from") {
            guard a.positionals.count == 1 else { throw UsageError("takes a DEVICE or --from RECORDING, not both") }
            let recording: Recording
            do { recording = try Recording.load(path: from, descriptionPath: a.option("description")) } catch {
                Output.err("gestured record-shape: \(from): \(error)")
                return .failure
            }
            let pipeline = try ReplayPipeline(recording: recording, specs: [])
            var strokes = StrokeCollector()
            var found: [[Point]] = []
            pipeline.run(onFrame: { f in if let s = strokes.add(f) { found.append(s) } }, onEvents: { _ in })
            samples = found
            source = "from \(from)"
        } else {
            guard a.positionals.count == 2 else { throw UsageError("needs a DEVICE (/dev/input/eventN) to draw on, or --from RECORDING") }
            guard let drawn = try live(a.positionals[1], count: limit ?? 5) else { return .failure }
            samples = drawn
            source = "drawn on \(a.positionals[1])"
        }
        // A stroke a shape gesture would fail before comparing it is no sample.
        let straight = samples.filter { !Self.bendsEnough($0) }.count
        if straight > 0 {
            Output.err("skipped \(straight) stroke\(straight == 1 ? "" : "s") too straight to be a shape (a swipe's: bend under \(shapeMinBend.fixed(2)))")
        }
        samples = Array(samples.filter(Self.bendsEnough).prefix(limit ?? ShapeFile.maximumSamples))
        guard !samples.isEmpty else {
            Output.err("gestured record-shape: no stroke \(source) is a shape (10 mm or more across, and not straight); nothing written")
            return .failure
        }
        if !FileSystem.exists(directory) {
            do throws(Errno) { try FileSystem.makeDirectory(directory, mode: 0o755) } catch {
                Output.err("gestured record-shape: cannot create \(directory): \(error)")
                return .failure
            }
        }
        let path = directory + "/" + name + ShapeFile.suffix
        let text = ShapeFile.render(name: name, samples: samples, comment: "\(samples.count) sample\(samples.count == 1 ? "" : "s") \(source)")
        if let problem = write(text, to: path) {
            Output.err("gestured record-shape: \(path): \(problem)")
            return .failure
        }
        Output.out("wrote \(samples.count) sample\(samples.count == 1 ? "" : "s") of '\(name)' to \(path); bind it with 'gesture: shape' and 'shape: \(name)'")
        return .success
    }

    /// Replaces the shape file whole (`AtomicFile`: a new file renamed over it), so the
    /// daemon never reads half of one. Only a regular file is replaced: a symbolic link,
    /// a FIFO or a device at its place is refused, never followed or opened (a FIFO
    /// would block). The mode is the old file's without write for others, which
    /// `check` refuses (0644 for a new file). nil on success, else why not.
    static func write(_ text: String, to path: String) -> String? {
        var mode: mode_t = 0o644
        do throws(Errno) {
            let st = try FileSystem.linkStatus(path)
            guard st.type == S_IFREG else {
                let kinds: [mode_t: String] = [S_IFLNK: "a symbolic link", S_IFIFO: "a FIFO (named pipe)", S_IFDIR: "a directory",
                                               S_IFCHR: "a character device", S_IFBLK: "a block device", S_IFSOCK: "a socket"]
                return "is \(kinds[st.type] ?? "not a regular file"); record-shape replaces only a regular file: remove it, or record under another name"
            }
            mode = st.permissions & 0o644
        } catch where error.rawValue == ENOENT {
        } catch {
            return "cannot write: \(error)"
        }
        do throws(Errno) { try AtomicFile.write(Array(text.utf8), to: path, mode: mode) } catch {
            return "cannot write: \(error)"
        }
        return nil
    }

    static func bendsEnough(_ stroke: [Point]) -> Bool {
        guard let cloud = QRecognizer.Cloud(stroke) else { return false }
        return ShapeRecognizer.bend(cloud) >= shapeMinBend
    }

    /// Strokes drawn on a live device until `count` are in or Ctrl-C.
    private static func live(_ path: String, count: Int) throws -> [[Point]]? {
        let device: EvdevDevice
        do throws(DeviceError) { device = try EvdevDevice(path: path) } catch {
            Output.err("gestured record-shape: \(error)")
            return nil
        }
        let decoder = try TouchDecoder(description: device.description)
        let signals = try SignalDescriptor([SIGINT, SIGTERM])
        let epoll = try Epoll()
        try epoll.add(device.fd, tag: 0)
        try epoll.add(signals.descriptor, tag: 1)
        var events = [Epoll.Event](repeating: Epoll.Event(), count: 2)
        var strokes = StrokeCollector()
        var found: [[Point]] = []
        Output.err("draw the shape on \(device.description.name.printable) \(count) times, lifting after each (Ctrl-C stops)")
        reading: while found.count < count {
            let n = try epoll.wait(into: &events, timeoutMS: -1)
            for event in events[0..<n] where event.data == 1 { break reading }
            let result = device.readRaw { e in
                guard decoder.feed(e), let s = strokes.add(decoder.frame) else { return }
                guard bendsEnough(s) else {
                    Output.err("that stroke was too straight to be a shape (a swipe's); draw it again")
                    return
                }
                found.append(s)
                Output.err("sample \(found.count) of \(count): \(s.count) points")
            }
            if result != .drained {
                Output.err("gestured record-shape: \(path): device gone")
                break
            }
        }
        return found
    }
}

/// The fingers' centroid path of each touch sequence, as `ShapeRecognizer` keeps it:
/// more fingers landing start it over, fingers lifting end it; a finished path of
/// at least 10 mm across is a sample.
struct StrokeCollector {
    private var path: [Point] = []
    private var fingers = 0

    mutating func add(_ f: TouchFrame) -> [Point]? {
        guard f.fingerCount > 0 else {
            defer { path = []; fingers = 0 }
            guard path.count >= 2 else { return nil }
            let xs = path.map(\.x), ys = path.map(\.y)
            let size = max(xs.max()! - xs.min()!, ys.max()! - ys.min()!)
            guard size >= 10 else { return nil }
            let origin = path[0]
            return path.map { $0 - origin }
        }
        if f.contacts.count > fingers { fingers = f.contacts.count; path = [] }
        guard f.contacts.count == fingers, fingers > 0 else { return nil }
        let centroid = f.contacts.reduce(Point.zero) { $0 + $1.position } / Double(fingers)
        if let last = path.last, (centroid - last).length < 0.5 { return nil }
        if path.count < ShapeFile.maximumPoints { path.append(centroid) }
        return nil
    }
}
