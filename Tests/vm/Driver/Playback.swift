import Glibc
import GestureInput
import TouchTimeline

/// What the driver plays into its uinput device: a timeline (TouchTimeline), or a
/// recording with its own timing.
struct Playback {
    var device: DeviceDescription
    var name: String?
    /// Microseconds from the start, non-decreasing.
    var steps: [(at: Int64, action: TimelineAction)] = []

    /// A recording replayed with its own timing: the device is created, left alone
    /// for `settle` (so a running daemon opens it), then the events follow.
    init(recording: Recording, settle: Int64, hold: Int64) {
        device = recording.device
        steps.append((0, .create))
        let start = recording.events.first?.time.microseconds ?? 0
        var last = settle
        for event in recording.events {
            last = settle + max(0, event.time.microseconds - start)
            steps.append((last, .emit(type: event.type, code: event.code, value: event.value)))
        }
        steps.append((last + hold, .remove))
    }

    /// A timeline's daemon steps (`focus`, `screen`, `reload`, `enable`, `disable`)
    /// are refused: the driver plays a device, and the VM's scenario scripts tell the
    /// daemon the rest themselves (a config written, `gestured disable`, the desktop).
    init(timeline: Timeline, path: String) throws(DriverError) {
        if let (at, step) = timeline.daemonSteps.first {
            throw DriverError("\(path): '\(step)' at \(Double(at) / 1e6) s: a daemon step, which only the text scenarios "
                              + "(Tests/Scenarios) carry out; the VM's scripts tell the daemon themselves")
        }
        device = timeline.device
        name = timeline.name
        steps = timeline.steps
    }

    /// Plays in real time (CLOCK_MONOTONIC, absolute sleeps so delays do not add up).
    /// `readyFile`, when given, gets the device node written to it each time the
    /// device is created, and is removed when the device is.
    func play(readyFile: String?) throws(DriverError) {
        var start = timespec()
        clock_gettime(CLOCK_MONOTONIC, &start)
        var current: UinputDevice?
        var count = 0
        var delay: Int64 = 0
        for (at, action) in steps {
            sleep(until: start, plus: at + delay)
            switch action {
            case let .mark(path):
                writeFile(path, "\(count) events\n")
            case let .await(path):
                let before = monotonicMicroseconds()
                while access(path, F_OK) != 0 { usleep(20_000) }
                delay += monotonicMicroseconds() - before
            case .create:
                guard current == nil else { throw DriverError("create: the device already exists") }
                let made = try UinputDevice(device, name: name)
                current = made
                if let readyFile { writeFile(readyFile, made.devnode + "\n") }
                Log.say("created \(made.devnode) \"\(name ?? device.name)\"")
            case .remove:
                guard let made = current else { throw DriverError("remove: no device to remove") }
                if let readyFile { unlink(readyFile) }
                Log.say("removed \(made.devnode) after \(count) events")
                current = nil
            case let .daemon(step):
                throw DriverError("'\(step)': a daemon step; the driver plays only the device")
            case let .emit(type, code, value):
                guard let made = current else { throw DriverError("events with no device: add 'create' first") }
                try made.write(type: type, code: code, value: value)
                count += 1
            }
        }
    }

    private func monotonicMicroseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1000
    }

    private func sleep(until start: timespec, plus microseconds: Int64) {
        let ns = Int64(start.tv_nsec) + (microseconds % 1_000_000) * 1000
        var deadline = timespec(tv_sec: start.tv_sec + Int(microseconds / 1_000_000) + Int(ns / 1_000_000_000),
                                tv_nsec: Int(ns % 1_000_000_000))
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, nil) == EINTR {}
    }

    private func writeFile(_ path: String, _ text: String) {
        let temporary = path + ".tmp"
        guard let file = fopen(temporary, "w") else { return Log.note("cannot write \(temporary)") }
        fputs(text, file)
        fclose(file)
        rename(temporary, path)
    }
}
