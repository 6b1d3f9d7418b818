// gestured-uinput-play: makes a uinput device with a real device's description and
// plays timed events into it, so the kernel's evdev (and udev) carry them to
// whatever reads /dev/input — the end-to-end tests' stand-in for hardware.
import Glibc
import GestureInput
import TouchTimeline

let usage = """
    usage: gestured-uinput-play [options] RECORDING        replay an evemu / libinput recording
           gestured-uinput-play [options] --script FILE    play a scripted timeline (Tests/Support/TouchTimeline)
           gestured-uinput-play --read NAME [--ready-file PATH] [--times]
                                print the events of the input device named NAME (gestured's
                                virtual device) as libevdev reads them, "gone" when it goes;
                                with --times, each with " @SECONDS" (CLOCK_REALTIME) after it
           gestured-uinput-play --follow PLAY [--follow PLAY...] [--await PATH] [--ready-file PATH]
                                make gestured's virtual touchpad and play each PLAY on it, as
                                the daemon drives it: "4 right 30mm 400ms commit" (FINGERS 3|4,
                                left|right|up|down, the distance, its duration, commit|cancel)
    options:
      --description FILE   the device header for a recording that has none (.desc)
      --settle DURATION    recordings: wait after creating the device (default 1s)
      --hold DURATION      recordings: keep the device after the last event (default 500ms)
      --name TEXT          give the virtual device another name
      --ready-file PATH    write the device node to PATH while the device exists
                           (--follow: the device's sysfs name, inputN)
      --await PATH         --follow: play once PATH exists
    Prints "created /dev/input/eventN …" and "removed …"; exits 1 on error.
    """

func fail(_ message: String) -> Never {
    Log.note(message)
    exit(1)
}

func microseconds(_ text: String) -> Int64 {
    if text.hasSuffix("ms"), let ms = Double(text.dropLast(2)) { return Int64(ms * 1000) }
    if text.hasSuffix("s"), let s = Double(text.dropLast()) { return Int64(s * 1_000_000) }
    fail("'\(text)': expected a duration like 500ms or 1s")
}

var arguments = CommandLine.arguments.dropFirst()
var readName: String?
var readTimes = false
var recordingPath: String?, scriptPath: String?, descriptionPath: String?, name: String?, readyFile: String?
var settle: Int64 = 1_000_000, hold: Int64 = 500_000
var follows: [String] = [], awaitPath: String?
while let argument = arguments.popFirst() {
    func value() -> String {
        guard let value = arguments.popFirst() else { fail("\(argument) needs a value\n\(usage)") }
        return value
    }
    switch argument {
    case "--script": scriptPath = value()
    case "--read": readName = value()
    case "--times": readTimes = true
    case "--description": descriptionPath = value()
    case "--settle": settle = microseconds(value())
    case "--hold": hold = microseconds(value())
    case "--name": name = value()
    case "--ready-file": readyFile = value()
    case "--follow": follows.append(value())
    case "--await": awaitPath = value()
    case "-h", "--help": print(usage); exit(0)
    default:
        guard !argument.hasPrefix("-"), recordingPath == nil else { fail("unexpected '\(argument)'\n\(usage)") }
        recordingPath = argument
    }
}

if let readName { Reader.run(name: readName, readyFile: readyFile, times: readTimes) }
if !follows.isEmpty {
    do throws(DriverError) {
        try Follow(plays: follows.map { text throws(DriverError) in try Follow.Play(text) }).run(readyFile: readyFile, awaiting: awaitPath)
        exit(0)
    } catch {
        fail("\(error)")
    }
}

do {
    var playback: Playback
    switch (recordingPath, scriptPath) {
    case let (path?, nil):
        playback = Playback(recording: try Recording.load(path: path, descriptionPath: descriptionPath),
                            settle: settle, hold: hold)
    case let (nil, path?):
        playback = try Playback(timeline: try Timeline.load(path: path), path: path)
    default:
        fail("give one RECORDING or one --script FILE\n\(usage)")
    }
    if let name { playback.name = name }
    try playback.play(readyFile: readyFile)
} catch {
    fail("\(error)")
}
