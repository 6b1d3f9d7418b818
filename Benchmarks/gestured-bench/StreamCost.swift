import GestureInput
import LinuxSystem
import GestureTestSupport
import DaemonLoop
import Glibc
import TouchModel

/// What the event stream (`subscribe`) costs the daemon per frame: the real daemon
/// in-process (`DaemonHarness`: its loop, the fake device read by the real libevdev,
/// decoder, engine with the bench's 20 gestures, no commands), one frame written to
/// the device before each loop iteration, and only the iterations timed. Subscribers
/// are real clients of the daemon's control socket at the default 60 frames a second:
/// shared readers (`subscribe shared`, what `gestured events` and `gestured ui` are:
/// `StreamSubscription`) read the ring every 1/60 s of the recording's time, asking
/// for a wake-up when it had nothing, as they do; line subscribers (`subscribe`, a
/// script's socat) empty their sockets every 1/60 s; a stalled one never reads. All
/// reading is outside the timing. Each setup has its own daemon, and they take turns,
/// so the ratios pair moments of the same load.
final class StreamCost {
    struct Setup: Hashable, CustomStringConvertible {
        var reading: Int
        var stalled: Int
        /// Shared readers (the ring), or line subscribers (the socket).
        var shared = true
        var description: String {
            (stalled > 0 ? "\(reading) reading + \(stalled) stalled" : "\(reading) reading") + (reading + stalled == 0 ? "" : shared ? " (shared)" : " (lines)")
        }
    }

