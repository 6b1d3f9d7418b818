import GestureInput
import TouchModel

/// What the daemon does with the screen's rotation (ScreenRotation): each device that
/// follows it takes the rotation, said once per change in the log.
extension Daemon {
    /// A device just adopted: its calibration said, then the rotation it follows.
    func startRotation(_ s: DeviceSession) {
        let d = s.device.decoder
        if let problem = d.calibrationProblem { logger.warning("\(s.path): \(problem)") }
        if !d.calibration.isIdentity { logger.notice("\(s.path): \(TouchDecoder.calibrationProperty) \(d.calibration) from udev") }
        followRotation(s)
    }

    /// The session's engine was built again for a new transform: it takes the daemon's
    /// state, and the event stream (the live view) gets the device as now turned (its
    /// size; an `added` line for a path it knows updates it).
    func rebuiltForRotation(_ s: DeviceSession) {
        prepare(s)
        if sessions[s.path] === s, s.announced { streamDeviceEvent(.added, s) }
    }

    func followRotation(_ s: DeviceSession) {
        let d = s.device.decoder
        let choice = rotation.choice(for: d.capabilities.deviceInfo(name: s.device.name))
        guard choice != s.rotation else { return }
        s.rotation = choice
        s.setOrientation(choice?.orientation ?? .normal)
        guard let choice else { return }
        logger.notice("\(s.path): screen rotation \(choice.orientation), from \(choice.source)" + (d.fingersDown ? "; from the next touch" : ""))
    }
}
