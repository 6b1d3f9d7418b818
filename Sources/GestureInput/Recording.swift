import Glibc
import LinuxSystem
import PlainText
import TouchModel

/// A device description plus the events it produced: what `replay` feeds through
/// the pipeline. Read from `evemu-record` files or `libinput record` YAML.
public struct Recording: Sendable {
    public var path: String
    public var device: DeviceDescription
    public var events: RecordingEvents

    public init(path: String, device: DeviceDescription, events: [InputEvent]) {
        self.init(path: path, device: device, events: RecordingEvents(events))
    }

    init(path: String, device: DeviceDescription, events: RecordingEvents) {
        self.path = path
        self.device = device
        self.events = events
    }

    /// What a headerless events file's error asks for, on the command line (the page says it its own way).
    public static let descriptionHint = "pass the matching .desc file with --description FILE"

    /// Reads a recording, detecting its format. `descriptionPath` names a separate
    /// evemu description file for event files that carry no header.
    ///
    /// The whole file is checked here, so every error comes before replay starts, but
    /// its events are not kept: `events` reads them again from the file as it is
    /// iterated, so memory stays bounded whatever the file's size.
    public static func load(path: String, descriptionPath: String? = nil) throws(RecordingError) -> Recording {
        if LibinputRecordFormat.looksLike(try RecordingFile(path).head()) {
            return try LibinputRecordFormat.scan(path)
        }
        var header: DeviceDescription?
        if let descriptionPath {
            header = try EvemuFormat.scan(descriptionPath).device
        }
        let body = try EvemuFormat.scan(path)
        guard let device = body.device ?? header else {
            throw RecordingError(path: path, line: nil,
                                 message: "no device description (N:, I:, B:, A: lines); " + descriptionHint)
        }
        guard body.count > 0 else {
            throw RecordingError(path: path, line: nil, message: "no events (E: lines) in the recording")
        }
        return Recording(path: path, device: device,
                         events: RecordingEvents(source: .evemu(path), count: body.count, first: body.first))
    }
}

/// A recording's events. From a file they are read again, a line or an event group at
/// a time, on each iteration; `load` has checked them all, so an iteration stops
/// early only if the file changed since (and says so in `Iterator.failure`).
public struct RecordingEvents: Sequence, Sendable {
    enum Source: Sendable {
        case memory([InputEvent])
        case evemu(String)
        case libinputRecord(String)
    }
    let source: Source
    public let count: Int
    public let first: InputEvent?

    public init(_ events: [InputEvent]) {
        self.init(source: .memory(events), count: events.count, first: events.first)
    }

    init(source: Source, count: Int, first: InputEvent?) {
        self.source = source
        self.count = count
        self.first = first
    }

    public func makeIterator() -> Iterator { Iterator(source) }

    public struct Iterator: IteratorProtocol {
        private enum Reader {
            case memory(IndexingIterator<[InputEvent]>)
            case evemu(EvemuFormat.Reader)
            case libinputRecord(LibinputRecordFormat.Reader)
            case failed
        }
        private var reader: Reader
        /// Why the iteration stopped before the end (the file changed after `load`).
        public private(set) var failure: RecordingError?

        init(_ source: Source) {
            do throws(RecordingError) {
                switch source {
                case .memory(let events): reader = .memory(events.makeIterator())
                case .evemu(let path): reader = .evemu(try EvemuFormat.Reader(path))
                case .libinputRecord(let path): reader = .libinputRecord(try LibinputRecordFormat.Reader(path))
                }
            } catch {
                reader = .failed
                failure = error
            }
        }

        public mutating func next() -> InputEvent? {
            do throws(RecordingError) {
                switch reader {
                case .memory(var it):
                    defer { reader = .memory(it) }
                    return it.next()
                case .evemu(let r): return try r.next()
                case .libinputRecord(let r): return try r.next()
                case .failed: return nil
                }
            } catch {
                reader = .failed
                failure = error
                return nil
            }
        }
    }
}

/// A recording file opened for reading, closed when this goes away; reads lines in
/// bounded memory (one fixed buffer).
final class RecordingFile {
    /// No line of either format comes near this; a longer one is refused, not buffered.
    static let maxLineBytes = 16 << 10
    private static let capacity = 64 << 10
    let path: String
    let file: OwnedFileDescriptor
    var fd: FileDescriptor { file.descriptor }
    private let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: RecordingFile.capacity)
    /// Unread bytes are `buffer[start..<end]`.
    private var start = 0
    private var end = 0
    private var atEnd = false
    private(set) var lineNumber = 0

    init(_ path: String) throws(RecordingError) {
        self.path = path
        do throws(Errno) {
            file = try OwnedFileDescriptor(opening: path, O_RDONLY)
        } catch {
            buffer.deallocate()
            throw RecordingError(path: path, line: nil, message: error.description)
        }
    }

    deinit { buffer.deallocate() }

    /// The first 64 KiB as text, for telling the formats apart.
    func head() throws(RecordingError) -> String {
        while end < Self.capacity, try fill() {}
        return String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<end]), as: UTF8.self)
    }

    /// The next line without its newline; nil at the end of the file.
    func nextLine() throws(RecordingError) -> Substring? {
        while true {
            if start < end, let nl = memchr(buffer.baseAddress! + start, 0x0a, end - start) {
                let lineEnd = buffer.baseAddress!.distance(to: nl.assumingMemoryBound(to: UInt8.self))
                defer { start = lineEnd + 1 }
                lineNumber += 1
                return Substring(String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<lineEnd]), as: UTF8.self))
            }
            guard end - start <= Self.maxLineBytes else {
                throw RecordingError(path: path, line: lineNumber + 1, message: "line longer than \(Self.maxLineBytes) bytes")
            }
            if !(try fill()) {
                guard start < end else { return nil }
                lineNumber += 1
                defer { start = end }
                return Substring(String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<end]), as: UTF8.self))
            }
        }
    }

    /// Reads more after what is unread (moved to the front first); false at the end of the file.
    private func fill() throws(RecordingError) -> Bool {
        guard !atEnd else { return false }
        if start > 0 {
            memmove(buffer.baseAddress!, buffer.baseAddress! + start, end - start)
            end -= start
            start = 0
        }
        guard end < Self.capacity else { return true }
        let n: Int
        do throws(Errno) {
            n = try fd.read(into: UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: buffer[end...])))
        } catch {
            throw RecordingError(path: path, line: nil, message: error.description)
        }
        end += n
        if n == 0 { atEnd = true }
        return n > 0
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
