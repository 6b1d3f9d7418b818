import GestureEngine
import GestureInput
import TouchModel

/// One open device and its own engine: a device's frames never reach another's
/// recognizers.
final class DeviceSession {
    let device: EvdevDevice
    private(set) var engine: GestureEngine
    /// Reused for every frame, so the per-frame path allocates nothing.
    var events: [GestureEvent] = []
    /// What `--explain` and `watch` have already printed of the arena's decisions.
    var trace = DecisionTrace()

    /// Whether the engine keeps its decisions (`run --explain`, `watch`).
    let explains: Bool

    init(device: EvdevDevice, specs: [GestureSpec], explains: Bool) {
        self.device = device
        self.explains = explains
        engine = GestureEngine(device: device.info, specs: specs, explains: explains)
        events.reserveCapacity(16)
    }

    var path: String { device.path }
    var info: DeviceInfo { device.info }

    /// Swaps in a new config's gestures; what was in flight is cancelled into `events`.
    func replace(specs: [GestureSpec], at time: Timestamp) {
        engine.cancelAll(at: time, into: &events)
        engine = GestureEngine(device: device.info, specs: specs, explains: explains)
    }
}
