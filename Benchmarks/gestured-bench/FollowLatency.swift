import DaemonCore
import DesktopActions
import GestureConfig
import GestureEngine
import Glibc
import LinuxSystem

/// A follow's path, per frame (issue 34's budget): from handing the SYN_REPORT that
/// completes a frame to the decoder, to the step's record written to GNOME's channel:
/// decoder → the daemon's core (its engine and ActionMapper: a FollowMotion) → the real DesktopActions sink →
/// GNOMEFollow → one write(2) on the pipe. The extension is a stand-in that takes the
/// beginning and keeps the read end (drained outside the timing), so the figure has
/// no D-Bus round trip in it: per frame there is none. Allocations are counted over
/// the frames of the drag (its updates; the beginning and the end, once a gesture,
/// keep `gestured status`'s recent gestures and may allocate).
final class FollowLatency {
    let recording: Workload
    let config: Config
    private let loop = PollLoop()
    private let sink: DesktopActions
    private let extensionSide = StandIn()

    static let configText = """
        gestures:
          - name: overview
            gesture: pan
            fingers: 4
            axis: vertical
            command: {overview: follow}

        """

    /// Takes every FollowBegin and keeps its channel's read end.
    final class StandIn: GNOMEFollowTransport {
        var channel: Int32 = -1
        func followBegin(kind: String, source: String, time: UInt32, channel: FileDescriptor, done: @escaping (String?) -> Void) {
            if self.channel >= 0 { close(self.channel) }
            self.channel = fcntl(channel.rawValue, F_DUPFD_CLOEXEC, 0)
            done(nil)
        }
        func drain() -> Int {
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            var total = 0
            while channel >= 0 {
                let n = buffer.withUnsafeMutableBytes { Glibc.read(channel, $0.baseAddress, $0.count) }
                guard n > 0 else { break }
                total += n
            }
            return total
        }
    }

    init(recording: Workload) {
        self.recording = recording
        let (c, d) = ConfigLoader.parse(Array(Self.configText.utf8), file: "follow-latency.yaml")
        guard let c else { fail("follow latency config: \(d.map(\.description))") }
        config = c
        sink = DesktopActions(detected: .desktop(.gnome(bus: "unix:path=/nonexistent")), loop: loop,
                              log: { _, line in fail("follow: \(line)") })
        sink.gnomeFollowTransport = extensionSide
    }

    struct Result {
        var microseconds: [Double] = []
        var allocations: UInt64 = 0
        var frames = 0
        var records = 0
    }

    /// `passes` times through the recording; each frame that made a follow step timed.
    func measure(passes: Int) -> Result {
        var result = Result()
        for _ in 0..<passes {
            let decoder = recording.makeDecoder()
            let core = DaemonCore(config: config)
            let path = "/dev/input/bench"
            core.add(DaemonCore.Device(path: path, info: decoder.capabilities.deviceInfo(name: recording.device.name), calibration: decoder.calibration))
            core.outputs.removeAll(keepingCapacity: true)
            var begun = false
            for e in recording.events {
                let m0 = mallocs(), t0 = nowNS()
                guard decoder.feed(e) else { continue }
                core.frame(decoder.framePointer, device: path)
                var stepped = false, updateOnly = true
                for o in core.outputs {
                    guard case .invocation(let inv) = o else { continue }
                    sink.submit(inv)
                    if let m = inv.motion {
                        stepped = true
                        if m.phase != .update { updateOnly = false }
                    }
                }
                core.outputs.removeAll(keepingCapacity: true)
                let t1 = nowNS(), m1 = mallocs()
                guard stepped else { continue }
                result.microseconds.append(Double(t1 - t0) / 1e3)
                if begun && updateOnly {
                    result.allocations += m1 - m0
                    result.frames += 1
                }
                begun = true
            }
            result.records += extensionSide.drain() / 16
        }
        return result
    }
}
