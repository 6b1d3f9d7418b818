import GestureEngine
import PlainText

/// The config file's schema: every key the parser accepts, what it takes, where it
/// applies and what it defaults to. The parser switches exhaustively over these
/// enums, and docs/CONFIG.md's reference section is `Schema.referenceMarkdown()`
/// (checked by a test), so the file format, the parser and the reference cannot drift.
public enum Schema {
    /// One documented key.
    public struct Entry: Sendable {
        public var key: String
        public var type: String
        public var appliesTo: String
        public var defaultValue: String
        public var summary: String
    }

    public static let topLevel: [Entry] = TopKey.allCases.map(\.entry)
    public static let settings: [Entry] = SettingsKey.allCases.map(\.entry)
    public static let accessibility: [Entry] = AccessibilityKey.allCases.map(\.entry)
    public static let grab: [Entry] = GrabKey.allCases.map(\.entry)
    public static let rotation: [Entry] = RotationKey.allCases.map(\.entry)
    public static let gesture: [Entry] = GestureKey.allCases.map(\.entry)
    public static let region: [Entry] = RegionKey.allCases.map(\.entry)
    public static let action: [Entry] = ActionKey.allCases.map(\.entry)

    /// The key reference, as docs/CONFIG.md carries it between its GENERATED markers.
    public static func referenceMarkdown() -> String {
        func table(_ title: String, _ entries: [Entry], appliesTo: Bool) -> String {
            var s = "### \(title)\n\n"
            s += appliesTo ? "| key | value | gestures | default | meaning |\n|---|---|---|---|---|\n"
                           : "| key | value | default | meaning |\n|---|---|---|---|\n"
            for e in entries {
                s += "| `\(e.key)` | \(e.type) | "
                if appliesTo { s += "\(e.appliesTo) | " }
                s += "\(e.defaultValue) | \(e.summary) |\n"
            }
            return s
        }
        return [table("Top level", topLevel, appliesTo: false),
                table("`settings:`", settings, appliesTo: false),
                table("`settings: accessibility:`", accessibility, appliesTo: false),
                table("`grab:`", grab, appliesTo: false),
                table("`rotation:`", rotation, appliesTo: false),
                table("Each entry of `gestures:`", gesture, appliesTo: true),
                table("`region:`", region, appliesTo: false),
                table("Built-in actions (in place of a command)", action, appliesTo: false),
                quantities(), limits()].joined(separator: "\n")
    }

    /// Every quantity's units and the range accepted (a key may narrow it, as
    /// `max-angle` does); outside it a value is an error, not clamped.
    static func quantities() -> String {
        var s = "### Quantities\n\n| quantity | units | smallest | largest | example |\n|---|---|---|---|---|\n"
        for q in Quantity.allCases {
            s += "| \(q.rawValue) | \(q.units.map { "`\($0.suffix)`" }.joined(separator: ", ")) | `\(q.floor.text)` | `\(format(q.ceiling))\(q.baseSuffix)` | `\(q.example.split(separator: " ").first!)` |\n"
        }
        return s
    }

    /// The limits on a whole file, each an error past it.
    static func limits() -> String {
        "### Limits\n\n| what | at most |\n|---|---|\n"
            + "| file size | \(ConfigLoader.maximumFileSize >> 20) MiB |\n"
            + "| gestures | \(Config.maximumGestures) |\n"
            + "| a gesture's name | \(ConfigParser.maximumNameLength) characters |\n"
            + "| a command | \(Binding.maximumCommandBytes) bytes (Linux's MAX_ARG_STRLEN, less its NUL) |\n"
    }

    static func kindList(_ kinds: [GestureKind]) -> String {
        kinds.map(\.rawValue).joined(separator: ", ")
    }
}

enum TopKey: String, CaseIterable {
    case settings, grab, rotation, gestures

