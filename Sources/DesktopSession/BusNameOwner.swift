import CDesktop

/// The unique name that owns a well-known name (`org.gnome.Shell`, `org.kde.KWin`…) now,
/// as the bus daemon says it: `GetNameOwner` once, then its `NameOwnerChanged`. What the
/// D-Bus sources believe a signal (or a call) by.
///
/// On a bus any client may send any signal, with any path, interface and member, and
/// one addressed to us directly passes every match rule: sd-bus lets a unique-name
/// sender through a rule's `sender='org.gnome.Shell'`, and through
/// `sender='org.freedesktop.DBus'` too. Only the sender field is the bus daemon's to
/// write, so that is what is compared: `NameOwnerChanged` and `GetNameOwner`'s reply
/// count only from `org.freedesktop.DBus` itself, a service's signals only from the
/// unique name that owns the service.
final class BusNameOwner {
    static let busDaemon = "org.freedesktop.DBus"
    let name: String
    /// Its owner's unique name (":1.42"), nil while nothing owns it or before the bus said.
    private(set) var owner: String?
    /// Messages dropped because their sender was not who they claim to be.
    private(set) var ignored = 0
    /// Told each owner the bus daemon says: nil (none), and whether it is a change
    /// (`NameOwnerChanged`) rather than the first answer (`GetNameOwner`).
    private var told: (_ owner: String?, _ changed: Bool) -> Void = { _, _ in }

    init(_ name: String) { self.name = name }

    private var me: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    private static func tracker(_ userdata: UnsafeMutableRawPointer?) -> BusNameOwner {
        Unmanaged<BusNameOwner>.fromOpaque(userdata!).takeUnretainedValue()
    }

    /// Starts following the owner on `bus`, just opened: the rule first, then the
    /// question (the bus answers in order, so no change falls between). The bus is
    /// closed before this goes.
    func follow(on bus: OpaquePointer, told: @escaping (_ owner: String?, _ changed: Bool) -> Void) {
        self.told = told
        owner = nil
        let rule = "type='signal',sender='\(Self.busDaemon)',path='/org/freedesktop/DBus',"
            + "interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(name)'"
        gd_sd_bus_add_match_async(bus, nil, rule, { m, ud, _ in BusNameOwner.tracker(ud).changed(m) }, nil, me)
        gd_bus_call_s(bus, nil, Self.busDaemon, "/org/freedesktop/DBus", Self.busDaemon, "GetNameOwner",
                      { m, ud, _ in BusNameOwner.tracker(ud).answered(m) }, me, name)
    }

    /// Whether `m` was sent by the owner; counted in `ignored` when not.
    func sent(_ m: OpaquePointer?) -> Bool {
        if let owner, Self.sender(m) == owner { return true }
        ignored += 1
        return false
    }

    static func sender(_ m: OpaquePointer?) -> String? {
        m.flatMap { gd_sd_bus_message_get_sender($0) }.map { String(cString: $0) }
    }

    /// GetNameOwner's reply: the owner, or an error (NameHasNoOwner).
    private func answered(_ m: OpaquePointer?) -> Int32 {
        guard Self.sender(m) == Self.busDaemon else {
            ignored += 1
            return 0
        }
        owner = SessionBus.error(m) == nil ? m.flatMap(SessionBus.readString) : nil
        told(owner, false)
        return 0
    }

    /// `NameOwnerChanged(name, old, new)`, from the bus daemon only.
    private func changed(_ m: OpaquePointer?) -> Int32 {
        guard let m, Self.sender(m) == Self.busDaemon else {
            ignored += 1
            return 0
        }
        guard SessionBus.readString(m) == name, SessionBus.readString(m) != nil, let new = SessionBus.readString(m) else { return 0 }
        owner = new.isEmpty ? nil : new
        told(owner, true)
        return 0
    }
}
