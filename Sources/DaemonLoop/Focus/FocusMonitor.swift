import DesktopSession
import LinuxSystem

extension EventLoop: FocusLoop {
    package func watch(_ descriptor: FileDescriptor, _ handler: @escaping () -> Void) throws { try add(descriptor) { _ in handler() } }
    package func unwatch(_ descriptor: FileDescriptor) { remove(descriptor) }
}

/// The daemon's view of the focused application: the source the session offers (or
/// why there is none), and what it last said. Its one hook into the daemon is
/// `onChange`, which hands the app to every device's engine.
package final class FocusMonitor {
    package let source: (any FocusSource)?
    /// Why there is no source (no session bus, a Wayland compositor gestured does not know), for the log and status.
    package let unavailable: String?
    package private(set) var app: FocusedApp?

    package init(environment: [String: String]) {
        switch FocusDetection.detect(environment) {
        case .source(let s):
            source = s
            unavailable = nil
        case .none(let why):
            source = nil
            unavailable = why
        }
    }

    package init(source: any FocusSource) {
        self.source = source
        unavailable = nil
    }


    package func start(on loop: EventLoop, logger: Logger, onChange: @escaping (FocusedApp?) -> Void) {
        guard let source else {
            logger.notice("focused app: \(unavailable ?? "no source")")
            return
        }
        logger.notice("focused app from \(source.name) at \(source.endpoint)")
        source.start(on: loop, onChange: { [unowned self] app in
            self.app = app
            onChange(app)
        }, log: { logger.info($0) })
    }

    package func stop() { source?.stop() }
}
