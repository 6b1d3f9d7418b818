import CDesktop
import LinuxSystem

/// KDE Plasma on Wayland. KWin has no focus signal on D-Bus, but it loads scripts
/// over D-Bus (`org.kde.KWin /Scripting`, `loadScript(path, name)`, then `start()`);
/// the script we give it calls us back on every window activation with the window's
/// class and caption. Through sd-bus (libsystemd), on the loop:
///
/// ```
///  connect ─→ own io.github.gestured.Focus.p<pid> ─→ unloadScript + loadScript ─→ start ─→ Activated(class, caption)…
///                                   ↑ NameOwnerChanged: org.kde.KWin has a new owner (KWin restarted)
/// ```
///
/// sd-bus writes its messages as it sends them; it is processed whenever the bus
/// socket is readable, which is when KWin answers or calls back.
///
/// Only KWin may say the focus: `Activated` from any other connection than the one that
/// owns org.kde.KWin (as the bus daemon says, `BusNameOwner`) is answered AccessDenied.
public final class KWinSource: FocusSource {
    public let name = "kwin"
    public var endpoint: String { link.endpoint }
    public var connected: Bool { bus != nil && link.focus.told }

    static let objectPath = "/io/github/gestured/Focus"
    static let interface = "io.github.gestured.Focus"
    static let kwin = "org.kde.KWin"
    /// Our name on the bus, which the script calls: one per process.
    public let serviceName = "io.github.gestured.Focus.p\(Process.currentID)"
    public let pluginName = "gestured-focus"
    public let scriptPath: String

    private var bus: OpaquePointer?
    private let link: LibraryConnection
    /// Who owns org.kde.KWin: the only caller of `Activated` believed.
    private let kwinOwner = BusNameOwner(kwin)
    /// `Activated` calls and NameOwnerChanged signals from a sender that is not who it claims to be.
    var ignored: Int { kwinOwner.ignored }
    /// Our own unique name on the bus (tests call us directly).
    private(set) var uniqueName: String?

    /// `busAddress`: the session bus (`DBUS_SESSION_BUS_ADDRESS`); the script is
    /// written to `scriptDirectory` (the user's runtime directory), where KWin reads it.
    public init(busAddress: String, scriptDirectory: String, retryInitial: Double = 0.5, retryMaximum: Double = 10) {
        link = LibraryConnection(endpoint: busAddress, retry: ReconnectTimer(initial: retryInitial, maximum: retryMaximum))
        scriptPath = scriptDirectory + "/gestured-kwin-focus.js"
    }

    deinit { stop() }

    /// The script KWin runs: Plasma 6 names it windowActivated, Plasma 5 clientActivated.
    var script: String {
        """
        // Written by gestured: reports the focused window's class for per-application gestures.
        function report(w) {
            callDBus("\(serviceName)", "\(Self.objectPath)", "\(Self.interface)", "Activated",
                     w ? String(w.resourceClass) : "", w ? String(w.caption) : "");
        }
        if (workspace.windowActivated) {
            workspace.windowActivated.connect(report);
            report(workspace.activeWindow);
        } else {
            workspace.clientActivated.connect(report);
            report(workspace.activeClient);
        }

        """
    }

    public func start(on loop: FocusLoop, onChange: @escaping (FocusedApp?) -> Void, log: @escaping (String) -> Void) {
        link.connect = { [unowned self] in connect() }
        link.start(on: loop, onChange: onChange, log: log, prefix: "kwin")
    }

    public func stop() {
        link.cancel()
        disconnect()
        FileSystem.remove(scriptPath)
    }

    private var me: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    private static func source(_ userdata: UnsafeMutableRawPointer?) -> KWinSource {
        Unmanaged<KWinSource>.fromOpaque(userdata!).takeUnretainedValue()
    }

    private func connect() {
        guard let b = SessionBus.connect(link, readable: { [weak self] in self?.process() }) else { return }
        bus = b
        uniqueName = SessionBus.uniqueName(b)
        gd_sd_bus_add_object(b, nil, Self.objectPath, { m, ud, _ in KWinSource.source(ud).methodCall(m) }, me)
        // The owner is known before the name is ours, so before KWin can call back.
        kwinOwner.follow(on: b) { [unowned self] owner, changed in
            guard changed, owner != nil else { return }
            link.log("KWin (re)started; loading the focus script")
            loadScript()
        }
        gd_sd_bus_request_name_async(b, nil, serviceName, 0, { m, ud, _ in KWinSource.source(ud).nameAcquired(m) }, me)
        process()
    }

    private func process() {
        if !SessionBus.process({ bus }, link) { disconnect() }
    }

    // MARK: The exchange

    private func nameAcquired(_ m: OpaquePointer?) -> Int32 {
        if let error = SessionBus.error(m) {
            link.log("cannot own \(serviceName) on the bus: \(error)")
            return 0
        }
        loadScript()
        return 0
    }

    private func loadScript() {
        guard let b = bus else { return }
        do throws(Errno) {
            try AtomicFile.write(Array(script.utf8), to: scriptPath, mode: 0o600)
        } catch {
            return link.log("cannot write the KWin script \(scriptPath): \(error)")
        }
        // A script of this name left by an earlier run is replaced (KWin keeps one per name).
        gd_bus_call_s(b, nil, Self.kwin, "/Scripting", "org.kde.kwin.Scripting", "unloadScript", { _, _, _ in 0 }, nil, pluginName)
        gd_bus_call_ss(b, nil, Self.kwin, "/Scripting", "org.kde.kwin.Scripting", "loadScript",
                             { m, ud, _ in KWinSource.source(ud).scriptLoaded(m) }, me, scriptPath, pluginName)
    }

    private func scriptLoaded(_ m: OpaquePointer?) -> Int32 {
        if let error = SessionBus.error(m) {
            link.log("KWin did not load the focus script: \(error)")
            return 0
        }
        if let b = bus {
            gd_bus_call(b, nil, Self.kwin, "/Scripting", "org.kde.kwin.Scripting", "start", { m, ud, _ in
                if let error = SessionBus.error(m) { KWinSource.source(ud).link.log("KWin did not start the focus script: \(error)") }
                return 0
            }, me)
        }
        return 0
    }

    /// `Activated(class, caption)` from the script, which KWin runs on its own connection.
    private func methodCall(_ m: OpaquePointer?) -> Int32 {
        guard let m, gd_sd_bus_message_is_method_call(m, Self.interface, "Activated") > 0 else { return 0 }
        guard kwinOwner.sent(m) else {
            gd_bus_reply_error(m, "org.freedesktop.DBus.Error.AccessDenied", "only KWin (the owner of \(Self.kwin)) says the focus")
            return 1
        }
        let cls = SessionBus.readString(m) ?? "", caption = SessionBus.readString(m) ?? ""
        gd_bus_reply(m)
        link.focus.report(cls.isEmpty ? nil : FocusedApp(app: cls, title: caption))
        return 1
    }

    // MARK: Helpers

    private func disconnect() {
        SessionBus.close(bus, link)
        bus = nil
    }
}
