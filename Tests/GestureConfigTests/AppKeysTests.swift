import Testing
@testable import GestureConfig
import GestureEngine

/// `apps:` and `except-apps:`: read, checked, and exempt from the shadowing warning
/// (an app-specific binding of the same gesture takes turns with the global one).
@Suite struct AppKeysTests {
    @Test func appsAndExceptionsAreRead() throws {
        let yaml = """
            gestures:
              - name: workspace-left
                gesture: swipe
                fingers: 3
                direction: left
                except-apps: "steam_app_*"
                command: swaymsg workspace prev
              - name: browser-back
                gesture: swipe
                fingers: 3
                direction: left
                apps: [firefox, "*.firefox"]
                command: wtype -M alt -k Left -m alt
            """
        let (config, diagnostics) = ConfigLoader.parse(yaml, file: "apps.yaml")
        #expect(diagnostics.map(\.description) == [], "no 'can never fire' warning: the two take turns by app")
        let c = try #require(config)
        #expect(c.specs[0].apps == AppFilter(except: ["steam_app_*"]))
        #expect(c.specs[1].apps == AppFilter(only: ["firefox", "*.firefox"]))
        #expect(AppFilter.overrides(c.specs) == [[], [0]])
    }

    @Test(arguments: [
        ("apps: []", "apps.yaml:5:11: error: 'apps' is an empty list; give an app id or class like firefox"),
        ("apps: {a: b}", "apps.yaml:5:11: error: expected text for apps, found a mapping"),
        ("except-app: foot", "apps.yaml:5:5: error: unknown key 'except-app' in a gesture; did you mean 'except-apps'?"),
    ])
    func mistakesNameTheirPlace(line: String, expected: String) {
        let yaml = "gestures:\n  - name: s\n    gesture: swipe\n    command: x\n    \(line)\n"
        let (config, diagnostics) = ConfigLoader.parse(yaml, file: "apps.yaml")
        #expect(config == nil)
        #expect(diagnostics.map(\.description) == [expected])
    }
}

/// The per-application examples users copy from (README, docs/CONFIG.md) are clean configs.
@Suite struct AppExamplesTests {
    @Test(arguments: [("/README.md", "### Per-application gestures"), ("/docs/CONFIG.md", "## Per-application gestures")])
    func theExampleIsValid(file: String, heading: String) throws {
        let doc = try #require(readText(repositoryRoot + file))
        let section = try #require(doc.firstRange(of: heading)).upperBound
        let start = try #require(doc[section...].firstRange(of: "```yaml\n")).upperBound
        let end = try #require(doc[start...].firstRange(of: "```")).lowerBound
        let (config, diagnostics) = ConfigLoader.parse(String(doc[start..<end]), file: file)
        #expect(diagnostics.map(\.description) == [])
        #expect(config?.specs.contains { !$0.apps.only.isEmpty } == true)
    }
}
