/// What kind of surface a device is. Touchscreens are direct (`INPUT_PROP_DIRECT`,
/// udev `ID_INPUT_TOUCHSCREEN`): a contact's position is a place on the display.
public enum DeviceKind: String, Sendable, CaseIterable {
    case touchpad
    case touchscreen
}

/// What the engine knows of the device its frames come from.
public struct DeviceInfo: Sendable, Equatable {
    public var name: String
    public var kind: DeviceKind
    /// Physical size of the surface in millimetres.
    public var size: Size
    /// True when the device reports no resolution and `size` is an estimate.
    public var sizeIsEstimated: Bool
    /// Most fingers the device can report, from its slots and `BTN_TOOL_*TAP` bits.
    public var maxFingers: Int
    /// A clickpad (`INPUT_PROP_BUTTONPAD`): the whole surface is a button, and a
    /// thumb often rests at its bottom edge.
    public var isClickpad: Bool
    /// A semi-multitouch pad (`INPUT_PROP_SEMI_MT`): with two fingers down its two
    /// "contacts" are the corners of their bounding box, not the fingers, and each
    /// corner jumps whenever either finger moves.
    public var isSemiMT: Bool

    public init(name: String, kind: DeviceKind, size: Size, sizeIsEstimated: Bool = false,
                maxFingers: Int = 5, isClickpad: Bool = false, isSemiMT: Bool = false) {
        self.name = name
        self.kind = kind
        self.size = size
        self.sizeIsEstimated = sizeIsEstimated
        self.maxFingers = maxFingers
        self.isClickpad = isClickpad
        self.isSemiMT = isSemiMT
    }
}
