import GestureInput
import LinuxSystem

/// Which evdev nodes exist, and which come and go: the udev monitor where udevd runs,
/// else inotify on the input directory. The daemon decides what to do with them.
package final class Hotplug {
    package typealias Change = Udev.Monitor.Change

    package let inputDirectory: String
    private let udev = Udev()
    private var monitor: Udev.Monitor?
    private var inputWatcher: DirectoryWatcher?

    package init(inputDirectory: String) { self.inputDirectory = inputDirectory }

    /// Whether a device plugged in after `watch` would be reported.
    package var isWatching: Bool { monitor != nil || inputWatcher != nil }

    /// The evdev nodes present now, sorted by event number.
    package func presentNodes() -> [Udev.Node] { udev.inputNodes(inputDir: inputDirectory) }

    /// Starts reporting changes on `loop`. Where neither source can be watched, says so
    /// (the devices present at start still work).
    package func watch(on loop: EventLoop, logger: Logger, _ onChange: @escaping (Change) -> Void) {
        // udev's monitor only hears devices once udevd has processed them; where no
        // udevd runs (containers, minimal systems) it would stay silent forever.
        let udevdRunning = FileSystem.exists("/run/udev/control")
        if udevdRunning, let m = udev.monitor() {
            monitor = m
            do {
                try loop.add(m.fd) { _ in m.changes().forEach(onChange) }
                return
            } catch {
                logger.warning("cannot watch the udev monitor (\(error))")
            }
        }
        // No udevd: watch the device directory itself (IN_ATTRIB catches the moment a
        // new node becomes readable).
        do {
            let w = try DirectoryWatcher(directory: inputDirectory)
            try loop.add(w.fd) { [inputDirectory] _ in
                for name in w.changedNames() where name.hasPrefix("event") {
                    let path = inputDirectory + "/" + name
                    onChange(FileSystem.exists(path) ? .added(Udev.Node(path: path, properties: [:])) : .removed(path: path))
                }
            }
            inputWatcher = w
        } catch {
            logger.notice("hotplug unavailable: no udev monitor and cannot watch \(inputDirectory) (\(error))")
        }
    }
}
