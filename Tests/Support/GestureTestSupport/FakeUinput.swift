import CFakeEvdevDevice
import Glibc

/// /dev/uinput in-process: `open` hands the writer the write end of a fresh pipe
/// registered with the fake's ioctl interposer (Tests/Support/CFakeEvdevDevice/uinput.c),
/// so the real VirtualDevice code declares, creates and writes; `events()` reads back
/// what it wrote, one `InputEventRecord` per struct input_event.
public final class FakeUinput {
    public struct Record: Equatable, Sendable, CustomStringConvertible {
        public var type: UInt16
        public var code: UInt16
        public var value: Int32

        public init(type: UInt16, code: UInt16, value: Int32) {
            self.type = type
            self.code = code
            self.value = value
        }

        public var description: String { "\(type):\(code):\(value)" }
    }

    /// One per device the writer opened, oldest first.
    public private(set) var opened: [(read: Int32, write: Int32)] = []
    /// When set, `open` fails with this errno (EACCES: no udev rule; ENOENT: no module).
    public var openError: Int32?

    public init() {}

    deinit {
        for p in opened {
            cfake_uinput_unregister(p.write)
            close(p.read)
        }
    }

    /// What VirtualDevice calls instead of open(2).
    public func open(_ path: String) -> Int32 {
        if let e = openError { errno = e; return -1 }
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return -1 }
        _ = fcntl(fds[0], F_SETFL, O_NONBLOCK)
        _ = fcntl(fds[1], 1031 /* F_SETPIPE_SZ */, 1 << 20)
        guard cfake_uinput_register(fds[1]) == 0 else { errno = EMFILE; return -1 }
        opened.append((fds[0], fds[1]))
        return fds[1]
    }

    /// The newest device's write end (what the fake answers ioctls for).
    public var current: Int32? { opened.last?.write }

    public var created: Bool { current.map { cfake_uinput_created($0) == 1 } ?? false }

    public func declares(type: UInt16, code: UInt16) -> Bool {
        current.map { cfake_uinput_has($0, UInt32(type), UInt32(code)) == 1 } ?? false
    }

    public var declaredKeyCount: Int { current.map { Int(cfake_uinput_key_count($0)) } ?? 0 }

    public var name: String {
        guard let fd = current else { return "" }
        var buf = [CChar](repeating: 0, count: 80)
        _ = cfake_uinput_name(fd, &buf, 80)
        return String(decoding: buf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    public func hasProperty(_ property: UInt16) -> Bool {
        current.map { cfake_uinput_has_property($0, UInt32(property)) == 1 } ?? false
    }

    /// The range and resolution the writer gave axis `code` (UI_ABS_SETUP).
    public func axis(_ code: UInt16) -> (minimum: Int32, maximum: Int32, resolution: Int32)? {
        guard let fd = current else { return nil }
        var a: (Int32, Int32, Int32) = (0, 0, 0)
        guard cfake_uinput_absinfo(fd, UInt32(code), &a.0, &a.1, &a.2) == 0 else { return nil }
        return a
    }

    /// Bus type, vendor and product from UI_DEV_SETUP.
    public var ids: (bustype: UInt16, vendor: UInt16, product: UInt16)? {
        guard let fd = current else { return nil }
        var i: (UInt16, UInt16, UInt16) = (0, 0, 0)
        guard cfake_uinput_id(fd, &i.0, &i.1, &i.2) == 0 else { return nil }
        return i
    }

    /// The newest device's writes fail with EAGAIN from now on (its pipe is full, and
    /// made non-blocking), until `unjam()`.
    public func jam() {
        guard let fd = current else { return }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        let filler = [UInt8](repeating: 0, count: 65_536)
        while write(fd, filler, filler.count) > 0 {}
        var byte: UInt8 = 0
        while write(fd, &byte, 1) > 0 {}
    }

    /// Writes land again: the filler `jam()` put in the pipe is thrown away, with
    /// anything written before it that was not read.
    public func unjam() {
        guard let p = opened.last else { return }
        var buf = [UInt8](repeating: 0, count: 65_536)
        while read(p.read, &buf, buf.count) > 0 {}
    }

    /// Everything written since the last call, across every device opened.
    public func events() -> [Record] {
        opened.indices.flatMap { events(of: $0) }
    }

    /// What the `index`th device opened (oldest first) wrote since the last call.
    public func events(of index: Int) -> [Record] {
        var out: [Record] = []
        var buf = [UInt8](repeating: 0, count: 24 * 256)
        for p in opened[index...index] {
            while true {
                let n = read(p.read, &buf, buf.count)
                if n <= 0 { break }
                for off in stride(from: 0, to: n - 23, by: 24) {
                    func u16(_ o: Int) -> UInt16 { UInt16(buf[off + o]) | UInt16(buf[off + o + 1]) << 8 }
                    let v = UInt32(u16(20)) | UInt32(u16(22)) << 16
                    out.append(Record(type: u16(16), code: u16(18), value: Int32(bitPattern: v)))
                }
            }
        }
        return out
    }
}
