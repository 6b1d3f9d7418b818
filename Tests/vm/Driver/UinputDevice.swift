import CEvdev
import Glibc
import GestureInput

/// A kernel input device made through uinput from a recorded device's description:
/// the same name, ids, properties, event codes and axis ranges, so the daemon (and
/// udev) see it as they would see the real hardware.
final class UinputDevice {
    let devnode: String
    private let device: OpaquePointer
    private let uinput: OpaquePointer

    /// Wraps `libevdev_new` + `libevdev_enable_*` + `libevdev_uinput_create_from_device`.
    init(_ description: DeviceDescription, name: String? = nil) throws(DriverError) {
        guard let device = libevdev_new() else { throw DriverError("libevdev_new failed") }
        libevdev_set_name(device, name ?? description.name)
        libevdev_set_id_bustype(device, Int32(description.id.bustype))
        libevdev_set_id_vendor(device, Int32(description.id.vendor))
        libevdev_set_id_product(device, Int32(description.id.product))
        libevdev_set_id_version(device, Int32(description.id.version))
        for property in description.properties.sorted() {
            libevdev_enable_property(device, UInt32(property))
        }
        for (type, codes) in description.codes.sorted(by: { $0.key < $1.key }) where Self.replayable(type) {
            libevdev_enable_event_type(device, UInt32(type))
            for code in codes.sorted() {
                let status: Int32
                if type == EventType.abs {
                    guard let info = description.absinfo[code] else { continue }
                    var abs = input_absinfo(value: info.minimum, minimum: info.minimum, maximum: info.maximum,
                                            fuzz: info.fuzz, flat: info.flat, resolution: info.resolution)
                    status = libevdev_enable_event_code(device, UInt32(type), UInt32(code), &abs)
                } else {
                    status = libevdev_enable_event_code(device, UInt32(type), UInt32(code), nil)
                }
                if status != 0 { Log.note("cannot enable event type \(type) code \(code); skipped") }
            }
        }
        var uinput: OpaquePointer?
        let status = libevdev_uinput_create_from_device(device, LIBEVDEV_UINPUT_OPEN_MANAGED.rawValue, &uinput)
        guard status == 0, let uinput else {
            libevdev_free(device)
            throw DriverError("libevdev_uinput_create_from_device: \(String(cString: strerror(-status))) "
                              + "(is the uinput module loaded and /dev/uinput writable?)")
        }
        self.device = device
        self.uinput = uinput
        self.devnode = libevdev_uinput_get_devnode(uinput).map { String(cString: $0) } ?? "(no devnode)"
    }

    /// Event types a uinput device can be given without extra setup. `EV_SYN` comes
    /// with every device; `EV_REP` and `EV_FF` need data (repeat rates, effect
    /// slots) a recording does not carry.
    private static func replayable(_ type: UInt16) -> Bool {
        type != EventType.syn && type != 0x14 /* EV_REP */ && type != 0x15 /* EV_FF */
    }

    /// Wraps `libevdev_uinput_write_event`; the kernel stamps the event's time.
    func write(type: UInt16, code: UInt16, value: Int32) throws(DriverError) {
        let status = libevdev_uinput_write_event(uinput, UInt32(type), UInt32(code), value)
        guard status == 0 else {
            throw DriverError("libevdev_uinput_write_event(\(type), \(code), \(value)): \(String(cString: strerror(-status)))")
        }
    }

    deinit {
        libevdev_uinput_destroy(uinput)
        libevdev_free(device)
    }
}

struct DriverError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

enum Log {
    static func note(_ message: String) { line(2, "gestured-uinput-play: \(message)") }
    /// Progress for the scenario scripts, on stdout, unbuffered.
    static func say(_ message: String) { line(1, message) }

    private static func line(_ fd: Int32, _ text: String) {
        var line = text + "\n"
        line.withUTF8 { _ = Glibc.write(fd, $0.baseAddress, $0.count) }
    }
}
