import CLinux
import Glibc

/// What a failed system call left in `errno`, typed. Its description names it the way
/// the man pages and `strace` do, then explains it: "ENOENT (No such file or
/// directory)". Every system error gestured prints goes through here.
public struct Errno: Error, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: Int32

    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The calling thread's `errno`, read right after the call that failed.
    public static var current: Errno { Errno(rawValue: Glibc.errno) }

    /// The symbolic name, from strerrorname_np(3): "EACCES".
    public var name: String {
        clinux_strerrorname(rawValue).map { String(cString: $0) } ?? "errno \(rawValue)"
    }

    /// "EACCES (Permission denied)". strerrordesc_np(3) rather than strerror(3): it is
    /// not localized and is safe on any thread.
    public var description: String {
        guard let text = clinux_strerrordesc(rawValue) else { return name }
        return "\(name) (\(String(cString: text)))"
    }

    // The errnos gestured's code decides on; any other is still printed by name.
    public static let notPermitted = Errno(rawValue: EPERM)
    public static let noSuchFileOrDirectory = Errno(rawValue: ENOENT)
    public static let interrupted = Errno(rawValue: EINTR)
    public static let badFileDescriptor = Errno(rawValue: EBADF)
    public static let noChildProcess = Errno(rawValue: ECHILD)
    public static let wouldBlock = Errno(rawValue: EAGAIN)
    public static let permissionDenied = Errno(rawValue: EACCES)
    public static let noSuchDevice = Errno(rawValue: ENODEV)
    public static let tooManyOpenFiles = Errno(rawValue: EMFILE)
    public static let brokenPipe = Errno(rawValue: EPIPE)
    public static let fileTooLarge = Errno(rawValue: EFBIG)
    public static let addressInUse = Errno(rawValue: EADDRINUSE)
    public static let connectionReset = Errno(rawValue: ECONNRESET)
    public static let connectionRefused = Errno(rawValue: ECONNREFUSED)
}

/// A system call that failed, named: "pidfd_open: EMFILE (Too many open files)". For
/// the callers whose message would otherwise not say which of several calls failed.
public struct SystemCallError: Error, Hashable, Sendable, CustomStringConvertible {
    public var call: String
    public var errno: Errno

    public init(_ call: String, _ errno: Errno) {
        self.call = call
        self.errno = errno
    }

    public var description: String { "\(call): \(errno)" }
}

/// Makes one C call, the one place gestured handles `EINTR`: a call that follows the
/// `-1`-and-`errno` convention (most of libc) returns its value, or throws its errno.
/// With `retryOnInterrupt` (the default) a call a signal interrupted is simply made
/// again, as swift-system's `valueOrErrno(retryOnInterrupt:)` does.
@inlinable
public func valueOrErrno<Value: FixedWidthInteger & SignedInteger>(
    retryOnInterrupt: Bool = true, _ call: () -> Value
) throws(Errno) -> Value {
    while true {
        let value = call()
        if value != -1 { return value }
        let error = Errno.current
        if retryOnInterrupt && error == .interrupted { continue }
        throw error
    }
}

/// The same for calls that return a negated errno instead of setting `errno`
/// (libevdev: `-EAGAIN`). Non-negative values are returned.
@inlinable
public func valueOrNegatedErrno<Value: FixedWidthInteger & SignedInteger>(
    retryOnInterrupt: Bool = true, _ call: () -> Value
) throws(Errno) -> Value {
    while true {
        let value = call()
        if value >= 0 { return value }
        let error = Errno(rawValue: Int32(truncatingIfNeeded: -value))
        if retryOnInterrupt && error == .interrupted { continue }
        throw error
    }
}
