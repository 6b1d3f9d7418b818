import JSON
import LinuxSystem

/// niri: its IPC socket (`NIRI_SOCKET`), as niri-ipc documents it: a request is one JSON
/// line, niri answers one line (`{"Ok":…}` or `{"Err":"…"}`); after `"EventStream"` it
/// answers `{"Ok":"Handled"}` and then writes one event per line, the whole state first
/// (`WindowsChanged`), then each change (`NiriWindows`).
///
/// ```
///  connect ─→ "EventStream" ─→ {"Ok":"Handled"} ─→ WindowsChanged (report) ─→ events… (report)
///                             {"Err":…}, a line that is not JSON, a line > maxLine ─→ waiting ─timer→ connect
/// ```
public final class NiriSource: FocusSource {
    public let name = "niri"
    public var endpoint: String { connection.path }
    public var connected: Bool { connection.fd != nil && focus.told }

    private let connection: StreamConnection
    private var focus = FocusReport()
    private var windows = NiriWindows()
    /// Whether niri answered the EventStream request (the events come after).
    private var streaming = false

    /// Longest line accepted: a `WindowsChanged` is ~600 bytes a window (its layout
    /// included), so 4 MiB is thousands of windows, and the most the buffer ever holds.
    public static let maxLine = 4 << 20
    /// What is read of a line: the members the focus is found by, strings no longer than a
    /// title is kept, at most 100,000 values (~8 MB) however a peer shapes it.
    static let limits = JSONValue.Limits(keys: NiriWindows.keys.union(["Ok", "Err"]),
                                         maxStringScalars: FocusedApp.maxTitleLength + 1, maxValues: 100_000)

    /// `socketPath`: `NIRI_SOCKET`. `maxLine`: smaller in tests.
    public init(socketPath: String, maxLine: Int = NiriSource.maxLine, retryInitial: Double = 0.5, retryMaximum: Double = 10) {
        connection = StreamConnection(path: socketPath, limit: maxLine, retry: ReconnectTimer(initial: retryInitial, maximum: retryMaximum))
    }

    public func start(on loop: FocusLoop, onChange: @escaping (FocusedApp?) -> Void, log: @escaping (String) -> Void) {
        focus.onChange = onChange
        connection.log = { log("niri: \($0)") }
        connection.onConnect = { [unowned self] in
            focus.reset()
            windows = NiriWindows()
            streaming = false
            connection.send(Array("\"EventStream\"\n".utf8))
            return connection.fd != nil
        }
        connection.onBytes = { [unowned self] in consume(&$0) }
        connection.start(on: loop)
    }

    public func stop() { connection.stop() }

    /// How many windows are kept.
    var windowCount: Int { windows.count }

    func consume(_ buffer: inout [UInt8]) -> String? {
        StreamConnection.takeLines(&buffer) { line in
            guard let json = JSONValue.parse(line, limits: Self.limits) else {
                return "a line that is not JSON, or more than \(Self.limits.maxValues) values of what gestured reads"
            }
            return handle(json)
        }
    }

    private func handle(_ json: JSONValue) -> String? {
        guard streaming else {
            if json["Ok"] != nil {
                streaming = true
                return nil
            }
            return "niri refused the event stream: \(String((json["Err"]?.string ?? "an answer that is neither Ok nor Err").prefix(200)))"
        }
        windows.apply(json)
        if windows.known { focus.report(windows.focused) }
        return nil
    }
}
