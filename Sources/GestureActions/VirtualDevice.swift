import DaemonCore
import GestureConfig
import Glibc
import LinuxSystem

/// gestured's own input device, made through /dev/uinput: what the compositor (or
/// X server) reads the keys, clicks and wheel motion of built-in actions from, like
/// any keyboard and mouse. Every uinput call is in this file, through LinuxSystem's
/// owned descriptor and errno path; failures carry the ioctl and the errno's name.
///
/// The kernel destroys the device when its descriptor closes, however the process
/// ends (even SIGKILL), and releases every key it held then: a reader sees the key-up
/// events and then the device vanish.
public final class VirtualDevice {
    /// Its name in `list-devices`, /proc/bus/input/devices and the compositor's logs.
    public static let name = "gestured virtual input"
    public static let path = "/dev/uinput"

    /// What the device declares: exactly what the config uses.
    public struct Capabilities: Sendable, Equatable {
        /// `KEY_*` and `BTN_*` codes.
        public var keys: Set<UInt16> = []
        /// REL_WHEEL, REL_HWHEEL and their high-resolution twins.
        public var wheel = false

        public init(keys: Set<UInt16> = [], wheel: Bool = false) {
            self.keys = keys
            self.wheel = wheel
        }

        /// Everything `config`'s built-in actions write.
        public init(config: Config) {
            for b in config.bindings {
                for a in Array(b.actions.values) + [b.reverse].compactMap({ $0 }) { add(a) }
                if let hold = b.hold { add(.press(hold)) }
            }
        }

        private mutating func add(_ action: Action) {
            switch action {
            case .command, .desktop: break
            case .keys(let chords): for c in chords { keys.formUnion(c.keys.map(\.code)) }
            case .press(let c), .release(let c): keys.formUnion(c.keys.map(\.code))
            case .button(let b): keys.insert(b.code)
            case .scroll: wheel = true
            }
        }

        public var isEmpty: Bool { keys.isEmpty && !wheel }

        public func covers(_ other: Capabilities) -> Bool {
            other.keys.isSubset(of: keys) && (wheel || !other.wheel)
        }
    }

    /// A failed uinput call: which, on what, and the errno ("open /dev/uinput: EACCES (Permission denied)").
    public typealias Failure = SystemCallError

    static let evSyn: UInt16 = 0, evKey: UInt16 = 1, evRel: UInt16 = 2
    static let relHWheel: UInt16 = 0x06, relWheel: UInt16 = 0x08
    static let relWheelHiRes: UInt16 = 0x0b, relHWheelHiRes: UInt16 = 0x0c
    /// BUS_VIRTUAL: what `libinput list-devices` and udev report for it.
    static let busVirtual: UInt16 = 0x06

    public let capabilities: Capabilities
    private let file: OwnedFileDescriptor
    /// `/dev/input/eventN`'s parent in sysfs (`input42`), when the kernel says.
    public private(set) var sysname: String?

    /// Opens `path` (the real /dev/uinput, or a test's fake), declares `capabilities`
    /// and creates the device. `open` is `open(2)` unless a test substitutes it.
    public init(capabilities: Capabilities, path: String = VirtualDevice.path,
                open: (String) -> Int32 = { Glibc.open($0, O_WRONLY | O_NONBLOCK | O_CLOEXEC) }) throws(Failure) {
        self.capabilities = capabilities
        do throws(Errno) {
            file = try OwnedFileDescriptor { open(path) }
        } catch {
            throw Failure("open \(path)", error)
        }
        let fd = file.descriptor
        try Uinput.enable(fd, type: Self.evSyn)
        if !capabilities.keys.isEmpty {
            try Uinput.enable(fd, type: Self.evKey)
            for k in capabilities.keys.sorted() { try Uinput.enable(fd, code: k, of: Self.evKey) }
        }
        if capabilities.wheel {
            try Uinput.enable(fd, type: Self.evRel)
            for r in [Self.relWheel, Self.relHWheel, Self.relWheelHiRes, Self.relHWheelHiRes] { try Uinput.enable(fd, code: r, of: Self.evRel) }
        }
        try Uinput.setup(fd, name: Self.name, bustype: Self.busVirtual)
        try Uinput.create(fd)
        sysname = Uinput.sysname(fd)
    }

    /// UI_DEV_DESTROY, then the owned descriptor closes: the kernel releases whatever is still down.
    deinit { Uinput.destroy(file.descriptor) }

    /// Writes one report (events ending with SYN_REPORT) in one write(2); EINTR retried.
    public func write(_ events: UnsafeBufferPointer<Uinput.Event>) throws(Failure) {
        do throws(SystemCallError) { try Uinput.write(file.descriptor, events) } catch {
            throw Failure("write \(Self.path)", error.errno)
        }
    }

    /// Whether /dev/uinput can be opened for writing now (`gestured check`); nil when it can.
    public static func probe(path: String = VirtualDevice.path) -> Failure? {
        do throws(Errno) {
            _ = try OwnedFileDescriptor(opening: path, O_WRONLY | O_NONBLOCK)
            return nil
        } catch {
            return Failure("open \(path)", error)
        }
    }

    /// What to tell a user whose /dev/uinput cannot be opened, by errno.
    public static func advice(for failure: Failure) -> String {
        switch failure.errno.rawValue {
        case ENOENT, ENODEV, ENXIO:
            return "the uinput module is not loaded: run 'sudo modprobe uinput' (make install adds /etc/modules-load.d/gestured-uinput.conf to load it at boot)"
        case EACCES, EPERM:
            return "this user may not write /dev/uinput: install the udev rule (make install, or put KERNEL==\"uinput\", GROUP=\"input\", MODE=\"0660\", OPTIONS+=\"static_node=uinput\" in /etc/udev/rules.d/70-gestured-uinput.rules), run 'sudo udevadm control --reload && sudo udevadm trigger --sysname-match=uinput', and be in the input group ('sudo usermod -aG input $USER', then log in again)"
        default:
            return "check that /dev/uinput exists and is writable by this user"
        }
    }
}
