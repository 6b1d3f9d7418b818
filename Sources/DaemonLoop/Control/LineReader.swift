import LinuxSystem

/// The lines a client reads from the control socket (`gestured events`), each up to
/// `maximumLength` bytes: a longer one is not kept whole but counted and skipped up to
/// its newline, and said as `.skipped(bytes)`; the lines after it are read as before.
/// Before, a line over the buffer's limit (a `hello` of 1.3 MB, from a valid config)
/// filled it, every later read took nothing, and the reader spun on a readable socket.
package struct LineReader {
    /// One line without its newline, or how many bytes of one were skipped.
    package enum Item: Equatable {
        case line([UInt8])
        case skipped(Int)
    }

    /// The event stream's `hello` lists every gesture of a config (at most 4 MiB of YAML,
    /// `ConfigLoader.maximumFileSize`), in JSON that may be some times larger.
    package static let defaultMaximumLength = 16 << 20

    package let maximumLength: Int
    private var buffer: [UInt8] = []
    /// Where the next newline is looked for: what precedes it in `buffer` has none.
    private var scanned = 0
    /// Bytes of an overlong line dropped so far; nil when not in one.
    private var skipping: Int?

    package init(maximumLength: Int = defaultMaximumLength) {
        self.maximumLength = maximumLength
    }

    /// Reads everything `socket` has now and hands each complete line to `each`, which
    /// returns false to stop (the rest stays for the next call). `.drained` when the
    /// socket has nothing more for now; what is left of a line at `.closed` had no newline.
    package mutating func read(from socket: borrowing StreamSocket, _ each: (Item) -> Bool) -> StreamSocket.ReadResult {
        while true {
            // Room for the longest line and its newline: a full buffer holds one or is skipped.
            let room = maximumLength + 1
            let result = socket.readAvailable(into: &buffer, limit: room)
            let full = buffer.count >= room
            guard split(each) else { return .drained }
            if result != .drained || !full { return result }
        }
    }

    /// The same for bytes read some other way (`StreamSubscription`): appended, and each
    /// complete line handed to `each` (false: stop; the rest waits for the next call).
    package mutating func feed(_ bytes: [UInt8], _ each: (Item) -> Bool) {
        var at = 0
        while at < bytes.count {
            let room = maximumLength + 1 - buffer.count
            let n = min(max(room, 1), bytes.count - at)
            buffer.append(contentsOf: bytes[at..<at + n])
            at += n
            guard split(each) else {
                buffer.append(contentsOf: bytes[at...])
                return
            }
        }
    }

    /// Takes the complete lines out of `buffer`; false if `each` said stop.
    private mutating func split(_ each: (Item) -> Bool) -> Bool {
        var start = 0
        while let nl = buffer[max(start, scanned)...].firstIndex(of: UInt8(ascii: "\n")) {
            let item: Item
            if let dropped = skipping {
                item = .skipped(dropped + nl - start)
                skipping = nil
            } else {
                item = .line(Array(buffer[start..<nl]))
            }
            start = nl + 1
            guard each(item) else {
                buffer.removeFirst(start)
                scanned = 0
                return false
            }
        }
        buffer.removeFirst(start)
        scanned = buffer.count
        if buffer.count > maximumLength {
            skipping = (skipping ?? 0) + buffer.count
            buffer.removeAll(keepingCapacity: true)
            scanned = 0
        }
        return true
    }
}
