import Glibc

/// Questions about paths, asked of the kernel.
public enum FileSystem {
    /// access(2) `F_OK`: something exists at `path` (a dangling symlink does not count).
    public static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// access(2) `X_OK`: this process may execute `path`.
    public static func isExecutable(_ path: String) -> Bool { access(path, X_OK) == 0 }

    /// stat(2) of `path`, following symlinks.
    public static func status(_ path: String) throws(Errno) -> FileStatus {
        var st = stat()
        _ = try valueOrErrno { stat(path, &st) }
        return FileStatus(st)
    }

    /// lstat(2) of `path`: a symlink is itself, not what it points to.
    public static func linkStatus(_ path: String) throws(Errno) -> FileStatus {
        var st = stat()
        _ = try valueOrErrno { lstat(path, &st) }
        return FileStatus(st)
    }

    /// open(2) and one read(2): the first `maximumBytes` of a small file that the
    /// kernel hands over in one read (a sysfs attribute).
    public static func prefix(of path: String, maximumBytes: Int) throws(Errno) -> [UInt8] {
        let file = try OwnedFileDescriptor(opening: path, O_RDONLY)
        var bytes = [UInt8](repeating: 0, count: maximumBytes)
        bytes.removeLast(maximumBytes - (try file.descriptor.read(into: &bytes)))
        return bytes
    }

    /// stat(2): the device and inode of the directory at `path` (following symlinks),
    /// which tell it from another made later under the same name; nil when `path` is
    /// not a directory.
    public static func directoryIdentity(_ path: String) -> (device: UInt64, inode: UInt64)? {
        guard let st = try? status(path), st.type == S_IFDIR else { return nil }
        return (st.device, st.inode)
    }

    /// realpath(3): the path with every symlink resolved; nil if it does not exist.
    public static func resolvedPath(_ path: String) -> String? {
        guard let p = realpath(path, nil) else { return nil }
        defer { free(p) }
        return String(cString: p)
    }

    /// mkdir(2) with `mode` (less the umask). An existing directory is no error.
    public static func makeDirectory(_ path: String, mode: mode_t) throws(Errno) {
        do throws(Errno) {
            _ = try valueOrErrno { mkdir(path, mode) }
        } catch where error.rawValue == EEXIST && directoryIdentity(path) != nil {}
    }

    /// mkdtemp(3): a new directory `prefix` + 6 random characters, mode 0700.
    public static func makeTemporaryDirectory(prefix: String) throws(Errno) -> String {
        var template = Array((prefix + "XXXXXX").utf8CString)
        guard mkdtemp(&template) != nil else { throw Errno.current }
        return String(cString: template)
    }

    /// rename(2): `path` replaces whatever is at `newPath`, atomically.
    public static func rename(_ path: String, to newPath: String) throws(Errno) {
        _ = try valueOrErrno { Glibc.rename(path, newPath) }
    }

    /// link(2): `newPath` names the file at `path` too; fails with EEXIST, atomically,
    /// when something is already there (how a file is put in place without replacing one).
    public static func link(_ path: String, to newPath: String) throws(Errno) {
        _ = try valueOrErrno { Glibc.link(path, newPath) }
    }

    /// unlink(2) of a file, or rmdir(2) of an empty directory; what is not there is no error.
    public static func remove(_ path: String) {
        if unlink(path) != 0 && errno == EISDIR { _ = rmdir(path) }
    }

    /// opendir(3)/readdir(3): the names in `directory`, without "." and "..", in the
    /// order the file system gives them; empty when it cannot be read.
    public static func entries(of directory: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(nulTerminated: raw)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}

/// What stat(2) and fstat(2) say of a file, the fields gestured reads.
public struct FileStatus: Sendable, Equatable {
    /// The file type bits (`mode & S_IFMT`): `S_IFREG`, `S_IFDIR`, `S_IFIFO`, …
    public var type: mode_t { mode & S_IFMT }
    public var isDirectory: Bool { type == S_IFDIR }
    public var isSocket: Bool { type == S_IFSOCK }
    /// The permission bits (`mode & 0o7777`).
    public var permissions: mode_t { mode & 0o7777 }
    /// Type and permission bits.
    public var mode: mode_t
    public var owner: uid_t
    public var size: Int64
    public var device: UInt64
    public var inode: UInt64

    init(_ st: stat) {
        mode = st.st_mode
        owner = st.st_uid
        size = Int64(st.st_size)
        device = UInt64(st.st_dev)
        inode = UInt64(st.st_ino)
    }
}

extension FileDescriptor {
    /// fstat(2): the open file's status (not the path's, which may have changed since).
    public func status() throws(Errno) -> FileStatus {
        var st = stat()
        _ = try valueOrErrno { fstat(rawValue, &st) }
        return FileStatus(st)
    }
}