    var entry: Schema.Entry {
        switch self {
        case .settings: return .init(key: rawValue, type: "mapping", appliesTo: "", defaultValue: "—",
                                     summary: "Limits on the commands gestured runs (below).")
        case .grab: return .init(key: rawValue, type: "mapping", appliesTo: "", defaultValue: "no device",
                                 summary: "Devices gestured takes for itself (EVIOCGRAB), passing every touch that is not a gesture on to the desktop through a copy of the device; the touches of a recognized gesture are cancelled for the desktop (below, and \"Exclusive grab\" in the README).")
        case .rotation: return .init(key: rawValue, type: "mapping", appliesTo: "", defaultValue: "touchscreens follow the compositor",
                                     summary: "Which devices follow the screen's rotation, and where the rotation comes from when the compositor does not say (below, and \"Screen rotation\" in docs/INPUT.md).")
        case .gestures: return .init(key: rawValue, type: "list of gestures", appliesTo: "", defaultValue: "none",
                                     summary: "The gestures to recognize, in priority order: when two compete for the same touches, the earlier one wins.")
        }
    }
}

enum SettingsKey: String, CaseIterable {
    case commandTimeout = "command-timeout"
    case maxChildren = "max-children"
    case queueLength = "queue-length"
    case sequenceWindow = "sequence-window"
    case keyDelay = "key-delay"
    case followFingers = "follow-fingers"
    case accessibility

    static let countRange = 1...64
    /// Longest `key-delay`, seconds: past this a key press reads as held down.
    static let maxKeyDelay = 0.2

    var entry: Schema.Entry {
        let d = Settings()
        switch self {
        case .commandTimeout:
            return .init(key: rawValue, type: "duration", appliesTo: "", defaultValue: "`\(Int(d.commandTimeout))s`",
                         summary: "A command still running after this long is killed together with its process group.")
        case .maxChildren:
            return .init(key: rawValue, type: "count 1–64", appliesTo: "", defaultValue: "`\(d.maxChildren)`",
                         summary: "Most commands running at once; a gesture that would start one more is dropped with a warning in the log.")
        case .queueLength:
            return .init(key: rawValue, type: "count 1–64", appliesTo: "", defaultValue: "`\(d.queueLength)`",
                         summary: "Commands of one gesture run one after another; this many may wait behind the running one, more are dropped with a warning.")
        case .sequenceWindow:
            return .init(key: rawValue, type: "duration", appliesTo: "", defaultValue: "`\(Int(d.sequenceWindow))s`",
                         summary: "How soon after its `after:` gesture a sequenced gesture must begin, when it gives no `within:`.")
        case .keyDelay:
            return .init(key: rawValue, type: "duration, at most 200ms", appliesTo: "", defaultValue: "`\(Int(d.keyDelay * 1000))ms`",
                         summary: "Time between a key's press and its release (and between the keys of a list) on the virtual device; some desktops drop a press and release that arrive together.")
        case .followFingers:
            return .init(key: rawValue, type: "count 3–4", appliesTo: "", defaultValue: "the desktop's",
                         summary: "On KDE Plasma, Hyprland and niri, a follow is played as the desktop's own touchpad swipe on gestured's virtual touchpad: with this many fingers, where the desktop's gesture is configured for another count than its default (KDE 4; Hyprland and niri 3, niri's overview 4).")
        case .accessibility:
            return .init(key: rawValue, type: "mapping", appliesTo: "", defaultValue: "no change",
                         summary: "Recognition fitted to slow, shaky or hesitant hands, for every gesture at once (below, and docs/ACCESSIBILITY.md).")
        }
    }
}

enum AccessibilityKey: String, CaseIterable {
    case timingScale = "timing-scale"
    case tremorFilter = "tremor-filter"
    case holdToAccept = "hold-to-accept"
    case ignoreRepeats = "ignore-repeats"
    case tapAt = "tap-at"

    /// Most `timing-scale`: past this a tap may last seconds and every gesture waits
    /// that much longer before it acts.
    static let maxTimingScale = 5.0
    /// Longest `hold-to-accept` and `ignore-repeats`, seconds.
    static let maxWindow = 5.0

