import Testing
@testable import GestureConfig

/// `{workspace: next}` and the other desktop actions: one spelling, wherever `keys:` goes.
@Suite struct DesktopActionConfigTests {
    private func parse(_ gesture: String) -> (Config?, [String]) {
        let (c, d) = ConfigLoader.parse("gestures:\n  - {name: a, \(gesture)}\n", file: "config.yaml")
        return (c, d.map(\.description))
    }

    @Test(arguments: [
        ("{workspace: next}", DesktopAction.workspace(.next)), ("{workspace: previous}", .workspace(.previous)),
        ("{workspace: Prev}", .workspace(.previous)), ("{workspace: 3}", .workspace(.number(3))),
        ("{move-window: next}", .moveWindow(.next)), ("{move-window: 10}", .moveWindow(.number(10))),
        ("{overview: toggle}", .overview(.toggle)), ("{overview: on}", .overview(.on)), ("{overview: off}", .overview(.off)),
        ("{show-desktop: toggle}", .showDesktop(.toggle)),
    ])
    func eachDesktopActionParses(_ yaml: String, _ expected: DesktopAction) throws {
        let (c, d) = parse("gesture: tap, command: \(yaml)")
        #expect(d == [])
        let a = try #require(c).bindings[0].actions[.recognized]
        #expect(a == .desktop(expected))
        #expect(a?.sink == .desktop)
        #expect(!(c!.bindings[0].needsInput), "a desktop action needs no virtual keyboard")
    }

    /// Every phase key takes them, and a stepped update steps back with `reverse:`.
    @Test func everyPhaseAndReverse() throws {
        let (c, d) = parse("gesture: pan, fingers: 3, axis: horizontal, every: 30mm, begin: {overview: on}, update: {workspace: next, reverse: previous}, end: {overview: off}, cancel: {show-desktop: toggle}")
        #expect(d == [])
        let b = try #require(c).bindings[0]
        #expect(b.actions[.began] == .desktop(.overview(.on)))
        #expect(b.actions[.changed] == .desktop(.workspace(.next)))
        #expect(b.reverse == .desktop(.workspace(.previous)))
        #expect(b.actions[.ended] == .desktop(.overview(.off)))
        #expect(b.actions[.cancelled] == .desktop(.showDesktop(.toggle)))
        #expect(b.hasDesktopAction)
        #expect(b.actions[.changed]?.description == "workspace next")
    }

    @Test(arguments: [
        ("{workspace: nxt}", "config.yaml:2:50: error: 'workspace' takes next, previous or a workspace number from 1 to 100, or follow (on a pan: the workspaces move with the fingers), found 'nxt'; did you mean 'next'?"),
        ("{workspace: 0}", "config.yaml:2:50: error: 'workspace' takes next, previous or a workspace number from 1 to 100, or follow (on a pan: the workspaces move with the fingers), found '0'"),
        ("{move-window: 101}", "config.yaml:2:52: error: 'move-window' takes next, previous or a workspace number from 1 to 100, found '101'"),
        ("{overview: toogle}", "config.yaml:2:49: error: 'overview' takes toggle, on, off, or follow (on a pan: the overview moves with the fingers), found 'toogle'; did you mean 'toggle'?"),
        ("{show-desktop: on}", "config.yaml:2:53: error: 'show-desktop' takes toggle, found 'on'"),
        ("{workspaces: next}", "config.yaml:2:39: error: unknown action 'workspaces'; did you mean 'workspace'?"),
        ("{workspace: next, overview: toggle}", "config.yaml:2:56: error: one action per key: 'workspace' and 'overview' are both given; use 'keys:' with a list for several, or another gesture phase"),
    ])
    func mistakesAreSaidWithTheOptions(_ yaml: String, _ message: String) {
        let (_, d) = parse("gesture: tap, command: \(yaml)")
        #expect(d.first == message)
    }

    /// The generated reference lists them with the other built-in actions.
    @Test func theSchemaDocumentsThem() {
        let keys = Schema.action.map(\.key)
        for k in DesktopActionKey.allCases { #expect(keys.contains(k.rawValue)) }
    }
}
