import GestureInput
import Testing
import TouchModel

/// Paths of the bundled recordings (Tests/Recordings, attribution in its MANIFEST.md).
enum Recordings {
    static let directory: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(2) // GestureInputTests/Support.swift
        return parts.joined(separator: "/") + "/Recordings"
    }()

    static func path(_ name: String) -> String { directory + "/" + name }

    static func load(_ name: String, description: String? = nil) throws -> Recording {
        try Recording.load(path: path(name), descriptionPath: description.map(path))
    }

    /// Decodes a whole recording into its frames.
    static func frames(_ name: String, description: String? = nil) throws -> [TouchFrame] {
        let r = try load(name, description: description)
        let decoder = try TouchDecoder(description: r.device)
        var out: [TouchFrame] = []
        for e in r.events where decoder.feed(e) { out.append(decoder.frame) }
        return out
    }
}

/// Finger counts of a frame sequence with repeats collapsed: [1, 3, 4, 3, 0].
func fingerProfile(_ frames: [TouchFrame]) -> [Int] {
    var out: [Int] = []
    for f in frames where out.last != f.fingerCount { out.append(f.fingerCount) }
    return out
}

/// A made-up evdev stream, written the way a kernel sends it.
struct EventScript {
    private(set) var events: [InputEvent] = []
    var time = Timestamp(microseconds: 1_000_000)

    mutating func abs(_ code: UInt16, _ value: Int32) { events.append(InputEvent(time: time, type: EventType.abs, code: code, value: value)) }
    mutating func key(_ code: UInt16, _ value: Int32) { events.append(InputEvent(time: time, type: EventType.key, code: code, value: value)) }
    mutating func syn(_ code: UInt16 = SynCode.report) { events.append(InputEvent(time: time, type: EventType.syn, code: code, value: 0)) }
    mutating func wait(ms: Int64) { time = Timestamp(microseconds: time.microseconds + ms * 1000) }

    mutating func down(slot: Int32, id: Int32, x: Int32, y: Int32) {
        abs(AbsCode.mtSlot, slot); abs(AbsCode.mtTrackingID, id); abs(AbsCode.mtPositionX, x); abs(AbsCode.mtPositionY, y)
    }
    mutating func move(slot: Int32, x: Int32, y: Int32) {
        abs(AbsCode.mtSlot, slot); abs(AbsCode.mtPositionX, x); abs(AbsCode.mtPositionY, y)
    }
    mutating func up(slot: Int32) { abs(AbsCode.mtSlot, slot); abs(AbsCode.mtTrackingID, -1) }

    func decode(_ decoder: TouchDecoder) -> [TouchFrame] {
        var out: [TouchFrame] = []
        for e in events where decoder.feed(e) { out.append(decoder.frame) }
        return out
    }
}

/// A 100 × 60 mm, 5-slot clickpad at 10 units/mm (0…1000 × 0…600).
func syntheticTouchpad(slots: Int32 = 5, resolution: Int32 = 10, tools: [UInt16] = [KeyCode.btnToolFinger, KeyCode.btnToolDoubleTap, KeyCode.btnToolTripleTap]) -> DeviceDescription {
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
