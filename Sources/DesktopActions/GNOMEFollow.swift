import DaemonCore
import DesktopSession
import GestureConfig
import GestureEngine
import LinuxSystem
import TouchModel

/// GNOME: gestured's extension drives GNOME Shell's own swipe trackers, the ones its
/// touchpad gestures move (docs/GNOME.md, "Follow"). The pan's beginning is one call,
/// `FollowBeginChannel(kind, source, time, channel)`, made as the owner of
/// `io.github.gestured` (the only one the extension obeys: the connection asks for it
/// before its first call, `SessionBusCaller`); each step after it is a
/// 16-byte record written to `channel`, one end of a socket pair whose other end went
/// with the call (a Gio.Socket in every GNOME the extension knows): one send(2), no
/// message built, nothing allocated, and its end of file (gestured gone, however)
/// tells the extension at once to spring back. While the fingers are down and still,
/// the last record is sent again every 50 ms (`keepalive`): GNOME's velocity is of the
/// last 150 ms, and the extension cancels a follow it hears nothing of for a second.
///
/// A record: little-endian `u32` time (ms, the frame's CLOCK_MONOTONIC), `u32` kind
/// (0 update, 1 end, 2 cancel), `f64` progress (a fraction of one whole transition
/// since the beginning, + forward). Records written before the extension has taken
/// the beginning wait in the pipe, in order.
final class GNOMEFollow: FollowDriver {

    static let name = "io.github.gestured"

    private let bus: GNOMEFollowTransport
    private let desktop: Desktop
    private let log: (LogPriority, String) -> Void
    /// Done when GNOME cannot be followed (the extension off, too old): the step.
    private let fallback: OneStepFollow
    /// The follow under way: its channel's end and the axis it moves along.
    private var channel: StreamSocket?
    private var axis = Axis.horizontal
    private var travel = 0.0
    /// The progress of this follow's last step: which way its one step goes if refused.
    private var last = 0.0
    private var record = [UInt8](repeating: 0, count: 16)
    /// When the last record was sent (the frame's time); a keepalive goes 50 ms after.
    private var lastWrite = Timestamp(microseconds: 0)
    static let keepalive: Int64 = 50_000

    init(bus: GNOMEFollowTransport, desktop: Desktop, fallback: OneStepFollow, log: @escaping (LogPriority, String) -> Void) {
        self.bus = bus
        self.desktop = desktop
        self.fallback = fallback
        self.log = log
    }

    func step(_ follow: Follow, _ motion: FollowMotion, gesture: String) -> Double? {
        if motion.phase == .begin { begin(follow, motion, gesture: gesture) }
        guard let fd = channel?.descriptor else { return nil }
        lastWrite = motion.time
        let p = FollowDrivers.progress(follow, motion, axis: axis, travel: travel)
        last = p
        let kind: UInt32 = switch motion.phase {
        case .begin, .update: 0
        case .end: 1
        case .cancel: 2
        }
        write(fd, time: motion.time, kind: kind, progress: p)
        if kind != 0 { channel = nil }  // closed: the extension has what it needs
        return p
    }

    private func begin(_ follow: Follow, _ motion: FollowMotion, gesture: String) {
        channel = nil
        last = 0
        let ends: StreamSocketPair
        do {
            ends = try StreamSocketPair()
        } catch {
            log(.warning, "[\(gesture)] \(follow.transition.rawValue) follow: no socket pair for GNOME (\(error)); one step instead")
            return
        }
        axis = FollowDrivers.axis(follow, motion)
        travel = FollowDrivers.travel(follow, motion, axis: axis, touchpad: FollowDrivers.defaultTouchpadTravel(follow))
        let time = UInt32(truncatingIfNeeded: motion.time.microseconds / 1000)
        bus.followBegin(kind: follow.transition.rawValue, source: motion.device == .touchscreen ? "touchscreen" : "touchpad",
                        time: time, channel: ends.theirs.descriptor) { [weak self] refusal in
            guard let refusal else { return }
            self?.refused(refusal, follow, gesture: gesture)
        }
        // sd-bus sent its own duplicate of the other end with the call; ours closes here.
        channel = .some(ends.keepingMine())
    }

    /// The extension said no (off, a GNOME it does not know, the tracker busy): said,
    /// and the follow is its one step, the way the fingers went, done now.
    private func refused(_ why: String, _ follow: Follow, gesture: String) {
        channel = nil
        log(.warning, "[\(gesture)] \(follow.transition.rawValue) follow: GNOME did not take it: \(desktop.explain(why)); one step instead")
        if last != 0 { _ = fallback.step(follow, forward: last > 0, gesture: gesture) }
    }

    /// While a follow runs, the keepalive's time.
    var deadline: Timestamp? { channel == nil ? nil : Timestamp(microseconds: lastWrite.microseconds + Self.keepalive) }

    /// The fingers are down and still: where they are, again, now.
    func timerFired(at now: Timestamp) {
        guard let fd = channel?.descriptor, now.microseconds >= lastWrite.microseconds + Self.keepalive else { return }
        lastWrite = now
        write(fd, time: now, kind: 0, progress: last)
    }

    private func write(_ fd: FileDescriptor, time: Timestamp, kind: UInt32, progress: Double) {
        record.withUnsafeMutableBytes { raw in
            raw.storeBytes(of: UInt32(truncatingIfNeeded: time.microseconds / 1000).littleEndian, toByteOffset: 0, as: UInt32.self)
            raw.storeBytes(of: kind.littleEndian, toByteOffset: 4, as: UInt32.self)
            raw.storeBytes(of: progress.bitPattern.littleEndian, toByteOffset: 8, as: UInt64.self)
        }
        // A full socket (the extension stalled) drops an update: the next carries where
        // the fingers are. A lost end is a closed socket: the extension springs back.
        _ = record.withUnsafeBytes { try? fd.send($0) }
    }
}

/// How a GNOME follow reaches the extension: the session bus (`BusFollowTransport`),
/// or a test's or benchmark's stand-in.
public protocol GNOMEFollowTransport: AnyObject {
    /// `FollowBeginChannel(kind, source, time, channel)`; `done` gets nil once the extension
    /// took it, else why not.
    func followBegin(kind: String, source: String, time: UInt32, channel: FileDescriptor, done: @escaping (String?) -> Void)
}

/// The extension at the owner of org.gnome.Shell, over the session bus.
final class BusFollowTransport: GNOMEFollowTransport {
    private let bus: SessionBusCaller

    init(_ bus: SessionBusCaller) { self.bus = bus }

    func followBegin(kind: String, source: String, time: UInt32, channel: FileDescriptor, done: @escaping (String?) -> Void) {
        bus.followBegin(destination: "org.gnome.Shell", path: "/io/github/gestured/Shell", interface: "io.github.gestured.Shell",
                        kind: kind, source: source, time: time, channel: channel) { result in
            if case .failure(let refusal) = result { done(refusal.message) } else { done(nil) }
        }
    }
}
