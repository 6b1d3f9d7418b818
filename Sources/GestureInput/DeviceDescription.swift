import TouchModel

/// `struct input_absinfo`: an absolute axis's range, noise and resolution (units/mm).
public struct AbsInfo: Equatable, Sendable {
    public var value: Int32
    public var minimum: Int32
    public var maximum: Int32
    public var fuzz: Int32
    public var flat: Int32
    public var resolution: Int32

    public init(value: Int32 = 0, minimum: Int32, maximum: Int32, fuzz: Int32 = 0, flat: Int32 = 0, resolution: Int32 = 0) {
        self.value = value
        self.minimum = minimum
        self.maximum = maximum
        self.fuzz = fuzz
        self.flat = flat
        self.resolution = resolution
    }
}

/// `struct input_id`.
public struct InputID: Equatable, Sendable {
    public var bustype: UInt16
    public var vendor: UInt16
    public var product: UInt16
    public var version: UInt16
    public init(bustype: UInt16 = 0, vendor: UInt16 = 0, product: UInt16 = 0, version: UInt16 = 0) {
        self.bustype = bustype
        self.vendor = vendor
        self.product = product
        self.version = version
    }
}

/// Everything a device says about itself: the same whether it comes from a live
/// device (libevdev), an evemu header or a `libinput record` file.
public struct DeviceDescription: Equatable, Sendable {
    public var name: String
    public var id: InputID
    /// `INPUT_PROP_*` bits.
    public var properties: Set<UInt16>
    /// Supported codes per event type (`EV_KEY` → its keys, `EV_ABS` → its axes…).
    public var codes: [UInt16: Set<UInt16>]
    public var absinfo: [UInt16: AbsInfo]
    /// udev properties where known (`ID_INPUT_TOUCHPAD=1` …); empty without udev.
    public var udevProperties: [String: String]

    public init(name: String, id: InputID = InputID(), properties: Set<UInt16> = [],
                codes: [UInt16: Set<UInt16>] = [:], absinfo: [UInt16: AbsInfo] = [:],
                udevProperties: [String: String] = [:]) {
        self.name = name
        self.id = id
        self.properties = properties
        self.codes = codes
        self.absinfo = absinfo
        self.udevProperties = udevProperties
    }

    public func has(_ type: UInt16, _ code: UInt16) -> Bool { codes[type]?.contains(code) ?? false }
    public func hasKey(_ code: UInt16) -> Bool { has(EventType.key, code) }
    public func hasAbs(_ code: UInt16) -> Bool { has(EventType.abs, code) && absinfo[code] != nil }
    public func hasProperty(_ p: UInt16) -> Bool { properties.contains(p) }

    /// The `EV_ABS` codes the decoder accepts from this device, bit n for code n: the
    /// declared ones with an absinfo, up to `AbsCode.max`.
    public var acceptedAbsMask: UInt64 {
        absinfo.keys.reduce(0) { mask, code in code <= AbsCode.max && has(EventType.abs, code) ? mask | (1 << UInt64(code)) : mask }
    }

    /// The `EV_KEY` codes the decoder accepts, bit n % 64 of word n / 64: the declared
    /// ones up to `KeyCode.max`.
    public var acceptedKeyWords: [UInt64] {
        var words = [UInt64](repeating: 0, count: Int(KeyCode.max) / 64 + 1)
        for code in codes[EventType.key] ?? [] where code <= KeyCode.max { words[Int(code) >> 6] |= 1 << UInt64(code & 63) }
        return words
    }
}
