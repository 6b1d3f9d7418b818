import CLinux
import GestureInput
import Glibc

/// inotify on one directory: the names that were created, deleted, renamed or
/// changed there. Serves the config file (editors that write a temp file and rename
/// it, or delete and recreate) and, where no udev daemon runs, `/dev/input`.
final class DirectoryWatcher {
    let fd: Int32
    let directory: String

    init(directory: String) throws {
        self.directory = directory
        fd = clinux_inotify_init()
        guard fd >= 0 else { throw SystemError(errno) }
        let mask = CLINUX_IN_CLOSE_WRITE | CLINUX_IN_MOVED_TO | CLINUX_IN_CREATE | CLINUX_IN_DELETE | CLINUX_IN_MOVED_FROM | CLINUX_IN_ATTRIB
        guard clinux_inotify_add_watch(fd, directory, mask) >= 0 else {
            let e = errno
            close(fd)
            throw SystemError(e)
        }
    }

    deinit { close(fd) }

    /// Drains the queue: the names that changed, each once, in order.
    func changedNames() -> [String] {
        var names: [String] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            var offset = 0
            while offset + 16 <= n {
                let (len, name) = buffer.withUnsafeBytes { raw -> (Int, String) in
                    let len = Int(raw.load(fromByteOffset: offset + 12, as: UInt32.self))
                    let bytes = raw[(offset + 16)..<min(offset + 16 + len, n)]
                    return (len, String(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self))
                }
                if !name.isEmpty && !names.contains(name) { names.append(name) }
                offset += 16 + len
            }
        }
        return names
    }

    /// Splits a path into its directory and file name.
    static func split(_ path: String) -> (directory: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let dir = String(path[..<slash])
        return (dir.isEmpty ? "/" : dir, String(path[path.index(after: slash)...]))
    }
}
