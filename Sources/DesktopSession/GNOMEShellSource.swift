import CDesktop
import LinuxSystem

/// GNOME Shell, through gestured's own Shell extension (gnome-extension/, docs/GNOME.md):
/// it exports `io.github.gestured.Shell` on gnome-shell's own session-bus connection,
/// the one that owns `org.gnome.Shell`, and sends `FocusChanged` on every change to the
/// owner of `io.github.gestured.Focus` alone, which this source asks for. Through
/// sd-bus (libsystemd), on the loop:
///
/// ```
///  connect ─→ match the extension's signals and NameOwnerChanged(org.gnome.Shell)
///          ─→ GetNameOwner(org.gnome.Shell), RequestName(io.github.gestured.Focus)
///          ─→ owner ─→ GetFocus ─→ FocusChanged…
///                  ↑ NameOwnerChanged: a new owner (GNOME Shell restarted) ─→ GetFocus
///  GetFocus fails, or Disabled: the extension is off, said once with the command that
///  enables it ─→ its next FocusChanged (the extension sends one when enabled) picks it up
/// ```
///
/// Only the unique name that owns `org.gnome.Shell` now is believed: any program on the
/// session bus may emit a signal with the extension's path and interface, and one sent
/// to us directly passes every match rule, so each signal's sender is compared, and who
/// owns the name is what the bus daemon itself says (`BusNameOwner`).
public final class GNOMEShellSource: FocusSource {
    public let name = "gnome"
    public var endpoint: String { link.endpoint }
    public var connected: Bool { bus != nil && link.focus.told }
    /// Why the focus is not known (GNOME Shell not on the bus, the extension off), with the fix.
    public var problem: String? { link.problem }

    public static let extensionUUID = "gestured@gestured.github.io"
    public static let enableCommand = "gnome-extensions enable \(extensionUUID)"
    static let shell = "org.gnome.Shell"
    static let objectPath = "/io/github/gestured/Shell"
    static let interface = "io.github.gestured.Shell"
    static let signalRule = "type='signal',sender='\(shell)',path='\(objectPath)',interface='\(interface)'"
    /// The name the extension tells the focus to, and answers GetFocus for (docs/GNOME.md).
    static let focusName = "io.github.gestured.Focus"
    static let notOwner = "another program owns \(focusName) on the session bus (another gestured?), and the gestured "
        + "GNOME Shell extension tells the focus to that name's owner only; this one is told when that one leaves"
    static let noShell = "GNOME Shell is not on the session bus (nothing owns \(shell)); waiting for it"
    static let extensionOff = "the gestured GNOME Shell extension is not running (not enabled, or the screen is locked), "
        + "so per-application gestures are off; "
        + "enable it with: \(enableCommand) (installed by `make install`; after a first install, log out and in once)"

    private var bus: OpaquePointer?
    /// Who owns org.gnome.Shell: the only sender whose signals and replies count.
    private let shellOwner = BusNameOwner(shell)
    var owner: String? { shellOwner.owner }
    /// Our own unique name on the bus (tests send us signals directly).
    private(set) var uniqueName: String?
    /// Signals from a sender that is not who it claims to be: not the owner of
    /// org.gnome.Shell (the extension's), not the bus daemon (NameOwnerChanged).
    var ignoredSignals: Int { shellOwner.ignored }
    private let link: LibraryConnection

    /// `busAddress`: the session bus (`DBUS_SESSION_BUS_ADDRESS`).
    public init(busAddress: String, retryInitial: Double = 0.5, retryMaximum: Double = 10) {
        link = LibraryConnection(endpoint: busAddress, retry: ReconnectTimer(initial: retryInitial, maximum: retryMaximum))
    }

    deinit { stop() }

    public func start(on loop: FocusLoop, onChange: @escaping (FocusedApp?) -> Void, log: @escaping (String) -> Void) {
        link.connect = { [unowned self] in connect() }
        link.start(on: loop, onChange: onChange, log: log, prefix: "gnome")
    }

    public func stop() {
        link.cancel()
        disconnect()
    }

    private var me: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    private static func source(_ userdata: UnsafeMutableRawPointer?) -> GNOMEShellSource {
        Unmanaged<GNOMEShellSource>.fromOpaque(userdata!).takeUnretainedValue()
    }

