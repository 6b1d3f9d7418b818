import CLinux
import GestureInput
import Glibc
import TouchModel

/// `gestured record /dev/input/eventN [-o FILE]`
enum RecordCommand {
    static let help = """
    usage: gestured record DEVICE [-o FILE]

    Records a device's events, until Ctrl-C, in libinput record's YAML format: attach
    the file to a bug report, or replay it with `gestured replay FILE`.

      -o, --output FILE  write to FILE instead of standard output
    """

    static func run(_ args: ArraySlice<String>) throws -> GesturedCommand.ExitCode {
        let a = try Arguments(args, spec: .init(flags: [], options: ["output"], short: ["o": "output"]))
        guard a.positionals.count == 1 else { throw UsageError("needs exactly one DEVICE, e.g. /dev/input/event5") }
        let path = a.positionals[0]
        let device: EvdevDevice
        do throws(DeviceError) {
            device = try EvdevDevice(path: path)
        } catch {
            if case .unsupported = error {
                Output.err("gestured record: \(error) (recording anyway is pointless: gestured ignores it)")
            } else {
                Output.err("gestured record: \(error)")
            }
            return .failure
        }
        var outFD: Int32 = 1
        if let file = a.option("output") {
            outFD = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard outFD >= 0 else {
                Output.err("gestured record: \(file): cannot create: \(SystemError(errno))")
                return .failure
            }
        }
        defer { if outFD != 1 { close(outFD) } }
        Output.write(outFD, RecordingWriter.header(for: device.description, node: path))
        Output.err("recording \(path) (\(device.description.name.printable)); touch the device, then press Ctrl-C")

        // Ctrl-C ends the recording cleanly: SIGINT/SIGTERM arrive on a signalfd.
        var mask = sigset_t()
        sigemptyset(&mask)
        sigaddset(&mask, SIGINT)
        sigaddset(&mask, SIGTERM)
        sigprocmask(SIG_BLOCK, &mask, nil)
        let sfd = clinux_signalfd(&mask)
        var writer = RecordingWriter()
        var fds = [pollfd(fd: device.fd, events: Int16(POLLIN), revents: 0), pollfd(fd: sfd, events: Int16(POLLIN), revents: 0)]
        while true {
            guard poll(&fds, 2, -1) >= 0 || errno == EINTR else { break }
            if fds[1].revents != 0 { break }
            guard fds[0].revents != 0 else { continue }
            let result = device.readRaw { e in
                if let text = writer.add(e) { Output.write(outFD, text) }
            }
            if result != .drained {
                Output.err("gestured record: \(path): device gone")
                break
            }
        }
        close(sfd)
        return .success
    }
}
