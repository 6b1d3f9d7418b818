import GestureActions
import GestureEngine
import Glibc
import TouchModel

/// `--follow PLAY…`: gestured's own `VirtualTouchpad` on the real /dev/uinput, playing
/// follows as the daemon would drive it: each PLAY (`4 right 30mm 400ms commit`) is a
/// begin, a source frame's move every 8.333 ms (120 Hz) going evenly to the distance
/// over the duration, and an end (commit, or cancel: spring back), with the pad's
/// deadlines met on time, its `at` always CLOCK_MONOTONIC now. Plays 600 ms apart;
/// the device is kept 500 ms after the last, then destroyed.
struct Follow {
    struct Play: CustomStringConvertible {
        var fingers: Int
        var direction: String
        var millimetres: Double
        var microseconds: Int64
        var commit: Bool

        var axis: Axis { direction == "left" || direction == "right" ? .horizontal : .vertical }
        var sign: FloatingPointSign { direction == "right" || direction == "down" ? .plus : .minus }
        var description: String {
            "\(fingers) fingers \(direction) \(millimetres) mm in \(microseconds / 1000) ms, \(commit ? "commit" : "cancel")"
        }

        /// `FINGERS left|right|up|down DISTANCEmm DURATION(ms|s) commit|cancel`
        init(_ text: String) throws(DriverError) {
            let words = text.split(separator: " ").map(String.init)
            guard words.count == 5, let fingers = Int(words[0]), VirtualTouchpad.fingerCounts.contains(fingers),
                  ["left", "right", "up", "down"].contains(words[1]),
                  words[2].hasSuffix("mm"), let mm = Double(words[2].dropLast(2)),
                  let us = Follow.microseconds(words[3]), ["commit", "cancel"].contains(words[4])
            else { throw DriverError("--follow '\(text)': expected FINGERS (3 or 4) left|right|up|down DISTANCEmm DURATION commit|cancel") }
            self.fingers = fingers
            direction = words[1]
            millimetres = mm
            microseconds = us
            commit = words[4] == "commit"
        }
    }

    static let sourceFrameUS: Int64 = 8_333

    var plays: [Play]

    func run(readyFile: String?, awaiting cue: String?) throws(DriverError) {
        let pad: VirtualTouchpad
        do { pad = try VirtualTouchpad() } catch { throw DriverError("\(error)") }
        Log.say("created \(VirtualTouchpad.name) (\(pad.sysname ?? "?"))")
        if let readyFile { Self.writeFile(readyFile, (pad.sysname ?? "") + "\n") }
        if let cue { while access(cue, F_OK) != 0 { usleep(20_000) } }
        for (i, play) in plays.enumerated() {
            if i > 0 { Self.sleep(until: Self.now().microseconds + 600_000) }
            let writes = pad.writes
            let start = Self.now()
            pad.begin(fingers: play.fingers, axis: play.axis, sign: play.sign, at: start)
            let frames = max(1, play.microseconds / Self.sourceFrameUS)
            for k in 1...frames {
                Self.pump(pad, until: Timestamp(microseconds: start.microseconds + k * Self.sourceFrameUS))
                pad.move(to: play.millimetres * Double(k) / Double(frames), at: Self.now())
            }
            pad.end(commit: play.commit, at: Self.now())
            while let due = pad.deadline {
                Self.sleep(until: due)
                pad.timerFired(at: Self.now())
            }
            if let failure = pad.failure { throw DriverError("\(failure)") }
            let ms = Double(Self.now().microseconds - start.microseconds) / 1000
            Log.say("follow \(i + 1): \(play): \(pad.writes - writes) frames in \(Int(ms)) ms")
        }
        Self.sleep(until: Self.now().microseconds + 500_000)
        Log.say("removed \(VirtualTouchpad.name)")
    }

    /// Sleeps to `until`, writing on the way what the pad has due (as the daemon's timer would).
    static func pump(_ pad: VirtualTouchpad, until: Timestamp) {
        while let due = pad.deadline, due < until {
            sleep(until: due)
            pad.timerFired(at: now())
        }
        sleep(until: until)
    }

    static func now() -> Timestamp {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Timestamp(microseconds: Int64(t.tv_sec) * 1_000_000 + Int64(t.tv_nsec) / 1000)
    }

    static func sleep(until time: Timestamp) {
        var deadline = timespec(tv_sec: Int(time.microseconds / 1_000_000), tv_nsec: Int(time.microseconds % 1_000_000) * 1000)
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, nil) == EINTR {}
    }

    static func sleep(until microseconds: Int64) { sleep(until: Timestamp(microseconds: microseconds)) }

    static func microseconds(_ text: String) -> Int64? {
        if text.hasSuffix("ms"), let ms = Double(text.dropLast(2)) { return Int64(ms * 1000) }
        if text.hasSuffix("s"), let s = Double(text.dropLast()) { return Int64(s * 1_000_000) }
        return nil
    }

    static func writeFile(_ path: String, _ text: String) {
        let temporary = path + ".tmp"
        guard let file = fopen(temporary, "w") else { return Log.note("cannot write \(temporary)") }
        fputs(text, file)
        fclose(file)
        rename(temporary, path)
    }
}
