import TouchModel

/// Writes `libinput record`-compatible YAML a frame at a time, so a recording that
/// is interrupted still holds every complete frame.
public struct RecordingWriter {
    private var pending: [InputEvent] = []
    private var start: Timestamp?

    public init() {}

    public static func header(for d: DeviceDescription, node: String) -> String {
        LibinputRecordFormat.header(for: d, node: node)
    }

    /// Adds an event; returns the text of a completed frame at its `SYN_REPORT`.
    public mutating func add(_ e: InputEvent) -> String? {
        if start == nil { start = e.time }
        pending.append(e)
        guard e.type == EventType.syn && e.code == SynCode.report else { return nil }
        defer { pending.removeAll(keepingCapacity: true) }
        return LibinputRecordFormat.group(pending[...], since: start!)
    }
}
