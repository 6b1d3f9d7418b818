/// `desktop:`: a gesture meant for one desktop only, such as a key combination that
/// is that desktop's shortcut (GNOME's super+Page_Down). Matched against
/// `$XDG_CURRENT_DESKTOP`, a `:`-separated list (`ubuntu:GNOME`), ignoring case.
extension Config {
    /// This config with each gesture whose `desktop:` names none of `xdgCurrentDesktop`'s
    /// entries disabled (recognized by no one, so the gestures after it may win).
    public func forDesktop(_ xdgCurrentDesktop: String?) -> Config {
        let current = Set((xdgCurrentDesktop ?? "").split(separator: ":").map { $0.lowercased() })
        var c = self
        for i in c.bindings.indices where !c.bindings[i].desktops.isEmpty {
            if !c.bindings[i].desktops.contains(where: { current.contains($0.lowercased()) }) {
                c.specs[i].enabled = false
                c.offDesktop.insert(c.specs[i].name)
            }
        }
        return c
    }
}
