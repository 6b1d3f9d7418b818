import DaemonLoop
import GestureInput
import Glibc
import LinuxSystem
import PlainText
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
        var file: OwnedFileDescriptor?
        if let name = a.option("output") {
            do throws(Errno) {
                file = try OwnedFileDescriptor(opening: name, O_WRONLY | O_CREAT | O_TRUNC, mode: 0o644)
            } catch {
                Output.err("gestured record: \(name): cannot create: \(error)")
                return .failure
            }
        }
        let out = file?.descriptor ?? .standardOutput
        try? out.writeAll(RecordingWriter.header(for: device.description, node: path))
        Output.err("recording \(path) (\(device.description.name.printable)); touch the device, then press Ctrl-C")

        // Ctrl-C ends the recording cleanly: SIGINT/SIGTERM arrive on a signalfd.
        let signals = try SignalDescriptor([SIGINT, SIGTERM])
        var writer = RecordingWriter()
        let epoll = try Epoll()
        try epoll.add(device.fd, tag: 0)
        try epoll.add(signals.descriptor, tag: 1)
        var events = [Epoll.Event](repeating: Epoll.Event(), count: 2)
        recording: while true {
            let n = try epoll.wait(into: &events, timeoutMS: -1)
            for event in events[0..<n] {
                if event.data == 1 { break recording }
            }
            let result = device.readRaw { e in
                if let text = writer.add(e) { try? out.writeAll(text) }
            }
            if result != .drained {
                Output.err("gestured record: \(path): device gone")
                break
            }
        }
        return .success
    }
}
