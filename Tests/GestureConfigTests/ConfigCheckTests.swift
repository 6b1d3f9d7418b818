import Testing
@testable import GestureConfig
import TouchModel

@Suite struct ConfigCheckTests {
    @Test func deviceWarnings() throws {
        let config = try #require(parse("""
            gestures:
              - {name: far, gesture: swipe, fingers: 5, min-distance: 120mm, command: x}
              - {name: edge, gesture: edgepan, edge-zone: 40mm, begin: x}
              - {name: wacom-only, gesture: tap, device-name: "Wacom*", fingers: 5, command: x}
            """))
        let pad = DeviceInfo(name: "SynPS/2 Synaptics TouchPad", kind: .touchpad, size: Size(width: 100, height: 60), maxFingers: 3)
        #expect(ConfigCheck.warnings(for: config, device: pad) == [
            "gesture 'far' on 'SynPS/2 Synaptics TouchPad': needs 5 fingers, the device reports at most 3; it can never fire there",
            "gesture 'far' on 'SynPS/2 Synaptics TouchPad': min-distance 120mm is longer than the device (100 × 60 mm); it can never fire there",
        ])
        let screen = DeviceInfo(name: "Wacom ISDv4 E6 Finger", kind: .touchscreen, size: Size(width: 260, height: 70), maxFingers: 2)
        #expect(ConfigCheck.warnings(for: config, device: screen) == [
            "gesture 'far' on 'Wacom ISDv4 E6 Finger': needs 5 fingers, the device reports at most 2; it can never fire there",
            "gesture 'edge' on 'Wacom ISDv4 E6 Finger': edge-zone 40mm covers more than half of the screen",
            "gesture 'wacom-only' on 'Wacom ISDv4 E6 Finger': needs 5 fingers, the device reports at most 2; it can never fire there",
        ])
    }
}
