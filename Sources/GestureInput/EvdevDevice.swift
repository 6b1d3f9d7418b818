import CEvdev
import CLinux
import Glibc
import LinuxSystem
import TouchModel

/// A live evdev device read through libevdev, non-blocking: the only file that
/// calls libevdev's reading API. Feeds its decoder; the caller gets frames.
public final class EvdevDevice: GrabbableTouchSource {
    public let path: String
    private let file: OwnedFileDescriptor
    public let description: DeviceDescription
    public let decoder: TouchDecoder
    private let dev: OpaquePointer
    /// Rate limit for the SYN_DROPPED log line, as libinput does: one per this many seconds.
    private var lastDropLog: Int64?
    /// What the decoder had refused when it was last logged (rate-limited the same way).
    private var loggedRejections: TouchDecoder.Rejections?
    private var lastRejectionLog: Int64?
    /// While the device is grabbed (`grab(cloningWith:)`): its clone and what it forwards.
    public private(set) var passthrough: Passthrough?

    public typealias ReadResult = TouchReadResult

    /// Opens `path` read-only and non-blocking and classifies it. Throws `DeviceError`
    /// naming the node (permission denied → the input-group fix) or why it is unused.
    public convenience init(path: String, udevProperties: [String: String] = [:]) throws(DeviceError) {
        let file: OwnedFileDescriptor
        do throws(Errno) {
            file = try OwnedFileDescriptor(opening: path, O_RDONLY | O_NONBLOCK)
        } catch {
            throw DeviceError.open(path: path, error)
        }
        try self.init(adopting: file, path: path, udevProperties: udevProperties)
    }

    /// Takes ownership of an open, non-blocking evdev fd (closed on failure too).
    public init(adopting file: consuming OwnedFileDescriptor, path: String, udevProperties: [String: String] = [:]) throws(DeviceError) {
        let fd = file.descriptor
        var dev: OpaquePointer?
        do throws(Errno) {
            _ = try valueOrNegatedErrno { libevdev_new_from_fd(fd.rawValue, &dev) }
        } catch {
            throw DeviceError.open(path: path, error)
        }
        guard let dev else { throw DeviceError.open(path: path, .noSuchDevice) }
        var description = Self.describe(dev)
        description.udevProperties = udevProperties
        let decoder: TouchDecoder
        do {
            decoder = try TouchDecoder(description: description)
        } catch {
            libevdev_free(dev)
            throw DeviceError.unsupported(path: path, name: description.name, reason: error.reason)
        }
        // Kernel timestamps on CLOCK_MONOTONIC, the clock the daemon's timerfd uses.
        _ = try? fd.ioctl(clinux_evdev_set_clock_monotonic)
        self.path = path
        self.file = file
        self.dev = dev
        self.description = description
        self.decoder = decoder
    }

    deinit { libevdev_free(dev) }

    /// The open node, for the event loop to watch; closed when the device goes.
    public var fd: FileDescriptor { file.descriptor }
    public var descriptor: FileDescriptor { file.descriptor }
    public var name: String { description.name }
    public var grabbable: (any GrabbableTouchSource)? { self }

    public var info: DeviceInfo { decoder.deviceInfo(name: description.name) }

