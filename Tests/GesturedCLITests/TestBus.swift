import CSystemd

/// A client connection to a test's private bus (`KWinFocusTests.privateBus`), started:
/// what every fake desktop service (kglobalaccel, KWin's scripting, the GNOME Shell
/// extension) registers its object and name on.
enum TestBus {
    static func client(_ address: String) -> OpaquePointer? {
        var b: OpaquePointer?
        sd_bus_new(&b)
        sd_bus_set_address(b, address)
        sd_bus_set_bus_client(b, 1)
        sd_bus_start(b)
        return b
    }
}
