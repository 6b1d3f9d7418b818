import CEvdev
import Glibc
import LinuxSystem

/// A uinput copy of a touch device, for the desktop to read in its place while
/// gestured holds the original with EVIOCGRAB (`grab:` in the config): the same
/// name with ` (gestured)` after it, the same bus, vendor, product and version (so
/// hwdb entries and libinput quirks matched by ids still apply), the same
/// properties, event codes, axis ranges, resolutions and slot count.
///
/// One addition: a touchscreen's clone always has `ABS_MT_TOOL_TYPE` reaching
/// `MT_TOOL_PALM`, the one way a kernel device can tell libinput to cancel a touch
/// (`Passthrough` uses it when a gesture claims the touches).
///
/// The kernel destroys the clone when its descriptor closes, however gestured ends.
public final class CloneDevice {
    /// What every clone's name ends with; how gestured knows its own clones.
    public static let nameSuffix = " (gestured)"
    /// UINPUT_MAX_NAME_SIZE, less its NUL.
    static let maximumNameBytes = 79

    public let name: String
    /// `input42`: the clone's directory under /sys/devices/virtual/input, when the kernel says.
    public private(set) var sysname: String?
    /// write(2) calls so far: one per frame passed through (tests count them).
    public private(set) var writes = 0
    private let file: OwnedFileDescriptor
    /// The open uinput descriptor (the grab watchdog holds it too).
    var descriptor: FileDescriptor { file.descriptor }

    /// A failed uinput call, named with its errno ("open /dev/uinput: EACCES (…)").
    public typealias Failure = SystemCallError

    /// Opens `path` with `open` (open(2) unless a test substitutes a fake), declares
    /// everything `original` has and creates the clone.
    public init(of original: DeviceDescription, path: String = "/dev/uinput",
                open: (String) -> Int32 = { Glibc.open($0, O_WRONLY | O_NONBLOCK | O_CLOEXEC) }) throws(Failure) {
        name = Self.name(for: original.name)
        do throws(Errno) {
            file = try OwnedFileDescriptor { open(path) }
        } catch {
            throw Failure("open \(path)", error)
        }
        let fd = file.descriptor
        let description = Self.declared(original)
        for type in description.codes.keys.sorted() {
            try Uinput.enable(fd, type: type)
            for code in description.codes[type]!.sorted() { try Uinput.enable(fd, code: code, of: type) }
        }
        for p in description.properties.sorted() { try Uinput.enable(fd, property: p) }
        let id = original.id
        try Uinput.setup(fd, name: name, bustype: id.bustype, vendor: id.vendor, product: id.product, version: id.version)
        for (code, a) in description.absinfo.sorted(by: { $0.key < $1.key }) {
            try Uinput.setupAxis(fd, code: code, value: a.value, minimum: a.minimum, maximum: a.maximum,
                                 fuzz: a.fuzz, flat: a.flat, resolution: a.resolution)
        }
        try Uinput.create(fd)
        sysname = Uinput.sysname(fd)
    }

    /// UI_DEV_DESTROY; the descriptor closes with the object.
    deinit { Uinput.destroy(file.descriptor) }

    /// What the clone declares: the original's codes and axes (EV_SYN, EV_REP and
    /// force feedback are not declared through UI_SET_*BIT, the kernel adds what it
    /// needs), plus a palm-capable ABS_MT_TOOL_TYPE on a multitouch touchscreen.
    static func declared(_ original: DeviceDescription) -> DeviceDescription {
        var d = original
        d.codes = d.codes.filter { type, _ in [EventType.key, 0x02, EventType.abs, EventType.msc, 0x05, 0x11].contains(type) }
        d.absinfo = d.absinfo.filter { code, _ in d.hasAbs(code) }
        if original.hasProperty(InputProperty.direct), original.hasAbs(AbsCode.mtSlot) {
            var tool = d.absinfo[AbsCode.mtToolType] ?? AbsInfo(minimum: 0, maximum: MTTool.palm)
            tool.maximum = max(tool.maximum, MTTool.palm)
            d.absinfo[AbsCode.mtToolType] = tool
            d.codes[EventType.abs, default: []].insert(AbsCode.mtToolType)
        }
        return d
    }

    /// `name (gestured)`, the original's name cut (at a character) to fit uinput's 80 bytes.
    static func name(for original: String) -> String {
        var base = Substring(original)
        while base.utf8.count + nameSuffix.utf8.count > maximumNameBytes { base = base.dropLast() }
        return base + nameSuffix
    }

    public static func isClone(name: String) -> Bool { name.hasSuffix(nameSuffix) }

    /// One write(2) of whole events (their times are ignored: the kernel stamps its own).
    func write(_ events: UnsafeBufferPointer<input_event>) throws(Failure) {
        writes += 1
        do throws(Errno) {
            _ = try file.descriptor.write(UnsafeRawBufferPointer(events))
        } catch {
            throw Failure("write \(name)", error)
        }
    }
}
