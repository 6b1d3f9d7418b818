import DaemonCore
import GestureEngine
import GestureInput
import TouchModel

/// One open touch source, as the daemon's loop holds it: the descriptor side of a
/// device whose engine is the core's (`DaemonCore.Session`).
final class DeviceSession {
    let device: any TouchSource
    /// The core's side of it: the engine and what it decides.
    let core: DaemonCore.Session
    /// What `--explain` and `watch` have already printed of the arena's decisions.
    var trace = DecisionTrace()
    /// The grab watchdog gave the device back during a stall: grab it again once
    /// every finger is up (a grab with a finger down would leave it stuck for the desktop).
    var regrabWhenLifted = false
    /// When this device's last clone was made, and when a grab that came too soon after
    /// it is due (`Daemon.recloneInterval`).
    var lastClone: Timestamp?
    var grabDue: Timestamp?
    /// What the core last said of the device's grab: taken with this hold-back, or
    /// not wanted (nil).
    var grabWanted: DaemonOutput.HoldBack?
    /// The screen rotation the device follows and who said it; nil: it does not follow.
    var rotation: ScreenRotation.Choice?
    /// The daemon has announced the device (log, event stream): later changes are news.
    var announced = false

    init(device: any TouchSource, core: DaemonCore.Session) {
        self.device = device
        self.core = core
    }

    var path: String { device.path }
    var info: DeviceInfo { device.info }
    var engine: GestureEngine { core.engine }
}