    var entry: Schema.Entry {
        switch self {
        case .timingScale:
            return .init(key: rawValue, type: "number 1–5", appliesTo: "", defaultValue: "`1`",
                         summary: "Every time threshold a gesture does not set itself is this many times longer: tap duration, double-tap interval, hold, the settle window, the sooner rules; velocity floors are this many times lower.")
        case .tremorFilter:
            return .init(key: rawValue, type: "`true`, `false`, or `{min-cutoff: Hz, beta: number, d-cutoff: Hz}`", appliesTo: "", defaultValue: "`false`",
                         summary: "Smooths each finger's position before recognition with the 1€ filter (Casiez, Roussel and Vogel, CHI 2012): a shaking finger held still stays still, a fast stroke keeps its speed. A tap's or hold's movement limit, where the gesture sets none, is then 1 mm more: the tremor where a finger lands.")
        case .holdToAccept:
            return .init(key: rawValue, type: "duration, at most 5s", appliesTo: "", defaultValue: "`0ms`",
                         summary: "A touch counts only once it has rested this long; before that it is no finger to any gesture.")
        case .ignoreRepeats:
            return .init(key: rawValue, type: "duration, at most 5s", appliesTo: "", defaultValue: "`0ms`",
                         summary: "A binding acts once within this window however often its gesture is recognized; the repeats are logged and dropped.")
        case .tapAt:
            return .init(key: rawValue, type: "`first` or `last`", appliesTo: "", defaultValue: "`last`",
                         summary: "Which point of a tap is its location (`GESTURE_X_MM`, `GESTURE_Y_MM`): where the fingers landed, or where they lifted.")
        }
    }
}

enum TremorFilterKey: String, CaseIterable {
    case minCutoff = "min-cutoff"
    case beta
    case derivativeCutoff = "d-cutoff"
}

enum GrabKey: String, CaseIterable {
    case devices
    case deviceNames = "device-names"
    case holdBack = "hold-back"

    /// Longest `hold-back`, seconds: past this the delay is felt on every touch.
    static let maxHoldBack = 0.1

    var entry: Schema.Entry {
        switch self {
        case .devices:
            return .init(key: rawValue, type: "`touchpad`, `touchscreen`, or a list", appliesTo: "", defaultValue: "none",
                         summary: "Grab every device of these kinds.")
        case .deviceNames:
            return .init(key: rawValue, type: "glob or list", appliesTo: "", defaultValue: "none",
                         summary: "Grab the devices whose name matches one of these globs (as `device-name:`; `gestured list-devices` shows the names), whatever their kind.")
        case .holdBack:
            return .init(key: rawValue, type: "duration, at most 100ms", appliesTo: "", defaultValue: "none (off)",
                         summary: "Hold back the start of a touch sequence for at most this long while it could still become a gesture bound on that device (no more fingers than the most any of them takes): a gesture recognized in that time reaches the desktop not at all; any other touch reaches it this much later (at once when it lifts or gets more fingers).")
        }
    }
}

enum RotationKey: String, CaseIterable {
    case devices
    case deviceNames = "device-names"
    case sensor
    case orientation
    case output

    var entry: Schema.Entry {
        switch self {
        case .devices:
            return .init(key: rawValue, type: "`touchpad`, `touchscreen`, or a list", appliesTo: "", defaultValue: "`touchscreen`",
                         summary: "The kinds of device whose directions, edges and regions follow the screen as it is turned; `[]`: none.")
        case .deviceNames:
            return .init(key: rawValue, type: "glob or list", appliesTo: "", defaultValue: "none",
                         summary: "Also the devices whose name matches one of these globs, whatever their kind.")
        case .sensor:
            return .init(key: rawValue, type: "`true` or `false`", appliesTo: "", defaultValue: "`false`",
                         summary: "Where the compositor does not say how its output is turned, follow iio-sensor-proxy's accelerometer (`net.hadess.SensorProxy` on the system bus).")
        case .orientation:
            return .init(key: rawValue, type: "`normal`, `90`, `180`, `270`", appliesTo: "", defaultValue: "`normal`",
                         summary: "The rotation when neither the compositor nor the sensor says: `90`: the device turned a quarter clockwise, the picture a quarter counter-clockwise (Wayland's, GNOME's and iio-sensor-proxy's sense; sway's `transform 270`).")
        case .output:
            return .init(key: rawValue, type: "output name, or a map of device name (glob) to output name", appliesTo: "", defaultValue: "the built-in panel",
                         summary: "The compositor's output the touchscreen shows on (`eDP-1`, as `xrandr`, `swaymsg -t get_outputs` or GNOME's display settings name its connector); or, per device, `{'ELAN*': eDP-1, 'Wacom*': DP-2}` (the first glob that matches; a device none matches takes the built-in panel). By default the built-in panel (`eDP`, `LVDS`, `DSI`), else the only output.")
        }
    }
}

