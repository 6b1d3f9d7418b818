import CDesktop
import Glibc

/// An X server's outputs through RandR (libxcb-randr, loaded when this source connects):
/// each lit output's CRTC has a rotation, and the server sends RRScreenChangeNotify and
/// RRNotify (CRTC or output changed) whenever one is turned, set to another mode, lit or
/// put out (`xrandr --output eDP-1 --rotate left`, a desktop's display settings, a
/// rotation daemon). Every request's reply is collected when the socket is readable
/// (`xcb_poll_for_reply`), in the order asked, so the loop never waits on the server,
/// except for its greeting and RandR's opcode once per connection.
///
/// ```
///  connect ─→ QueryVersion 1.5, SelectInput(screen, CRTC, output changes) ─→ reading ─→ idle
///  reading: GetScreenResourcesCurrent ─→ GetOutputInfo of each output ─→ GetCrtcInfo of each lit one ─→ report
///             ↑ RRScreenChangeNotify, RRNotify (a change during a read is read again after it)
/// ```
public final class RandROutputSource: RotationSource {
    public let name = "randr"
    public var endpoint: String { link.endpoint }
    public var outputs: [OutputRotation]? { report.outputs }

    private var connection: OpaquePointer?
    private var root: xcb_window_t = 0
    /// RandR's first event number on this connection: its ScreenChangeNotify; RRNotify is the next.
    private var firstEvent: UInt8 = 0
    /// Replies awaited, in the order asked: X answers in order.
    private var pending: [(sequence: UInt32, handle: (UnsafeMutableRawPointer?) -> Void)] = []
    private var reading = false
    /// The outputs changed while a read was under way: read them again after.
    private var changedMeanwhile = false
    private let link: LibraryConnection
    private let report = RotationReport()

    /// The version whose events name CRTCs and outputs (RandR 1.2) and whose
    /// GetScreenResourcesCurrent does not probe the hardware (1.3); 1.5 is Xorg's own.
    static let version: (major: UInt32, minor: UInt32) = (1, 5)
    /// Outputs read at most: more than any desk has (a docked laptop has a dozen
    /// connectors), few enough that a server listing thousands costs nothing.
    static let maxOutputs = 32

    public init(display: String, retryInitial: Double = 0.5, retryMaximum: Double = 10) {
        link = LibraryConnection(endpoint: display, retry: ReconnectTimer(initial: retryInitial, maximum: retryMaximum))
    }

    deinit { stop() }

    public func start(on loop: FocusLoop, onChange: @escaping ([OutputRotation]?) -> Void, log: @escaping (String) -> Void) {
        report.onChange = onChange
        link.connect = { [unowned self] in connect() }
        link.start(on: loop, onChange: { _ in }, log: log, prefix: "rotation from randr")
    }

    public func stop() {
        link.cancel()
        disconnect()
    }

    private func connect() {
        let (opened, why) = EWMHClient.open(endpoint)
        guard let (c, root) = opened else { return link.failed(why ?? "cannot connect to the X server \(endpoint)") }
        if let why = gd_load_xcb_randr() {
            gd_xcb_disconnect(c)
            return link.failed("cannot load libxcb-randr (Debian: libxcb-randr0): \(String(cString: why))")
        }
        let first = gd_xcb_randr_first_event(c)
        guard first >= 0 else {
            gd_xcb_disconnect(c)
            return link.failed("the X server \(endpoint) has no RandR extension")
        }
        self.root = root
        firstEvent = UInt8(first)
        connection = c
        ask(gd_xcb_randr_query_version(c, Self.version.major, Self.version.minor).sequence) { _ in }
        let changes = XCB_RANDR_NOTIFY_MASK_SCREEN_CHANGE.rawValue | XCB_RANDR_NOTIFY_MASK_CRTC_CHANGE.rawValue
            | XCB_RANDR_NOTIFY_MASK_OUTPUT_CHANGE.rawValue
        gd_xcb_randr_select_input(c, root, UInt16(changes))
        read()
        if !link.opened(gd_xcb_get_file_descriptor(c), readable: { [weak self] in self?.readable() }) { disconnect() }
    }

    private func readable() {
        guard let c = connection else { return }
        var progress = true
        while progress, connection != nil {
            progress = false
            while let event = gd_xcb_poll_for_event(c) {
                progress = true
                let type = event.pointee.response_type & 0x7f
                free(event)
                if type == firstEvent &+ UInt8(XCB_RANDR_SCREEN_CHANGE_NOTIFY) || type == firstEvent &+ UInt8(XCB_RANDR_NOTIFY) { read() }
            }
            while let first = pending.first {
                var reply: UnsafeMutableRawPointer?
                var error: UnsafeMutablePointer<xcb_generic_error_t>?
                guard gd_xcb_poll_for_reply(c, first.sequence, &reply, &error) != 0 else { break }
                progress = true
                pending.removeFirst()
                first.handle(error == nil ? reply : nil)
                free(reply)
                free(error)
            }
        }
        if gd_xcb_connection_has_error(c) != 0 {
            disconnect()
            link.lost("lost the X server \(endpoint)")
        }
    }

