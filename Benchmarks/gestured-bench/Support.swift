import CBenchFloor
import Glibc
import TouchModel

/// CLOCK_MONOTONIC in ns.
@inline(__always) func nowNS() -> Int64 { bench_monotonic_ns() }

/// Heap allocations the whole process has made so far (malloc_count.c).
@inline(__always) func mallocs() -> UInt64 { bench_malloc_count() }

func median(_ xs: [Double]) -> Double { percentile(xs, 50) }

/// Nearest-rank percentile (p in 0…100) of `xs`.
func percentile(_ xs: [Double], _ p: Double) -> Double {
    guard !xs.isEmpty else { return .nan }
    let sorted = xs.sorted()
    let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
    return sorted[max(0, min(sorted.count - 1, rank - 1))]
}

/// One line to stdout, written at once (make bench pipes it through tee).
func say(_ s: String) { writeAll(1, s + "\n") }

func fail(_ s: String) -> Never {
    writeAll(2, "gestured-bench: \(s)\n")
    exit(1)
}

func writeAll(_ fd: Int32, _ text: String) {
    var t = text
    t.withUTF8 { buf in
        var done = 0
        while done < buf.count {
            let n = write(fd, buf.baseAddress! + done, buf.count - done)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return }
            done += n
        }
    }
}

/// A `Key: value kB` field of /proc/PID/status (VmRSS, VmHWM, voluntary_ctxt_switches …).
func procStatus(_ pid: String, _ key: String) -> Int? {
    guard let text = readFile("/proc/\(pid)/status") else { return nil }
    for line in text.split(separator: "\n") where line.hasPrefix(key + ":") {
        return Int(line.dropFirst(key.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "")
    }
    return nil
}

/// VmRSS of a process in MiB.
func rssMB(_ pid: String = "self") -> Double { Double(procStatus(pid, "VmRSS") ?? 0) / 1024 }

func readFile(_ path: String) -> String? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { break }
        bytes.append(contentsOf: chunk[0..<n])
    }
    return String(decoding: bytes, as: UTF8.self)
}

func writeFile(_ path: String, _ text: String) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0 else { fail("cannot write \(path): \(String(cString: strerror(errno)))") }
    defer { close(fd) }
    writeAll(fd, text)
}

func executablePath() -> String {
    var buf = [CChar](repeating: 0, count: 4096)
    let n = readlink("/proc/self/exe", &buf, buf.count - 1)
    guard n > 0 else { fail("readlink /proc/self/exe failed") }
    return String(decoding: buf[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// The directory of this executable: gestured and gestured-bench-clock are built beside it.
func executableDirectory() -> String {
    let path = executablePath()
    return String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
}

/// A fresh private directory under /tmp.
func makeTempDirectory() -> String {
    var template = Array("/tmp/gestured-bench.XXXXXX".utf8CString)
    guard mkdtemp(&template) != nil else { fail("mkdtemp failed") }
    return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

extension Double {
    /// Figures as the tables print them: 3 significant-ish digits.
    var short: String {
        let a = Swift.abs(self)
        if a >= 100 { return fixed(0) }
        if a >= 10 { return fixed(1) }
        if a >= 1 { return fixed(2) }
        return fixed(3)
    }
}

/// Pads to a column width (left-aligned).
func pad(_ s: String, _ width: Int) -> String { s.count >= width ? s : s + String(repeating: " ", count: width - s.count) }
