import DaemonCore
import GestureConfig
import GestureEngine
import LinuxSystem
import TouchModel

/// Try (`gestured ui`'s editor, `try PATH` on the control socket): a config being
/// edited, run beside the running one as a second core in dry run, on the same frames
/// the daemon reads, as they are (their time, their flags: a stale frame is one here
/// too). Nothing it decides is carried out: its gesture events, arena decisions,
/// progress and the actions it would run are the event stream's lines, each with
/// `"source":"try"`.
package final class TryRun {
    package let core: DaemonCore
    /// The file it runs, for the log and the answer.
    package let file: String
    /// The pidfd of the process that asked for it: the try ends with that process.
    package var owner: OwnedFileDescriptor?
    /// Per device: the arena decisions already streamed, and each gesture's last
    /// progress sent, in thousandths (-1: none yet).
    private var traces: [String: DecisionTrace] = [:]
    private var progress: [String: [Int]] = [:]
    private var encoder = StreamEncoder()

    package init(config: Config, file: String) {
        core = DaemonCore(config: config, options: DaemonCore.Options(mapsActions: true, grabs: false, explains: true))
        self.file = file
    }

    /// The lines of what the core decided since the last call (then the progress of
    /// each device's possible gestures, after a frame of `device`), each handed to
    /// `send` encoded; the core's outputs are used up.
    package func report(progressOf device: String? = nil, at time: Timestamp? = nil, _ send: (StreamEncoder) -> Void) {
        for output in core.outputs {
            switch output {
            case .decisions(let path):
                guard let engine = core.session(path)?.engine else { continue }
                for d in traces[path, default: DecisionTrace()].take(from: engine) {
                    line(send) { $0.state(d, kind: engine.specs.first { $0.name == d.name }?.kind, device: path) }
                }
            case .event(let path, let e, let step):
                line(send) { $0.gesture(e, device: path, step: step) }
            case .invocation(let inv):
                let phase = GesturePhase.allCases.first { ActionMapper.trigger($0) == inv.trigger } ?? .recognized
                line(send) { $0.action(StreamLine.Action(gesture: inv.gesture, phase: phase, action: inv.action, outcome: .dryRun)) }
            case .ignored(let gesture, let phase, let action?, _):
                line(send) { $0.action(StreamLine.Action(gesture: gesture, phase: phase, action: action, outcome: .dropped)) }
            case .ignored(_, _, nil, _):
                break
            case .turned(let path):
                traces[path] = nil  // a new engine counts its decisions from 0
                progress[path] = nil
            case .claim, .grab, .release, .log:
                break  // a dry run touches no device, and its config's warnings are the editor's
            }
        }
        core.outputs.removeAll(keepingCapacity: true)
        guard let device, let time, let engine = core.session(device)?.engine else { return }
        var sent = progress[device] ?? []
        if sent.count != engine.specs.count { sent = Array(repeating: -1, count: engine.specs.count) }
        engine.forEachProgress { index, p in
            let q = Int((p * 1000).rounded())
            guard sent[index] != q else { return }
            sent[index] = q
            line(send) { $0.progress(engine.specs[index], thousandths: q, time: time, device: device) }
        }
        progress[device] = sent
    }

    /// A device went: its state goes with it.
    package func forget(_ device: String) {
        traces[device] = nil
        progress[device] = nil
    }

    private func line(_ send: (StreamEncoder) -> Void, _ write: (inout StreamEncoder) -> Void) {
        encoder.removeAll()
        write(&encoder)
        encoder.tag(source: "try")
        send(encoder)
    }
}
