import Glibc

/// Questions about paths, asked of the kernel.
public enum FileSystem {
    /// access(2) `F_OK`: something exists at `path` (a dangling symlink does not count).
    public static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// access(2) `X_OK`: this process may execute `path`.
    public static func isExecutable(_ path: String) -> Bool { access(path, X_OK) == 0 }

    /// stat(2): the device and inode of the directory at `path` (following symlinks),
    /// which tell it from another made later under the same name; nil when `path` is
    /// not a directory.
    public static func directoryIdentity(_ path: String) -> (device: UInt64, inode: UInt64)? {
        var st = stat()
        guard stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR else { return nil }
        return (UInt64(st.st_dev), UInt64(st.st_ino))
    }

    /// opendir(3)/readdir(3): the names in `directory`, without "." and "..", in the
    /// order the file system gives them; empty when it cannot be read.
    public static func entries(of directory: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
