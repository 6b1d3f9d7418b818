import Glibc

enum Machine {
    static var cpuModel: String {
        let info = readFile("/proc/cpuinfo") ?? ""
        for line in info.split(separator: "\n") where line.hasPrefix("model name") {
            return (line.split(separator: ":", maxSplits: 1).last ?? "").trimmingCharacters()
        }
        return "unknown CPU"
    }

    static var onlineCPUs: Int { sysconf(Int32(_SC_NPROCESSORS_ONLN)) }

    static var kernel: String {
        var u = utsname()
        uname(&u)
        return withUnsafeBytes(of: u.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    /// What /bin/sh is (dash execs a -c command's last simple command in place).
    static var shell: String {
        var buf = [CChar](repeating: 0, count: 4096)
        guard realpath("/bin/sh", &buf) != nil else { return "/bin/sh" }
        return String(decoding: buf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
