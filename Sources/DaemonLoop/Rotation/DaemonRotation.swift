import DaemonCore
import GestureInput
import TouchModel

/// What the daemon does with the screen's rotation (ScreenRotation): each device that
/// follows it takes the rotation, said once per change in the log. The decoder turns
/// the positions (from the device's next touch sequence, if a finger is down), and
/// the core builds the device's engine for its size as turned, at the same frame.
package extension Daemon {
    /// A device about to be adopted: its calibration said, then the rotation it
    /// follows, which its decoder takes at once (no finger is down yet).
    package func startRotation(_ device: any TouchSource) -> ScreenRotation.Choice? {
        let d = device.decoder
        if let problem = d.calibrationProblem { logger.warning("\(device.path): \(problem)") }
        if !d.calibration.isIdentity { logger.notice("\(device.path): \(TouchDecoder.calibrationProperty) \(d.calibration) from udev") }
        let choice = rotation.choice(for: d.capabilities.deviceInfo(name: device.name))
        d.setOrientation(choice?.orientation ?? .normal)
        if let choice { logger.notice("\(device.path): screen rotation \(choice.orientation), from \(choice.source)") }
        return choice
    }

    package func followRotation(_ s: DeviceSession) {
        let d = s.device.decoder
        let choice = rotation.choice(for: d.capabilities.deviceInfo(name: s.device.name))
        guard choice != s.rotation else { return }
        s.rotation = choice
        let o = choice?.orientation ?? .normal
        d.setOrientation(o)
        core.rotation(o, device: s.path)
        carryOut(s)
        tryRun?.core.rotation(o, device: s.path)
        reportTry()
        guard let choice else { return }
        logger.notice("\(s.path): screen rotation \(choice.orientation), from \(choice.source)" + (d.fingersDown ? "; from the next touch" : ""))
    }
}
