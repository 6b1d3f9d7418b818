import Glibc

/// An errno with its symbolic name and message: "EACCES (Permission denied)".
public struct SystemError: Error, Equatable, CustomStringConvertible {
    public var code: Int32
    public init(_ code: Int32) { self.code = code }

    public var name: String {
        switch code {
        case EPERM: return "EPERM"
        case ENOENT: return "ENOENT"
        case EINTR: return "EINTR"
        case EIO: return "EIO"
        case ENXIO: return "ENXIO"
        case EBADF: return "EBADF"
        case EAGAIN: return "EAGAIN"
        case ENOMEM: return "ENOMEM"
        case EACCES: return "EACCES"
        case EBUSY: return "EBUSY"
        case ENODEV: return "ENODEV"
        case ENOTDIR: return "ENOTDIR"
        case EISDIR: return "EISDIR"
        case EINVAL: return "EINVAL"
        case EMFILE: return "EMFILE"
        case ENOTTY: return "ENOTTY"
        case ENOSPC: return "ENOSPC"
        case EROFS: return "EROFS"
        default: return "errno \(code)"
        }
    }

    public var description: String { "\(name) (\(String(cString: strerror(code))))" }
}
