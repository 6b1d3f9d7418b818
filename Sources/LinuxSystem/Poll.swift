import Glibc

/// poll(2), for the one process that has no event loop: the grab watchdog, which
/// waits on a few descriptors at a time.
public enum Poll {
    /// Which of `fds` are readable, hung up or in error within `timeoutMS` (-1: no
    /// limit); all false when the time ran out. EINTR is retried once.
    public static func ready(_ fds: [FileDescriptor], timeoutMS: Int32) throws(Errno) -> [Bool] {
        var set = fds.map { pollfd(fd: $0.rawValue, events: Int16(POLLIN), revents: 0) }
        _ = try valueOrErrno { set.withUnsafeMutableBufferPointer { Glibc.poll($0.baseAddress, nfds_t($0.count), timeoutMS) } }
        return set.map { $0.revents != 0 }
    }
}
