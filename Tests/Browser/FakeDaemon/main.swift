// gestured-fake-daemon: `gestured run ARGS` with the fake 100 × 60 mm touchpad of
// Tests/Support adopted, for the browser tests (Tests/Browser/test_live.py). The fake
// device is a pipe that the real libevdev reads in this process; its first line on
// stdout is the path through which another process writes kernel input events into
// it (/proc/PID/fd/N: 24-byte `struct input_event`s, as evdev delivers them).
// Test support only: never installed, never linked into gestured.
import Commands
import GestureTestSupport
import Glibc

/// Writes a line straight to a descriptor: unbuffered, so the test reads it at once.
func say(_ line: String, to fd: Int32) {
    let text = line + "\n"
    _ = text.withCString { write(fd, $0, strlen($0)) }
}

let pad: FakeTouchpad
do {
    pad = try FakeTouchpad(name: "Fake Touchpad")
} catch {
    say("gestured-fake-daemon: cannot make the fake touchpad: \(error)", to: 2)
    exit(1)
}
say("/proc/\(getpid())/fd/\(pad.writeFD)", to: 1)
exit(GesturedCommand.runDaemon(Array(CommandLine.arguments.dropFirst()), adopting: [pad.device]).rawValue)
