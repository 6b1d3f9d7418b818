import Glibc
import GestureInput
import LinuxSystem
import TouchModel

/// A scripted touch timeline, for gestures no recording holds (pinch, rotate, edge
/// pan, tip-taps, circles, swipes on a given pad), for hotplug, and for what the
/// daemon hears mid-gesture. One step a line, `#` comments:
///
///     device FILE [DESCRIPTION]   take the device from a recording (and its .desc)
///     name TEXT                   give the virtual device another name
///     rate HZ                     frames per second while moving (default 100)
///     create | remove             plug the device in / unplug it
///     wait DURATION               nothing happens for a while (500ms, 1.5s)
///     await FILE                  wait until FILE exists (a cue from the scenario)
///     mark FILE                   create FILE (a cue to the scenario)
///     replay FILE [DESCRIPTION]   a recording's events, with their own timing
///
/// The whole hand, all fingers together:
///
///     touch N at X Y [spread R] [angle DEG]
///                                 N fingers down, evenly on a circle of radius R
///                                 around (X, Y), the first at DEG; they are called
///                                 1…N by the steps of one finger
///     move [to X Y] [scale F] [rotate DEG] over DURATION
///                                 every finger down: their centre moves to (X, Y),
///                                 their distances from it scale by F, they turn DEG
///                                 about it (clockwise as the axes are drawn, +y down)
///     circle about X Y turns T over DURATION
///                                 every finger down, together (they keep their places
///                                 around their centre): the centre goes round (X, Y)
///                                 T times, clockwise for T > 0, counterclockwise for
///                                 T < 0, at the distance it is from it
///     lift                        every finger up
///
/// One finger, or several in the same frames (a comma between them):
///
///     down F at X Y[, G at X Y …] finger F lands at (X, Y): it takes the lowest free
///                                 slot, a new tracking id, and the BTN_TOOL_* of the
///                                 new count; F is a name (a, rest, 2) while it is down
///     move F to X Y[, G by DX DY …] over DURATION
///                                 those fingers only, in straight lines, together; `by`
///                                 moves a finger by (DX, DY) from where it is
///     up F[, G …]                 those fingers lift (their slots are free again)
///
/// What the daemon hears besides the device, in order with the touches (the text
/// scenarios carry them out, Tests/Scenarios; a `Recording` and the VM's driver have
/// no daemon to tell: `recording()` leaves them out, and the driver and
/// `TimelineTouchSource` refuse a timeline that has any):
///
///     focus APP | focus none      the focused application changes
///     screen normal|90|180|270    the screen turns (as the compositor says it)
///     reload [NAME]               the config is reloaded: the scenario's [reload NAME]
///                                 section, or the same config again
///     disable NAME | enable NAME  `gestured disable NAME`, `gestured enable NAME`
///
/// Positions and lengths are `40%` of the axis's range or `12mm` (needs the
/// device's resolution); a percentage spread is of the x range; `by`'s DX and DY are
/// signed lengths along their own axes (`0` needs no unit); on a device that reports
/// no resolution, x and y units are taken as the same length for a spread, a turn
/// and a circle. Fingers beyond the device's slots are reported only through
/// `BTN_TOOL_*TAP`, as a 2-slot pad does, until a slot frees (then one takes it, as
/// a new touch); the single-touch axes follow the finger down longest, as the
/// kernel's pointer emulation does.
///
/// The same timeline plays two ways: into a uinput device on the real kernel
/// (`gestured-uinput-play --script`, the VM scenarios, Tests/vm), and in-process as a
/// `Recording` through `ReplayPipeline` (`recording()`, the text scenarios,
/// Tests/Scenarios). `TimelineTouchSource` plays one to the daemon on its loop.
public struct Timeline: Sendable {
    public var device: DeviceDescription
    /// The virtual device's name, when `name` gave another.
    public var name: String?
    /// Microseconds from the start, non-decreasing.
    public var steps: [(at: Int64, action: TimelineAction)]

    /// Reads the timeline file at `path`; `device` paths are relative to its directory.
    public static func load(path: String) throws(TimelineError) -> Timeline {
        let bytes: [UInt8]
        do throws(Errno) {
            let file = try OwnedFileDescriptor(opening: path, O_RDONLY)
            bytes = try file.descriptor.readToEnd(maximumBytes: 1 << 20)
        } catch {
            throw TimelineError("\(path): \(error)")
        }
        let directory = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        return try parse(String(decoding: bytes, as: UTF8.self), path: path, baseDirectory: directory)
    }

    /// Reads timeline text; `path` and `firstLine` name its lines in errors.
    public static func parse(_ text: String, path: String, firstLine: Int = 1, baseDirectory: String) throws(TimelineError) -> Timeline {
        var builder = Builder(baseDirectory: baseDirectory)
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let words = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
                .split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init)
            guard !words.isEmpty else { continue }
            do throws(TimelineError) {
                try builder.step(words)
            } catch {
                throw TimelineError("\(path):\(firstLine + index): \(error.description)")
            }
        }
        return try builder.finish(path: path)
    }

    /// The timeline's events as a recording of its device, timed from 1 s (so no
    /// frame is at the clock's zero). Creating, removing and the cues (`await`,
    /// `mark`) are the kernel's and the scenario's business: a recording has none.
    public func recording(path: String) -> Recording {
        var events: [InputEvent] = []
        for (at, action) in steps {
            guard case let .emit(type, code, value) = action else { continue }
            events.append(InputEvent(time: Timestamp(microseconds: 1_000_000 + at), type: type, code: code, value: value))
        }
        return Recording(path: path, device: device, events: events)
    }

    /// Its daemon steps, for players with no daemon to tell (who refuse them).
    public var daemonSteps: [(at: Int64, step: DaemonStep)] {
        steps.compactMap { at, action in
            guard case let .daemon(step) = action else { return nil }
            return (at, step)
        }
    }
}

/// What a timeline does, in order, each at an offset from its start.
public enum TimelineAction: Sendable, Equatable {
    /// Create the uinput device (again, after `remove`).
    case create
    /// Destroy it: the kernel removes `/dev/input/eventN`, as when hardware is unplugged.
    case remove
    case emit(type: UInt16, code: UInt16, value: Int32)
    /// Wait until a file exists (the scenario's cue, e.g. "the daemon is ready");
    /// everything after it moves later by the time waited.
    case await(path: String)
    /// Create a file: tells the scenario the timeline got this far.
    case mark(path: String)
    /// Something the daemon hears besides the device, at this point of the touches.
    case daemon(DaemonStep)
}

/// What a timeline tells the daemon besides the touches: what the daemon's other
/// sources (the compositor, the control socket, the config file) would.
public enum DaemonStep: Sendable, Equatable, CustomStringConvertible {
    /// The focused application (nil: no window): gestures with `apps:` follow it from
    /// the next touch sequence.
    case focus(String?)
    /// The screen's rotation, as the compositor reports it: devices that follow the
    /// screen take it from the next touch sequence.
    case screen(Orientation)
    /// The config is reloaded: the scenario's config of this name, or (nil) the same.
    case reload(String?)
    /// `gestured enable NAME` (true) or `gestured disable NAME` (false).
    case enable(Bool, name: String)

    /// The step as a timeline writes it.
    public var description: String {
        switch self {
        case .focus(let app): return "focus \(app ?? "none")"
        case .screen(let o): return "screen \(o)"
        case .reload(let name): return "reload" + (name.map { " " + $0 } ?? "")
        case let .enable(on, name): return "\(on ? "enable" : "disable") \(name)"
        }
    }
}

/// A timeline that cannot be read, with the file and line.
public struct TimelineError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

