/// A fixed-size table of per-member values (and the decision log's ring), allocated
/// once and freed by its own `deinit`. Not an array, because an array stored in a
/// class checks uniqueness on every write and bounds on every read: the arena writes
/// a member's state, deadline and bits several times per frame (issue 15, callgrind).
/// Non-copyable, so a copy cannot alias the storage and a table added to the arena
/// cannot leak: its owner's `deinit` ends it. Indices are the arena's own member
/// numbers, checked in debug builds only.
struct MemberTable<Value>: ~Copyable {
    private let base: UnsafeMutablePointer<Value>
    let count: Int

    init(repeating value: Value, count: Int) {
        self.count = count
        base = .allocate(capacity: max(count, 1))
        base.initialize(repeating: value, count: count)
    }

    init(_ values: [Value]) {
        count = values.count
        base = .allocate(capacity: max(count, 1))
        for (i, v) in values.enumerated() { (base + i).initialize(to: v) }
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    subscript(i: Int) -> Value {
        @inline(__always) get {
            assert(i >= 0 && i < count, "member table index \(i) out of 0..<\(count)")
            return base[i]
        }
        @inline(__always) nonmutating set {
            assert(i >= 0 && i < count, "member table index \(i) out of 0..<\(count)")
            base[i] = newValue
        }
    }
}

/// A set of member numbers as bits, 64 to a word, in a `MemberTable`: the arena keeps
/// which members are still in play, possible and enabled this way, so a frame visits
/// only the members that can act on it, in config order (lowest bit first).
struct MemberBits: ~Copyable {
    let words: MemberTable<UInt64>
    /// Members it holds bits for (the last word's high bits stay clear).
    let count: Int

    init(count: Int) {
        self.count = count
        words = MemberTable(repeating: 0, count: (count + 63) / 64)
    }

    @inline(__always) func contains(_ i: Int) -> Bool {
        assert(i >= 0 && i < count, "member \(i) out of 0..<\(count)")
        return words[i >> 6] & (1 << UInt64(i & 63)) != 0
    }
    @inline(__always) func insert(_ i: Int) {
        assert(i >= 0 && i < count, "member \(i) out of 0..<\(count)")
        words[i >> 6] |= 1 << UInt64(i & 63)
    }
    @inline(__always) func remove(_ i: Int) {
        assert(i >= 0 && i < count, "member \(i) out of 0..<\(count)")
        words[i >> 6] &= ~(1 << UInt64(i & 63))
    }
    @inline(__always) func set(_ i: Int, _ on: Bool) { if on { insert(i) } else { remove(i) } }
}

/// One set of members per row (row-major, `MemberBits`' layout), allocated once: which
/// members a member's win fails, which ones block it, which ones it requires to fail.
/// A scan of the members in play is then a word of bits at a time.
struct MemberRows: ~Copyable {
    let words: MemberTable<UInt64>
    let wordCount: Int
    let rows: Int

    init(rows: Int, members: Int, _ contains: (_ row: Int, _ member: Int) -> Bool) {
        wordCount = (members + 63) / 64
        self.rows = rows
        var table = [UInt64](repeating: 0, count: max(rows * wordCount, 1))
        for r in 0..<rows {
            for m in 0..<members where contains(r, m) { table[r * wordCount + (m >> 6)] |= 1 << UInt64(m & 63) }
        }
        words = MemberTable(table)
    }

    @inline(__always) subscript(row: Int, word: Int) -> UInt64 {
        assert(row >= 0 && row < rows && word >= 0 && word < wordCount, "row \(row), word \(word) out of range")
        return words[row * wordCount + word]
    }
    @inline(__always) func contains(_ row: Int, _ m: Int) -> Bool {
        assert(row >= 0 && row < rows && m >= 0 && m < wordCount << 6, "row \(row), member \(m) out of range")
        return words[row * wordCount + (m >> 6)] & (1 << UInt64(m & 63)) != 0
    }
}
