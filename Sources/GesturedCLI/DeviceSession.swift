import GestureEngine
import GestureInput
import TouchModel

/// One open touch source and its own engine: a device's frames never reach another's
/// recognizers.
final class DeviceSession {
    let device: any TouchSource
    private(set) var engine: GestureEngine
    /// Reused for every frame, so the per-frame path allocates nothing.
    var events: [GestureEvent] = []
    /// What `--explain` and `watch` have already printed of the arena's decisions.
    var trace = DecisionTrace()

    /// Whether the engine keeps its decisions (`run --explain`, `watch`).
    let explains: Bool
    /// The grab watchdog gave the device back during a stall: grab it again once
    /// every finger is up (a grab with a finger down would leave it stuck for the desktop).
    var regrabWhenLifted = false
    /// When this device's last clone was made (CLOCK_MONOTONIC µs), and when a grab that
    /// came too soon after it is due (`Daemon.recloneInterval`).
    var lastClone: Int64?
    var grabDue: Int64?
    /// The screen rotation the device follows and who said it; nil: it does not follow.
    var rotation: ScreenRotation.Choice?
    /// The specs the engine runs, for a rebuild when the device's transform changes.
    private var specs: [GestureSpec]
    /// The decoder's transform the engine was built for (`TouchDecoder.transformGeneration`).
    private var engineTransform: Int
    /// Told after the engine was rebuilt for a new transform (the daemon prepares it).
    var onRebuilt: (DeviceSession) -> Void = { _ in }
    /// The daemon has announced the device (log, event stream): later changes are news.
    var announced = false

    init(device: any TouchSource, specs: [GestureSpec], explains: Bool) {
        self.device = device
        self.explains = explains
        self.specs = specs
        engineTransform = device.decoder.transformGeneration
        engine = GestureEngine(device: device.info, specs: specs, explains: explains)
        events.reserveCapacity(16)
    }

    var path: String { device.path }
    var info: DeviceInfo { device.info }

    /// Swaps in a new config's gestures; what was in flight is cancelled into `events`
    /// (its `cancel` runs, from the old config). Fingers still down belong to no gesture
    /// of the new one: a fresh engine would take them for a new sequence and fire the
    /// gesture they were making a second time.
    func replace(specs: [GestureSpec], at time: Timestamp) {
        self.specs = specs
        engineTransform = device.decoder.transformGeneration
        engine.cancelAll(at: time, into: &events)
        let fingersDown = engine.ignoresTouchesDown
        engine = GestureEngine(device: device.info, specs: specs, explains: explains)
        if fingersDown { engine.ignoreTouchesDown() }
    }

    /// The screen's rotation: the decoder takes it between touch sequences.
    func setOrientation(_ o: Orientation) {
        device.decoder.setOrientation(o)
        followTransform()
    }

    /// Before each frame: the decoder took a new transform at this frame (a sequence
    /// begins), so the engine is built again for the device's size as now turned.
    @inline(__always)
    func followTransform() {
        guard engineTransform != device.decoder.transformGeneration else { return }
        engineTransform = device.decoder.transformGeneration
        engine = GestureEngine(device: device.info, specs: specs, explains: explains)
        onRebuilt(self)
    }
}