    /// Reads until the kernel has nothing more, handing each completed frame to
    /// `onFrame`, in place (`TouchDecoder.framePointer`: valid during the call). On `SYN_DROPPED` libevdev resynchronizes; the frame built from its
    /// sync events is flagged `.resynced` so the engine cancels what is in flight.
    /// A frame stamped before `staleBefore` (kernel µs) is flagged `.stale`: the backlog
    /// of a stalled reader, which the engine fires nothing from and a grab's clone never
    /// gets (it is told the device's state once the frames are fresh again).
    public func readAvailable(staleBefore: Int64 = .min, log: (String) -> Void = { _ in },
                              onFrame: (UnsafePointer<TouchFrame>) -> Void) -> ReadResult {
        var ev = input_event()
        var flag = LIBEVDEV_READ_FLAG_NORMAL.rawValue
        while true {
            let rc: Int32
            do throws(Errno) {
                rc = try valueOrNegatedErrno { libevdev_next_event(dev, flag, &ev) }
            } catch {
                if error == .wouldBlock && flag == LIBEVDEV_READ_FLAG_SYNC.rawValue {
                    flag = LIBEVDEV_READ_FLAG_NORMAL.rawValue // sync done, back to normal events
                    continue
                }
                logRejections(log)
                return Self.result(of: error)
            }
            if rc == LIBEVDEV_READ_STATUS_SYNC.rawValue && flag == LIBEVDEV_READ_FLAG_NORMAL.rawValue {
                // The SYN_DROPPED itself: start draining libevdev's sync events.
                decoder.markResync()
                flag = LIBEVDEV_READ_FLAG_SYNC.rawValue
                let now = monotonicNanoseconds()
                if lastDropLog.map({ now - $0 > 30_000_000_000 }) ?? true {
                    lastDropLog = now
                    log("\(path): kernel dropped events (SYN_DROPPED); resynchronized, gestures in flight cancelled")
                }
                continue
            }
            passthrough?.append(ev)
            if decoder.feed(Self.event(ev)) {
                if decoder.frame.time.microseconds < staleBefore { decoder.markStale() }
                onFrame(decoder.framePointer)
            }
            if ev.type == EventType.syn && ev.code == SynCode.report, let passthrough { passthrough.frameEnded(self) }
        }
    }

    // MARK: Grab and passthrough

    /// Makes a uinput clone of the device (`makeClone`: a `CloneDevice`, or a test's),
    /// then takes the device for gestured alone (EVIOCGRAB): from now on the desktop
    /// reads the clone, and `readAvailable` forwards every frame to it. The clone is
    /// told the device's state first (the kernel sends only changes, and the clone
    /// starts from zeros). With no clone
    /// there is no grab (a grabbed device without one would be dead to the desktop);
    /// a grab refused (EBUSY: another program holds it) leaves no clone behind.
    /// With a `watchdog` launcher, the grab comes with its `GrabWatchdog` child, or not
    /// at all: no grab may outlive a stalled daemon.
    public func grab(cloningWith makeClone: (DeviceDescription) throws(CloneDevice.Failure) -> CloneDevice,
                     watchdog launcher: GrabWatchdog.Launcher? = nil) throws(CloneDevice.Failure) {
        guard passthrough == nil else { return }
        let clone = try makeClone(description)
        var watchdog: GrabWatchdog?
        if let launcher {
            do throws(Errno) {
                watchdog = try GrabWatchdog(launcher, device: fd, clone: clone.descriptor, path: path,
                                            slots: Int(max(libevdev_get_num_slots(dev), 0)))
            } catch {
                throw CloneDevice.Failure("posix_spawn \(launcher.program) \(GrabWatchdog.subcommand)", error)
            }
        }
        do throws(Errno) {
            _ = try fd.ioctl { clinux_evdev_grab($0, 1) }
        } catch {
            throw CloneDevice.Failure("EVIOCGRAB \(path)", error)
        }
        let p = Passthrough(clone: clone, watchdog: watchdog, description: description)
        p.sync(self)
        passthrough = p
    }

    /// Gives the device back to everyone (EVIOCGRAB 0) and destroys the clone. A device
    /// already gone has nothing to give back.
    public func ungrab() {
        guard passthrough != nil else { return }
        _ = try? fd.ioctl { clinux_evdev_grab($0, 0) }
        passthrough = nil
    }

