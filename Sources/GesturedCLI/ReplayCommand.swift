import GestureInput
import TouchModel

/// `gestured replay FILE`: a recording through the pipeline.
enum ReplayCommand {
    static let help = """
    usage: gestured replay FILE [--description FILE] [--frames]

    Feeds a recording (evemu-record text, or libinput record YAML) through the
    decoder and prints what it contains.

      --description FILE  the evemu device description, for event files without a header
      --frames            print each decoded frame: time, finger count, and each contact's
                          id and position in mm
    """

    static func run(_ args: ArraySlice<String>) throws -> GesturedCommand.ExitCode {
        let a = try Arguments(args, spec: .init(flags: ["frames"], options: ["description"]))
        guard a.positionals.count == 1 else { throw UsageError("needs exactly one recording FILE") }
        let recording: Recording
        do {
            recording = try Recording.load(path: a.positionals[0], descriptionPath: a.option("description"))
        } catch {
            Output.err("gestured replay: \(error)")
            return .failure
        }
        let decoder: TouchDecoder
        do {
            decoder = try TouchDecoder(description: recording.device)
        } catch {
            Output.err("gestured replay: \(recording.path) (\(recording.device.name)): not a touch device: \(error)")
            return .failure
        }
        let start = recording.events.first?.time ?? Timestamp(microseconds: 0)
        for e in recording.events where decoder.feed(e) {
            if a.flag("frames") { Output.out(describe(decoder.frame, since: start)) }
        }
        return .success
    }

    /// `  0.123456  3 fingers  #0 (40.1, 16.8)  #1 (52.0, 17.3)  [resynced]`
    static func describe(_ f: TouchFrame, since start: Timestamp) -> String {
        var s = f.time.seconds(since: start).fixed(6) + "  " + String(f.fingerCount) + (f.fingerCount == 1 ? " finger " : " fingers")
        for c in f.contacts {
            s += "  #\(c.id) (\(c.position.x.fixed(1)), \(c.position.y.fixed(1)))"
        }
        if f.flags.contains(.resynced) { s += "  [resynced]" }
        if f.flags.contains(.buttonDown) { s += "  [button]" }
        return s
    }
}
