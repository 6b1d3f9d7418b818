import GestureEngine
import TouchModel
import Testing

/// Per-application gestures: the app focused when the touches begin decides which
/// binding of a gesture listens, and an app-specific binding beats the global one.
@Suite struct AppFilterTests {
    static func swipeLeft(_ name: String, only: [String] = [], except: [String] = []) -> GestureSpec {
        var s = Spec.swipe(3, [.left], name: name)
        s.apps = AppFilter(only: only, except: except)
        return s
    }

    func swipe(_ hand: Hand) {
        hand.down(3)
        hand.wait(0.05)
        hand.move(by: Point(x: -30, y: 0), over: 0.2)
        hand.lift()
    }

    /// Global first in the file, the browser's binding second: the browser's still wins
    /// in the browser (precedence is by specificity, not by order), the global elsewhere.
    @Test(arguments: [("firefox", "back"), ("org.mozilla.firefox", "back"), ("Firefox", "back"),
                      ("foot", "workspace"), (nil, "workspace")] as [(String?, String)])
    func theAppSpecificBindingOverridesTheGlobalOne(app: String?, expected: String) {
        let hand = Hand(.touchpad, [Self.swipeLeft("workspace"), Self.swipeLeft("back", only: ["firefox", "*.firefox"])])
        hand.engine.focusedApp = app
        swipe(hand)
        #expect(hand.recognized == [expected])
        let loser = expected == "back" ? "workspace" : "back"
        let why = hand.explanations.first { $0.hasPrefix(loser + ":") }
        if let app, expected == "back" {
            #expect(why == "workspace: back overrides it in '\(app)'")
        } else if let app {
            #expect(why == "back: not for the focused app '\(app)' (see its 'apps:')")
        } else {
            #expect(why == "back: only for some apps, and no focused app is known")
        }
    }

    @Test func anExcludedAppGetsNothing() {
        let hand = Hand(.touchpad, [Self.swipeLeft("workspace", except: ["steam_app_*"])])
        hand.engine.focusedApp = "steam_app_1234"
        swipe(hand)
        #expect(hand.recognized.isEmpty)
        #expect(hand.explanations == ["workspace: excluded in the focused app 'steam_app_1234' ('except-apps:')"])
        hand.engine.focusedApp = "foot"
        swipe(hand)
        #expect(hand.recognized == ["workspace"])
    }

    /// The app is taken when the touches begin: a focus change mid-gesture (the
    /// gesture itself switched windows) does not move it to another binding.
    @Test func theAppIsTakenWhenTheTouchesBegin() {
        let hand = Hand(.touchpad, [Self.swipeLeft("workspace"), Self.swipeLeft("back", only: ["firefox"])])
        hand.engine.focusedApp = "firefox"
        hand.down(3)
        hand.wait(0.05)
        hand.engine.focusedApp = "foot"
        hand.move(by: Point(x: -30, y: 0), over: 0.2)
        hand.lift()
        #expect(hand.recognized == ["back"])
    }

    /// A disabled app binding (gestured disable) gives the gesture back to the global one.
    @Test func aDisabledAppBindingDoesNotOverride() {
        let hand = Hand(.touchpad, [Self.swipeLeft("workspace"), Self.swipeLeft("back", only: ["firefox"])])
        hand.engine.focusedApp = "firefox"
        hand.engine.setEnabled(false, name: "back")
        swipe(hand)
        #expect(hand.recognized == ["workspace"])
    }

    @Test func differentGesturesAreNotOverridden() {
        var right = Spec.swipe(3, [.right], name: "right")
        right.apps = AppFilter()
        let hand = Hand(.touchpad, [right, Self.swipeLeft("back", only: ["firefox"])])
        #expect(AppFilter.overrides(hand.engine.specs) == [[], []])
    }
}
