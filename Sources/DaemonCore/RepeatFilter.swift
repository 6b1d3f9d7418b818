import GestureEngine
import TouchModel

/// `settings: accessibility: ignore-repeats:` (iOS Touch Accommodations' Ignore
/// Repeat): a binding acts once within the window, however often its gesture is
/// recognized. A recognition or a beginning of the binding less than `window` after
/// the binding's last event that acted is a repeat: dropped, with its continuous
/// gesture's updates and end (they never began). The window runs from the gesture
/// events' kernel timestamps (no clock is read), and across devices: one action per
/// binding. A continuous gesture's own updates and end are not repeats; they extend
/// the window, so a shaky rotation that ends and starts again at once acts once.
///
/// Other bindings are not affected. A window of 0 drops nothing.
public struct RepeatFilter {
    /// Seconds; 0: off.
    public let window: Double
    /// When each binding (by index) last acted, if it has.
    private var lastActed: [Timestamp?]
    /// Continuous gestures whose beginning was dropped, by binding index and device:
    /// their updates and end are dropped too.
    private var dropped: Set<BindingOnDevice> = []

    /// A repeat that was dropped, and why, for the log and the event stream.
    public struct Ignored: Equatable, Sendable {
        public var gesture: String
        /// Since the binding last acted, s.
        public var since: Double
        public var window: Double

        /// "ignored: repeat of NAME within 500ms (accessibility: ignore-repeats)"
        public var message: String {
            "ignored: repeat of \(gesture) within \(Self.milliseconds(window)) (accessibility: ignore-repeats)"
        }

        static func milliseconds(_ s: Double) -> String { "\(ActionMapper.wholeSteps((s * 1000).rounded()))ms" }
    }

    public init(window: Double, bindings: Int) {
        self.window = window
        lastActed = Array(repeating: nil, count: window > 0 ? bindings : 0)
    }

    /// Whether `event` (of binding `index`, on `device`) acts. `ignored` is set when it
    /// is a repeat that begins or is recognized (said once; its updates and end are
    /// dropped silently).
    public mutating func admits(_ event: GestureEvent, device: String, ignored: inout Ignored?) -> Bool {
        guard window > 0, lastActed.indices.contains(event.index) else { return true }
        let key = BindingOnDevice(index: event.index, device: device)
        switch event.phase {
        case .recognized, .began:
            if let last = lastActed[event.index], event.time.seconds(since: last) < window {
                ignored = Ignored(gesture: event.name, since: event.time.seconds(since: last), window: window)
                if event.phase == .began { dropped.insert(key) }
                return false
            }
        case .changed, .ended, .cancelled:
            if !dropped.isEmpty, dropped.contains(key) {
                if event.phase != .changed { dropped.remove(key) }
                return false
            }
        }
        lastActed[event.index] = event.time
        return true
    }
}

/// A binding (by index) on one device (by name; "" for none): the key of what the
/// action layer keeps per gesture in progress, as a continuous gesture's events come
/// per device (`ActionMapper`'s step anchors, `RepeatFilter`'s dropped beginnings).
struct BindingOnDevice: Hashable {
    var index: Int
    var device: String
}