    /// Whether a finger (or the touch bit, or any slot) is down now, as libevdev knows it.
    public var isTouching: Bool {
        if libevdev_get_event_value(dev, UInt32(EventType.key), UInt32(KeyCode.btnTouch)) != 0 { return true }
        for tool in [KeyCode.btnToolFinger, KeyCode.btnToolDoubleTap, KeyCode.btnToolTripleTap, KeyCode.btnToolQuadTap, KeyCode.btnToolQuintTap]
        where libevdev_get_event_value(dev, UInt32(EventType.key), UInt32(tool)) != 0 {
            return true
        }
        let slots = libevdev_get_num_slots(dev)
        for s in 0..<max(slots, 0) where libevdev_get_slot_value(dev, UInt32(s), UInt32(AbsCode.mtTrackingID)) >= 0 { return true }
        return false
    }

    /// The device's whole state as one frame, from libevdev: every slot (its tracking
    /// id, -1 for none, and every multitouch axis: a touch that begins later in a slot
    /// sends only what changed on the device, so the clone must have the rest), the
    /// other axes, the buttons down, the current slot, SYN_REPORT. What a reader that
    /// missed frames needs to be in step again; the kernel drops what it already had.
    func appendState(into out: inout [input_event]) {
        func add(_ type: UInt16, _ code: UInt16, _ value: Int32) { out.append(input_event(type, code, value)) }
        let abs = description.codes[EventType.abs] ?? []
        let slots = libevdev_get_num_slots(dev)
        let mtCodes = abs.filter { $0 > AbsCode.mtSlot && $0 != AbsCode.mtTrackingID }.sorted()
        for s in 0..<max(slots, 0) {
            add(EventType.abs, AbsCode.mtSlot, s)
            add(EventType.abs, AbsCode.mtTrackingID, libevdev_get_slot_value(dev, UInt32(s), UInt32(AbsCode.mtTrackingID)))
            for code in mtCodes { add(EventType.abs, code, libevdev_get_slot_value(dev, UInt32(s), UInt32(code))) }
        }
        for code in abs.filter({ $0 < AbsCode.mtSlot }).sorted() {
            add(EventType.abs, code, libevdev_get_event_value(dev, UInt32(EventType.abs), UInt32(code)))
        }
        if slots > 0 { add(EventType.abs, AbsCode.mtSlot, libevdev_get_current_slot(dev)) }
        for code in (description.codes[EventType.key] ?? []).sorted()
        where libevdev_get_event_value(dev, UInt32(EventType.key), UInt32(code)) != 0 {
            add(EventType.key, code, 1)
        }
        add(EventType.syn, SynCode.report, 0)
    }

    /// Says what the decoder refused from this device: at once the first time, then at
    /// most every 30 s, so a hostile device cannot flood the log.
    private func logRejections(_ log: (String) -> Void) {
        let r = decoder.rejections
        guard r.undeclaredEvents + r.truncatedFrames > 0, r != loggedRejections else { return }
        let now = clinux_monotonic_ns()
        guard lastRejectionLog.map({ now - $0 > 30_000_000_000 }) ?? true else { return }
        lastRejectionLog = now
        loggedRejections = r
        log("\(path) (\(description.name)): \(r)")
    }

    /// Reads raw events as they come, for `gestured record`; same drain semantics.
    public func readRaw(_ onEvent: (InputEvent) -> Void) -> ReadResult {
        var ev = input_event()
        var flag = LIBEVDEV_READ_FLAG_NORMAL.rawValue
        while true {
            do throws(Errno) {
                let rc = try valueOrNegatedErrno { libevdev_next_event(dev, flag, &ev) }
                if rc == LIBEVDEV_READ_STATUS_SYNC.rawValue { flag = LIBEVDEV_READ_FLAG_SYNC.rawValue }
                onEvent(Self.event(ev))
            } catch {
                if error == .wouldBlock && flag == LIBEVDEV_READ_FLAG_SYNC.rawValue {
                    flag = LIBEVDEV_READ_FLAG_NORMAL.rawValue
                    continue
                }
                return Self.result(of: error)
            }
        }
    }

