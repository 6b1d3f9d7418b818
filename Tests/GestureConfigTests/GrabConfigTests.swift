import Testing
@testable import GestureConfig
import TouchModel

/// `grab:`: which devices gestured takes for itself, by kind and by name.
@Suite struct GrabConfigTests {
    static let pad = DeviceInfo(name: "SynPS/2 Synaptics TouchPad", kind: .touchpad, size: Size(width: 100, height: 60))
    static let screen = DeviceInfo(name: "ELAN9008:00 04F3:2C82", kind: .touchscreen, size: Size(width: 300, height: 200))

    @Test func noGrabByDefault() throws {
        let c = try #require(parse("gestures: []"))
        #expect(c.grab.isEmpty)
        #expect(!c.grab.matches(Self.pad) && !c.grab.matches(Self.screen))
    }

    @Test func kindsAndNames() throws {
        let c = try #require(parse("grab:\n  devices: touchscreen\n  device-names: ['*Synaptics*']\n"))
        #expect(c.grab.kinds == [.touchscreen])
        #expect(c.grab.matches(Self.screen) && c.grab.matches(Self.pad))
        let kindsOnly = try #require(parse("grab: {devices: [touchpad]}"))
        #expect(kindsOnly.grab.matches(Self.pad) && !kindsOnly.grab.matches(Self.screen))
        let nameOnly = try #require(parse("grab: {device-names: 'ELAN*'}"))
        #expect(nameOnly.grab.matches(Self.screen) && !nameOnly.grab.matches(Self.pad))
    }

    @Test func mistakesNameTheirPlace() {
        #expect(check("grab:\n  devices: [touchscren]\n") == ["config.yaml:2:13: error: unknown device kind 'touchscren', expected one of: touchpad, touchscreen; did you mean 'touchscreen'?"])
        #expect(check("grab:\n  device: touchpad\n").first?.hasPrefix("config.yaml:2:3: error: unknown key 'device' in grab") == true)
        #expect(check("grab:\n  device-names: []\n").first?.contains("'device-names' is an empty list; give a device name or glob") == true)
        #expect(check("grab:\n  hold-back: 150ms\n") == ["config.yaml:2:14: error: 'hold-back' must be at most 0.1s, found '150ms'"])
        #expect(check("grab: touchpad\n").first?.hasPrefix("config.yaml:1:7: error: expected a mapping of keys for grab") == true)
    }
}