enum RegionKey: String, CaseIterable {
    case left, top, right, bottom

    var entry: Schema.Entry {
        .init(key: rawValue, type: "fraction 0–1 or percent", appliesTo: "",
              defaultValue: self == .left || self == .top ? "`0`" : "`1`",
              summary: "The \(rawValue) side of the rectangle, as a fraction of the screen's \(self == .left || self == .right ? "width" : "height") from its \(self == .left || self == .right ? "left" : "top") edge.")
    }
}

/// The keys of one gesture.
enum GestureKey: String, CaseIterable {
    case name, gesture, fingers, direction, axis, edge, taps
    case side
    case device
    case deviceName = "device-name"
    case region
    case minDistance = "min-distance"
    case minVelocity = "min-velocity"
    case maxAngle = "max-angle"
    case maxMovement = "max-movement"
    case maxDuration = "max-duration"
    case maxInterval = "max-interval"
    case minDuration = "min-duration"
    case edgeZone = "edge-zone"
    case minScale = "min-scale"
    case minRotation = "min-rotation"
    case minArc = "min-arc"
    case shape
    case minScore = "min-score"
    case simultaneousWith = "simultaneous-with"
    case requiresFailureOf = "requires-failure-of"
    case after, within, enabled
    case apps
    case exceptApps = "except-apps"
    case command, begin, update, end, cancel, every, hold, desktop
    case distance, reverse
    case shortcut

    /// The kind-specific setting this key sets, if it is one.
    var parameter: KindTraits.Parameter? {
        switch self {
        case .axis: return .axis
        case .taps: return .taps
        case .minDistance: return .minDistance
        case .minVelocity: return .minVelocity
        case .maxAngle: return .maxAngle
        case .maxMovement: return .maxMovement
        case .maxDuration: return .maxDuration
        case .maxInterval: return .maxInterval
        case .minDuration: return .minDuration
        case .minScale: return .minScale
        case .minRotation: return .minRotation
        case .minArc: return .minArc
        case .side: return .side
        case .shape: return .shape
        case .minScore: return .minScore
        case .name, .gesture, .fingers, .direction, .device, .deviceName, .region, .simultaneousWith,
             .requiresFailureOf, .after, .within, .enabled, .command, .edge, .edgeZone, .apps, .exceptApps,
             .begin, .update, .end, .cancel, .every, .hold, .desktop, .distance, .reverse, .shortcut:
            return nil
        }
    }

    /// The gesture kinds that accept this key, as each kind's `traits` say.
    var kinds: [GestureKind] {
        GestureKind.allCases.filter { kind in
            let t = kind.traits
            switch self {
            case .direction: return t.directions != .none
            case .begin, .update, .end, .cancel, .hold: return !t.discrete
            case .every: return !t.steps.isEmpty
            case .distance, .reverse: return kind == .pan || kind == .swipe
            default: return parameter.map(t.parameters.contains) ?? true
            }
        }
    }

    /// `tap, hold: \`1\`; pinch: \`2\``: each kind's default finger count, grouped.
    static var fingerDefaults: String {
        var groups: [(ClosedRange<Int>, [GestureKind])] = []
        for k in GestureKind.allCases {
            let f = k.traits.fingers
            if let i = groups.firstIndex(where: { $0.0 == f }) { groups[i].1.append(k) } else { groups.append((f, [k])) }
        }
        return groups.map { f, kinds in
            Schema.kindList(kinds) + ": `" + (f.lowerBound == f.upperBound ? "\(f.lowerBound)" : "\(f.lowerBound)-\(f.upperBound)") + "`"
        }.joined(separator: "; ")
    }

