import CLinux
import Glibc

/// A block of memory shared with other processes by descriptor (memfd(2)), mapped in
/// this one: the event stream's ring (`subscribe shared`, docs/CONTROL.md). Its size is
/// sealed (`F_SEAL_SHRINK`, `F_SEAL_GROW`), so a process it is passed to can map it
/// and read every byte without fear of SIGBUS: nobody can shrink it under the mapping.
/// The one that makes it writes; the ones it is passed to map it read-only from a
/// read-only descriptor (`readOnlyDescriptor`), so they cannot write into it.
public final class SharedMemory {
    /// The mapped bytes: `count` of them, writable only in the process that made it.
    public let base: UnsafeMutableRawPointer
    public let count: Int
    private let file: OwnedFileDescriptor

    /// A new block of `count` zero bytes (a multiple of the page size), mapped read-write,
    /// its pages there from the start (`MAP_POPULATE`): the writer then takes no page
    /// fault per 4 KiB on its first way through.
    public init(name: String, count: Int) throws(Errno) {
        let file = try OwnedFileDescriptor { clinux_memfd_create(name) }
        _ = try valueOrErrno { ftruncate(file.descriptor.rawValue, off_t(count)) }
        _ = try valueOrErrno { clinux_memfd_seal_size(file.descriptor.rawValue) }
        guard let p = mmap(nil, count, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, file.descriptor.rawValue, 0), p != MAP_FAILED else {
            throw Errno(rawValue: errno)
        }
        base = p
        self.count = count
        self.file = file
    }

    /// Maps a block another process passed, read-only. Refused unless its size is
    /// sealed and is `count` bytes exactly: the other process is not trusted to be
    /// what it says, only to be unable to pull the memory away.
    public init(mapping descriptor: consuming OwnedFileDescriptor, count: Int) throws(Errno) {
        let fd = descriptor.descriptor.rawValue
        var st = stat()
        _ = try valueOrErrno { fstat(fd, &st) }
        guard count > 0, Int(st.st_size) == count, clinux_memfd_size_is_sealed(fd) == 1 else { throw Errno(rawValue: EINVAL) }
        guard let p = mmap(nil, count, PROT_READ, MAP_SHARED, fd, 0), p != MAP_FAILED else { throw Errno(rawValue: errno) }
        base = p
        self.count = count
        file = descriptor
    }

    deinit { munmap(base, count) }

    /// A new read-only descriptor of the same memory (open(2) of /proc/self/fd/N with
    /// O_RDONLY), to pass on: whoever gets it can map it for reading only.
    public func readOnlyDescriptor() throws(Errno) -> OwnedFileDescriptor {
        try OwnedFileDescriptor(opening: "/proc/self/fd/\(file.descriptor.rawValue)", O_RDONLY | O_CLOEXEC)
    }

    /// The 8-byte word at `offset` (a multiple of 8), read after every read before it
    /// is done (`clinux_load_acquire_u64`), as a writer's `storeRelease` published it.
    @inline(__always) public func loadAcquire(_ offset: Int) -> UInt64 {
        clinux_load_acquire_u64((base + offset).assumingMemoryBound(to: UInt64.self))
    }

    /// The word at `offset`, read only once every read of the mapping before it is done
    /// (a seqlock reader's check that what it copied was not being overwritten).
    @inline(__always) public func loadAfterReads(_ offset: Int) -> UInt64 {
        clinux_fence_then_load_u64((base + offset).assumingMemoryBound(to: UInt64.self))
    }

    /// Stores `value` at `offset`, seen before any write after it (a ring's tail moved
    /// past what the next writes overwrite).
    @inline(__always) public func storeThenFence(_ offset: Int, _ value: UInt64) {
        clinux_store_then_fence_u64((base + offset).assumingMemoryBound(to: UInt64.self), value)
    }

    /// Stores `value` at `offset` once every write before it is visible.
    @inline(__always) public func storeRelease(_ offset: Int, _ value: UInt64) {
        clinux_store_release_u64((base + offset).assumingMemoryBound(to: UInt64.self), value)
    }
}
