import CLinux
import Glibc

/// A descriptor number to read, write and control, without owning it (stdout, a
/// descriptor a C library owns, or one an `OwnedFileDescriptor` lends). Only the
/// owner closes: this type has no `close()`.
public struct FileDescriptor: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int32

    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let standardOutput = FileDescriptor(rawValue: 1)
    public static let standardError = FileDescriptor(rawValue: 2)

    public var description: String { "fd \(rawValue)" }

    /// read(2) into `buffer`: the byte count, 0 at end of file. A non-blocking
    /// descriptor with nothing to read throws `.wouldBlock`.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        try valueOrErrno { Glibc.read(rawValue, buffer.baseAddress, buffer.count) }
    }

    /// read(2) into `buffer`'s first bytes: the byte count, 0 at end of file.
    public func read(into buffer: inout [UInt8]) throws(Errno) -> Int {
        try valueOrErrno { buffer.withUnsafeMutableBytes { Glibc.read(rawValue, $0.baseAddress, $0.count) } }
    }

    /// read(2) until end of file: everything, or `.fileTooLarge` (EFBIG) as soon as
    /// there is more than `maximumBytes`, so a huge file costs no more than the limit.
    public func readToEnd(maximumBytes: Int) throws(Errno) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while case let n = try read(into: &chunk), n > 0 {
            bytes.append(contentsOf: chunk[0..<n])
            guard bytes.count <= maximumBytes else { throw .fileTooLarge }
        }
        return bytes
    }

    /// write(2) once: the bytes written, which may be fewer than given.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(Errno) -> Int {
        try valueOrErrno { Glibc.write(rawValue, bytes.baseAddress, bytes.count) }
    }

    /// send(2) once with `MSG_NOSIGNAL` (a socket whose reader went away is `.brokenPipe`,
    /// never SIGPIPE): the bytes taken, which may be fewer than given; a full send buffer
    /// of a non-blocking socket throws `.wouldBlock`.
    public func send(_ bytes: UnsafeRawBufferPointer) throws(Errno) -> Int {
        try valueOrErrno { Glibc.send(rawValue, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL)) }
    }

    /// write(2) until every byte is out: a short write (a pipe, a signal) goes on from
    /// where it stopped. A reader that went away throws `.brokenPipe` (with SIGPIPE
    /// ignored, see `Signals.ignoreBrokenPipe()`); what was written by then stays written.
    public func writeAll(_ bytes: UnsafeRawBufferPointer) throws(Errno) {
        var offset = 0
        while offset < bytes.count {
            offset += try write(UnsafeRawBufferPointer(rebasing: bytes[offset...]))
        }
    }

    /// `writeAll` of a string's UTF-8.
    public func writeAll(_ text: String) throws(Errno) {
        var text = text
        let result: Result<Void, Errno> = text.withUTF8 { utf8 in
            Result { () throws(Errno) in try writeAll(UnsafeRawBufferPointer(utf8)) }
        }
        try result.get()
    }

    /// `writeAll` of bytes: one uinput event, a frame of a protocol.
    public func writeAll(_ bytes: [UInt8]) throws(Errno) {
        let result: Result<Void, Errno> = bytes.withUnsafeBytes { raw in
            Result { () throws(Errno) in try writeAll(raw) }
        }
        try result.get()
    }

    /// fcntl(2) `F_GETFL` then `F_SETFL` with `O_NONBLOCK` added.
    public func setNonBlocking() throws(Errno) {
        let flags = try valueOrErrno { fcntl(rawValue, F_GETFL) }
        _ = try valueOrErrno { fcntl(rawValue, F_SETFL, flags | O_NONBLOCK) }
    }

    /// ioctl(2) through its CLinux wrapper (ioctl is variadic and its requests are
    /// function-like macros, so neither imports): `try fd.ioctl { clinux_evdev_grab($0, 1) }`.
    /// The wrapper returns ioctl's value, -1 with `errno` set on failure.
    @discardableResult
    public func ioctl(_ wrapper: (Int32) -> Int32) throws(Errno) -> Int32 {
        try valueOrErrno { wrapper(rawValue) }
    }
}

/// An open descriptor that only this value owns, closed exactly once: by `close()`,
/// or else when the value goes away. Non-copyable, so no second owner can close it
/// twice or use it after the close (the number may belong to another file by then).
public struct OwnedFileDescriptor: ~Copyable {
    /// The number, lent for calls; valid while this value lives.
    public let descriptor: FileDescriptor

    /// Takes ownership of `rawValue`, which must be open.
    public init(adopting rawValue: Int32) { descriptor = FileDescriptor(rawValue: rawValue) }

    /// open(2), always with `O_CLOEXEC`: no command gestured starts inherits it.
    public init(opening path: String, _ flags: Int32, mode: mode_t = 0) throws(Errno) {
        let fd = try valueOrErrno { Glibc.open(path, flags | O_CLOEXEC, mode) }
        self.init(adopting: fd)
    }

    /// Adopts what `call` returns, a new descriptor or -1 with `errno` set
    /// (`epoll_create1`, `timerfd_create`, `socket`, `pidfd_open`, …).
    public init(_ call: () -> Int32) throws(Errno) {
        self.init(adopting: try valueOrErrno(call))
    }

    deinit { _ = Glibc.close(descriptor.rawValue) }

    /// close(2), with its error (a delayed write error, say). Not retried on `EINTR`:
    /// Linux has released the number even then, and a retry could close another file.
    public consuming func close() throws(Errno) {
        let fd = descriptor.rawValue
        discard self
        _ = try valueOrErrno(retryOnInterrupt: false) { Glibc.close(fd) }
    }

    /// Hands ownership to someone else (a C library that closes it) without closing.
    public consuming func release() -> FileDescriptor {
        let fd = descriptor
        discard self
        return fd
    }
}

/// pipe2(2): a read end and a write end, both close-on-exec.
public struct Pipe: ~Copyable {
    public var readEnd: OwnedFileDescriptor
    public var writeEnd: OwnedFileDescriptor

    /// `O_NONBLOCK`, for `init(flags:)`.
    public static let nonBlocking = O_NONBLOCK

    /// `flags`: `O_NONBLOCK`, `O_DIRECT`; `O_CLOEXEC` is always added.
    public init(flags: Int32 = 0) throws(Errno) {
        var fds: [Int32] = [-1, -1]
        _ = try valueOrErrno { clinux_pipe2(&fds, flags | O_CLOEXEC) }
        readEnd = OwnedFileDescriptor(adopting: fds[0])
        writeEnd = OwnedFileDescriptor(adopting: fds[1])
    }

    /// The read end; the write end is closed (once a child holds its own copy, the
    /// reader sees end of file when the child's copy closes).
    public consuming func keepingReadEnd() -> OwnedFileDescriptor { readEnd }

    /// The write end; the read end is closed.
    public consuming func keepingWriteEnd() -> OwnedFileDescriptor { writeEnd }
}
