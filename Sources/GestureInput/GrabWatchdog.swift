import CEvdev
import CLinux
import LinuxSystem
import TouchModel

/// The way a grabbed device comes back to the desktop when the daemon cannot run:
/// stopped (SIGSTOP, Ctrl-Z, a debugger) or hung. A thread of the daemon could not
/// help: SIGSTOP stops every thread of a process. So a small child process, `gestured
/// grab-watchdog`, in a process group of its own (Ctrl-Z stops the terminal's
/// foreground group), holds the grabbed device's open file description and its
/// clone's. EVIOCGRAB belongs to the description, not to a process: the child can
/// release it (`EVIOCGRAB 0`) while the daemon is stopped.
///
/// The child costs nothing while no finger is down: it sleeps in poll(2) on the device
/// (readable: input waits) and on a pipe from the daemon. When input waits, the daemon
/// must say it is alive (a heartbeat byte, at most every `heartbeatInterval` while it
/// reads) within `stallMicroseconds`. If it does not and the input is still unread,
/// the child lets go of the grab, lifts every touch and button on the clone (so
/// nothing is stuck down there), logs why, and exits with `releasedStatus`. The daemon
/// sees that exit on its pidfd when it runs again, drops the backlog (stale frames) and
/// grabs the device again once every finger is up.
///
/// The pipe's end of file (the daemon let go of the grab, or died, even by SIGKILL)
/// makes the child exit at once, so the kernel's own release on close still holds.
public final class GrabWatchdog {
    /// How long input may wait unread, with no heartbeat, before the device goes back
    /// to the desktop: the pointer is dead for at most this (and a poll's latency).
    public static let stallMicroseconds: Int64 = 1_500_000
    /// The daemon's heartbeat, while it reads the device: at most this often (µs).
    static let heartbeatInterval: Int64 = 500_000
    /// The child's exit status when it gave the device back.
    static let releasedStatus: Int32 = 10
    /// The subcommand the child runs as (not in `--help`: only the daemon starts it).
    public static let subcommand = "grab-watchdog"

    /// How the daemon starts its children: the program (its own binary), the
    /// environment (JOURNAL_STREAM, for the log's priorities), where they log.
    public struct Launcher: Sendable {
        public var program: String
        public var environment: [String]
        public var log: FileDescriptor
        public init(program: String = "/proc/self/exe", environment: [String], log: FileDescriptor = .standardError) {
            self.program = program
            self.environment = environment
            self.log = log
        }
    }

    /// How the child ended.
    public enum Outcome: Equatable, Sendable {
        /// It gave the device back while the daemon was stalled.
        case released
        /// It ended otherwise (killed, crashed): the grab has no watchdog any more.
        case ended(status: Int32)
    }

    public let pid: pid_t
    private let beat: OwnedFileDescriptor
    private let exited: OwnedFileDescriptor
    private var lastBeat: Int64 = .min
    public private(set) var outcome: Outcome?

    /// Readable once the child has exited (a pidfd): the daemon watches it.
    public var exitDescriptor: FileDescriptor { exited.descriptor }

    /// Starts the child watching `device` (the grabbed node, `path`, with `slots`
    /// multitouch slots) and `clone`: the same open file descriptions, as its fds 3 and 4.
    init(_ launcher: Launcher, device: FileDescriptor, clone: FileDescriptor, path: String, slots: Int) throws(Errno) {
        let pipe = try Pipe(flags: Pipe.nonBlocking)
        pid = try Process.spawn(launcher.program, arguments: ["gestured", Self.subcommand, path, String(slots), String(Process.currentID)],
                                environment: launcher.environment, stdout: launcher.log, stderr: launcher.log,
                                newProcessGroup: true, inherit: [device, clone, pipe.readEnd.descriptor])
        beat = pipe.keepingWriteEnd()
        do throws(Errno) {
            exited = try Process.descriptor(of: pid)
        } catch {
            Process.signal(pid, SIGKILL)
            _ = try? Process.reap(pid, blocking: true)
            throw error
        }
    }

