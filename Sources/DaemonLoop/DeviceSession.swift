import DaemonCore
import GestureEngine
import GestureInput
import TouchModel

/// One open touch source, as the daemon's loop holds it: the descriptor side of a
/// device whose engine is the core's (`DaemonCore.Session`).
package final class DeviceSession {
    package let device: any TouchSource
    /// The core's side of it: the engine and what it decides.
    package let core: DaemonCore.Session
    /// What `--explain` and `watch` have already printed of the arena's decisions.
    package var trace = DecisionTrace()
    /// The grab watchdog gave the device back during a stall: grab it again once
    /// every finger is up (a grab with a finger down would leave it stuck for the desktop).
    package var regrabWhenLifted = false
    /// When this device's last clone was made, and when a grab that came too soon after
    /// it is due (`Daemon.recloneInterval`).
    package var lastClone: Timestamp?
    package var grabDue: Timestamp?
    /// What the core last said of the device's grab: taken with this hold-back, or
    /// not wanted (nil).
    package var grabWanted: DaemonOutput.HoldBack?
    /// The screen rotation the device follows and who said it; nil: it does not follow.
    package var rotation: ScreenRotation.Choice?
    /// The daemon has announced the device (log, event stream): later changes are news.
    package var announced = false

    package init(device: any TouchSource, core: DaemonCore.Session) {
        self.device = device
        self.core = core
    }

    package var path: String { device.path }
    package var info: DeviceInfo { device.info }
    package var engine: GestureEngine { core.engine }
}
