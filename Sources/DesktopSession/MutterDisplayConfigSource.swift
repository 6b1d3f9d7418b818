import CDesktop

/// GNOME's monitors as Mutter arranges them, on the session bus
/// (`org.gnome.Mutter.DisplayConfig`, what GNOME's display settings and its
/// auto-rotation apply): every logical monitor's transform and the connectors it shows
/// on (`eDP-1`), which Mutter 43's wl_output does not name. Through sd-bus, on the loop,
/// as the GNOME focus source:
///
/// ```
///  connect ─→ match MonitorsChanged and NameOwnerChanged(org.gnome.Mutter.DisplayConfig) ─→ GetCurrentState ─→ report
///               ↑ MonitorsChanged (a monitor turned, plugged in, set up): ask again; NameOwnerChanged: gnome-shell (re)started
/// ```
///
/// MonitorsChanged counts only from the owner of the name, NameOwnerChanged only from the
/// bus daemon (`BusNameOwner`): another client's costs nothing, not even a question.
public final class MutterDisplayConfigSource: BusRotationSource {
    static let service = "org.gnome.Mutter.DisplayConfig"
    static let objectPath = "/org/gnome/Mutter/DisplayConfig"
    static let changedRule = "type='signal',sender='\(service)',path='\(objectPath)',interface='\(service)',member='MonitorsChanged'"
    /// Connectors read at most, as the other sources bound their outputs.
    static let maxOutputs = 32

    public init(busAddress: String, retryInitial: Double = 0.5, retryMaximum: Double = 10) {
        super.init(name: "mutter", service: Self.service, busAddress: busAddress, retryInitial: retryInitial, retryMaximum: retryMaximum)
    }

    override func connected(_ b: OpaquePointer) {
        gd_sd_bus_add_match_async(b, nil, Self.changedRule, { m, ud, _ in
            let source = MutterDisplayConfigSource.source(ud)
            return source.serviceOwner.sent(m) ? source.ask() : 0
        }, nil, me)
        serviceOwner.follow(on: b) { [unowned self] _, changed in if changed { ask() } }
        ask()
    }

    @discardableResult
    private func ask() -> Int32 {
        guard let b = bus else { return 0 }
        gd_bus_call(b, nil, Self.service, Self.objectPath, Self.service, "GetCurrentState",
                    { m, ud, _ in MutterDisplayConfigSource.source(ud).answered(m) }, me)
        return 0
    }

    private func answered(_ m: OpaquePointer?) -> Int32 {
        if let why = SessionBus.error(m) {
            link.say("cannot read GNOME's monitors (\(why)); is this GNOME Shell?")
            return 0
        }
        guard let m, let outputs = Self.outputs(m) else {
            link.say("GNOME's monitors (GetCurrentState) are not in the form Mutter 3.26 and later send")
            return 0
        }
        link.say(nil)
        report.report(outputs.sorted { $0.output < $1.output })
        return 0
    }

    /// GetCurrentState's reply, `(u a((ssss)a(siiddada{sv})a{sv}) a(iiduba(ssss)a{sv}) a{sv})`:
    /// the serial, the monitors (skipped), then each logical monitor's x, y, scale,
    /// transform, primary and the monitors it shows on, the first of each `(ssss)` its
    /// connector. Mutter's transforms count as wl_output's (0–3 turns, 4–7 mirrored).
    static func outputs(_ m: OpaquePointer) -> [OutputRotation]? {
        var serial: UInt32 = 0
        guard read(m, "u", &serial), gd_sd_bus_message_skip(m, "a((ssss)a(siiddada{sv})a{sv})") >= 0,
              enter(m, "a", "(iiduba(ssss)a{sv})") else { return nil }
        var found: [OutputRotation] = []
        while enter(m, "r", "iiduba(ssss)a{sv}") {
            var transform: UInt32 = 0
            guard gd_sd_bus_message_skip(m, "iid") >= 0, read(m, "u", &transform), gd_sd_bus_message_skip(m, "b") >= 0,
                  enter(m, "a", "(ssss)") else { return nil }
            while enter(m, "r", "ssss") {
                guard let connector = SessionBus.readString(m), gd_sd_bus_message_skip(m, "sss") >= 0,
                      gd_sd_bus_message_exit_container(m) >= 0 else { return nil }
                if found.count < maxOutputs {
                    found.append(OutputRotation(output: String(connector.prefix(64)), degrees: Int(transform & 3) * 90))
                }
            }
            guard gd_sd_bus_message_exit_container(m) >= 0, gd_sd_bus_message_skip(m, "a{sv}") >= 0,
                  gd_sd_bus_message_exit_container(m) >= 0 else { return nil }
        }
        return found
    }

    private static func enter(_ m: OpaquePointer, _ type: Character, _ contents: String) -> Bool {
        gd_sd_bus_message_enter_container(m, CChar(type.asciiValue!), contents) > 0
    }

    private static func read(_ m: OpaquePointer, _ type: Character, _ value: inout UInt32) -> Bool {
        gd_sd_bus_message_read_basic(m, CChar(type.asciiValue!), &value) > 0
    }
}
