import CDesktop

/// iio-sensor-proxy's accelerometer on the system bus (`net.hadess.SensorProxy`), for a
/// desktop that does not say how its screen is turned (`rotation: sensor: true`).
/// Through sd-bus, on the loop, as the GNOME and KWin sources:
///
/// ```
///  connect ─→ match PropertiesChanged on its object and NameOwnerChanged(net.hadess.SensorProxy)
///          ─→ ClaimAccelerometer ─→ Get(AccelerometerOrientation) ─→ normal, left-up, bottom-up, right-up
///               ↑ NameOwnerChanged: the proxy (re)started       ↑ PropertiesChanged: ask again
/// ```
///
/// The proxy reads the sensor only while someone holds a claim, and drops the claim
/// when its holder leaves the bus: the claim lives as long as the connection.
/// `undefined` (no sensor, or the device lies flat) tells nothing: the last turn stays.
/// PropertiesChanged counts only from the proxy's connection, NameOwnerChanged only from
/// the bus daemon (`BusNameOwner`).
public final class SensorProxySource: BusRotationSource {
    static let service = "net.hadess.SensorProxy"
    static let objectPath = "/net/hadess/SensorProxy"
    static let propertiesRule = "type='signal',sender='\(service)',path='\(objectPath)',"
        + "interface='org.freedesktop.DBus.Properties',member='PropertiesChanged'"

    /// The system bus: `DBUS_SYSTEM_BUS_ADDRESS`, else its standard socket.
    public static func systemBus(_ env: [String: String]) -> String {
        if let a = env["DBUS_SYSTEM_BUS_ADDRESS"], !a.isEmpty { return a }
        return "unix:path=/run/dbus/system_bus_socket"
    }

    public init(busAddress: String, retryInitial: Double = 0.5, retryMaximum: Double = 10) {
        super.init(name: "iio-sensor-proxy", service: Self.service, busAddress: busAddress, retryInitial: retryInitial, retryMaximum: retryMaximum)
    }

    override func connected(_ b: OpaquePointer) {
        gd_sd_bus_add_match_async(b, nil, Self.propertiesRule, { m, ud, _ in
            let source = SensorProxySource.source(ud)
            return source.serviceOwner.sent(m) ? source.askOrientation() : 0
        }, nil, me)
        serviceOwner.follow(on: b) { [unowned self] owner, changed in if changed { ownerChanged(owner) } }
        claim()
    }

    private func claim() {
        guard let b = bus else { return }
        gd_bus_call(b, nil, Self.service, Self.objectPath, Self.service, "ClaimAccelerometer",
                    { m, ud, _ in SensorProxySource.source(ud).claimed(m) }, me)
    }

    private func claimed(_ m: OpaquePointer?) -> Int32 {
        if let why = SessionBus.error(m) {
            link.say("cannot claim the accelerometer (\(why)); is iio-sensor-proxy installed and running?")
            return 0
        }
        return askOrientation()
    }

    @discardableResult
    private func askOrientation() -> Int32 {
        guard let b = bus else { return 0 }
        gd_bus_call_ss(b, nil, Self.service, Self.objectPath, "org.freedesktop.DBus.Properties", "Get",
                       { m, ud, _ in SensorProxySource.source(ud).answered(m) }, me, Self.service, "AccelerometerOrientation")
        return 0
    }

    /// Get's reply: a variant holding the orientation's word.
    private func answered(_ m: OpaquePointer?) -> Int32 {
        guard let m, SessionBus.error(m) == nil, gd_sd_bus_message_enter_container(m, CChar(UInt8(ascii: "v")), "s") > 0,
              let word = SessionBus.readString(m) else { return 0 }
        guard let degrees = Self.degrees(word) else {
            link.say("the accelerometer says '\(word.prefix(40))' (no sensor, or the device lies flat); keeping the last rotation")
            return 0
        }
        link.say(nil)
        report.report([OutputRotation(output: "", degrees: degrees)])
        return 0
    }

    /// iio-sensor-proxy's words, as GNOME maps them to its monitor transforms.
    static func degrees(_ word: String) -> Int? {
        switch word {
        case "normal": return 0
        case "left-up": return 90
        case "bottom-up": return 180
        case "right-up": return 270
        default: return nil
        }
    }

    private func ownerChanged(_ owner: String?) {
        if owner == nil {
            link.say("iio-sensor-proxy left the system bus; keeping the last rotation")
        } else {
            link.log("iio-sensor-proxy (re)started; claiming the accelerometer")
            claim()
        }
    }
}
