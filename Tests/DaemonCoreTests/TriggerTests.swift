import DaemonCore
import GestureConfig
import GestureEngine
import Testing
import TouchModel

/// `gestured trigger NAME` in the core: which binding runs, with which actions and
/// variables, and why nothing does (DaemonCore.trigger, ManualTrigger.swift).
@Suite struct TriggerTests {
    static let text = """
        gestures:
          - {name: note, gesture: swipe, fingers: 3, direction: up, command: echo note}
          - {name: note-kitty, gesture: swipe, fingers: 3, direction: up, apps: [kitty], command: echo kitty}
          - {name: copy, gesture: tap, fingers: 3, command: {keys: ctrl+c}}
          - {name: next, gesture: swipe, fingers: 4, direction: left, command: {workspace: next}}
          - {name: zoom, gesture: pinch, fingers: 2, hold: ctrl, begin: echo begin, end: echo end}
          - {name: volume, gesture: pan, fingers: 4, axis: vertical, every: 5mm, update: echo step}
          - {name: off, gesture: swipe, fingers: 4, direction: right, enabled: false, command: echo off}
          - {name: gnome-only, gesture: swipe, fingers: 4, direction: down, desktop: GNOME, command: {keys: super+Page_Down}}
          - {name: no-games, gesture: swipe, fingers: 4, direction: up, except-apps: [steam], command: echo up}
        """

