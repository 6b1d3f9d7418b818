import GestureConfig
import GestureEngine
import TouchModel

/// What the core asks of the world, appended in order to `DaemonCore.outputs` (a
/// buffer reused input after input, so the per-frame path allocates nothing). The
/// daemon carries each one out on its descriptors; a dry run (`gestured ui`'s Try, the
/// scenarios) reads them.
public enum DaemonOutput {
    /// The arena made decisions on `device` since the last ones reported (`watch`,
    /// `--explain`, the event stream's state lines read them from its engine).
    case decisions(device: String)
    /// A gesture event of `device`'s engine, in the order the engine reported them,
    /// with the `every:` step its binding counts in, if any.
    case event(device: String, GestureEvent, step: Step?)
    /// A gesture on a grabbed device began or was recognized: its touches are
    /// gestured's now, and the desktop's clone must cancel them.
    case claim(device: String)
    /// An action to carry out, after the events of its batch and with each key
    /// release moved as early as its gesture allows (`Invocation.releasesFirst`).
    case invocation(Invocation)
    /// `grab:` takes this device (again: an update of `holdBack`).
    case grab(device: String, holdBack: HoldBack)
    /// `grab:` no longer takes this device: give it back, if it is grabbed.
    case release(device: String, reason: String)
    /// The device's engine was built again for the screen's new rotation: its size
    /// as now turned is news (the event stream says the device again).
    case turned(device: String)
    /// A binding's gesture was recognized or began again within `settings:
    /// accessibility: ignore-repeats:` of its last action: `action` (what it would have
    /// run, if anything) does not run. `why` is the log's line ("ignored: repeat of
    /// NAME within 500ms (accessibility: ignore-repeats)"); the event stream shows the
    /// action as `dropped`.
    case ignored(gesture: String, phase: GesturePhase, action: Action?, why: String)
    /// A line for the log.
    case log(LogPriority, String)

    /// `grab: hold-back:` for one device: how long frames may wait for a gesture to
    /// claim them, and up to how many fingers a sequence may still become one.
    public struct HoldBack: Equatable, Sendable {
        public var microseconds: Int64
        public var maxFingers: Int
        public init(microseconds: Int64, maxFingers: Int) {
            self.microseconds = microseconds
            self.maxFingers = maxFingers
        }
    }
}
