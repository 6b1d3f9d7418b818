/// How the screen is turned from the panel's own frame, as Wayland names an output's
/// transform (`WL_OUTPUT_TRANSFORM_90`: "90 degrees counter-clockwise", what the
/// compositor does to the picture to make up for the device's turn), as Mutter does
/// (`META_MONITOR_TRANSFORM_90`) and iio-sensor-proxy (`left-up` is 90): the device was
/// turned N° clockwise and the picture N° the other way to stay upright. A swipe toward
/// the panel's bottom edge is then, as the user sees it, down, left, up and right for
/// normal, 90, 180 and 270. sway names its transforms the other way round (its
/// clockwise `transform 90` is Wayland's 270; `SwayOutputSource` converts).
public enum Orientation: Int, Sendable, CaseIterable, CustomStringConvertible {
    case normal = 0
    case quarter = 90
    case half = 180
    case threeQuarters = 270

    /// `normal`, `90`, `180`, `270`: what the config, `replay --orientation` and the
    /// log say.
    public var description: String { self == .normal ? "normal" : String(rawValue) }

    /// From a word: `normal`/`0`, `90`, `180`, `270`, or iio-sensor-proxy's
    /// `left-up`, `bottom-up`, `right-up`; nil for anything else.
    public init?(name: String) {
        switch name {
        case "normal", "0": self = .normal
        case "90", "left-up": self = .quarter
        case "180", "bottom-up": self = .half
        case "270", "right-up": self = .threeQuarters
        default: return nil
        }
    }

    /// The accepted words, for messages.
    public static let names = "normal, 90, 180, 270"
}

/// An affine map from the panel's normalized coordinates (0…1 of each axis, +y down)
/// to the screen's as the user sees it, laid out as libinput's calibration matrix
/// (`LIBINPUT_CALIBRATION_MATRIX`, `a b c d e f`): x' = a·x + b·y + c, y' = d·x + e·y + f.
/// The decoder applies one per device (TouchDecoder), so every position the engine sees
/// is already on the screen.
public struct ContactTransform: Sendable, Equatable, CustomStringConvertible {
    public var a, b, c, d, e, f: Double

    public init(_ a: Double, _ b: Double, _ c: Double, _ d: Double, _ e: Double, _ f: Double) {
        (self.a, self.b, self.c, self.d, self.e, self.f) = (a, b, c, d, e, f)
    }

    public static let identity = ContactTransform(1, 0, 0, 0, 1, 0)

    public var isIdentity: Bool { self == .identity }

    /// The turn of `orientation`: the same matrices libinput's documentation gives for
    /// "90° clockwise" (`0 -1 1 1 0 0`), 180° and 270°.
    public init(_ orientation: Orientation) {
        switch orientation {
        case .normal: self = .identity
        case .quarter: self.init(0, -1, 1, 1, 0, 0)
        case .half: self.init(-1, 0, 1, 0, -1, 1)
        case .threeQuarters: self.init(0, 1, 0, -1, 0, 1)
        }
    }

    /// libinput's property text: six numbers separated by spaces. Nil for anything else,
    /// or a matrix that maps the panel onto a line (libinput refuses those too).
    public init?(calibration text: String) {
        let numbers = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).compactMap { Double($0) }
        guard numbers.count == 6, text.split(whereSeparator: { $0 == " " || $0 == "\t" }).count == 6,
              numbers.allSatisfy(\.isFinite) else { return nil }
        self.init(numbers[0], numbers[1], numbers[2], numbers[3], numbers[4], numbers[5])
        guard abs(a * e - b * d) > 1e-6 else { return nil }
    }

    @inlinable
    public func apply(_ p: Point) -> Point {
        Point(x: a * p.x + b * p.y + c, y: d * p.x + e * p.y + f)
    }

    /// `self`, then `next`.
    public func then(_ next: ContactTransform) -> ContactTransform {
        ContactTransform(next.a * a + next.b * d, next.a * b + next.b * e, next.a * c + next.b * f + next.c,
                         next.d * a + next.e * d, next.d * b + next.e * e, next.d * c + next.e * f + next.f)
    }

    /// Whether the panel's x axis runs along the screen's y axis (a quarter turn).
    public var swapsAxes: Bool { abs(b) > abs(a) }

    /// The screen's size in mm for a panel of `size`: the panel's turned. A calibration's
    /// scale (a touch layer slightly larger than the picture) does not change the glass.
    public func screenSize(of size: Size) -> Size {
        swapsAxes ? Size(width: size.height, height: size.width) : size
    }

    /// `a b c d e f`, as the udev property is written.
    public var description: String {
        [a, b, c, d, e, f].map { $0 == $0.rounded() ? String(Int($0)) : String($0) }.joined(separator: " ")
    }
}
