import TouchModel

/// How a device reports its contacts.
public enum TouchProtocol: Equatable, Sendable {
    /// Multitouch protocol B: `ABS_MT_SLOT` and tracking ids.
    case slots(Int)
    /// Multitouch protocol A (`SYN_MT_REPORT`, anonymous contacts): converted to
    /// protocol B through libmtdev, as libinput does.
    case anonymous
    /// `ABS_X`/`ABS_Y` only: one tracked position, the finger count from `BTN_TOOL_*`.
    case singleTouch
}

/// What the decoder and `list-devices` derive from a description: whether we use the
/// device, as what, and how to turn its units into millimetres.
public struct TouchCapabilities: Equatable, Sendable {
    /// Without a resolution the size is a guess. Touchpads: 69 × 50 mm, the size
    /// libinput assumes for a touchpad that reports none. Touchscreens: 294 × 165 mm,
    /// a 13.3" 16:9 panel. Both are shown as estimates in `list-devices`.
    public static let fallbackTouchpadSizeMM = Size(width: 69, height: 50)
    public static let fallbackTouchscreenSizeMM = Size(width: 294, height: 165)
    /// Slots beyond this are ignored: no hand has more fingers, and a hostile device
    /// must not make us allocate without bound.
    public static let maxSlots = 64
    /// Slots given to protocol-A devices, which have none of their own.
    public static let anonymousSlots = 10

    public var kind: DeviceKind
    public var touchProtocol: TouchProtocol
    /// The axes positions are read from (`ABS_MT_POSITION_*`, else `ABS_X/Y`).
    public var xAxis: AbsInfo
    public var yAxis: AbsInfo
    /// Units per mm actually used (the device's, or derived from the fallback size).
    public var xUnitsPerMM: Double
    public var yUnitsPerMM: Double
    public var resolutionIsEstimated: Bool
    /// Most fingers reported, from slots and `BTN_TOOL_*TAP` bits.
    public var maxFingers: Int
    public var isClickpad: Bool
    public var isSemiMT: Bool
    public var slotCount: Int {
        switch touchProtocol {
        case .slots(let n): return n
        case .anonymous: return Self.anonymousSlots
        case .singleTouch: return 1
        }
    }

    public var size: Size {
        Size(width: Double(Int64(xAxis.maximum) - Int64(xAxis.minimum)) / xUnitsPerMM,
             height: Double(Int64(yAxis.maximum) - Int64(yAxis.minimum)) / yUnitsPerMM)
    }

    public func deviceInfo(name: String) -> DeviceInfo {
        DeviceInfo(name: name, kind: kind, size: size, sizeIsEstimated: resolutionIsEstimated,
                   maxFingers: maxFingers, isClickpad: isClickpad, isSemiMT: isSemiMT)
    }

    /// Classifies a device; throws `Unsupported` with the reason it is not used.
    public init(_ d: DeviceDescription) throws(Unsupported) {
        let mt = d.hasAbs(AbsCode.mtPositionX) && d.hasAbs(AbsCode.mtPositionY)
        let st = d.hasAbs(AbsCode.x) && d.hasAbs(AbsCode.y)
        guard mt || st else { throw Unsupported("no absolute x/y axes: not a touchpad or touchscreen") }
        guard let kind = Self.kind(of: d, multitouch: mt) else {
            if d.hasKey(KeyCode.btnToolPen) || d.hasKey(KeyCode.btnStylus) {
                throw Unsupported("a pen tablet: it reports a stylus, not fingers")
            }
            throw Unsupported("absolute axes but no touch (no BTN_TOUCH or BTN_TOOL_FINGER): a joystick or similar")
        }
        self.kind = kind
        let x = d.absinfo[mt ? AbsCode.mtPositionX : AbsCode.x]!
        let y = d.absinfo[mt ? AbsCode.mtPositionY : AbsCode.y]!
        guard x.maximum > x.minimum, y.maximum > y.minimum else {
            throw Unsupported("empty axis range (x \(x.minimum)…\(x.maximum), y \(y.minimum)…\(y.maximum))")
        }
        xAxis = x
        yAxis = y
        if mt, d.hasAbs(AbsCode.mtSlot), let slot = d.absinfo[AbsCode.mtSlot] {
            let n = Int(slot.maximum) + 1
            guard n >= 1 else { throw Unsupported("ABS_MT_SLOT reports no slots (max \(slot.maximum))") }
            touchProtocol = .slots(min(n, Self.maxSlots))
        } else if mt {
            touchProtocol = .anonymous
        } else {
            touchProtocol = .singleTouch
        }
        let fallback = kind == .touchpad ? Self.fallbackTouchpadSizeMM : Self.fallbackTouchscreenSizeMM
        resolutionIsEstimated = x.resolution <= 0 || y.resolution <= 0
        xUnitsPerMM = x.resolution > 0 ? Double(x.resolution) : Double(Int64(x.maximum) - Int64(x.minimum)) / fallback.width
        yUnitsPerMM = y.resolution > 0 ? Double(y.resolution) : Double(Int64(y.maximum) - Int64(y.minimum)) / fallback.height
        var toolFingers = 0
        for code in [KeyCode.btnToolFinger, KeyCode.btnToolDoubleTap, KeyCode.btnToolTripleTap,
                     KeyCode.btnToolQuadTap, KeyCode.btnToolQuintTap] where d.hasKey(code) {
            toolFingers = max(toolFingers, KeyCode.fingers(forTool: code))
        }
        let slots: Int
        switch touchProtocol {
        case .slots(let n): slots = n
        case .anonymous: slots = Self.anonymousSlots
        case .singleTouch: slots = 1
        }
        maxFingers = max(toolFingers, slots)
        isClickpad = d.hasProperty(InputProperty.buttonpad)
        isSemiMT = d.hasProperty(InputProperty.semiMT)
    }

    /// udev's verdict first (`ID_INPUT_TOUCHSCREEN`, `ID_INPUT_TOUCHPAD`), then the
    /// device's own bits, roughly as udev's `input_id` builtin decides.
    static func kind(of d: DeviceDescription, multitouch: Bool) -> DeviceKind? {
        if d.udevProperties["ID_INPUT_TOUCHSCREEN"] == "1" { return .touchscreen }
        if d.udevProperties["ID_INPUT_TOUCHPAD"] == "1" { return .touchpad }
        let pen = d.hasKey(KeyCode.btnToolPen) || d.hasKey(KeyCode.btnStylus)
        let finger = d.hasKey(KeyCode.btnToolFinger)
        if d.hasProperty(InputProperty.direct) { return pen && !finger && !multitouch ? nil : .touchscreen }
        if finger && !pen { return .touchpad }
        if d.hasKey(KeyCode.btnTouch) && !pen && !d.hasProperty(InputProperty.pointer) { return .touchscreen }
        if multitouch && finger { return .touchpad }
        return nil
    }

    /// Why a device is not used, in words for `list-devices`.
    public struct Unsupported: Error, Equatable, CustomStringConvertible {
        public var reason: String
        public init(_ reason: String) { self.reason = reason }
        public var description: String { reason }
    }
}