    /// None; 1 and 16 shared readers; 1 line subscriber stalled; 1 and 16 line subscribers reading.
    static let setups = [Setup(reading: 0, stalled: 0), Setup(reading: 1, stalled: 0), Setup(reading: 16, stalled: 0),
                         Setup(reading: 0, stalled: 1, shared: false), Setup(reading: 1, stalled: 0, shared: false),
                         Setup(reading: 16, stalled: 0, shared: false)]

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
        mkdir(directory + "/stream-sockets", 0o700)
    }

    /// One daemon with its subscribers, fed the recording frame by frame.
    final class Rig {
        let setup: Setup
        let harness: DaemonHarness
        let pad: FakeTouchpad
        let readers: [Int32]
        let stalled: [Int32]
        /// The shared readers' sockets and subscriptions.
        let sharedReaders: [SharedReader]
        var next = 0
        var nextRead: Int64 = 0
        var result = Result(nsPerFrame: 0, allocationsPerFrame: 0, linesRead: 0)
        var ns: Int64 = 0, allocations: UInt64 = 0, counted = 0

        init(_ setup: Setup, _ owner: StreamCost, index: Int) {
            self.setup = setup
            // Not beside the config: the daemons watch its directory for saves.
            let socket = owner.directory + "/stream-sockets/\(index).sock"
            let harness: DaemonHarness
            do {
                harness = try DaemonHarness(configPath: owner.configPath, controlSocket: socket, inputDirectory: owner.directory + "/no-input")
                pad = try FakeTouchpad(description: owner.recording.device)
            } catch { fail("stream bench: \(error)") }
            self.harness = harness
            harness.adopt(pad.device)
            readers = setup.shared ? [] : (0..<setup.reading).map { _ in StreamCost.subscribe(socket, harness) }
            stalled = (0..<setup.stalled).map { _ in StreamCost.subscribe(socket, harness) }
            sharedReaders = setup.shared ? (0..<setup.reading).map { _ in StreamCost.subscribeShared(socket, harness) } : []
            guard harness.subscribers == setup.reading + setup.stalled else { fail("stream bench: \(harness.subscribers) subscribers, wanted \(setup)") }
        }

        deinit { (readers + stalled).forEach { close($0) } }
    }

    /// Each setup's own daemon, fed in turns of `chunk` frames so that the machine's
    /// load falls on all of them alike: time per frame of `count` frames after `warm`.
    func measure(frames count: Int, warm: Int = 500, chunk: Int = 500) -> [Setup: Result] {
        let rigs = Self.setups.enumerated().map { Rig($0.element, self, index: $0.offset) }
        // The recording from now on, pass after pass, at its own pace in its own time.
        let start = nowNS() / 1000 - (frames.first?.first?.time.microseconds ?? 0)
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while rigs.contains(where: { $0.counted < count }) {
            for rig in rigs {
                for _ in 0..<chunk where rig.counted < count {
                    feed(rig, start: start, warm: warm, &buffer)
                }
            }
        }
        var out: [Setup: Result] = [:]
        for rig in rigs {
            rig.result.nsPerFrame = Double(rig.ns) / Double(rig.counted)
            rig.result.allocationsPerFrame = Double(rig.allocations) / Double(rig.counted)
            out[rig.setup] = rig.result
        }
        return out
    }

    private func feed(_ rig: Rig, start: Int64, warm: Int, _ buffer: inout [UInt8]) {
        let i = rig.next
        rig.next += 1
        let pass = Int64(i / frames.count)
        var frame = frames[i % frames.count]
        for j in frame.indices { frame[j].time.microseconds += start + pass * recording.passSpan }
        rig.pad.send(frame)
        let m0 = mallocs(), t0 = nowNS()
        rig.harness.runOnce(timeoutMS: 0)
        let t1 = nowNS(), m1 = mallocs()
        if i >= warm {
            rig.ns += t1 - t0
            rig.allocations += m1 - m0
            rig.counted += 1
        }
        let t = frame.last!.time.microseconds
        if t >= rig.nextRead {
            rig.nextRead = t + 1_000_000 / 60
            for fd in rig.readers { rig.result.linesRead += Self.drain(fd, &buffer) }
            for k in rig.sharedReaders.indices { rig.result.linesRead += Self.readShared(rig, k) }
        }
    }

    static func subscribe(_ socket: String, _ harness: DaemonHarness) -> Int32 {
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

    final class SharedReader {
        let socket: StreamSocket
        let subscription: StreamSubscription
        var asleep = false
        init(_ socket: consuming StreamSocket, _ subscription: StreamSubscription) {
            self.socket = socket
            self.subscription = subscription
        }
    }

    /// A shared reader's subscription, answered and with its `hello` read.
    static func subscribeShared(_ path: String, _ harness: DaemonHarness) -> SharedReader {
        let subscription = StreamSubscription(rate: 60)
        let socket: StreamSocket
        do {
            socket = try StreamSocket.connect(to: path)
            try socket.sendAll(subscription.request)
        } catch { fail("stream bench: shared subscribe \(path): \(error)") }
        var lines: [UInt8] = []
        for _ in 0..<1000 where !subscription.readsRing {
            harness.runOnce(timeoutMS: 10)
            if case .refused(let why) = subscription.readSocket(socket, into: &lines) { fail("stream bench: shared subscribe: \(why)") }
        }
        guard subscription.readsRing else { fail("stream bench: no shared answer") }
        return SharedReader(socket, subscription)
    }

    /// What a shared reader does at its tick: its socket's wake-ups, then the ring;
    /// when the ring has had nothing for a quarter of a second, `wait POS`. Returns the
    /// lines read.
    static func readShared(_ rig: Rig, _ k: Int) -> Int {
        var lines: [UInt8] = []
        let r = rig.sharedReaders[k]
        _ = r.subscription.readSocket(r.socket, into: &lines)
        if r.subscription.readRing(into: &lines) {
            r.asleep = false
        } else if !r.asleep, r.subscription.sleepsNow {
            try? r.socket.sendAll(r.subscription.waitRequest)
            r.asleep = true
        }
        return lines.reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
    }

    /// Reads what is there; returns the lines read.
    static func drain(_ fd: Int32, _ buffer: inout [UInt8]) -> Int {
        var lines = 0
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { return lines }
            for k in 0..<n where buffer[k] == UInt8(ascii: "\n") { lines += 1 }
        }
    }
}

