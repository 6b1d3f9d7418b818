import DaemonCore
import GestureActions
import GestureConfig
import GestureEngine
import TouchModel

/// The facts the event stream reports (docs/CONTROL.md, "subscribe"), as the daemon,
/// or any other process running an engine (`gestured ui`), hands them to
/// `StreamEncoder`. Frames, gesture events and arena decisions are the engine's own
/// values (`TouchFrame`, `GestureEvent`, `ArenaDecision`); these are the rest.
enum StreamLine {
    /// A touch device as the stream describes it (in `hello` and `device` lines).
    struct Device: Equatable {
        var path: String
        var info: DeviceInfo
        /// Contacts the device tracks at once (its slots, or its most fingers).
        var slots: Int
        /// Whether gestured grabbed it (`grab:`): the desktop sees its clone.
        var grabbed: Bool
        /// The screen's rotation its positions are turned by (`normal`…`270`), when
        /// something turns it; the key is left out otherwise.
        var orientation: String?

        init(path: String, info: DeviceInfo, slots: Int? = nil, grabbed: Bool = false) {
            self.path = path
            self.info = info
            self.slots = slots ?? info.maxFingers
            self.grabbed = grabbed
        }
    }

    enum DeviceEvent: Equatable { case added, removed }

    /// The first line of every subscription: who is talking, what it runs, what it sees.
    struct Hello {
        var version: String
        var pid: Int32
        /// The config file in use (or the built-in default's name).
        var config: String
        var dryRun: Bool
        /// Frames per second per device this subscriber gets.
        var rate: Int
        /// Each gesture with whether it is enabled now.
        var gestures: [(spec: GestureSpec, enabled: Bool)]
        var devices: [Device]
        var focus: Focus?
    }

    /// The focused application (`focus` lines, `hello`'s `focus`).
    struct Focus: Equatable {
        var app: String?
        var title: String?
        /// Where it comes from (`sway`, `hyprland`, `x11`, `kwin`), nil if none.
        var source: String?
    }

    /// How one action ended up (`action` lines), from the sinks' own reports.
    typealias Outcome = ActionOutcome

    struct Action {
        var gesture: String
        var phase: GesturePhase
        var action: GestureConfig.Action
        var outcome: Outcome
    }

    /// A config reload, taken or not, with everything `gestured check` would say.
    struct Reload {
        var file: String
        var ok: Bool
        var gestures: Int
        /// What `gestured reload` answers: `reloaded FILE: N gestures`, or why not.
        var message: String
        var diagnostics: [Diagnostic]
    }
}
