import TouchModel

/// CONTRACT STUB — replaced by the engine issue. The public surface the daemon,
/// replay and benchmarks call: one engine per device, frames in, events out, and the
/// next instant it needs to be woken.
public final class GestureEngine {
    public let device: DeviceInfo
    public let specs: [GestureSpec]

    /// Builds the recognizers for the specs whose device filter matches `device`.
    public init(device: DeviceInfo, specs: [GestureSpec]) {
        self.device = device
        self.specs = specs
    }

    /// Feeds one frame; appends the resulting events to `events` (the caller reuses the buffer).
    public func process(_ frame: TouchFrame, into events: inout [GestureEvent]) {}

    /// Time has reached `time` with no new frame (the caller's timer fired).
    public func advance(to time: Timestamp, into events: inout [GestureEvent]) {}

    /// Cancels everything in flight (device gone, config swapped) and resets.
    public func cancelAll(at time: Timestamp, into events: inout [GestureEvent]) {}

    /// The next instant at which `advance(to:)` must be called, or nil when idle.
    public var nextDeadline: Timestamp? { nil }

    /// Enables or disables a gesture by name at run time (UIKit's shouldBegin).
    public func setEnabled(_ enabled: Bool, name: String) {}
}
