import CDesktop

/// What the rotation sources on sd-bus share (Mutter's DisplayConfig on the session
/// bus, iio-sensor-proxy on the system bus): the connection on the loop, opened again
/// after a loss on the reconnect timer, one problem line at a time (`LibraryConnection`),
/// and the outputs last reported. A subclass names itself and says, in `connected`,
/// what it matches and asks once the bus is open; it reaches itself from sd-bus's
/// callbacks through `me` and `source(_:)`.
public class BusRotationSource: RotationSource {
    public let name: String
    public var endpoint: String { link.endpoint }
    public var outputs: [OutputRotation]? { report.outputs }

    private(set) var bus: OpaquePointer?
    let link: LibraryConnection
    let report = RotationReport()
    /// Who owns the service's name: the only sender whose signals count (`BusNameOwner`).
    let serviceOwner: BusNameOwner
    /// Signals from a sender that is not who it claims to be (the service, the bus daemon).
    var ignoredSignals: Int { serviceOwner.ignored }
    /// Our own unique name on the bus (tests send us signals directly).
    private(set) var uniqueName: String?

    init(name: String, service: String, busAddress: String, retryInitial: Double, retryMaximum: Double) {
        self.name = name
        serviceOwner = BusNameOwner(service)
        link = LibraryConnection(endpoint: busAddress, retry: ReconnectTimer(initial: retryInitial, maximum: retryMaximum))
    }

    deinit { stop() }

    public func start(on loop: FocusLoop, onChange: @escaping ([OutputRotation]?) -> Void, log: @escaping (String) -> Void) {
        report.onChange = onChange
        link.connect = { [unowned self] in connect() }
        link.start(on: loop, onChange: { _ in }, log: log, prefix: "rotation from \(name)")
    }

    public func stop() {
        link.cancel()
        disconnect()
    }

    /// Adds its matches, follows `serviceOwner`, and sends its first call on the bus just
    /// opened (each answer is read by `process`, on the loop).
    func connected(_ bus: OpaquePointer) {}

    /// This source as sd-bus callbacks' userdata, and back (`source(ud)`): unretained,
    /// as the bus is closed before the source goes.
    var me: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    static func source(_ userdata: UnsafeMutableRawPointer?) -> Self {
        Unmanaged<BusRotationSource>.fromOpaque(userdata!).takeUnretainedValue() as! Self
    }

    private func connect() {
        guard let b = SessionBus.connect(link, readable: { [weak self] in self?.process() }) else { return }
        bus = b
        uniqueName = SessionBus.uniqueName(b)
        connected(b)
        process()
    }

    private func process() {
        if !SessionBus.process({ bus }, link) { disconnect() }
    }

    private func disconnect() {
        SessionBus.close(bus, link)
        bus = nil
    }
}
