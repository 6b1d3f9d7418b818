/// A shape's name as a `GestureEvent` carries it: up to `capacity` bytes of UTF-8 held
/// inline, so the event stays as cheap to copy and to destroy as it was with one string
/// (its gesture's name). A second `String` made every event's destroy an out-of-line
/// call and two releases: a tenth of a millisecond per 1,000 frames of the bench's
/// replay (callgrind; docs/PERFORMANCE.md). Shape names are checked against the
/// capacity where they are read: the config's `shape:` and `gestured record-shape`.
public struct ShapeName: Sendable, Equatable, CustomStringConvertible {
    /// The longest name, in UTF-8 bytes.
    public static let capacity = 31

    private var bytes: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    /// nil for a name longer than `capacity` bytes.
    public init?(_ name: String) {
        let utf8 = name.utf8
        guard utf8.count <= Self.capacity else { return nil }
        withUnsafeMutableBytes(of: &bytes) { raw in
            for (i, b) in utf8.enumerated() { raw[i] = b }
            raw[Self.capacity] = UInt8(utf8.count)
        }
    }

    public var string: String {
        withUnsafeBytes(of: bytes) { raw in
            String(decoding: UnsafeRawBufferPointer(rebasing: raw[0..<Int(raw[Self.capacity])]), as: UTF8.self)
        }
    }

    public var description: String { string }

    public static func == (a: ShapeName, b: ShapeName) -> Bool {
        a.bytes.0 == b.bytes.0 && a.bytes.1 == b.bytes.1 && a.bytes.2 == b.bytes.2 && a.bytes.3 == b.bytes.3
    }
}
