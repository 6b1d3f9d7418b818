import GestureEngine
import LinuxSystem
import TouchModel

/// A shared reader's side of the event stream's ring (`StreamRing`): the records the
/// daemon wrote since the last read, turned into the stream's lines, with this reader's
/// rate (`StreamPacing`) applied, so that the lines are those a `subscribe rate=N`
/// line subscriber would get. A record the daemon overwrote before it was read is
/// counted, and the count arrives as a `lost` line before the next line.
///
/// The ring is the daemon's, and the daemon may be anyone who got to the socket
/// first: every record is copied out before it is looked at, every length and count is
/// checked against the copy, and a record that does not add up ends the reading
/// (`failure`), as a line that does not parse would.
package final class SharedStreamReader {
    /// Where the next record starts, in bytes ever written.
    package private(set) var position: UInt64
    /// Why the ring can no longer be read, once it cannot.
    package private(set) var failure: String?
    private let memory: SharedMemory
    private let capacity: UInt64
    private var pacing: StreamPacing
    /// The number the next record should have; nil until the first is read.
    private var nextSeq: UInt64?
    private var lost = 0
    private var record: [UInt8] = []
    /// Per device, its gesture table (`StreamRing.RecordType.table`): what the places
    /// in its progress records name.
    private var tables: [(device: String, gestures: [(kind: GestureKind, name: String)])] = []
    private var encoder = StreamEncoder()

    /// Reads the ring in `memory` from `position` (what `ok shared SIZE POS` said).
    package init(memory: SharedMemory, position: UInt64, rate: Int) throws(StreamRingError) {
        guard memory.count == StreamRing.size, memory.loadAcquire(StreamRing.Word.magic.rawValue) == StreamRing.magic,
              memory.loadAcquire(StreamRing.Word.capacity.rawValue) == UInt64(StreamRing.capacity)
        else { throw StreamRingError("the daemon's ring is not one this gestured reads (another version?)") }
        self.memory = memory
        capacity = UInt64(StreamRing.capacity)
        self.position = position
        pacing = StreamPacing(rate: rate)
        record.reserveCapacity(4096)
    }

    /// Appends the lines of every record written since the last call to `lines`
    /// (each with its newline); false when there was nothing new.
    @discardableResult
    package func read(into lines: inout [UInt8]) -> Bool {
        guard failure == nil else { return false }
        let head = memory.loadAcquire(StreamRing.Word.head.rawValue)
        guard head > position else { return false }
        guard head - position <= UInt64(Int64.max) else { return fail("the ring's head went back") }
        while position < head {
            guard let type = copyRecord(head: head) else { if failure != nil { return true }; continue }
            decode(type, into: &lines)
            if failure != nil { return true }
        }
        return true
    }

    /// Copies the record at `position` into `record`, moves past it, and says its
    /// type. Nil when there is none to decode there: a pad, or records lost to the
    /// writer (then `position` is at the oldest whole one, and `lost` counts them).
    private func copyRecord(head: UInt64) -> UInt16? {
        let tail = memory.loadAcquire(StreamRing.Word.tail.rawValue)
        if tail > position {
            guard tail <= memory.loadAcquire(StreamRing.Word.head.rawValue) else { fail("the ring's tail is past its head"); return nil }
            // Overwritten before we got to it: on from the oldest record still whole.
            position = tail
            nextSeq = nil
            lost += 1
            return nil
        }
        let base = memory.base + StreamRing.headerSize
        let at = Int(position % capacity)
        guard at + StreamRing.recordHeader <= StreamRing.capacity else { fail("a record header crosses the ring's end"); return nil }
        let length = Int(base.loadUnaligned(fromByteOffset: at, as: UInt32.self))
        let type = base.loadUnaligned(fromByteOffset: at + 4, as: UInt16.self)
        let seq = base.loadUnaligned(fromByteOffset: at + 8, as: UInt64.self)
        guard length >= StreamRing.recordHeader, length % 16 == 0, at + length <= StreamRing.capacity,
              UInt64(length) <= head - position else {
            // Torn by the writer while we looked, or never whole: which, the tail says.
            if memory.loadAfterReads(StreamRing.Word.tail.rawValue) > position { return nil }
            fail("a record at \(position) of \(length) bytes does not fit the ring")
            return nil
        }
        record.removeAll(keepingCapacity: true)
        record.append(contentsOf: UnsafeRawBufferPointer(start: base + at + StreamRing.recordHeader, count: length - StreamRing.recordHeader))
        // Still ours? The writer moves the tail past a record before it overwrites it.
        if memory.loadAfterReads(StreamRing.Word.tail.rawValue) > position { return nil }
        position += UInt64(length)
        guard type != StreamRing.RecordType.pad.rawValue else { return nil }
        if let expected = nextSeq, seq != expected {
            guard seq > expected, seq - expected < 1 << 40 else { fail("the ring's records went back"); return nil }
            lost += Int(seq - expected)
        }
        nextSeq = seq &+ 1
        return type
    }

    @discardableResult
    private func fail(_ why: String) -> Bool {
        failure = why
        return true
    }

    // MARK: Records to lines

    private func decode(_ type: UInt16, into lines: inout [UInt8]) {
        var r = RecordReader(record)
        switch StreamRing.RecordType(rawValue: type) {
        case .text?:
            // One line: no NUL in it, and nothing after its newline but the zeros that pad it.
            guard let end = record.firstIndex(of: UInt8(ascii: "\n")), !record[..<end].contains(0),
                  record[(end + 1)...].allSatisfy({ $0 == 0 }) else { return bad("text") }
            emit(record[...end], into: &lines)
        case .frame?:
            guard let device = r.string(), let t = r.value(Int64.self), let fingers = r.value(Int32.self), let flags = r.value(UInt8.self),
                  let n = r.value(UInt8.self), n <= 10, (0...10).contains(fingers) else { return bad("frame") }
            var contacts = ContactList()
            for _ in 0..<n {
                guard let id = r.value(Int32.self), let slot = r.value(Int32.self), let x = r.value(Double.self), let y = r.value(Double.self),
                      let nx = r.value(Double.self), let ny = r.value(Double.self), let major = r.value(Double.self) else { return bad("frame") }
                contacts.append(Contact(id: id, slot: slot, position: Point(x: x, y: y), normalized: Point(x: nx, y: ny), majorMM: major))
            }
            guard r.atEnd else { return bad("frame") }
            let f = TouchFrame(time: Timestamp(microseconds: t), contacts: contacts, fingerCount: Int(fingers), flags: TouchFrame.Flags(rawValue: flags))
            guard pacing.takes(time: t, fingers: Int(fingers), flagged: flags != 0, device: device) else { return }
            encoder.removeAll()
            encoder.frame(f, device: device)
            emitEncoded(into: &lines)
        case .gesture?:
            guard let (e, device, steps) = gesture(&r) else { return bad("gesture") }
            if e.phase == .changed, pacing.skipsChange(device: device, at: e.time.microseconds) { return }
            encoder.removeAll()
            encoder.gesture(e, device: device, steps: steps)
            emitEncoded(into: &lines)
        case .table?:
            guard let device = r.string(), let count = r.value(UInt32.self), count <= 1 << 16 else { return bad("table") }
            var gestures: [(kind: GestureKind, name: String)] = []
            for _ in 0..<count {
                guard let kind = r.oneOf(GestureKind.self) ?? nil, let name = r.string() else { return bad("table") }
                gestures.append((kind, name))
            }
            guard r.atEnd else { return bad("table") }
            tables.removeAll { $0.device == device }
            tables.append((device, gestures))
        case .progress?:
            guard let device = r.string(), let t = r.value(Int64.self), let count = r.value(UInt32.self), count <= 1 << 16 else { return bad("progress") }
            // No table for it: records were lost before it, and the daemon writes the
            // table again before the next progress record.
            guard let table = tables.first(where: { $0.device == device })?.gestures, table.count == count else { return }
            while !r.atEnd {
                guard let index = r.value(UInt32.self), let q = r.value(Int32.self), index < count else { return bad("progress") }
                guard pacing.progressIsNew(device: device, at: t, index: Int(index), count: Int(count), q: Int(q)) else { continue }
                let (kind, name) = table[Int(index)]
                encoder.removeAll()
                encoder.progress(gesture: name, kind: kind, thousandths: Int(q), time: Timestamp(microseconds: t), device: device)
                emitEncoded(into: &lines)
                pacing.sent(progress: Int(q), device: device, index: Int(index))
            }
        case .state?:
            guard let device = r.string(), let t = r.value(Int64.self), let name = r.string(), let kind = r.oneOf(GestureKind.self),
                  let from = r.oneOf(RecognizerState.self) ?? nil, let transition = r.oneOf(Transition.self) ?? nil,
                  let to = r.oneOf(RecognizerState.self) ?? nil, let refused = r.value(UInt8.self), let hasReason = r.value(UInt8.self)
            else { return bad("state") }
            let reason = hasReason != 0 ? r.string() : nil
            guard hasReason == 0 || reason != nil, r.atEnd else { return bad("state") }
            encoder.removeAll()
            encoder.state(device: device, time: Timestamp(microseconds: t), gesture: name, kind: kind, from: from,
                          transition: transition, to: to, refused: refused != 0, reason: reason)
            emitEncoded(into: &lines)
        case .dropped?:
            lost += 1
        case .pad?, nil:
            return bad("unknown")
        }
    }

    private func gesture(_ r: inout RecordReader) -> (GestureEvent, String, Double?)? {
        guard let device = r.string(), let name = r.string(), let index = r.value(Int32.self),
              let kind = r.oneOf(GestureKind.self) ?? nil, let phase = r.oneOf(GesturePhase.self) ?? nil,
              let t = r.value(Int64.self), let fingers = r.value(Int32.self),
              let direction = r.oneOf(Direction.self), let sense = r.oneOf(Sense.self), let side = r.oneOf(Side.self) else { return nil }
        var v: [Double] = []
        for _ in 0..<11 {
            guard let x = r.value(Double.self) else { return nil }
            v.append(x)
        }
        guard let hasScore = r.value(UInt8.self), let score = r.value(Double.self), let hasSteps = r.value(UInt8.self),
              let steps = r.value(Double.self), let shape = r.string(), r.atEnd else { return nil }
        var e = GestureEvent(name: name, index: Int(index), kind: kind, phase: phase, time: Timestamp(microseconds: t), fingers: Int(fingers),
                             direction: direction, sense: sense, location: Point(x: v[0], y: v[1]), translation: Point(x: v[2], y: v[3]),
                             velocity: Point(x: v[4], y: v[5]), scale: v[6], scaleVelocity: v[7], rotation: v[8], rotationVelocity: v[9],
                             duration: v[10])
        e.side = side
        e.score = hasScore != 0 ? score : nil
        e.shape = shape.isEmpty ? nil : shape
        return (e, device, hasSteps != 0 ? steps : nil)
    }

    private func bad(_ what: String) {
        failure = "a \(what) record of the daemon's ring does not add up"
    }

    private func emitEncoded(into lines: inout [UInt8]) {
        encoder.withBytes { emit($0, into: &lines) }
    }

    private func emit<C: Collection<UInt8>>(_ line: C, into lines: inout [UInt8]) {
        if lost > 0 {
            var note = StreamEncoder()
            note.lost(lost)
            lines.append(contentsOf: note.bytes)
            lost = 0
        }
        lines.append(contentsOf: line)
    }

    /// Bounds-checked reads from a record's copy.
    private struct RecordReader {
        let bytes: [UInt8]
        var at = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        /// At the end, but for the zeros that pad a record to 16 bytes.
        var atEnd: Bool { bytes[at...].allSatisfy { $0 == 0 } }

        mutating func value<T: BitwiseCopyable>(_: T.Type) -> T? {
            let size = MemoryLayout<T>.size
            guard at + size <= bytes.count else { return nil }
            defer { at += size }
            return bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: at, as: T.self) }
        }

        mutating func string() -> String? {
            guard let n = value(UInt32.self), Int(n) <= bytes.count - at else { return nil }
            defer { at += Int(n) }
            return String(decoding: bytes[at..<at + Int(n)], as: UTF8.self)
        }

        /// A case by its place in `allCases`: .some(nil) for 255 (none), nil for out of range.
        mutating func oneOf<E: CaseIterable>(_: E.Type) -> E?? {
            guard let i = value(UInt8.self) else { return nil }
            if i == UInt8.max { return .some(nil) }
            guard Int(i) < E.allCases.count else { return nil }
            return .some(E.allCases[E.allCases.index(E.allCases.startIndex, offsetBy: Int(i))])
        }
    }
}

package struct StreamRingError: Error, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}
