import JSON
/// niri's windows as its event stream tells them (niri-ipc's `Event`, one JSON object per
/// line, externally tagged: `{"WindowFocusChanged":{"id":7}}`), kept as far as the focus
/// needs: each window's app id and title by its id, and which one is focused. The stream
/// starts with the whole state (`WindowsChanged`), then changes:
///
/// | event | what changes |
/// |---|---|
/// | `WindowsChanged {windows}` | every window replaced; the focused one is the one with `is_focused` |
/// | `WindowOpenedOrChanged {window}` | that window; if `is_focused`, it is the focused one (no other is) |
/// | `WindowClosed {id}` | that window is gone (and the focus with it, if it had it) |
/// | `WindowFocusChanged {id}` | the focused window, or none (`null`: a layer surface has the focus) |
///
/// Every other event (workspaces, layouts, the overview…) changes nothing here.
struct NiriWindows {
    private var windows: [UInt64: FocusedApp] = [:]
    private var focusedID: UInt64?
    /// Whether `WindowsChanged` came: until then nothing is known.
    private(set) var known = false

    /// Windows kept at most: a peer may list windows without end (a line is bounded, and
    /// so are its values, but not how many of them are windows).
    static let maxWindows = 4096

    /// The members of an event gestured reads; every other one is skipped unbuilt.
    static let keys: Set<String> = ["WindowsChanged", "windows", "WindowOpenedOrChanged", "window", "WindowClosed",
                                    "WindowFocusChanged", "id", "app_id", "title", "is_focused"]

    var count: Int { windows.count }

    /// The focused window's app: nil when none is focused or it has no app id; nil too
    /// before `WindowsChanged` (see `known`).
    var focused: FocusedApp? {
        guard let focusedID, let app = windows[focusedID], !app.app.isEmpty else { return nil }
        return app
    }

    mutating func apply(_ event: JSONValue) {
        if let list = event["WindowsChanged"]?["windows"]?.array {
            windows.removeAll()
            focusedID = nil
            known = true
            for w in list { upsert(w) }
        } else if let w = event["WindowOpenedOrChanged"]?["window"] {
            upsert(w)
        } else if let id = Self.id(event["WindowClosed"]?["id"]) {
            windows[id] = nil
            if focusedID == id { focusedID = nil }
        } else if let change = event["WindowFocusChanged"] {
            focusedID = Self.id(change["id"])
        }
    }

    private mutating func upsert(_ w: JSONValue) {
        guard let id = Self.id(w["id"]) else { return }
        guard windows[id] != nil || windows.count < Self.maxWindows else { return }
        windows[id] = FocusedApp(app: w["app_id"]?.string ?? "", title: w["title"]?.string ?? "")
        if w["is_focused"]?.bool == true {
            focusedID = id
        } else if focusedID == id {
            focusedID = nil
        }
    }

    /// A window id: a whole number (niri's `u64`; JSON numbers are read as doubles, exact to 2⁵³).
    private static func id(_ v: JSONValue?) -> UInt64? {
        guard let n = v?.number else { return nil }
        return UInt64(exactly: n)
    }
}
