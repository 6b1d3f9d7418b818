import CLinux

/// The process's own heap.
public enum Memory {
    /// malloc_trim(3): hands the heap's free pages back to the kernel. glibc keeps
    /// freed memory for reuse, so without it one large message read (a compositor's
    /// reply) would stay in the daemon's resident size for good. True if any went back.
    @discardableResult
    public static func returnFreePages() -> Bool { clinux_malloc_trim() == 1 }
}
