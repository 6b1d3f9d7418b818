import CYaml
import LinuxSystem

/// One YAML document read from a file descriptor in bounded memory: the items of the
/// sequence at `streamed` come out one at a time from `next()` and are not kept; the
/// rest of the document is built as a tree, available from `root` once `next()` has
/// returned nil. For `libinput record` files, whose event list is most of the file:
/// a 70 MB recording read as one tree took 903 MB.
public final class YAMLStream {
    /// What may be held at once, outside the streamed sequence and in one item of it:
    /// a device description is a few hundred nodes and kilobytes, an event group a
    /// few dozen rows; a file past this is refused rather than held in memory.
    public static let limit = (nodes: 100_000, bytes: 16 << 20)

    private let parser: UnsafeMutablePointer<yaml_parser_t>
    private var builder: TreeBuilder
    private var log = ProblemLog()
    private var done = false
    /// The document without the streamed items, once the stream has ended without a problem.
    public private(set) var root: YAMLNode?
    /// What stopped the reading, if anything did.
    public var problem: YAMLProblem? { log.problem }

    /// Reads from `fd` (not closed here) with libyaml's `yaml_parser_set_input`.
    public init(fd: FileDescriptor, fileKind: String, streamed: [YAMLPathComponent]) {
        parser = .allocate(capacity: 1)
        builder = TreeBuilder(fileKind: fileKind, streamed: streamed, limit: Self.limit)
        guard yaml_parser_initialize(parser) != 0 else {
            log.error(nil, "out of memory starting the YAML parser")
            done = true
            return
        }
        // The fd travels in the context pointer, offset by one so that fd 0 is not nil.
        yaml_parser_set_input(parser, { context, buffer, size, sizeRead in
            let fd = FileDescriptor(rawValue: Int32(Int(bitPattern: context) - 1))
            guard let n = try? fd.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: size)) else { return 0 }
            sizeRead?.pointee = n
            return 1
        }, UnsafeMutableRawPointer(bitPattern: Int(fd.rawValue) + 1))
    }

    deinit {
        yaml_parser_delete(parser)
        parser.deallocate()
    }

    /// The next item of the streamed sequence; nil at the end of the document or at
    /// the first problem (`problem` then says which).
    public func next() -> YAMLNode? {
        while !done {
            var event = yaml_event_t()
            guard yaml_parser_parse(parser, &event) != 0 else {
                YAMLReader.reportSyntaxError(parser.pointee, bytes: nil, log: &log)
                done = true
                break
            }
            defer { yaml_event_delete(&event) }
            if event.type == YAML_STREAM_END_EVENT {
                done = true
                root = builder.root
                break
            }
            guard builder.consume(event, log: &log) else { done = true; break }
            if let item = builder.takeItem() { return item }
        }
        return nil
    }
}
