import LinuxSystem
import TouchModel

/// A live source of touch frames on the daemon's loop: what a `DeviceSession` holds
/// and the daemon reads (`EvdevDevice` is one; a new kind of device is another). It
/// owns its descriptor, which the `EventLoop` watches, and turns what it reads into
/// `TouchFrame`s whose `time` is CLOCK_MONOTONIC µs (the daemon arms its timerfd at
/// the engine's deadlines on that clock).
public protocol TouchSource: AnyObject {
    /// Readable when the source has something to read.
    var descriptor: FileDescriptor { get }
    /// Where it is, for the log and `--device` (`/dev/input/event5`).
    var path: String { get }
    /// Its name as the hardware reports it (`--device` globs, gestured's own devices).
    var name: String { get }
    var info: DeviceInfo { get }
    /// What makes its frames: where the contact transform is applied (udev's
    /// calibration, then the screen's orientation, docs/INPUT.md) and `info`'s size
    /// follows it. A source speaks the evdev protocol to its decoder.
    var decoder: TouchDecoder { get }
    /// Reads until nothing more is waiting, handing each completed frame to `onFrame`
    /// in place (valid during the call). A frame stamped before `staleBefore`
    /// (CLOCK_MONOTONIC µs) is flagged `.stale`.
    func readAvailable(staleBefore: Int64, log: (String) -> Void, onFrame: (UnsafePointer<TouchFrame>) -> Void) -> TouchReadResult
    /// The source as one the desktop can be kept from reading (`grab:`, docs/INPUT.md);
    /// nil for a source that cannot be grabbed.
    var grabbable: (any GrabbableTouchSource)? { get }
}

/// A source that can be taken from the desktop, which then reads a clone
/// (`Passthrough`) that gets every frame gestured does not claim.
public protocol GrabbableTouchSource: TouchSource {
    /// While grabbed: the clone and what it forwards.
    var passthrough: Passthrough? { get }
    /// Whether a finger is down now, as the source knows it (a regrab waits for none).
    var isTouching: Bool { get }
    func grab(cloningWith makeClone: (DeviceDescription) throws(CloneDevice.Failure) -> CloneDevice,
              watchdog launcher: GrabWatchdog.Launcher?) throws(CloneDevice.Failure)
    func ungrab()
}

extension TouchSource {
    /// The clone's passthrough while the source is grabbed, else nil.
    public var passthrough: Passthrough? { grabbable?.passthrough }
}

/// How a `readAvailable` ended.
public enum TouchReadResult: Equatable, Sendable {
    /// Drained; wait for the descriptor to be readable again.
    case drained
    /// The device is gone (`ENODEV`): forget it.
    case gone
    /// Any other read error.
    case failed(Errno)
}
