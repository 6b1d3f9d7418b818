import CLinux
import Glibc

/// uinput(4): the ioctls that declare and create a virtual input device on an open
/// `/dev/uinput`, and the writes that feed it events. The ioctls are function-like
/// macros in C, so each goes through its one-line CLinux wrapper; each throws the
/// ioctl's name with its errno.
public enum Uinput {
    /// One event to write; the kernel stamps its time.
    public typealias Event = clinux_input_event

    public static func event(type: UInt16, code: UInt16, value: Int32) -> Event {
        Event(type: type, code: code, value: value)
    }

    /// UI_SET_EVBIT: the device sends events of `type` (EV_KEY, EV_REL, …).
    public static func enable(_ fd: FileDescriptor, type: UInt16) throws(SystemCallError) {
        try call("UI_SET_EVBIT \(type)") { clinux_ui_set_evbit(fd.rawValue, Int32(type)) }
    }

    /// UI_SET_KEYBIT, UI_SET_RELBIT, UI_SET_ABSBIT, UI_SET_MSCBIT, UI_SET_SWBIT,
    /// UI_SET_LEDBIT: the device has `code` of `type` (EV_KEY, keys and buttons; EV_REL;
    /// EV_ABS; EV_MSC; EV_SW; EV_LED). False for a type uinput is not told codes of this
    /// way (EV_SYN, EV_REP, EV_FF…).
    @discardableResult
    public static func enable(_ fd: FileDescriptor, code: UInt16, of type: UInt16) throws(SystemCallError) -> Bool {
        let c = Int32(code)
        switch type {
        case 0x01: try call("UI_SET_KEYBIT \(code)") { clinux_ui_set_keybit(fd.rawValue, c) }
        case 0x02: try call("UI_SET_RELBIT \(code)") { clinux_ui_set_relbit(fd.rawValue, c) }
        case 0x03: try call("UI_SET_ABSBIT \(code)") { clinux_ui_set_absbit(fd.rawValue, c) }
        case 0x04: try call("UI_SET_MSCBIT \(code)") { clinux_ui_set_mscbit(fd.rawValue, c) }
        case 0x05: try call("UI_SET_SWBIT \(code)") { clinux_ui_set_swbit(fd.rawValue, c) }
        case 0x11: try call("UI_SET_LEDBIT \(code)") { clinux_ui_set_ledbit(fd.rawValue, c) }
        default: return false
        }
        return true
    }

    /// UI_SET_PROPBIT: the device has `INPUT_PROP_*` `property`.
    public static func enable(_ fd: FileDescriptor, property: UInt16) throws(SystemCallError) {
        try call("UI_SET_PROPBIT \(property)") { clinux_ui_set_propbit(fd.rawValue, Int32(property)) }
    }

    /// UI_ABS_SETUP: absolute axis `code`'s value, range, noise and resolution (units/mm).
    public static func setupAxis(_ fd: FileDescriptor, code: UInt16, value: Int32, minimum: Int32, maximum: Int32,
                                 fuzz: Int32, flat: Int32, resolution: Int32) throws(SystemCallError) {
        try call("UI_ABS_SETUP \(code)") {
            clinux_ui_abs_setup(fd.rawValue, code, value, minimum, maximum, fuzz, flat, resolution)
        }
    }

    /// UI_DEV_SETUP: the name and ids the device will have.
    public static func setup(_ fd: FileDescriptor, name: String, bustype: UInt16, vendor: UInt16 = 0,
                             product: UInt16 = 0, version: UInt16 = 1) throws(SystemCallError) {
        try call("UI_DEV_SETUP") { clinux_ui_dev_setup(fd.rawValue, name, bustype, vendor, product, version) }
    }

    /// UI_DEV_CREATE: the device appears (its /dev/input/eventN follows through udev).
    public static func create(_ fd: FileDescriptor) throws(SystemCallError) {
        try call("UI_DEV_CREATE") { clinux_ui_dev_create(fd.rawValue) }
    }

    /// UI_DEV_DESTROY: the device goes; the kernel releases the keys it held. Closing
    /// the descriptor does the same.
    public static func destroy(_ fd: FileDescriptor) {
        _ = clinux_ui_dev_destroy(fd.rawValue)
    }

    /// UI_GET_SYSNAME: the device's name under /sys/devices/virtual/input (`input42`).
    public static func sysname(_ fd: FileDescriptor) -> String? {
        var buf = [CChar](repeating: 0, count: 64)
        guard clinux_ui_get_sysname(fd.rawValue, &buf, Int32(buf.count)) >= 0, buf[0] != 0 else { return nil }
        return String(nulTerminated: buf)
    }

    /// write(2) of `events` as struct input_event, in one call (at most 64).
    public static func write(_ fd: FileDescriptor, _ events: UnsafeBufferPointer<Event>) throws(SystemCallError) {
        try call("write") { Int32(truncatingIfNeeded: clinux_uinput_write(fd.rawValue, events.baseAddress, Int32(events.count))) }
    }

    private static func call(_ name: @autoclosure () -> String, _ body: () -> Int32) throws(SystemCallError) {
        do throws(Errno) { _ = try valueOrErrno(body) } catch { throw SystemCallError(name(), error) }
    }
}
