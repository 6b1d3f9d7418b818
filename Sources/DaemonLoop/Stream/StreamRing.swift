import GestureEngine
import LinuxSystem
import TouchModel

/// The event stream in shared memory (`subscribe shared`, docs/CONTROL.md): the daemon
/// writes each fact once, as a binary record, into a ring that every shared reader maps
/// read-only; each reader turns the records into the stream's JSON lines itself
/// (`SharedStreamReader`), at its own rate. So a reader costs the daemon a copy of a
/// few hundred bytes a frame and no system call while it keeps up, and sixteen cost
/// what one does: the encoding and the sends are the reader's.
///
/// Layout (all integers little-endian, as the machine's): a header page, then
/// `capacity` bytes of records. The header's words: `magic`, `capacity`, `head` (bytes
/// ever written), `tail` (where the oldest record still whole starts). A record is 16
/// bytes of header (`length`, a multiple of 16, with its header; `type`; `seq`, its
/// number, counting from 0) and its body; one that would not fit before the end of
/// the buffer is preceded by a `pad` record to the end. The writer moves `tail` past
/// a record before it overwrites it, and `head` past a record once it is whole; a
/// reader copies a record, then checks that `tail` has not passed it meanwhile.
package enum StreamRing {
    package static let magic: UInt64 = 0x3130_676e_6972_6467  // "gdring01"
    package static let headerSize = 4096
    package static let capacity = 1 << 20
    package static let size = headerSize + capacity
    /// A record longer than this (a reload's line with thousands of diagnostics) is
    /// not written: readers count it as lost.
    package static let maxRecord = capacity / 4
    package static let recordHeader = 16

    package enum Word: Int {
        case magic = 0, capacity = 8, head = 16, tail = 24
    }

    package enum RecordType: UInt16 {
        /// Nothing: the rest of the buffer up to its end.
        case pad = 0
        /// One line of JSON as the daemon wrote it (with its newline): everything but
        /// the three below.
        case text = 1
        case frame = 2
        case gesture = 3
        /// The progress of a device's possible gestures at one frame: each by its place
        /// in the device's gesture table.
        case progress = 4
        /// A line too long for the ring: one lost line.
        case dropped = 5
        /// A device's gestures, each one's kind and name, in its engine's order: what a
        /// progress record's places are. Written before the first progress record of a
        /// new engine, and again whenever a reader could not have it (it joined after the
        /// last one, or the ring overwrote it).
        case table = 6
        /// One arena decision (a `state` line), its reason as text.
        case state = 7
    }

    /// Records' bodies as bytes, reused: each value's bytes stored as they are in
    /// memory, straight into a buffer that only grows (an array's append per value cost
    /// more than the rest of a record together).
    package struct Body: ~Copyable {
        private var buffer: UnsafeMutableRawPointer
        private var capacity: Int
        package private(set) var count = 0

        package init() {
            capacity = 4096
            buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
        }

        deinit { buffer.deallocate() }

        package var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: buffer, count: count) }

        package mutating func removeAll() { count = 0 }

        @inline(__always) private mutating func reserve(_ n: Int) {
            guard count + n > capacity else { return }
            let grown = UnsafeMutableRawPointer.allocate(byteCount: max(capacity * 2, count + n), alignment: 16)
            grown.copyMemory(from: buffer, byteCount: count)
            buffer.deallocate()
            buffer = grown
            capacity = max(capacity * 2, count + n)
        }

        @inline(__always) package mutating func put<T: BitwiseCopyable>(_ value: T) {
            reserve(MemoryLayout<T>.size)
            (buffer + count).storeBytes(of: value, as: T.self)
            count += MemoryLayout<T>.size
        }

        /// A 32-bit length, then the UTF-8: copied whole from a native string's storage,
        /// without the copy of the string that `withUTF8` on a `var` can make.
        package mutating func put(_ text: String) {
            let n = text.utf8.count
            put(UInt32(n))
            reserve(n)
            let at = buffer + count
            let copied = text.utf8.withContiguousStorageIfAvailable { utf8 -> Bool in
                if let base = utf8.baseAddress { at.copyMemory(from: base, byteCount: n) }
                return true
            }
            if copied == nil {
                for (i, byte) in text.utf8.enumerated() { at.storeBytes(of: byte, toByteOffset: i, as: UInt8.self) }
            }
            count += n
        }

        /// An optional case's place in `allCases` (255: none). A case of an enum without
        /// payloads is stored as its place in the declaration, which is the order of the
        /// synthesized `allCases` (SharedStreamTests holds the two together for every enum
        /// written here): read as it is, where searching `allCases` cost more than the
        /// rest of a gesture record.
        @inline(__always) package mutating func put<E: CaseIterable & Equatable>(case value: E?) {
            guard let value else { return put(UInt8.max) }
            put(Self.place(value))
        }

        @inline(__always) package static func place<E: CaseIterable & Equatable>(_ value: E) -> UInt8 {
            precondition(MemoryLayout<E>.size == 1, "\(E.self) is not a one-byte enum without payloads")
            return unsafeBitCast(value, to: UInt8.self)
        }

        /// By pointer, its contacts read in place: a `for c in` over a `TouchFrame`'s
        /// contacts copied all ten places first.
        package mutating func frame(_ f: UnsafePointer<TouchFrame>, device: String) {
            put(device)
            put(f.pointee.time.microseconds)
            put(Int32(f.pointee.fingerCount))
            put(f.pointee.flags.rawValue)
            let n = f.pointee.contacts.count
            put(UInt8(n))
            for i in 0..<n {
                let c = f.pointee.contacts[i]
                put(c.id); put(c.slot)
                put(c.position.x); put(c.position.y)
                put(c.normalized.x); put(c.normalized.y)
                put(c.majorMM)
            }
        }

        /// An arena decision, its gesture's kind and the reason's text.
        package mutating func state(_ d: ArenaDecision, kind: GestureKind?, device: String) {
            put(device)
            put(d.time.microseconds)
            put(d.name)
            put(case: kind)
            put(case: d.from); put(case: d.transition); put(case: d.to)
            put(UInt8(d.refused ? 1 : 0))
            if let reason = d.reason {
                put(UInt8(1))
                put(reason.text)
            } else {
                put(UInt8(0))
            }
        }

        /// `steps`: an `every:` binding's steps from where the gesture began (the
        /// gesture line's `progress` and `step`), nil for none.
        package mutating func gesture(_ e: GestureEvent, device: String, steps: Double?) {
            put(device)
            put(e.name)
            put(Int32(e.index))
            put(case: e.kind); put(case: e.phase)
            put(e.time.microseconds)
            put(Int32(clamping: e.fingers))
            put(case: e.direction); put(case: e.sense); put(case: e.side)
            put(e.location.x); put(e.location.y)
            put(e.translation.x); put(e.translation.y)
            put(e.velocity.x); put(e.velocity.y)
            put(e.scale); put(e.scaleVelocity)
            put(e.rotation); put(e.rotationVelocity)
            put(e.duration)
            put(UInt8(e.score == nil ? 0 : 1)); put(e.score ?? 0)
            put(UInt8(steps == nil ? 0 : 1)); put(steps ?? 0)
            if let shape = e.shape { put(shape) } else { put(UInt32(0)) }
        }
    }

    /// The daemon's side: the memory, and where the next record goes.
    ///
    /// Touched per record and only from the daemon loop's thread: its counters are
    /// unchecked, as in `StreamSubscribers` (each checked access was a runtime call,
    /// and moving the tail past old records made several a record).
    package final class Writer {
        package let memory: SharedMemory
        /// Bytes ever written: where the next record goes, as `head` says.
        @exclusivity(unchecked) package private(set) var head: UInt64 = 0
        /// Where the oldest record still whole starts, as `tail` says.
        @exclusivity(unchecked) package private(set) var tail: UInt64 = 0
        @exclusivity(unchecked) private var seq: UInt64 = 0
        private let base: UnsafeMutableRawPointer

        package init() throws(Errno) {
            memory = try SharedMemory(name: "gestured-stream", count: StreamRing.size)
            base = memory.base + StreamRing.headerSize
            memory.storeRelease(Word.magic.rawValue, StreamRing.magic)
            memory.storeRelease(Word.capacity.rawValue, UInt64(StreamRing.capacity))
        }

        /// Appends one record; a body too long for the ring is counted as one lost line.
        package func append(_ type: RecordType, _ body: UnsafeRawBufferPointer) {
            let length = (StreamRing.recordHeader + body.count + 15) & ~15
            guard length <= StreamRing.maxRecord else {
                return append(.dropped, UnsafeRawBufferPointer(start: nil, count: 0))
            }
            var at = Int(head % UInt64(StreamRing.capacity))
            if at + length > StreamRing.capacity {
                let rest = StreamRing.capacity - at
                makeRoom(rest)
                header(at: at, length: rest, type: .pad)
                head += UInt64(rest)
                at = 0
            }
            makeRoom(length)
            header(at: at, length: length, type: type)
            if body.count > 0 { (base + at + StreamRing.recordHeader).copyMemory(from: body.baseAddress!, byteCount: body.count) }
            // The padding is zeros, as a reader checks: on the second lap and after, the
            // bytes there are an old record's.
            let used = StreamRing.recordHeader + body.count
            if used < length { (base + at + used).initializeMemory(as: UInt8.self, repeating: 0, count: length - used) }
            seq += 1
            head += UInt64(length)
            memory.storeRelease(Word.head.rawValue, head)
        }

        package func append(_ type: RecordType, _ body: borrowing Body) {
            append(type, body.bytes)
        }

        private func header(at: Int, length: Int, type: RecordType) {
            let p = base + at
            p.storeBytes(of: UInt32(length), as: UInt32.self)
            p.storeBytes(of: type.rawValue, toByteOffset: 4, as: UInt16.self)
            p.storeBytes(of: seq, toByteOffset: 8, as: UInt64.self)
        }

        /// The records the next `length` bytes will overwrite leave first: `tail` moves
        /// past them, and is seen to have moved before any of their bytes change.
        private func makeRoom(_ length: Int) {
            let capacity = UInt64(StreamRing.capacity), end = head + UInt64(length)
            var tail = self.tail
            guard end - tail > capacity else { return }
            while end - tail > capacity {
                tail += UInt64(base.load(fromByteOffset: Int(tail % capacity), as: UInt32.self))
            }
            self.tail = tail
            memory.storeThenFence(Word.tail.rawValue, tail)
        }
    }
}
