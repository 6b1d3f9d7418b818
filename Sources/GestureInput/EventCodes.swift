/// The evdev codes the decoder reads, from `linux/input-event-codes.h` (a stable
/// kernel ABI). Spelled out here as `UInt16` so the hot path compares plain integers.
public enum EventType {
    public static let syn: UInt16 = 0x00
    public static let key: UInt16 = 0x01
    public static let abs: UInt16 = 0x03
    public static let msc: UInt16 = 0x04
    /// Highest event type (`EV_MAX`).
    public static let max: UInt16 = 0x1f
}

public enum SynCode {
    public static let report: UInt16 = 0
    public static let config: UInt16 = 1
    public static let mtReport: UInt16 = 2
    public static let dropped: UInt16 = 3
}

public enum AbsCode {
    public static let x: UInt16 = 0x00
    public static let y: UInt16 = 0x01
    public static let pressure: UInt16 = 0x18
    public static let mtSlot: UInt16 = 0x2f
    public static let mtTouchMajor: UInt16 = 0x30
    public static let mtPositionX: UInt16 = 0x35
    public static let mtPositionY: UInt16 = 0x36
    public static let mtToolType: UInt16 = 0x37
    public static let mtTrackingID: UInt16 = 0x39
    public static let mtPressure: UInt16 = 0x3a
    public static let max: UInt16 = 0x3f
}

public enum KeyCode {
    public static let btnLeft: UInt16 = 0x110
    public static let btnToolPen: UInt16 = 0x140
    public static let btnToolFinger: UInt16 = 0x145
    public static let btnToolQuintTap: UInt16 = 0x148
    public static let btnTouch: UInt16 = 0x14a
    public static let btnStylus: UInt16 = 0x14b
    public static let btnToolDoubleTap: UInt16 = 0x14d
    public static let btnToolTripleTap: UInt16 = 0x14e
    public static let btnToolQuadTap: UInt16 = 0x14f
    /// Highest key code (`KEY_MAX`): no event type has more codes.
    public static let max: UInt16 = 0x2ff

    /// The finger count a `BTN_TOOL_*` key stands for, or 0 for any other key.
    @inline(__always)
    public static func fingers(forTool code: UInt16) -> Int {
        switch code {
        case btnToolFinger: return 1
        case btnToolDoubleTap: return 2
        case btnToolTripleTap: return 3
        case btnToolQuadTap: return 4
        case btnToolQuintTap: return 5
        default: return 0
        }
    }
}

public enum InputProperty {
    public static let pointer: UInt16 = 0x00
    public static let direct: UInt16 = 0x01
    public static let buttonpad: UInt16 = 0x02
    public static let semiMT: UInt16 = 0x03
    public static let max: UInt16 = 0x1f
}

/// `ABS_MT_TOOL_TYPE` values.
public enum MTTool {
    public static let finger: Int32 = 0
    public static let pen: Int32 = 1
    public static let palm: Int32 = 2
}
