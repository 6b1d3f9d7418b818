import CLinux
import LinuxSystem

/// inotify on one directory: the names that were created, deleted, renamed or
/// changed there. Serves the config file (editors that write a temp file and rename
/// it, or delete and recreate) and, where no udev daemon runs, `/dev/input`.
package final class DirectoryWatcher {
    private let inotify: OwnedFileDescriptor
    package let directory: String

    package var fd: FileDescriptor { inotify.descriptor }

    package static let everyChange = CLINUX_IN_CLOSE_WRITE | CLINUX_IN_MOVED_TO | CLINUX_IN_CREATE | CLINUX_IN_DELETE | CLINUX_IN_MOVED_FROM | CLINUX_IN_ATTRIB

    /// inotify_init1(2), then inotify_add_watch(2) on `directory` for the events in
    /// `mask` (the directory's own removal, `IN_DELETE_SELF`/`IN_MOVE_SELF`/`IN_IGNORED`,
    /// always comes with them).
    package init(directory: String, mask: UInt32 = everyChange) throws(Errno) {
        self.directory = directory
        inotify = try OwnedFileDescriptor { clinux_inotify_init() }
        let fd = inotify.descriptor
        _ = try valueOrErrno { clinux_inotify_add_watch(fd.rawValue, directory, mask | CLINUX_IN_DELETE_SELF | CLINUX_IN_MOVE_SELF) }
    }

    /// Drains the queue: the names that changed, each once, in order.
    package func changedNames() -> [String] { changes().map(\.name).filter { !$0.isEmpty } }

    /// Drains the queue: each name that changed once, in order, with the events it
    /// had; the empty name is the directory itself.
    package func changes() -> [(name: String, mask: UInt32)] {
        var out: [(name: String, mask: UInt32)] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while let n = try? fd.read(into: &buffer), n > 0 {
            var offset = 0
            while offset + 16 <= n {
                let (mask, len, name) = buffer.withUnsafeBytes { raw -> (UInt32, Int, String) in
                    let mask = raw.load(fromByteOffset: offset + 4, as: UInt32.self)
                    let len = Int(raw.load(fromByteOffset: offset + 12, as: UInt32.self))
                    let bytes = raw[(offset + 16)..<min(offset + 16 + len, n)]
                    return (mask, len, String(nulTerminated: bytes))
                }
                if let i = out.firstIndex(where: { $0.name == name }) { out[i].mask |= mask } else { out.append((name, mask)) }
                offset += 16 + len
            }
        }
        return out
    }

    /// Splits a path into its directory and file name.
    package static func split(_ path: String) -> (directory: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let dir = String(path[..<slash])
        return (dir.isEmpty ? "/" : dir, String(path[path.index(after: slash)...]))
    }
}
