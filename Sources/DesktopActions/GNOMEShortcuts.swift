import DaemonCore
import DesktopSession
import GestureConfig
import LinuxSystem
import PlainText

/// `shortcut:` on GNOME (docs/GNOME.md, "Shortcuts"): gestured's extension grabs each
/// binding's accelerator for gestured and, when one is pressed, sends
/// `ShortcutActivated(name)` to the owner of `io.github.gestured` alone. gestured sends
/// the list (`SetShortcuts`) on the desktop actions' connection, the one that owns that
/// name, as the config is loaded and reloaded and whenever the extension says it holds
/// none for us (`ShortcutsWanted`: it was enabled, GNOME Shell restarted, or our
/// connection took the name); and believes those signals only from the owner of
/// `org.gnome.Shell`. A binding runs only if its name is one this list holds.
///
/// ```
///  config ─→ SetShortcuts([(name, accelerator)…]) ─→ refused ones logged
///  ShortcutsWanted ─→ SetShortcuts again      ShortcutActivated(name) ─→ run(name)
/// ```
final class GNOMEShortcuts {
    static let shell = "org.gnome.Shell"
    static let path = "/io/github/gestured/Shell"
    static let interface = "io.github.gestured.Shell"

    private let bus: SessionBusCaller
    private let log: (LogPriority, String) -> Void
    /// Runs the binding of that name, as a shortcut.
    private let run: (String) -> Void
    /// The list as the config says it, in its order.
    private(set) var shortcuts: [(name: String, shortcut: Shortcut)] = []
    /// The last answer said (what was bound and refused, or why nothing was), so the same
    /// answer to the same list (ShortcutsWanted after our first call) is said once.
    private var lastSaid: String?
    /// ShortcutActivated and ShortcutsWanted dropped: not from the owner of org.gnome.Shell.
    var ignoredSignals: Int { bus.ignoredSignals }

    init(bus: SessionBusCaller, log: @escaping (LogPriority, String) -> Void, run: @escaping (String) -> Void) {
        self.bus = bus
        self.log = log
        self.run = run
        bus.listen(SessionBusCaller.Listening(service: Self.shell, path: Self.path, interface: Self.interface,
                                              members: ["ShortcutActivated", "ShortcutsWanted"]) { [weak self] member, argument in
            self?.heard(member, argument)
        })
    }

    /// The config's shortcuts, sent to the extension (an empty list lets go of them all).
    /// A binding for another desktop (`desktop:`, `Config.offDesktop`) runs nothing here,
    /// so its keys are left to GNOME.
    func update(_ config: Config) {
        shortcuts = config.bindings.compactMap { b in config.offDesktop.contains(b.name) ? nil : b.shortcut.map { (b.name, $0) } }
        send()
    }

    private func send() {
        let sent = shortcuts
        bus.setShortcuts(destination: Self.shell, path: Self.path, interface: Self.interface,
                         sent.map { ($0.name, $0.shortcut.description) }) { [weak self] result in
            self?.answered(result, to: sent)
        }
    }

    /// SetShortcuts' answer to `sent` (a reload may have sent another list since).
    private func answered(_ result: Result<[SessionBusCaller.Shortcut], SessionBusCaller.FollowRefusal>,
                          to sent: [(name: String, shortcut: Shortcut)]) {
        switch result {
        case .success(let refused):
            let taken = Set(refused.map(\.name))
            let grabbed = sent.filter { !taken.contains($0.name) }
            let lines = refused.map { (LogPriority.warning, "shortcut \($0.accelerator) for \($0.name): GNOME refused it (already taken?)") }
                + (grabbed.isEmpty ? [] : [(.notice, "GNOME shortcuts: " + grabbed.map { "\($0.shortcut) runs \($0.name)" }.joined(separator: ", "))])
            say(lines)
        case .failure(let problem):
            say([(.warning, "GNOME shortcuts not bound: \(problem.message)"
                  + (problem.message.contains("AccessDenied") ? "" : "; they will be when the gestured extension runs (\(GNOMEShellSource.enableCommand))"))])
        }
    }

    private func say(_ lines: [(LogPriority, String)]) {
        let text = lines.map(\.1).joined(separator: "\n")
        guard text != lastSaid else { return }
        lastSaid = text
        for (priority, line) in lines { log(priority, line.printable) }
    }

    private func heard(_ member: String, _ argument: String?) {
        switch member {
        case "ShortcutsWanted":
            send()
        case "ShortcutActivated":
            guard let name = argument, shortcuts.contains(where: { $0.name == name }) else {
                return log(.info, "GNOME sent ShortcutActivated for '\((argument ?? "").prefix(64))', which is no shortcut of this config; ignored".printable)
            }
            run(name)
        default:
            break
        }
    }
}
