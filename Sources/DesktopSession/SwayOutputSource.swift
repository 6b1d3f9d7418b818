import JSON
/// sway's outputs over its IPC socket (the i3-ipc framing `I3IPCSource` reads): at
/// connect, subscribe to `output` events and ask GET_OUTPUTS; on every `output` event
/// (sway sends one when an output is configured: `swaymsg output eDP-1 transform 90`,
/// a rotation daemon, a monitor plugged in), ask again. Each output's `transform` is
/// its rotation, in sway's clockwise words. sway 1.7 sends no such event (the
/// Wayland source hears it there), so this is the source only where SWAYSOCK alone
/// is in the environment.
public final class SwayOutputSource: RotationSource {
    public let name = "sway"
    public var endpoint: String { connection.path }
    public var outputs: [OutputRotation]? { report.outputs }

    /// GET_OUTPUTS is a few KB an output; the focus source's bound is ample.
    static let limits = JSONValue.Limits(keys: ["name", "transform", "active"], maxStringScalars: 64, maxValues: 10_000)

    private let connection: StreamConnection
    private let report = RotationReport()

    public init(socketPath: String, retryInitial: Double = 0.5, retryMaximum: Double = 10) {
        connection = StreamConnection(path: socketPath, limit: I3IPCSource.maxMessage,
                                      retry: ReconnectTimer(initial: retryInitial, maximum: retryMaximum))
    }

    public func start(on loop: FocusLoop, onChange: @escaping ([OutputRotation]?) -> Void, log: @escaping (String) -> Void) {
        report.onChange = onChange
        connection.log = { log("rotation from sway: \($0)") }
        connection.onConnect = { [unowned self] in
            I3IPCSource.send(.subscribe, #"["output"]"#, on: connection) && I3IPCSource.send(.getOutputs, "", on: connection)
        }
        // A lost connection keeps the last answer: sway restarting leaves the screen as it was.
        connection.onBytes = { [unowned self] in
            I3IPCSource.consume(&$0, limit: connection.limit, limits: Self.limits) { handle($0, $1) }
        }
        connection.start(on: loop)
    }

    public func stop() {
        connection.stop()
    }

    private func handle(_ type: I3IPCSource.MessageType?, _ json: JSONValue) {
        switch type {
        case .getOutputs: report.report(Self.rotations(json))
        case .outputEvent: _ = I3IPCSource.send(.getOutputs, "", on: connection)
        case .runCommand, .subscribe, .getTree, .workspaceEvent, .windowEvent, nil: break
        }
    }

    /// The active outputs of a GET_OUTPUTS reply, with their turns.
    package static func rotations(_ json: JSONValue) -> [OutputRotation] {
        (json.array ?? []).compactMap { o in
            guard o["active"]?.bool != false, let name = o["name"]?.string else { return nil }
            return OutputRotation(output: name, degrees: o["transform"]?.string.flatMap(OutputRotation.degrees(ofSwayTransform:)) ?? 0)
        }
    }
}
