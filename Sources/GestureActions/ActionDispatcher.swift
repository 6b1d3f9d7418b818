import GestureConfig
import GestureEngine
import TouchModel

/// The daemon's one call per batch of engine events: maps them through the current
/// config's bindings and hands the commands to the sink (the runner, or the dry-run
/// printer). Swapping the config on reload forgets stepped gestures in flight.
public final class ActionDispatcher {
    public let sink: InvocationSink
    private var mapper: ActionMapper
    private var buffer: [Invocation] = []

    public init(config: Config, sink: InvocationSink) {
        self.sink = sink
        mapper = ActionMapper(config: config)
        (sink as? CommandRunner)?.update(settings: config.settings)
    }

    /// Runs (or prints) what `events` ask for. `device` fills GESTURE_DEVICE.
    public func handle(_ events: [GestureEvent], device: DeviceInfo?) {
        for event in events {
            mapper.map(event, device: device, into: &buffer)
        }
        for invocation in buffer { sink.submit(invocation) }
        buffer.removeAll(keepingCapacity: true)
    }

    /// A new config took effect: new bindings, new limits for the runner.
    public func reload(_ config: Config) {
        mapper = ActionMapper(config: config)
        (sink as? CommandRunner)?.update(settings: config.settings)
    }
}