    private func connect() {
        guard let b = SessionBus.connect(link, readable: { [weak self] in self?.process() }) else { return }
        bus = b
        uniqueName = SessionBus.uniqueName(b)
        // The bus handles requests in order: both rules are in place before the owner is asked.
        gd_sd_bus_add_match_async(b, nil, Self.signalRule, { m, ud, _ in GNOMEShellSource.source(ud).signal(m) }, nil, me)
        shellOwner.follow(on: b) { [unowned self] owner, changed in ownerIs(owner, changed: changed) }
        // Asked before GetFocus is sent (after GetNameOwner's answer): the extension knows
        // us as the owner by the time it is asked.
        gd_sd_bus_request_name_async(b, nil, Self.focusName, 0, { m, ud, _ in GNOMEShellSource.source(ud).focusNameAnswered(m) }, me)
        process()
    }

    private func process() {
        if !SessionBus.process({ bus }, link) { disconnect() }
    }

    // MARK: The exchange

    /// GetNameOwner's answer (`changed` false) or NameOwnerChanged (true), from the bus daemon.
    private func ownerIs(_ owner: String?, changed: Bool) {
        if owner == nil {
            if changed { extensionGone(Self.noShell) } else { say(Self.noShell) }
            return
        }
        if changed, let owner { link.log("GNOME Shell (re)started as \(owner); asking it for the focus") }
        askFocus()
    }

    private func askFocus() {
        guard let b = bus, let owner else { return }
        gd_bus_call(b, nil, owner, Self.objectPath, Self.interface, "GetFocus",
                    { m, ud, _ in GNOMEShellSource.source(ud).focusAnswered(m) }, me)
    }

    /// RequestName's answer: 1 the owner now, 4 already; 2 queued behind another owner, 3 not.
    private func focusNameAnswered(_ m: OpaquePointer?) -> Int32 {
        var answer: UInt32 = 0
        if let error = SessionBus.error(m) {
            link.log("cannot own \(Self.focusName) on the session bus: \(error)")
        } else if let m, gd_sd_bus_message_read_basic(m, CChar(UInt8(ascii: "u")), &answer) > 0, answer == 2 || answer == 3 {
            say(Self.notOwner)
        }
        return 0
    }

    /// GetFocus's reply: the focus, or an error (UnknownMethod, UnknownObject: no extension;
    /// AccessDenied: another program owns the focus name).
    private func focusAnswered(_ m: OpaquePointer?) -> Int32 {
        guard let m, shellOwner.sent(m) else { return 0 }
        if let error = SessionBus.error(m) {
            if error.hasPrefix("org.freedesktop.DBus.Error.AccessDenied") { return extensionGone(Self.notOwner) }
            extensionGone(Self.extensionOff)
        } else {
            report(m)
        }
        return 0
    }

    private func signal(_ m: OpaquePointer?) -> Int32 {
        guard let m, shellOwner.sent(m) else { return 0 }
        if gd_sd_bus_message_is_signal(m, Self.interface, "FocusChanged") > 0 {
            report(m)
        } else if gd_sd_bus_message_is_signal(m, Self.interface, "Disabled") > 0 {
            extensionGone(Self.extensionOff)
        }
        return 0
    }

    /// FocusChanged's or GetFocus's arguments: app, title, then details gestured does not use.
    private func report(_ m: OpaquePointer) {
        guard let app = SessionBus.readString(m), let title = SessionBus.readString(m) else { return }
        say(nil)
        link.focus.report(app.isEmpty ? nil : FocusedApp(app: app, title: title))
    }

    /// The focus is unknown from now on: per-application gestures stop matching the last app.
    @discardableResult
    private func extensionGone(_ why: String) -> Int32 {
        say(why)
        if link.focus.told { link.focus.report(nil) }
        link.focus.reset()
        return 0
    }

    /// Logs a change of problem once, not on every signal.
    private func say(_ new: String?) { link.say(new, recovered: "the gestured extension in GNOME Shell reports the focus") }

    private func disconnect() {
        SessionBus.close(bus, link)
        bus = nil
    }
}