    static func core(desktop: String = "sway") throws -> DaemonCore {
        let (config, diagnostics) = ConfigLoader.parse(text, file: "test.yaml")
        return DaemonCore(config: try #require(config, "\(diagnostics)").forDesktop(desktop))
    }

    static let now = Timestamp(microseconds: 5_000_000)

    /// The actions the core handed out, as the dry run prints them.
    static func ran(_ core: DaemonCore) -> [String] {
        core.outputs.compactMap { if case .invocation(let inv) = $0 { return "\(inv.trigger): \(inv.command)" } else { return nil } }
    }

    @Test func aCommandRunsWithTheVariablesAGestureWithoutTouchesHas() throws {
        let core = try Self.core()
        let outcome = core.trigger("note", origin: .manual, at: Self.now)
        #expect(outcome.ok && outcome.binding == "note")
        #expect(Self.ran(core) == ["command: echo note"])
        let inv = try #require(outcome.invocations.first)
        #expect(inv.value(of: "GESTURE_TRIGGER") == "manual")
        #expect(inv.value(of: "GESTURE_NAME") == "note")
        #expect(inv.value(of: "GESTURE_KIND") == "swipe")
        #expect(inv.value(of: "GESTURE_FINGERS") == "3")
        #expect(inv.value(of: "GESTURE_DIRECTION") == "up")
        #expect(inv.value(of: "GESTURE_DX_MM") == "", "no touch, no distance: empty, as 'none' always is")
        #expect(inv.value(of: "GESTURE_DEVICE") == "")
        #expect(core.trigger("note", origin: .shortcut, at: Self.now).invocations.first?.value(of: "GESTURE_TRIGGER") == "shortcut")
        #expect(outcome.summary(dryRun: false) == "note: ran (manual trigger):\n  command: echo note")
        #expect(outcome.summary(dryRun: true) == "note: would run (dry run, nothing ran):\n  command: echo note")
        #expect(core.recent.entries.last?.gesture == "note" && core.recent.entries.last?.device == "shortcut trigger")
    }

    /// `ignore-repeats` drops a gesture recognized again too soon, not a run asked for
    /// on purpose: two triggers in a row both run, and a trigger does not make the
    /// gesture that follows it a repeat.
    @Test func ignoreRepeatsLeavesTriggersAlone() throws {
        let (parsed, diagnostics) = ConfigLoader.parse("settings:\n  accessibility:\n    ignore-repeats: 1s\n" + Self.text, file: "test.yaml")
        let core = DaemonCore(config: try #require(parsed, "\(diagnostics)").forDesktop("sway"))
        #expect(core.trigger("note", origin: .manual, at: Self.now).ok)
        let again = core.trigger("note", origin: .manual, at: Self.now.adding(seconds: 0.1))
        #expect(again.ok, "\(again.reason)")
        #expect(Self.ran(core) == ["command: echo note", "command: echo note"])
        var out: [Invocation] = []
        let gesture = GestureEvent(name: "note", index: 0, kind: .swipe, phase: .recognized, time: Self.now.adding(seconds: 0.2),
                                   fingers: 3, direction: .up)
        var mapper = core.mapper  // its repeat state as the triggers left it
        #expect(mapper.map(gesture, device: nil, into: &out) == nil, "the gesture after a trigger is no repeat")
        #expect(out.map(\.command) == ["echo note"])
    }

    @Test func keysAndDesktopActionsGoToTheirSinks() throws {
        let core = try Self.core()
        core.trigger("copy", origin: .manual, at: Self.now)
        core.trigger("next", origin: .manual, at: Self.now)
        #expect(Self.ran(core) == ["command: keys ctrl+c", "command: workspace next"])
        let sinks = core.outputs.compactMap { if case .invocation(let inv) = $0 { return inv.action.sink } else { return nil } }
        #expect(sinks == [.input, .desktop])
    }

    @Test func aContinuousGestureRunsBeginThenEndWithItsHeldKeysAround() throws {
        let core = try Self.core()
        let outcome = core.trigger("zoom", origin: .manual, at: Self.now)
        #expect(Self.ran(core) == ["hold: press ctrl", "begin: echo begin", "end: echo end", "hold: release ctrl"])
        #expect(outcome.invocations[1].value(of: "GESTURE_PHASE") == "began")
        #expect(outcome.invocations[2].value(of: "GESTURE_PHASE") == "ended")
    }

    @Test func theAppPicksTheVariantAsTheEngineWould() throws {
        let core = try Self.core()
        #expect(core.trigger("note", app: "kitty", origin: .manual, at: Self.now).binding == "note-kitty")
        #expect(core.trigger("note", app: "firefox", origin: .manual, at: Self.now).binding == "note")
        let forFirefox = core.trigger("note-kitty", app: "firefox", origin: .manual, at: Self.now)
        #expect(forFirefox.binding == "note", "the same gesture in firefox runs the global binding")
        #expect(forFirefox.summary(dryRun: false).hasPrefix("note (what note-kitty's gesture runs in firefox): ran"))
        core.focus("Kitty")
        #expect(core.trigger("note", origin: .manual, at: Self.now).binding == "note-kitty", "default: the focused app (any case)")
        let excluded = core.trigger("no-games", app: "steam", origin: .manual, at: Self.now)
        #expect(excluded.result == .nothingToRun)
        #expect(excluded.reason == "no-games runs nothing for app 'steam': its except-apps: leave it out, and no binding of the same gesture listens there")
    }

    @Test func whatRunsNothingSaysWhy() throws {
        let core = try Self.core()
        let unknown = core.trigger("nte", origin: .manual, at: Self.now)
        #expect(unknown.result == .unknownName)
        #expect(unknown.reason == "no gesture named 'nte'; did you mean 'note'? (gestured status lists them)")
        let stepped = core.trigger("volume", origin: .manual, at: Self.now)
        #expect(stepped.result == .nothingToRun)
        #expect(stepped.reason == "volume has nothing to run without its gesture: a trigger runs command:, or begin: and end:, and it has only update: (for fingers that move)")
        let elsewhere = core.trigger("gnome-only", origin: .manual, at: Self.now)
        #expect(elsewhere.reason == "gnome-only is only for GNOME (its desktop:), not this desktop")
        #expect(Self.ran(core).isEmpty, "nothing went out")
        #expect(core.recent.entries.isEmpty, "and status lists no run")
        #expect(try Self.core(desktop: "GNOME").trigger("gnome-only", origin: .manual, at: Self.now).ok)
    }

    /// A gesture turned off still runs: `enabled:` and `gestured disable` say whether
    /// the touches are recognized; a user who cannot make it keeps its action here.
    @Test func aDisabledGestureStillRuns() throws {
        let core = try Self.core()
        #expect(core.trigger("off", origin: .manual, at: Self.now).ok)
        core.setEnabled(false, name: "note")
        #expect(core.trigger("note", origin: .manual, at: Self.now).ok)
        #expect(Self.ran(core) == ["command: echo off", "command: echo note"])
    }
}