    /// How a read that stopped with `error` ended: `EAGAIN` means drained.
    private static func result(of error: Errno) -> ReadResult {
        switch error {
        case .wouldBlock: return .drained
        case .noSuchDevice: return .gone
        default: return .failed(error)
        }
    }

    @inline(__always)
    static func event(_ ev: input_event) -> InputEvent {
        InputEvent(time: Timestamp(microseconds: microseconds(ev.time)),
                   type: ev.type, code: ev.code, value: ev.value)
    }

    /// A kernel timestamp in µs. No real clock comes near the ends of Int64 (292,000
    /// years of µs), but a device (uinput, a fake) may send any `tv_sec`: such a time
    /// saturates instead of trapping on overflow.
    @inline(__always)
    static func microseconds(_ t: timeval) -> Int64 {
        let (seconds, overflow) = Int64(t.tv_sec).multipliedReportingOverflow(by: 1_000_000)
        let (sum, overflow2) = seconds.addingReportingOverflow(Int64(t.tv_usec))
        if overflow || overflow2 { return t.tv_sec < 0 ? .min : .max }
        return sum
    }

    /// The device's description as libevdev reports it.
    static func describe(_ dev: OpaquePointer) -> DeviceDescription {
        let name = libevdev_get_name(dev).map { String(cString: $0) } ?? "unnamed device"
        let id = InputID(bustype: UInt16(truncatingIfNeeded: libevdev_get_id_bustype(dev)),
                         vendor: UInt16(truncatingIfNeeded: libevdev_get_id_vendor(dev)),
                         product: UInt16(truncatingIfNeeded: libevdev_get_id_product(dev)),
                         version: UInt16(truncatingIfNeeded: libevdev_get_id_version(dev)))
        var properties = Set<UInt16>()
        for p in 0...InputProperty.max where libevdev_has_property(dev, UInt32(p)) != 0 { properties.insert(p) }
        var codes: [UInt16: Set<UInt16>] = [:]
        var absinfo: [UInt16: AbsInfo] = [:]
        for type in 0...EventType.max where libevdev_has_event_type(dev, UInt32(type)) != 0 {
            let maxCode = libevdev_event_type_get_max(UInt32(type))
            guard maxCode >= 0 else { codes[type] = []; continue }
            var set = Set<UInt16>()
            for code in 0...UInt32(maxCode) where libevdev_has_event_code(dev, UInt32(type), code) != 0 {
                set.insert(UInt16(code))
                if type == EventType.abs, let a = libevdev_get_abs_info(dev, code) {
                    absinfo[UInt16(code)] = AbsInfo(value: a.pointee.value, minimum: a.pointee.minimum,
                                                    maximum: a.pointee.maximum, fuzz: a.pointee.fuzz,
                                                    flat: a.pointee.flat, resolution: a.pointee.resolution)
                }
            }
            codes[type] = set
        }
        return DeviceDescription(name: name, id: id, properties: properties, codes: codes, absinfo: absinfo)
    }
}

/// Why a device node could not be used, naming the node.
public enum DeviceError: Error, Equatable, CustomStringConvertible {
    case open(path: String, Errno)
    case unsupported(path: String, name: String, reason: String)

    public var description: String {
        switch self {
        case .open(let path, let err) where err == .permissionDenied || err == .notPermitted:
            return "\(path): permission denied: add yourself to the input group (sudo usermod -aG input $USER), then log out and in again"
        case .open(let path, let err):
            return "\(path): cannot open: \(err)"
        case .unsupported(let path, let name, let reason):
            return "\(path) (\(name)): not used: \(reason)"
        }
    }
}

extension InputEvent {
    /// The kernel's `struct input_event` for this event: what mtdev takes and what a
    /// device (or a test's fake device) carries.
    public var kernelEvent: input_event {
        var ev = input_event()
        ev.time.tv_sec = Int(time.microseconds / 1_000_000)
        ev.time.tv_usec = Int(time.microseconds % 1_000_000)
        ev.type = type
        ev.code = code
        ev.value = value
        return ev
    }
}
