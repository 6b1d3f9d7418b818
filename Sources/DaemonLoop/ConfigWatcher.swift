import CLinux
import LinuxSystem

/// Reload-on-save for the config file, on the daemon's loop.
///
/// It watches the file's directory, not the file: editors replace the file by
/// renaming a temporary one over it. A change counts when a writer closes the file
/// (`IN_CLOSE_WRITE`), a file is renamed onto it (`IN_MOVED_TO`) or its mode or
/// owner changes (`IN_ATTRIB`, which decides whether it is accepted), never at each
/// `write()`: a reload between an editor's truncation and its write read an empty
/// file. It also watches the parent directory, so that when the directory itself is
/// deleted and made again (a dotfiles checkout, `rm -r` then restore) the watch is
/// set up again instead of going silently deaf; both states are logged. A directory
/// that does not exist yet is waited for the same way (a user's first config).
package final class ConfigWatcher {
    private let path: String
    private let name: String
    private let directory: String
    private let loop: EventLoop
    private let logger: Logger
    package var onChange: () -> Void
    private var watcher: DirectoryWatcher?
    /// Device and inode of the directory watched, to tell it from a new one of the same name.
    private var watched: (device: UInt64, inode: UInt64)?
    private var parentWatcher: DirectoryWatcher?
    /// The directory has been watched at some point (its disappearance is "removed",
    /// its first appearance "made").
    private var hadDirectory = false

    package static let fileEvents = CLINUX_IN_CLOSE_WRITE | CLINUX_IN_MOVED_TO | CLINUX_IN_ATTRIB
    package static let directoryGone = CLINUX_IN_DELETE_SELF | CLINUX_IN_MOVE_SELF | CLINUX_IN_IGNORED

    /// Throws when the directory cannot be watched at all; a parent that cannot be
    /// watched is only logged (reload-on-save works until the directory is replaced).
    /// With `awaitingDirectory` a directory that does not exist yet is not an error while
    /// its parent can be watched: it is watched from when it is made.
    package init(path: String, loop: EventLoop, logger: Logger, awaitingDirectory: Bool = false,
         onChange: @escaping () -> Void) throws {
        self.path = path
        (directory, name) = DirectoryWatcher.split(path)
        self.loop = loop
        self.logger = logger
        self.onChange = onChange
        let missing = awaitingDirectory && !FileSystem.exists(directory)
        if !missing { try attach() }
        let (parent, directoryName) = DirectoryWatcher.split(directory)
        guard parent != directory else { return }  // the root has no parent to watch
        do {
            let p = try DirectoryWatcher(directory: parent, mask: CLINUX_IN_CREATE | CLINUX_IN_MOVED_TO)
            try loop.add(p.fd) { [unowned self] _ in
                if p.changes().contains(where: { $0.name == directoryName }) { self.directoryAppeared() }
            }
            parentWatcher = p
        } catch {
            if missing { throw error }
            logger.warning("cannot watch \(parent) (\(error)); if \(directory) is removed and made again, reload with SIGHUP")
        }
        if missing { directoryAppeared(quietly: true) }  // made between the check and the watch
    }

    deinit {
        detach()
        if let p = parentWatcher { loop.remove(p.fd) }
    }

    private func attach() throws {
        let w = try DirectoryWatcher(directory: directory, mask: Self.fileEvents)
        try loop.add(w.fd) { [unowned self, unowned w] _ in self.handle(w.changes()) }
        watcher = w
        watched = FileSystem.directoryIdentity(directory)
        hadDirectory = true
    }

    private func detach() {
        if let w = watcher { loop.remove(w.fd) }
        watcher = nil
        watched = nil
    }

    private func handle(_ changes: [(name: String, mask: UInt32)]) {
        if changes.contains(where: { $0.name.isEmpty && $0.mask & Self.directoryGone != 0 }) {
            detach()
            logger.warning("the config directory \(directory) was removed or moved; reload-on-save waits for it to come back (SIGHUP reloads)")
            directoryAppeared()  // it may already be back: its creation can be read first
        } else if changes.contains(where: { $0.name == name && $0.mask & Self.fileEvents != 0 }) {
            onChange()
        }
    }

    /// The parent saw a directory of our name created or moved in (or ours went away
    /// and may be back already): watch it if it is a new one.
    private func directoryAppeared(quietly: Bool = false) {
        guard let id = FileSystem.directoryIdentity(directory), watched.map({ $0 != id }) ?? true else { return }
        let first = !hadDirectory
        detach()
        do {
            try attach()
        } catch {
            logger.warning("the config directory \(directory) is \(first ? "there" : "back") but cannot be watched (\(error)); reload with SIGHUP")
            return
        }
        if !quietly {
            logger.notice(first ? "the config directory \(directory) was made; watching it for \(name)"
                                : "the config directory \(directory) is back; watching it for changes again")
        }
        if FileSystem.exists(path) { onChange() }
    }
}
