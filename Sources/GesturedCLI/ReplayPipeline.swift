import GestureEngine
import GestureInput
import TouchModel

/// A recording through decoder and engine on recorded time: what the daemon does
/// with a live device, with the recording's timestamps standing in for the timerfd.
struct ReplayPipeline {
    let recording: Recording
    let decoder: TouchDecoder
    let engine: GestureEngine

    init(recording: Recording, specs: [GestureSpec]) throws {
        self.recording = recording
        decoder = try TouchDecoder(description: recording.device)
        engine = GestureEngine(device: decoder.capabilities.deviceInfo(name: recording.device.name), specs: specs)
    }

    var device: DeviceInfo { engine.device }

    /// Feeds every event; `onFrame` sees each frame, `onEvents` each batch of gesture
    /// events, in time order. Deadlines due before a frame fire before it, as the
    /// daemon's timer would; after the last frame, pending deadlines fire too.
    func run(onFrame: (TouchFrame) -> Void = { _ in }, onDecisions: (([ArenaDecision]) -> Void)? = nil,
             onEvents: ([GestureEvent]) -> Void) {
        var events: [GestureEvent] = []
        var trace = DecisionTrace()
        func flush() {
            if let onDecisions {
                let decisions = trace.take(from: engine)
                if !decisions.isEmpty { onDecisions(decisions) }
            }
            if !events.isEmpty { onEvents(events); events.removeAll(keepingCapacity: true) }
        }
        func fireDeadlines(upTo limit: Timestamp?) {
            // Bounded: an engine asking for the same instant again must not spin us.
            for _ in 0..<1000 {
                guard let d = engine.nextDeadline, limit == nil || d <= limit! else { return }
                engine.advance(to: d, into: &events)
                flush()
                if let again = engine.nextDeadline, again <= d { return }
            }
        }
        for e in recording.events where decoder.feed(e) {
            let frame = decoder.frame
            fireDeadlines(upTo: frame.time)
            onFrame(frame)
            engine.process(frame, into: &events)
            flush()
        }
        fireDeadlines(upTo: nil)
    }
}
