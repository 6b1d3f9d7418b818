import Glibc
import TouchModel

/// A device description plus the events it produced: what `replay` feeds through
/// the pipeline. Read from `evemu-record` files or `libinput record` YAML.
public struct Recording: Sendable {
    public var path: String
    public var device: DeviceDescription
    public var events: [InputEvent]

    public init(path: String, device: DeviceDescription, events: [InputEvent]) {
        self.path = path
        self.device = device
        self.events = events
    }

    /// Reads a recording, detecting its format. `descriptionPath` names a separate
    /// evemu description file for event files that carry no header.
    public static func load(path: String, descriptionPath: String? = nil) throws(RecordingError) -> Recording {
        let text = try readText(path)
        if LibinputRecordFormat.looksLike(text) {
            return try LibinputRecordFormat.parse(text, path: path)
        }
        var header: EvemuFormat.Parsed?
        if let descriptionPath {
            header = try EvemuFormat.parse(try readText(descriptionPath), path: descriptionPath)
        }
        let body = try EvemuFormat.parse(text, path: path)
        guard let device = body.device ?? header?.device else {
            throw RecordingError(path: path, line: nil,
                                 message: "no device description (N:, I:, B:, A: lines); pass the matching .desc file with --description FILE")
        }
        guard !body.events.isEmpty else {
            throw RecordingError(path: path, line: nil, message: "no events (E: lines) in the recording")
        }
        return Recording(path: path, device: device, events: body.events)
    }

    /// Recordings larger than this are refused rather than read into memory.
    public static let maxBytes = 256 << 20

    static func readText(_ path: String) throws(RecordingError) -> String {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw RecordingError(path: path, line: nil, message: SystemError(errno).description) }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw RecordingError(path: path, line: nil, message: SystemError(errno).description)
            }
            if n == 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
            guard bytes.count <= maxBytes else {
                throw RecordingError(path: path, line: nil, message: "larger than \(maxBytes >> 20) MiB")
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// A recording that cannot be read, naming the file and, where it applies, the line.
public struct RecordingError: Error, Equatable, CustomStringConvertible {
    public var path: String
    public var line: Int?
    public var message: String
    public init(path: String, line: Int?, message: String) {
        self.path = path
        self.line = line
        self.message = message
    }
    /// Escaped: the message quotes the file's own text.
    public var description: String {
        if let line { return "\(path):\(line): \(message)".printable }
        return "\(path): \(message)".printable
    }
}
