import CEvdev
import Glibc

/// `--read NAME`: the other side of gestured's virtual device, as a compositor reads
/// it. Waits for the evdev node whose name is NAME, then prints each event libevdev
/// reads from it, one line each (`KEY_LEFTALT 1`, `REL_WHEEL -1`, `SYN_REPORT`), and
/// `gone` when the kernel removes the device.
enum Reader {
    /// `times`: each line ends with ` @SECONDS.MICROS`, the event's kernel time
    /// (CLOCK_REALTIME, evdev's default, the clock of files' mtimes).
    static func run(name: String, readyFile: String?, times: Bool = false, timeoutSeconds: Int = 20) -> Never {
        var waited = 0
        var found: (Int32, OpaquePointer, String)?
        while found == nil {
            found = open(named: name)
            if found == nil {
                guard waited < timeoutSeconds * 10 else { fail("no input device named '\(name)' within \(timeoutSeconds) s") }
                usleep(100_000)
                waited += 1
            }
        }
        let (fd, device, node) = found!
        Log.say("reading \(node) \"\(name)\"")
        if let readyFile { writeFile(readyFile, node) }
        var ev = input_event()
        while true {
            let rc = libevdev_next_event(device, LIBEVDEV_READ_FLAG_NORMAL.rawValue | LIBEVDEV_READ_FLAG_BLOCKING.rawValue, &ev)
            if rc == -EAGAIN || rc == -EINTR { continue }
            if rc == -ENODEV { Log.say("gone"); close(fd); exit(0) }
            if rc < 0 { fail("libevdev_next_event: \(String(cString: strerror(-rc)))") }
            let code = libevdev_event_code_get_name(UInt32(ev.type), UInt32(ev.code)).map { String(cString: $0) } ?? "\(ev.type):\(ev.code)"
            let time = times ? " @\(ev.time.tv_sec).\(String(repeating: "0", count: 6 - String(ev.time.tv_usec).count))\(ev.time.tv_usec)" : ""
            Log.say((ev.type == 0 ? code : "\(code) \(ev.value)") + time)
        }
    }

    private static func open(named name: String) -> (Int32, OpaquePointer, String)? {
        guard let dir = opendir("/dev/input") else { return nil }
        defer { closedir(dir) }
        while let entry = readdir(dir) {
            let file = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard file.hasPrefix("event") else { continue }
            let node = "/dev/input/" + file
            let fd = Glibc.open(node, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { continue }
            var device: OpaquePointer?
            if libevdev_new_from_fd(fd, &device) == 0, let device {
                if String(cString: libevdev_get_name(device)) == name { return (fd, device, node) }
                libevdev_free(device)
            }
            close(fd)
        }
        return nil
    }

    private static func writeFile(_ path: String, _ text: String) {
        let fd = Glibc.open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { return }
        _ = text.withCString { Glibc.write(fd, $0, strlen($0)) }
        close(fd)
    }
}
