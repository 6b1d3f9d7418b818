import GestureInput
import GestureTestSupport
import GesturedCLI
import Glibc
import TouchModel

/// What the event stream (`subscribe`) costs the daemon per frame: the real daemon
/// in-process (`DaemonHarness`: its loop, the fake device read by the real libevdev,
/// decoder, engine with the bench's 20 gestures, no commands), one frame written to
/// the device before each loop iteration, and only the iterations timed. Subscribers
/// are real socket clients of the daemon's control socket at the default 60 frames a
/// second: reading ones empty their sockets every 1/60 s of the recording's time
/// (outside the timing), a stalled one never reads.
final class StreamCost {
    struct Setup: Hashable, CustomStringConvertible {
        var reading: Int
        var stalled: Int
        var description: String { stalled > 0 ? "\(reading) reading + \(stalled) stalled" : "\(reading) reading" }
    }

    static let setups = [Setup(reading: 0, stalled: 0), Setup(reading: 1, stalled: 0), Setup(reading: 16, stalled: 0), Setup(reading: 0, stalled: 1)]

    struct Result {
        var nsPerFrame: Double
        var allocationsPerFrame: Double
        var linesRead: Int
    }

    let recording: Workload
    let configPath: String
    let directory: String
    private let frames: [[InputEvent]]

    init(recording: Workload, configPath: String, directory: String) {
        self.recording = recording
        self.configPath = configPath
        self.directory = directory
        frames = PassthroughLatency.frames(recording.events)
        mkdir(directory + "/no-input", 0o700)
    }

    func measure(_ setup: Setup, frames count: Int, warm: Int = 500) -> Result {
        let socket = directory + "/stream-bench.sock"
        let harness: DaemonHarness
        let pad: FakeTouchpad
        do {
            harness = try DaemonHarness(configPath: configPath, controlSocket: socket, inputDirectory: directory + "/no-input")
            pad = try FakeTouchpad(description: recording.device)
        } catch { fail("stream bench: \(error)") }
        harness.adopt(pad.device)
        let readers = (0..<setup.reading).map { _ in subscribe(socket, harness) }
        let stalled = (0..<setup.stalled).map { _ in subscribe(socket, harness) }
        defer { (readers + stalled).forEach { close($0) } }
        guard harness.subscribers == setup.reading + setup.stalled else { fail("stream bench: \(harness.subscribers) subscribers, wanted \(setup)") }

        // The recording from now on, pass after pass, at its own pace in its own time.
        let start = monotonicMicroseconds() - (frames.first?.first?.time.microseconds ?? 0)
        var ns: Int64 = 0, allocations: UInt64 = 0, lines = 0, nextRead: Int64 = 0
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        for i in 0..<(warm + count) {
            let pass = Int64(i / frames.count)
            var frame = frames[i % frames.count]
            for j in frame.indices { frame[j].time.microseconds += start + pass * recording.passSpan }
            pad.send(frame)
            let m0 = mallocs(), t0 = nowNS()
            harness.runOnce(timeoutMS: 0)
            let t1 = nowNS(), m1 = mallocs()
            if i >= warm {
                ns += t1 - t0
                allocations += m1 - m0
            }
            let t = frame.last!.time.microseconds
            if t >= nextRead {
                nextRead = t + 1_000_000 / 60
                for fd in readers { lines += drain(fd, &buffer) }
            }
        }
        return Result(nsPerFrame: Double(ns) / Double(count), allocationsPerFrame: Double(allocations) / Double(count), linesRead: lines)
    }

    private func subscribe(_ socket: String, _ harness: DaemonHarness) -> Int32 {
        let fd = socket.withCString { path -> Int32 in
            let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                for (k, byte) in UnsafeBufferPointer(start: path, count: strlen(path)).enumerated() { raw[k] = UInt8(bitPattern: byte) }
            }
            let ok = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            guard ok == 0 else { fail("stream bench: connect \(socket): \(String(cString: strerror(errno)))") }
            return fd
        }
        _ = "subscribe\n".withCString { write(fd, $0, 10) }
        let wanted = harness.subscribers + 1
        for _ in 0..<1000 where harness.subscribers < wanted { harness.runOnce(timeoutMS: 10) }
        _ = fcntl(fd, F_SETFL, O_NONBLOCK)
        return fd
    }

    /// Reads what is there; returns the lines read.
    private func drain(_ fd: Int32, _ buffer: inout [UInt8]) -> Int {
        var lines = 0
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { return lines }
            for k in 0..<n where buffer[k] == UInt8(ascii: "\n") { lines += 1 }
        }
    }
}

private func monotonicMicroseconds() -> Int64 { nowNS() / 1000 }
