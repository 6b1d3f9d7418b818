import DaemonLoop
import GestureConfig
import Glibc
import JSON
import LinuxSystem
import TouchModel

/// The config the ui edits: which file it is, checking a text as `gestured check` does,
/// and saving it so that the user's file is never lost nor half-written.
package struct ConfigEditing {
    /// The file the page edits and Save writes: the config in use if it is this user's
    /// own; otherwise (the built-in default, or /etc's, which is root's) the user's own
    /// file, which the daemon then takes up by itself.
    package let path: String
    /// Whether `path` is what the daemon runs now (false: Save creates the user's own).
    package let inUse: Bool

    package init(source: ConfigSource, explicit: Bool, environment: [String: String], uid: uid_t = getuid()) {
        let own = configSearchPath(environment: environment).first ?? "config.yaml"
        switch source {
        case .file(let p):
            let owner = (try? FileSystem.status(p))?.owner
            if explicit || owner == nil || owner == uid {
                (path, inUse) = (p, true)
            } else {
                (path, inUse) = (own, false)
            }
        case .builtIn:
            (path, inUse) = (own, false)
        }
    }

    /// The file's text, or the built-in default's when there is no file yet (bounded, as
    /// the loader bounds it).
    package func text() -> String {
        guard let bytes = try? ConfigLoader.readRegularFile(path) else { return ConfigLoader.builtInText }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Every diagnostic `gestured check` would print for `text`, as the file it would be.
    package func check(_ text: String) -> (config: Config?, diagnostics: [Diagnostic]) {
        let (config, diagnostics) = ConfigLoader.parse(text, file: path)
        return (config, diagnostics)
    }

    /// `[{"line":3,"column":5,"severity":"error","message":"…","hint":null}]`
    package static func json(_ diagnostics: [Diagnostic]) -> String {
        "[" + diagnostics.map { d in
            JSON.object([("line", d.mark.map { String($0.line) } ?? "null"), ("column", d.mark.map { String($0.column) } ?? "null"),
                         ("severity", JSON.string(d.severity.rawValue)), ("message", JSON.string(d.message)), ("hint", "null")])
        }.joined(separator: ", ") + "]"
    }

    package enum SaveError: Error, CustomStringConvertible {
        case notOwned(String, uid_t)
        /// A symlink of another user's where a directory is to be made in.
        case foreignSymlink(String, uid_t)
        case system(String, Errno)
        /// The file in place is not one to read (a FIFO, a device, too large).
        case notRegular(String)
        package var description: String {
            switch self {
            case let .notRegular(why): return why
            case let .notOwned(path, owner): return "\(path) belongs to uid \(owner), not to you (uid \(getuid())); gestured ui writes only your own files"
            case let .foreignSymlink(path, owner): return "\(path) is a symlink of uid \(owner), not yours (uid \(getuid())); gestured ui makes no directory through it"
            case let .system(what, e): return "\(what): \(e)"
            }
        }
    }

    /// Saves `text`: the old file copied to `FILE.bak` first, then the new one written
    /// beside it and renamed over it (`AtomicFile`), so that at every instant the file is
    /// the old text or the new. Only a file of this user's (and a directory of this
    /// user's, for a new one) is written. Returns the backup's path, nil if there was no
    /// old file.
    package func save(_ text: String, uid: uid_t = getuid()) throws(SaveError) -> String? {
        // A config that is a symlink (into a dotfiles repository) stays one: its target is written.
        let path = FileSystem.resolvedPath(self.path) ?? self.path
        let (directory, _) = AtomicFile.split(path)
        try Self.makeDirectories(directory, uid: uid)
        let old = try? FileSystem.status(path)
        let dir = try? FileSystem.status(directory)
        if let old, old.owner != uid { throw .notOwned(path, old.owner) }
        if old == nil, let dir, dir.owner != uid { throw .notOwned(directory, dir.owner) }
        // As the file was, but never writable by others: the daemon refuses such a config.
        let mode = (old.map { $0.mode & 0o777 } ?? 0o644) & ~0o022
        var backup: String?
        if old != nil {
            let previous: [UInt8]
            do throws(ConfigFileError) {
                previous = try ConfigLoader.readRegularFile(path)
            } catch {
                throw .notRegular("cannot back up \(error); nothing was written")
            }
            do throws(Errno) {
                try AtomicFile.write(previous, to: path + ".bak", mode: mode)
            } catch {
                throw .system("cannot back up \(path) to \(path).bak; nothing was written", error)
            }
            backup = path + ".bak"
        }
        do throws(Errno) {
            try AtomicFile.write(Array(text.utf8), to: path, mode: mode)
        } catch {
            throw .system("cannot write \(path); it is unchanged", error)
        }
        return backup
    }

    /// `mkdir -p` of the directory a new config goes in (a fresh account has no
    /// ~/.config yet): each missing one made with mode 0700, as the XDG base directory
    /// spec asks of ~/.config. They are made only inside a directory of this user's, not
    /// through a symlink of another user's, and each one made is checked (lstat(2)) to be
    /// a directory of ours, not a symlink put there meanwhile.
    private static func makeDirectories(_ directory: String, uid: uid_t) throws(SaveError) {
        var missing: [String] = []
        var nearest = directory
        while (try? FileSystem.linkStatus(nearest)) == nil, nearest != "/", nearest != "." {
            missing.append(nearest)
            nearest = AtomicFile.split(nearest).directory
        }
        guard !missing.isEmpty else { return }
        if let link = try? FileSystem.linkStatus(nearest), link.type == S_IFLNK, link.owner != uid {
            throw .foreignSymlink(nearest, link.owner)
        }
        let parent: FileStatus
        do throws(Errno) {
            parent = try FileSystem.status(nearest)
        } catch {
            throw .system("cannot create \(directory): \(nearest)", error)
        }
        guard parent.isDirectory else { throw .system("cannot create \(directory): \(nearest)", Errno(rawValue: ENOTDIR)) }
        guard parent.owner == uid else { throw .notOwned(nearest, parent.owner) }
        for made in missing.reversed() {
            let st: FileStatus
            do throws(Errno) {
                try FileSystem.makeDirectory(made, mode: 0o700)
                st = try FileSystem.linkStatus(made)
            } catch {
                throw .system("cannot create \(made)", error)
            }
            guard st.isDirectory, st.owner == uid else { throw .notOwned(made, st.owner) }
        }
    }
}
