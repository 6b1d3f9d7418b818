import DaemonCore
import GestureEngine
import GestureInput
import TouchModel

/// A recording through decoder and engine on recorded time: what the daemon does
/// with a live device, with the recording's timestamps standing in for the timerfd.
package struct ReplayPipeline {
    package let recording: Recording
    package let decoder: TouchDecoder
    package let engine: GestureEngine

    /// `orientation`: the screen's rotation, as the daemon would have it from the
    /// compositor (`replay --orientation`); the recording's own udev properties give
    /// the calibration, as a live device's do.
    package init(recording: Recording, specs: [GestureSpec], orientation: Orientation = .normal,
                 profile: AccessibilityProfile = AccessibilityProfile()) throws {
        self.recording = recording
        decoder = try TouchDecoder(description: recording.device)
        decoder.setOrientation(orientation)
        engine = GestureEngine(device: decoder.deviceInfo(name: recording.device.name), specs: specs, profile: profile)
    }

    package var device: DeviceInfo { engine.device }

    /// Feeds every event; `onFrame` sees each frame, `onEvents` each batch of gesture
    /// events, in time order. The engine fires deadlines due before a frame itself, as
    /// it does in the daemon; after the last frame, pending deadlines fire too.
    package func run(onFrame: (TouchFrame) -> Void = { _ in }, onDecisions: (([ArenaDecision]) -> Void)? = nil,
             onEvents: ([GestureEvent]) -> Void) {
        var events: [GestureEvent] = []
        var trace = DecisionTrace()
        func flush() {
            if let onDecisions {
                let decisions = trace.take(from: engine)
                if !decisions.isEmpty { onDecisions(decisions) }
            }
            if !events.isEmpty { onEvents(events); events.removeAllKeepingCapacity() }
        }
        for e in recording.events where decoder.feed(e) {
            let frame = decoder.framePointer
            // What `process` would fire first anyway, flushed before the frame is shown
            // so `--frames` output stays in time order.
            engine.timerFired(at: frame.pointee.time, into: &events)
            flush()
            onFrame(frame.pointee)
            engine.process(frame, into: &events)
            flush()
        }
        // After the last frame the timer would still fire for what is pending.
        engine.timerFired(at: Timestamp(microseconds: .max), into: &events)
        flush()
    }
}

/// `replay --detect`: every kind that says what `--detect` runs (`KindTraits.detect`)
/// at every finger count, competing as the engine always does, so the output says
/// what a recording contains.
package enum DetectCatalogue {
    package static var specs: [GestureSpec] { KindTraits.detectCatalogue }
}