    /// What `direction:` takes, kind by kind.
    static var directionWords: String {
        var groups: [(KindTraits.Directions, [GestureKind])] = []
        for k in GestureKind.allCases where k.traits.directions != .none {
            let d = k.traits.directions
            if let i = groups.firstIndex(where: { $0.0 == d }) { groups[i].1.append(k) } else { groups.append((d, [k])) }
        }
        return groups.map { d, kinds in
            Schema.kindList(kinds) + ": " + d.words.map { "`\($0)`" }.joined(separator: ", ")
        }.joined(separator: "; ")
    }

    /// "pan and transform".
    static var rangeKinds: String {
        let names = GestureKind.allCases.filter(\.traits.takesRange).map(\.rawValue)
        return names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + " and " + names.last!
    }

    var entry: Schema.Entry {
        let all = kinds.count == GestureKind.allCases.count ? "all" : Schema.kindList(kinds)
        func e(_ type: String, _ def: String, _ summary: String) -> Schema.Entry {
            .init(key: rawValue, type: type, appliesTo: all, defaultValue: def, summary: summary)
        }
        switch self {
        case .name: return e("name", "required", "Unique name: letters, digits, `-`, `_`, `.`. Commands see it as `GESTURE_NAME`; other gestures refer to it.")
        case .gesture: return e("kind", "required", "The recognizer: " + GestureKind.allCases.map { "`\($0.rawValue)`" }.joined(separator: ", ") + ".")
        case .fingers: return e("count 1–5, or a range `2-4`", Self.fingerDefaults, "Fingers on the surface. Ranges only for \(Self.rangeKinds).")
        case .direction: return e("direction or list", "any", Self.directionWords + ". A pinch's or rotation's direction is the way it first crossed its threshold (see \"Pinch and rotate directions\").")
        case .axis: return e("`horizontal` or `vertical`", "free", "Lock a pan to one axis; also the axis a distance `every:` measures.")
        case .edge: return e("edge or list", "any", "`top`, `bottom`, `left`, `right`: the edges an edge pan starts from; for other gestures, only touches that begin at one of these edges.")
        case .taps: return e("count 1–5", "`1`", "Tap: taps in a row. Hold: counts the press itself, so `1` is a plain press and `2` a tap, then press.")
        case .side: return e("`left`, `right` or a list", "either", "The side of the resting finger the other fingers land on (`fingers:` counts those, not the resting one).")
        case .device: return e("`touchpad`, `touchscreen` or `any`", "`any` (edgepan, or with `region:`: `touchscreen`)", "Which kind of device the gesture listens to.")
        case .deviceName: return e("glob", "any", "Only devices whose name matches this shell glob, as fnmatch(3) reads it: `*`, `?`, `[a-z]`, `[!…]`, `[[:digit:]]`, `\\*`; see `gestured list-devices`.")
        case .region: return e("mapping", "whole screen", "Only touches that begin inside this rectangle of a touchscreen (see `region:` below); implies `device: touchscreen`.")
        case .minDistance: return e("distance", "recognizer's", "Distance the fingers travel before the gesture counts (scrub: each stroke).")
        case .minVelocity: return e("speed", "recognizer's", "Slowest swipe that counts, e.g. `100mm/s`.")
        case .maxAngle: return e("angle", "recognizer's", "Swipe: largest angle off its direction. Pan with `axis:`: largest angle off the axis as it starts.")
        case .maxMovement: return e("distance", "recognizer's", "Most a finger may move and still tap or hold (scrub: most the stroke may drift up or down; tip-tap, tip-swipe: the resting finger too).")
        case .maxDuration: return e("duration", "recognizer's", "Longest touch that still counts as a tap (hold: each tap before the press).")
        case .maxInterval: return e("duration", "recognizer's", "Longest pause between taps (hold: between the taps and the press).")
        case .minDuration: return e("duration", "`0.5s` (UIKit); tip-tap, tip-swipe: `150ms`", "How long to hold before the hold begins (tip-tap, tip-swipe: how long the resting finger is down alone before the others land).")
        case .edgeZone: return e("distance", "recognizer's", "Width of the band along an edge where the touch must begin (with `edge:`).")
        case .minScale: return e("scale", "recognizer's", "Pinch scale before the gesture begins, e.g. `1.1x` (10 %).")
        case .minRotation: return e("angle", "recognizer's", "Rotation before the gesture begins.")
        case .minArc: return e("angle", "`270deg`", "How far round the hand's path must go before a circle begins, up to `1080deg`.")
        case .shape: return e("name or list", "any", "The shapes it takes: built in " + ShapeTemplate.builtInNames.map { "`\($0)`" }.joined(separator: ", ") + ", or one recorded with `gestured record-shape NAME` (docs/SHAPES.md).")
        case .minScore: return e("fraction 0–1", "`\(defaultShapeMinScore.fixed(2))`", "How closely the drawn shape must match (`GESTURE_SCORE`).")
        case .simultaneousWith: return e("name or list", "none", "Gestures this one may run together with (pinch and rotate); otherwise they compete.")
        case .requiresFailureOf: return e("name or list", "none", "Gestures that must fail before this one may fire (a single tap waits for the double tap).")
        case .after: return e("name", "none", "Only counts when it begins right after this gesture (hold, then swipe).")
        case .within: return e("duration", "`settings.sequence-window`", "How soon after the `after:` gesture this one must begin.")
        case .enabled: return e("`true` or `false`", "`true`", "A disabled gesture is recognized by no one until enabled at run time.")
        case .apps: return e("glob or list", "every app", "Only while one of these apps has the focus: globs on the app id (Wayland) or window class (X11), any case. It overrides the same gesture bound without `apps:` (see Per-application gestures).")
        case .exceptApps: return e("glob or list", "none", "Never while one of these apps has the focus (a game, a remote desktop).")
        case .command: return e("action", "none", "Runs once: when a discrete gesture is recognized, when a continuous one begins. An action is a shell command or a built-in action (below).")
        case .begin: return e("action", "none", "Runs when the gesture begins.")
        case .update: return e("action", "none", "Runs on every change, or once per step with `every:`.")
        case .end: return e("action", "none", "Runs when the fingers lift after the gesture began.")
        case .cancel: return e("action", "none", "Runs when the gesture is cancelled (another gesture won, the device vanished).")
        case .every: return e("distance, angle or scale", "none", "Step `update:`: one run per step crossed, `GESTURE_STEP` = `1` or `-1` (up, right, clockwise, spread are positive).")
        case .desktop: return e("name or list", "any", "Only on these desktops, as `$XDG_CURRENT_DESKTOP` names them (`GNOME`, `KDE`, `sway`), any case; elsewhere the gesture is off and the ones after it may win. For a desktop's own shortcut through `keys:`.")
        case .hold: return e("keys", "none", "Keys held down while the gesture runs, like `alt`: pressed when it begins, released however it ends (lift, cancel, device gone, reload, exit).")
        case .distance: return e("distance", "the desktop's own (touchpad), the screen's width or height (touchscreen)", "With `{workspace: follow}` or `{overview: follow}`: how far the fingers travel for a whole transition.")
        case .reverse: return e("`true` or `false`", "`false`", "With a follow: the transition moves the other way round from the desktop's own touchpad convention.")
        case .shortcut: return e("accelerator, like `<Super><Alt>w`", "none", "A keyboard shortcut that runs the binding without the gesture (`GESTURE_TRIGGER=shortcut`; a continuous one runs `begin:` then `end:`), in GNOME's syntax: modifiers `<Shift>`, `<Control>`, `<Alt>`, `<Super>`, `<Meta>`, `<Hyper>`, then one X keysym name (a function or media key may stand alone), at most \(Shortcut.maximumLength) characters. Bound on GNOME through gestured's extension; elsewhere bind `gestured trigger NAME` in the desktop's own shortcuts (docs/ACCESSIBILITY.md).")
        }
    }
}
