import DaemonLoop
import GestureInput
import LinuxSystem

/// `gestured grab-watchdog PATH SLOTS DAEMON-PID`: the child a grab comes with
/// (`GrabWatchdog`), started by the daemon with the grabbed device, its clone and a
/// heartbeat pipe as fds 3, 4 and 5. Not a command for people, so not in `--help`.
enum GrabWatchdogCommand {
    static func run(_ args: ArraySlice<String>) -> Int32 {
        let a = Array(args)
        guard a.count == 3, let slots = Int(a[1]) else {
            Output.err("gestured \(GrabWatchdog.subcommand): only the daemon starts this, with a grabbed device")
            return GesturedCommand.ExitCode.usage.rawValue
        }
        // A log reader gone must not kill the watchdog before it gives a device back.
        Signals.ignoreBrokenPipe()
        // Not "gestured" in ps and pgrep -x: what is stopped, killed or traced is the daemon.
        Process.setName("gestured-grabwd")
        let logger = Logger(threshold: .warning)
        return GrabWatchdog.watch(path: a[0], slots: slots, daemon: a[2]) { logger.warning($0) }
    }
}