    private func ask(_ sequence: UInt32, _ handle: @escaping (UnsafeMutableRawPointer?) -> Void) {
        pending.append((sequence, handle))
    }

    // MARK: Reading the outputs

    /// One output as GetOutputInfo tells it: its name and the CRTC that lights it (0: none).
    private struct Lit {
        var name: String
        var crtc: xcb_randr_crtc_t
    }

    private func read() {
        guard let c = connection else { return }
        guard !reading else { return changedMeanwhile = true }
        reading = true
        changedMeanwhile = false
        ask(gd_xcb_randr_get_screen_resources_current(c, root).sequence) { [unowned self] reply in
            guard let reply else { return finish([]) }
            let r = UnsafePointer(reply.assumingMemoryBound(to: xcb_randr_get_screen_resources_current_reply_t.self))
            let count = min(Int(gd_xcb_randr_get_screen_resources_current_outputs_length(r)), Self.maxOutputs)
            let ids = count > 0 ? Array(UnsafeBufferPointer(start: gd_xcb_randr_get_screen_resources_current_outputs(r), count: count)) : []
            readOutputs(ids, at: r.pointee.config_timestamp)
        }
        gd_xcb_flush(c)
    }

    /// GetOutputInfo of every output at once; after the last answer (X answers in
    /// order), the CRTCs of those lit.
    private func readOutputs(_ ids: [xcb_randr_output_t], at timestamp: xcb_timestamp_t) {
        guard let c = connection, !ids.isEmpty else { return finish([]) }
        var lit: [Lit] = []
        for (i, id) in ids.enumerated() {
            ask(gd_xcb_randr_get_output_info(c, id, timestamp).sequence) { [unowned self] reply in
                if let reply {
                    let r = UnsafePointer(reply.assumingMemoryBound(to: xcb_randr_get_output_info_reply_t.self))
                    let n = Int(gd_xcb_randr_get_output_info_name_length(r))
                    let bytes = n > 0 ? Array(UnsafeBufferPointer(start: gd_xcb_randr_get_output_info_name(r), count: min(n, 64))) : []
                    if r.pointee.crtc != 0 { lit.append(Lit(name: String(decoding: bytes, as: UTF8.self), crtc: r.pointee.crtc)) }
                }
                if i == ids.count - 1 { readCrtcs(lit, at: timestamp) }
            }
        }
        gd_xcb_flush(c)
    }

    private func readCrtcs(_ lit: [Lit], at timestamp: xcb_timestamp_t) {
        guard let c = connection, !lit.isEmpty else { return finish([]) }
        var found: [OutputRotation] = []
        for (i, output) in lit.enumerated() {
            ask(gd_xcb_randr_get_crtc_info(c, output.crtc, timestamp).sequence) { [unowned self] reply in
                if let rotation = reply?.assumingMemoryBound(to: xcb_randr_get_crtc_info_reply_t.self).pointee.rotation {
                    found.append(OutputRotation(output: output.name, degrees: Self.degrees(ofRandRRotation: rotation)))
                }
                if i == lit.count - 1 { finish(found) }
            }
        }
        gd_xcb_flush(c)
    }

    private func finish(_ found: [OutputRotation]) {
        reading = false
        if changedMeanwhile { return read() }
        report.report(found.sorted { $0.output < $1.output })
    }

    /// A CRTC's rotation: one of RR_Rotate_0, _90, _180, _270 (bits 0–3), each a turn of
    /// the picture counter-clockwise as wl_output counts (`xrandr --rotate left` is
    /// RR_Rotate_90), with the reflections (bits 4, 5) beside it, which count as their turn.
    package static func degrees(ofRandRRotation rotation: UInt16) -> Int {
        switch rotation & 0xf {
        case UInt16(XCB_RANDR_ROTATION_ROTATE_90.rawValue): return 90
        case UInt16(XCB_RANDR_ROTATION_ROTATE_180.rawValue): return 180
        case UInt16(XCB_RANDR_ROTATION_ROTATE_270.rawValue): return 270
        default: return 0
        }
    }

    private func disconnect() {
        link.closed()
        if let c = connection { gd_xcb_disconnect(c) }
        connection = nil
        pending = []
        reading = false
        changedMeanwhile = false
    }
}
