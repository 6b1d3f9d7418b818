import PlainText
import TouchModel

/// Per-application gestures: which focused applications a gesture listens in.
///
/// The app is the compositor's name for the focused window (sway's `app_id`, an X11
/// `WM_CLASS` class, Hyprland's and KWin's class); the daemon hands it to the engine,
/// which takes it when a touch sequence begins, so a gesture under way keeps the app
/// it began in. Globs are fnmatch(3) patterns, matched without regard to case
/// (`firefox` is `firefox` on Wayland and `Firefox` under X11).
public struct AppFilter: Sendable, Equatable {
    /// Only while one of these has the focus; empty = in every application.
    public var only: [String]
    /// Never while one of these has the focus.
    public var except: [String]

    public init(only: [String] = [], except: [String] = []) {
        self.only = only
        self.except = except
    }

    public var isEmpty: Bool { only.isEmpty && except.isEmpty }

    /// Whether a gesture with this filter listens while `app` has the focus (nil: no
    /// app known), and if not, why. A gesture limited to apps listens in none of them
    /// when the app is not known; one that only excludes apps listens everywhere then.
    public func admits(_ app: String?) -> FailureReason? {
        if !only.isEmpty {
            guard let app else { return .noFocusedApp }
            if !only.contains(where: { Self.matches($0, app) }) { return .notForApp(app) }
        }
        if let app, except.contains(where: { Self.matches($0, app) }) { return .excludedApp(app) }
        return nil
    }

    static func matches(_ glob: String, _ app: String) -> Bool {
        // The project's one glob (TouchModel), on both sides lowercased.
        Glob.matches(glob.lowercased(), app.lowercased())
    }

    /// Two specs are the same gesture, for precedence, when they differ only in name,
    /// apps, actions and arbitration: the same recognizer on the same touches.
    public static func sameGesture(_ a: GestureSpec, _ b: GestureSpec) -> Bool {
        var a = a, b = b
        a.name = ""; b.name = ""
        a.apps = AppFilter(); b.apps = AppFilter()
        a.enabled = true; b.enabled = true
        a.simultaneousWith = []; b.simultaneousWith = []
        a.requiresFailureOf = []; b.requiresFailureOf = []
        a.after = nil; b.after = nil
        a.sequenceWindow = nil; b.sequenceWindow = nil
        return a == b
    }

    /// For each spec, the specs it overrides when its app matches: the same gesture
    /// with no `apps:` of its own (an app-specific binding beats the global one).
    public static func overrides(_ specs: [GestureSpec]) -> [[Int]] {
        var out = [[Int]](repeating: [], count: specs.count)
        for (i, s) in specs.enumerated() where !s.apps.only.isEmpty {
            out[i] = specs.indices.filter { j in j != i && specs[j].apps.only.isEmpty && sameGesture(s, specs[j]) }
        }
        return out
    }
}
