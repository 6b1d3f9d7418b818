import CLinux
import GestureConfig
import Glibc

/// gestured's own input device, made through /dev/uinput: what the compositor (or
/// X server) reads the keys, clicks and wheel motion of built-in actions from, like
/// any keyboard and mouse. Every uinput call is in this file; each wrapper names the
/// ioctl it makes, and failures carry the call and the errno's name.
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
            case .command: break
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

    /// A failed uinput call: which, on what, and the errno.
    public struct Failure: Error, Equatable, CustomStringConvertible {
        public var call: String
        public var code: Int32

        public var errnoName: String { String(cString: clinux_strerrorname(code)) }
        public var description: String { "\(call): \(errnoName) (\(String(cString: strerror(code))))" }
    }

    static let evSyn: UInt16 = 0, evKey: UInt16 = 1, evRel: UInt16 = 2
    static let relHWheel: UInt16 = 0x06, relWheel: UInt16 = 0x08
    static let relWheelHiRes: UInt16 = 0x0b, relHWheelHiRes: UInt16 = 0x0c
    /// BUS_VIRTUAL: what `libinput list-devices` and udev report for it.
    static let busVirtual: UInt16 = 0x06

    public let capabilities: Capabilities
    private let fd: Int32
    /// `/dev/input/eventN`'s parent in sysfs (`input42`), when the kernel says.
    public private(set) var sysname: String?

    /// Opens `path` (the real /dev/uinput, or a test's fake), declares `capabilities`
    /// and creates the device. `open` is `open(2)` unless a test substitutes it.
    public init(capabilities: Capabilities, path: String = VirtualDevice.path,
                open: (String) -> Int32 = { Glibc.open($0, O_WRONLY | O_NONBLOCK | O_CLOEXEC) }) throws(Failure) {
        self.capabilities = capabilities
        fd = open(path)
        guard fd >= 0 else { throw Failure(call: "open \(path)", code: errno) }
        do {
            try Self.check(clinux_ui_set_evbit(fd, Int32(Self.evSyn)), "UI_SET_EVBIT EV_SYN")
            if !capabilities.keys.isEmpty {
                try Self.check(clinux_ui_set_evbit(fd, Int32(Self.evKey)), "UI_SET_EVBIT EV_KEY")
                for k in capabilities.keys.sorted() { try Self.check(clinux_ui_set_keybit(fd, Int32(k)), "UI_SET_KEYBIT \(k)") }
            }
            if capabilities.wheel {
                try Self.check(clinux_ui_set_evbit(fd, Int32(Self.evRel)), "UI_SET_EVBIT EV_REL")
                for r in [Self.relWheel, Self.relHWheel, Self.relWheelHiRes, Self.relHWheelHiRes] {
                    try Self.check(clinux_ui_set_relbit(fd, Int32(r)), "UI_SET_RELBIT \(r)")
                }
            }
            try Self.check(clinux_ui_dev_setup(fd, Self.name, Self.busVirtual, 0, 0, 1), "UI_DEV_SETUP")
            try Self.check(clinux_ui_dev_create(fd), "UI_DEV_CREATE")
        } catch {
            close(fd)
            throw error
        }
        var buf = [CChar](repeating: 0, count: 64)
        if clinux_ui_get_sysname(fd, &buf, Int32(buf.count)) >= 0, buf[0] != 0 {
            sysname = String(decoding: buf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }

    /// UI_DEV_DESTROY, then close: the kernel releases whatever is still down.
    deinit {
        _ = clinux_ui_dev_destroy(fd)
        close(fd)
    }

    /// Writes one report (events ending with SYN_REPORT) in one write(2); EINTR retried.
    public func write(_ events: UnsafeBufferPointer<clinux_input_event>) throws(Failure) {
        while true {
            let n = clinux_uinput_write(fd, events.baseAddress, Int32(events.count))
            if n >= 0 { return }
            if errno == EINTR { continue }
            throw Failure(call: "write \(Self.path)", code: errno)
        }
    }

    private static func check(_ rc: Int32, _ call: @autoclosure () -> String) throws(Failure) {
        if rc < 0 { throw Failure(call: call(), code: errno) }
    }

    /// Whether /dev/uinput can be opened for writing now (`gestured check`); nil when it can.
    public static func probe(path: String = VirtualDevice.path) -> Failure? {
        let fd = Glibc.open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return Failure(call: "open \(path)", code: errno) }
        close(fd)
        return nil
    }

    /// What to tell a user whose /dev/uinput cannot be opened, by errno.
    public static func advice(for failure: Failure) -> String {
        switch failure.code {
        case ENOENT, ENODEV, ENXIO:
            return "the uinput module is not loaded: run 'sudo modprobe uinput' (make install adds /etc/modules-load.d/gestured-uinput.conf to load it at boot)"
        case EACCES, EPERM:
            return "this user may not write /dev/uinput: install the udev rule (make install, or put KERNEL==\"uinput\", GROUP=\"input\", MODE=\"0660\", OPTIONS+=\"static_node=uinput\" in /etc/udev/rules.d/70-gestured-uinput.rules), run 'sudo udevadm control --reload && sudo udevadm trigger --sysname-match=uinput', and be in the input group ('sudo usermod -aG input $USER', then log in again)"
        default:
            return "check that /dev/uinput exists and is writable by this user"
        }
    }
}
