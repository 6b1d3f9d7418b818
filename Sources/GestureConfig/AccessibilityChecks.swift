import GestureEngine

/// What `gestured check` says about `settings: accessibility:` against the gestures
/// (warnings: the config still loads). A time threshold a gesture sets itself is taken
/// as written, not scaled by `timing-scale` (the user chose it; `EngineTiming`), so
/// each one is named where it is written; and a `hold-to-accept` longer than a gap a
/// gesture must cross in time makes that gesture impossible.
extension ConfigParser {
    /// The per-gesture time keys `timing-scale` does not scale, and whether the key is
    /// a speed (divided by the scale) rather than a time (multiplied).
    static let unscaledKeys: [(GestureKey, isSpeed: Bool)] = [
        (.maxDuration, false), (.maxInterval, false), (.minDuration, false), (.within, false), (.minVelocity, true),
    ]

    mutating func checkAccessibility() {
        let profile = settings.accessibility
        for d in drafts where d.valid {
            if profile.timingScale != 1 { noteOverrides(d, scale: profile.timingScale) }
            if profile.holdToAccept > 0 { noteUnreachable(d, hold: profile) }
        }
    }

    /// "max-duration: 200ms overrides settings.accessibility.timing-scale (2.5x would make it 500ms)"
    private mutating func noteOverrides(_ d: Draft, scale: Double) {
        for (key, isSpeed) in Self.unscaledKeys {
            guard let mark = d.marks[key], let value = value(of: key, in: d) else { continue }
            let written = isSpeed ? Self.speed(value) : Self.duration(value)
            let scaled = isSpeed ? Self.speed(value / scale) : Self.duration(value * scale)
            log.warning(mark, "\(key.rawValue): \(written) overrides settings.accessibility.timing-scale (\(format(scale))x would make it \(scaled))")
        }
    }

    /// A touch counts only once it has rested `hold-to-accept`: a multi-tap's next tap,
    /// or a sequenced gesture's touch, is accepted that long after it lands, and too late
    /// when the gap it must cross is shorter.
    private mutating func noteUnreachable(_ d: Draft, hold profile: AccessibilityProfile) {
        let hold = profile.holdToAccept
        let kind = d.spec.kind
        if d.spec.taps > 1, kind.traits.parameters.contains(.maxInterval) {
            let interval = profile.maxTapInterval(own: d.spec.thresholds.maxTapInterval)
            if hold > interval {
                log.warning(d.marks[.maxInterval] ?? d.marks[.taps] ?? d.mark,
                            "gesture '\(d.spec.name)' can never fire: settings.accessibility.hold-to-accept (\(Self.duration(hold))) is longer than the \(Self.duration(interval)) its next tap may start after the last (max-interval), and a tap counts only once it has rested")
            }
        }
        if let after = d.spec.after {
            let window = d.within ?? settings.sequenceWindow
            if hold > window {
                log.warning(d.marks[.within] ?? d.marks[.after] ?? d.mark,
                            "gesture '\(d.spec.name)' can follow '\(after)' only while that one still runs: settings.accessibility.hold-to-accept (\(Self.duration(hold))) is longer than its \(Self.duration(window)) sequence window, and its touch counts only once it has rested")
            }
        }
    }

    private func value(of key: GestureKey, in d: Draft) -> Double? {
        switch key {
        case .maxDuration: return d.spec.thresholds.maxTapDuration
        case .maxInterval: return d.spec.thresholds.maxTapInterval
        case .minDuration: return d.spec.thresholds.minDuration
        case .minVelocity: return d.spec.thresholds.minVelocityMMPerS
        case .within: return d.within
        default: return nil
        }
    }

    /// `200ms`, `1.5s`.
    static func duration(_ s: Double) -> String { s < 1 ? "\(format(s * 1000))ms" : "\(format(s))s" }
    static func speed(_ v: Double) -> String { "\(format(v))mm/s" }
}
