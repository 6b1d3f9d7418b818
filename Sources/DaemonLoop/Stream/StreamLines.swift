import DaemonCore
import GestureActions
import GestureConfig
import GestureEngine
import TouchModel

/// The facts the event stream reports (docs/CONTROL.md, "subscribe"), as the daemon,
/// or any other process running an engine (`gestured ui`), hands them to
/// `StreamEncoder`. Frames, gesture events and arena decisions are the engine's own
/// values (`TouchFrame`, `GestureEvent`, `ArenaDecision`); these are the rest.
package enum StreamLine {
    /// A touch device as the stream describes it (in `hello` and `device` lines).
    package struct Device: Equatable {
        package var path: String
        package var info: DeviceInfo
        /// Contacts the device tracks at once (its slots, or its most fingers).
        package var slots: Int
        /// Whether gestured grabbed it (`grab:`): the desktop sees its clone.
        package var grabbed: Bool
        /// The screen's rotation its positions are turned by (`normal`…`270`), when
        /// something turns it; the key is left out otherwise.
        package var orientation: String?

        package init(path: String, info: DeviceInfo, slots: Int? = nil, grabbed: Bool = false) {
            self.path = path
            self.info = info
            self.slots = slots ?? info.maxFingers
            self.grabbed = grabbed
        }
    }

    package enum DeviceEvent: Equatable { case added, removed }

    /// The first line of every subscription: who is talking, what it runs, what it sees.
    package struct Hello {
        package var version: String
        package var pid: Int32
        /// The config file in use (or the built-in default's name).
        package var config: String
        package var dryRun: Bool
        /// Frames per second per device this subscriber gets.
        package var rate: Int
        /// Each gesture with whether it is enabled now.
        package var gestures: [(spec: GestureSpec, enabled: Bool)]
        package var devices: [Device]
        package var focus: Focus?
        /// When the daemon started, on the lines' clock (`t`); nil for a recording's hello.
        package var started: Timestamp?

        package init(version: String, pid: Int32, config: String, dryRun: Bool, rate: Int,
                     gestures: [(spec: GestureSpec, enabled: Bool)], devices: [Device], focus: Focus?) {
            (self.version, self.pid, self.config, self.dryRun, self.rate) = (version, pid, config, dryRun, rate)
            (self.gestures, self.devices, self.focus) = (gestures, devices, focus)
        }
    }

    /// The focused application (`focus` lines, `hello`'s `focus`).
    package struct Focus: Equatable {
        package var app: String?
        package var title: String?
        /// Where it comes from (`sway`, `hyprland`, `x11`, `kwin`), nil if none.
        package var source: String?
    }

    /// How one action ended up (`action` lines), from the sinks' own reports.
    package typealias Outcome = ActionOutcome

    package struct Action {
        package var gesture: String
        package var phase: GesturePhase
        package var action: GestureConfig.Action
        package var outcome: Outcome
        /// Who asked for it when not the gesture (`gestured trigger`, a desktop's shortcut).
        package var origin: TriggerOrigin? = nil
    }

    /// A config reload, taken or not, with everything `gestured check` would say.
    package struct Reload {
        package var file: String
        package var ok: Bool
        package var gestures: Int
        /// What `gestured reload` answers: `reloaded FILE: N gestures`, or why not.
        package var message: String
        package var diagnostics: [Diagnostic]
    }
}
