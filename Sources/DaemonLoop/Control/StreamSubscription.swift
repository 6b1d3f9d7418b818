import LinuxSystem
import PlainText

/// A client's side of `subscribe` (docs/CONTROL.md), for `gestured events` and
/// `gestured ui`: the request, the daemon's answer, then the stream's lines, whichever
/// way they come.
///
/// - **Shared** (`subscribe shared`, what gestured's own readers ask): the answer is
///   `ok shared SIZE POS` with the ring's descriptor, then `hello`; the lines are read
///   from the ring (`readRing`), at most `rate` times a second by the caller's clock
///   while there is more; when reads have found nothing for a quarter of a second
///   (`sleepsNow`), the caller sends `waitRequest` and sleeps until the socket is
///   readable (a newline: there is more).
/// - **Lines** (a daemon that does not share): `ok`, then the lines on the socket.
package final class StreamSubscription {
    package let rate: Int
    package let shared: Bool
    /// The ring, once the daemon has passed it and `hello` has come.
    package private(set) var reader: SharedStreamReader?
    private var greeted = false
    /// The daemon answered `ok`: the lines come on the socket, shared or not asked.
    private var lineMode = false
    private var helloDone = false
    private var buffer: [UInt8] = []
    private var passed: OwnedFileDescriptor?
    private var pending: (memory: SharedMemory, position: UInt64)?

    /// A `hello` longer than this ends the subscription: the longest line a reader
    /// takes (LineReader's; a hello lists every gesture of a config of up to 4 MiB).
    package static let helloLimit = LineReader.defaultMaximumLength

    package init(rate: Int, shared: Bool = true) {
        self.rate = rate
        self.shared = shared
    }

    /// The request line to send first.
    package var request: [UInt8] {
        Array((ControlRequest.subscribe(rate: rate, shared: shared).line + "\n").utf8)
    }

    /// The request that puts a shared reader to sleep until the ring has more.
    package var waitRequest: [UInt8] { Array("wait \(reader?.position ?? 0)\n".utf8) }

    /// Lines come from the ring now (`readRing`).
    package var readsRing: Bool { reader != nil }

    /// What a read of the socket came to.
    package enum Outcome: Equatable {
        /// Read what there was; the lines so far are appended.
        case more
        /// The daemon closed the stream (or the socket failed), with why.
        case ended(String)
        /// The daemon refused the subscription or said something that is not the
        /// stream: its words, escaped.
        case refused(String)
    }

    /// Reads what the socket has: the answer, `hello`, and in line mode the lines,
    /// appended to `lines` (each with its newline); in shared mode, wake-ups.
    package func readSocket(_ socket: borrowing StreamSocket, into lines: inout [UInt8]) -> Outcome {
        readSocket(into: &lines) { socket.readAvailable(into: &$0, limit: $1, passed: &$2) }
    }

    /// The same, with the socket's `readAvailable(into:limit:passed:)` as `read`.
    package func readSocket(into lines: inout [UInt8],
                            _ read: (inout [UInt8], Int, inout OwnedFileDescriptor?) -> StreamSocket.ReadResult) -> Outcome {
        let limit = lineMode ? 1 << 20 : Self.helloLimit
        let result = read(&buffer, limit, &passed)
        if !greeted {
            guard let nl = buffer.firstIndex(of: UInt8(ascii: "\n")) else {
                if case .drained = result, buffer.count < 4096 { return .more }
                return result.ended ? .ended(Self.why(result)) : .refused("an answer that is not one this gestured understands")
            }
            let answer = String(decoding: buffer[..<nl], as: UTF8.self)
            buffer.removeSubrange(...nl)
            greeted = true
            if let refusal = accept(answer) { return .refused(refusal) }
        }
        if !lineMode && !helloDone {
            guard let nl = buffer.firstIndex(of: UInt8(ascii: "\n")) else {
                if buffer.count >= Self.helloLimit { return .refused("a hello longer than \(Self.helloLimit) bytes") }
                return result.ended ? .ended(Self.why(result)) : .more
            }
            lines.append(contentsOf: buffer[...nl])
            buffer.removeSubrange(...nl)
            helloDone = true
            if let p = pending {
                do throws(StreamRingError) {
                    reader = try SharedStreamReader(memory: p.memory, position: p.position, rate: rate)
                } catch {
                    return .refused(error.description)
                }
                pending = nil
            }
        }
        if readsRing {
            // Wake-ups: only newlines; what else comes is not the daemon's protocol.
            if buffer.contains(where: { $0 != UInt8(ascii: "\n") }) { return .refused("bytes that are not wake-ups beside the shared stream") }
            buffer.removeAll(keepingCapacity: true)
        } else if lineMode {
            lines.append(contentsOf: buffer)
            buffer.removeAll(keepingCapacity: true)
        }
        return result.ended ? .ended(Self.why(result)) : .more
    }

    /// The lines of what the daemon wrote to the ring since the last read; false when
    /// there was nothing new. A ring that does not add up ends the subscription
    /// (`failure`).
    @discardableResult
    package func readRing(into lines: inout [UInt8]) -> Bool {
        let fresh = reader?.read(into: &lines) ?? false
        emptyReads = fresh ? 0 : emptyReads + 1
        return fresh
    }

    /// Reads in a row that found nothing new.
    package private(set) var emptyReads = 0
    /// Empty reads before a reader sleeps (`waitRequest`): a quarter of a second at its
    /// rate (at least 2). A drag whose frames come a little slower than the reader
    /// reads finds the ring empty now and then; asleep each time, the reader would cost
    /// the daemon a request and a wake-up each time.
    package var sleepsNow: Bool { emptyReads >= max(2, rate / 4) }

    /// Why the ring can no longer be read, once it cannot.
    package var failure: String? { reader?.failure }

    /// The first line: nil if it is the stream, or why not.
    private func accept(_ answer: String) -> String? {
        if answer == "ok" {
            lineMode = true
            return nil
        }
        if answer.hasPrefix("error: ") { return String(answer.dropFirst(7)).printable }
        let words = answer.split(separator: " ")
        guard shared, words.count == 4, words[0] == "ok", words[1] == "shared", let size = Int(words[2]), let position = UInt64(words[3]) else {
            return "an answer that is not one this gestured understands: '\(String(answer.prefix(60)).printable)'"
        }
        guard let fd = passed.take() else { return "the daemon said it shares the stream, and passed nothing to read it in" }
        do throws(Errno) {
            pending = (try SharedMemory(mapping: fd, count: size), position)
        } catch {
            return "the daemon's shared stream cannot be mapped (\(size) bytes, sealed): \(error)"
        }
        return nil
    }

    private static func why(_ result: StreamSocket.ReadResult) -> String {
        if case .failed(let e) = result { return "read error: \(e)" }
        return "the daemon closed the stream"
    }
}
