import Glibc

/// Replacing a file so that a reader (the daemon's config watcher, an editor) and a
/// crash at any instant see the old contents or the new, never a mix or a truncation.
public enum AtomicFile {
    /// Writes `bytes` to `path`: a new file beside it (open(2) `O_CREAT|O_EXCL`, mode
    /// `mode`), written whole, fsync(2)ed, then rename(2)d over `path`, and the
    /// directory fsync(2)ed so the rename itself survives a crash. On any failure the
    /// new file is removed (unlink(2)) and `path` is untouched.
    public static func write(_ bytes: [UInt8], to path: String, mode: mode_t) throws(Errno) {
        let (directory, name) = split(path)
        let temporary = directory + "/." + name + ".gestured-\(getpid()).tmp"
        do throws(Errno) {
            let file = try OwnedFileDescriptor(opening: temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode: mode)
            // The mode asked for, whatever the umask took away from it.
            _ = try valueOrErrno { fchmod(file.descriptor.rawValue, mode) }
            try file.descriptor.writeAll(bytes)
            try file.descriptor.synchronize()
            try file.close()
            _ = try valueOrErrno { rename(temporary, path) }
        } catch {
            _ = unlink(temporary)
            throw error
        }
        let dir = try OwnedFileDescriptor(opening: directory, O_RDONLY | O_DIRECTORY)
        try dir.descriptor.synchronize()
    }

    /// ("/a/b", "c") for "/a/b/c"; (".", "c") for "c".
    public static func split(_ path: String) -> (directory: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let directory = String(path[..<slash])
        return (directory.isEmpty ? "/" : directory, String(path[path.index(after: slash)...]))
    }
}

extension FileDescriptor {
    /// fsync(2): the file's data and metadata on the disk.
    public func synchronize() throws(Errno) {
        _ = try valueOrErrno { fsync(rawValue) }
    }
}