    /// The child goes with the grab: killed and reaped (it holds the grab too).
    deinit {
        guard outcome == nil else { return }
        Process.signal(pid, SIGKILL)
        _ = try? Process.reap(pid, blocking: true)
    }

    /// The daemon is reading the device at `now` (CLOCK_MONOTONIC).
    @inline(__always)
    public func heartbeat(now: Timestamp) {
        guard lastBeat == .min || now.microseconds - lastBeat >= Self.heartbeatInterval else { return }
        lastBeat = now.microseconds
        var byte: UInt8 = 1
        // A full pipe (the child is stopped too) or a gone child: nothing to tell.
        _ = try? withUnsafeBytes(of: &byte) { (b) throws(Errno) in try beat.descriptor.write(b) }
    }

    /// How the child ended, once it has (reaped then); nil while it watches.
    @discardableResult
    public func check() -> Outcome? {
        if outcome != nil { return outcome }
        guard let status = try? Process.reap(pid, blocking: false) else { return nil }
        let exited = status & 0x7f == 0
        outcome = exited && (status >> 8) & 0xff == Self.releasedStatus ? .released : .ended(status: status)
        return outcome
    }

    // MARK: The child

    /// `gestured grab-watchdog PATH SLOTS DAEMON-PID`, with the device as fd 3, its
    /// clone as fd 4 and the heartbeat pipe as fd 5. Returns the exit status.
    public static func watch(path: String, slots: Int, daemon: String, log: (String) -> Void) -> Int32 {
        let device = FileDescriptor(rawValue: 3), clone = FileDescriptor(rawValue: 4), beat = FileDescriptor(rawValue: 5)
        let bound = Int32(stallMicroseconds / 1000)
        while true {
            do throws(Errno) {
                let ready = try Poll.ready([beat, device], timeoutMS: -1)
                if ready[0] {
                    guard drain(beat) else { return 0 }
                    continue
                }
                guard ready[1] else { continue }
                // Input waits: the daemon must read it, and say so, within the bound.
                if try Poll.ready([beat], timeoutMS: bound)[0] {
                    guard drain(beat) else { return 0 }
                    continue
                }
                guard try Poll.ready([device], timeoutMS: 0)[0] else { continue }
            } catch {
                log("grab watchdog for \(path): poll: \(error); not watching any more")
                return 1
            }
            let how: String
            do throws(Errno) {
                _ = try device.ioctl { clinux_evdev_grab($0, 0) }
                how = "gave it back to the desktop"
            } catch {
                how = "EVIOCGRAB 0: \(error)"
            }
            liftEverything(on: clone, slots: slots)
            log("grab watchdog: gestured (pid \(daemon)) left input from \(path) unread for \(Double(stallMicroseconds) / 1e6) s (stopped or hung): \(how); gestured drops what waited and grabs it again once it runs and every finger is up")
            return releasedStatus
        }
    }

    /// Reads the heartbeats waiting; false at end of file (the daemon let go or died).
    private static func drain(_ beat: FileDescriptor) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            do throws(Errno) {
                if try beat.read(into: &buffer) == 0 { return false }
            } catch {
                return error == .wouldBlock
            }
        }
    }

    /// Every slot's touch and every button up, on the clone: the desktop must not keep
    /// a finger down there while it reads the device itself. Codes the clone does not
    /// declare, and values it has already, the kernel drops.
    private static func liftEverything(on clone: FileDescriptor, slots: Int) {
        var events: [input_event] = []
        for s in 0..<max(slots, 0) {
            events.append(input_event(EventType.abs, AbsCode.mtSlot, Int32(s)))
            events.append(input_event(EventType.abs, AbsCode.mtTrackingID, -1))
        }
        for code in UInt16(0x100)..<0x180 { events.append(input_event(EventType.key, code, 0)) }
        events.append(input_event(EventType.syn, SynCode.report, 0))
        _ = try? events.withUnsafeBytes { (b) throws(Errno) in try clone.write(b) }
    }
}
