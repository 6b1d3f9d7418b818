import TouchModel

/// UIKit's recognizer states (`UIGestureRecognizer.State`). Continuous recognizers go
/// possible → began → changed* → ended | cancelled, discrete ones possible →
/// recognized; either may fail from possible. Every recognizer returns to possible
/// when the touch sequence is over (UIKit's `reset()`).
///
/// `waiting` is not a UIKit state but UIKit has it all the same: a recognizer that
/// would begin but must wait for another to fail (`require(toFail:)`) stays in
/// possible from the outside; we name it so `watch` can show it.
public enum RecognizerState: String, Sendable, CaseIterable, CustomStringConvertible {
    case possible, waiting, began, changed, ended, cancelled, recognized, failed

    public var description: String { rawValue }

    /// Began or changed: a continuous gesture in flight.
    @inlinable public var isActive: Bool {
        switch self {
        case .began, .changed: return true
        case .possible, .waiting, .ended, .cancelled, .recognized, .failed: return false
        }
    }
    /// Nothing more will happen until the recognizer is reset.
    public var isTerminal: Bool {
        switch self {
        case .ended, .cancelled, .recognized, .failed: return true
        case .possible, .waiting, .began, .changed: return false
        }
    }
}

/// What moves a recognizer from one state to another. The arena decides which
/// transition happens; `RecognizerState.after(_:)` says whether it is legal.
public enum Transition: String, Sendable, CaseIterable, CustomStringConvertible {
    case begin, change, end, cancel, recognize, fail, wait, reset

    public var description: String { rawValue }
}

extension RecognizerState {
    /// The state after `transition`, or nil when UIKit's machine has no such edge.
    /// One exhaustive table: every (state, transition) pair is listed.
    @inline(__always)
    public func after(_ transition: Transition) -> RecognizerState? {
        switch (self, transition) {
        case (.possible, .begin), (.waiting, .begin): return .began
        case (.possible, .recognize), (.waiting, .recognize): return .recognized
        case (.possible, .fail), (.waiting, .fail): return .failed
        case (.possible, .wait), (.waiting, .wait): return .waiting
        case (.possible, .change), (.possible, .end), (.possible, .cancel): return nil
        case (.waiting, .change), (.waiting, .end), (.waiting, .cancel): return nil
        case (.began, .change), (.changed, .change): return .changed
        case (.began, .end), (.changed, .end): return .ended
        case (.began, .cancel), (.changed, .cancel): return .cancelled
        case (.began, .begin), (.began, .recognize), (.began, .fail), (.began, .wait): return nil
        case (.changed, .begin), (.changed, .recognize), (.changed, .fail), (.changed, .wait): return nil
        case (.ended, .reset), (.cancelled, .reset), (.recognized, .reset), (.failed, .reset): return .possible
        // A sequence can be torn down with a recognizer still possible or waiting
        // (multi-tap between taps, resync): reset is legal from there too.
        case (.possible, .reset), (.waiting, .reset): return .possible
        case (.began, .reset), (.changed, .reset): return nil
        case (.ended, _), (.cancelled, _), (.recognized, _), (.failed, _): return nil
        }
    }
}
