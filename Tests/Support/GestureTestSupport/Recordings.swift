import GestureInput
import TouchModel

/// Paths of the bundled recordings (Tests/Recordings, attribution in its MANIFEST.md).
public enum Recordings {
    public static let directory: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3) // Support/GestureTestSupport/Recordings.swift
        return parts.joined(separator: "/") + "/Recordings"
    }()

    /// Every bundled recording, with the description file it needs (nil: header inside).
    public static let all: [(name: String, description: String?)] = [
        ("data_bcm5974.event", nil),
        ("python_evemu_tests_data_ntrig-xt2_ntrig-xt2-2-tap.event", "python_evemu_tests_data_ntrig-xt2_ntrig-xt2.device"),
        ("recordings_touchpads_SynPS2-Synaptics-TouchPad-Clickpad.two-finger-scroll-down.events", "recordings_touchpads_SynPS2-Synaptics-TouchPad-Clickpad.desc"),
        ("recordings_touchpads_SynPS2-Synaptics-TouchPad-Clickpad.two-finger-scroll-up.events", "recordings_touchpads_SynPS2-Synaptics-TouchPad-Clickpad.desc"),
        ("recordings_touchpads_SynPS2-Synaptics-TouchPad-two-finger-scroll-down.events", "recordings_touchpads_SynPS2-Synaptics-TouchPad.desc"),
        ("tablets_Wacom_Bamboo_16FG_4x5_Finger_double-center-scroll.events", "tablets_Wacom_Bamboo_16FG_4x5_Finger.desc"),
        ("tablets_Wacom_Bamboo_16FG_4x5_Finger_double-tap.events", "tablets_Wacom_Bamboo_16FG_4x5_Finger.desc"),
        ("tablets_Wacom_ISDv4_E6_Finger.2fg-tap.events", "tablets_Wacom_ISDv4_E6_Finger.desc"),
        ("tablets_Wacom_ISDv4_E6_Finger.double-center-scroll.events", "tablets_Wacom_ISDv4_E6_Finger.desc"),
        ("touchpads_AlpsPS2_ALPS_GlidePoint.2-finger-tap.events", nil),
        ("touchpads_AlpsPS2_ALPS_GlidePoint.double-tap.events", nil),
        ("touchpads_CyPS2_Cypress_Trackpad.three_finger_tap.events", nil),
        ("touchscreens_Atmel_maXTouch_Touchscreen.1-finger-drag-up-down.events", nil),
        ("touchscreens_Atmel_maXTouch_Touchscreen.1-finger-fast-taps.events", nil),
        ("touchscreens_Atmel_maXTouch_Touchscreen.2-fingers-touch-release.events", nil),
        ("touchscreens_Atmel_maXTouch_Touchscreen.4-finger-drag-down.events", nil),
    ]

    /// The repository's top directory.
    public static var repository: String {
        var parts = directory.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(2)
        return parts.joined(separator: "/")
    }

    public static func path(_ name: String) -> String { directory + "/" + name }

    public static func load(_ name: String, description: String? = nil) throws -> Recording {
        try Recording.load(path: path(name), descriptionPath: description.map(path))
    }

    /// Decodes a whole recording into its frames.
    public static func frames(_ name: String, description: String? = nil) throws -> [TouchFrame] {
        try framesOf(load(name, description: description))
    }

    public static func framesOf(_ r: Recording) throws -> [TouchFrame] {
        let decoder = try TouchDecoder(description: r.device)
        var out: [TouchFrame] = []
        for e in r.events where decoder.feed(e) { out.append(decoder.frame) }
        return out
    }
}

/// Finger counts of a frame sequence with repeats collapsed: [1, 3, 4, 3, 0].
public func fingerProfile(_ frames: [TouchFrame]) -> [Int] {
    var out: [Int] = []
    for f in frames where out.last != f.fingerCount { out.append(f.fingerCount) }
    return out
}

/// A made-up evdev stream, written the way a kernel sends it.
public struct EventScript {
    public private(set) var events: [InputEvent] = []
    public var time = Timestamp(microseconds: 1_000_000)

    public init() {}

    public mutating func abs(_ code: UInt16, _ value: Int32) { events.append(InputEvent(time: time, type: EventType.abs, code: code, value: value)) }
    public mutating func key(_ code: UInt16, _ value: Int32) { events.append(InputEvent(time: time, type: EventType.key, code: code, value: value)) }
    public mutating func syn(_ code: UInt16 = SynCode.report) { events.append(InputEvent(time: time, type: EventType.syn, code: code, value: 0)) }
    public mutating func wait(ms: Int64) { time = Timestamp(microseconds: time.microseconds + ms * 1000) }

    public mutating func down(slot: Int32, id: Int32, x: Int32, y: Int32) {
        abs(AbsCode.mtSlot, slot); abs(AbsCode.mtTrackingID, id); abs(AbsCode.mtPositionX, x); abs(AbsCode.mtPositionY, y)
    }
    public mutating func move(slot: Int32, x: Int32, y: Int32) {
        abs(AbsCode.mtSlot, slot); abs(AbsCode.mtPositionX, x); abs(AbsCode.mtPositionY, y)
    }
    public mutating func up(slot: Int32) { abs(AbsCode.mtSlot, slot); abs(AbsCode.mtTrackingID, -1) }

    public func decode(_ decoder: TouchDecoder) -> [TouchFrame] {
        var out: [TouchFrame] = []
        for e in events where decoder.feed(e) { out.append(decoder.frame) }
        return out
    }
}

/// A 100 × 60 mm, 5-slot clickpad at 10 units/mm (0…1000 × 0…600).
public func syntheticTouchpad(slots: Int32 = 5, resolution: Int32 = 10, tools: [UInt16] = [KeyCode.btnToolFinger, KeyCode.btnToolDoubleTap, KeyCode.btnToolTripleTap]) -> DeviceDescription {
    var keys: Set<UInt16> = [KeyCode.btnLeft, KeyCode.btnTouch]
    keys.formUnion(tools)
    return DeviceDescription(
        name: "Synthetic Touchpad", properties: [InputProperty.pointer, InputProperty.buttonpad],
        codes: [EventType.syn: [0], EventType.key: keys,
                EventType.abs: [AbsCode.x, AbsCode.y, AbsCode.mtSlot, AbsCode.mtPositionX, AbsCode.mtPositionY, AbsCode.mtTrackingID, AbsCode.mtToolType]],
        absinfo: [AbsCode.x: AbsInfo(minimum: 0, maximum: 1000, resolution: resolution),
                  AbsCode.y: AbsInfo(minimum: 0, maximum: 600, resolution: resolution),
                  AbsCode.mtSlot: AbsInfo(minimum: 0, maximum: slots - 1),
                  AbsCode.mtPositionX: AbsInfo(minimum: 0, maximum: 1000, resolution: resolution),
                  AbsCode.mtPositionY: AbsInfo(minimum: 0, maximum: 600, resolution: resolution),
                  AbsCode.mtTrackingID: AbsInfo(minimum: 0, maximum: 65535),
                  AbsCode.mtToolType: AbsInfo(minimum: 0, maximum: 2)])
}
