import Glibc
import Testing
@testable import ConfigImport
import GestureConfig
import GestureEngine

/// The fixtures: the projects' own default configs and documented examples
/// (Tests/Imports/README.md says where each comes from).
enum Fixtures {
    static let directory: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(2)  // ConfigImportTests/ImportFixtureTests.swift
        return parts.joined(separator: "/") + "/Imports"
    }()

    static let all: [(file: String, format: ImportFormat)] = [
        ("libinput-gestures.conf", .libinputGestures), ("libinput-gestures-examples.conf", .libinputGestures),
        ("fusuma-default.yml", .fusuma), ("fusuma-readme-ubuntu.yml", .fusuma),
        ("fusuma-readme-threshold-interval.yml", .fusuma), ("fusuma-appmatcher-readme.yml", .fusuma), ("fusuma-contexts.yml", .fusuma),
        ("touchegg.conf", .touchegg), ("touchegg-readme-actions.conf", .touchegg),
    ]

    static func bytes(_ name: String) throws -> [UInt8] {
        let fd = open(directory + "/" + name, O_RDONLY)
        try #require(fd >= 0, "cannot open \(name)")
        defer { close(fd) }
        var out: [UInt8] = [], buf = [UInt8](repeating: 0, count: 1 << 16)
        while case let n = read(fd, &buf, buf.count), n > 0 { out += buf[0..<n] }
        return out
    }

    /// The fixture imported, and the config gestured makes of the output.
    static func imported(_ name: String) throws -> (ImportedConfig, String, Config) {
        let bytes = try bytes(name)
        let imported = try ImportFormat.detect(bytes).translate(bytes, file: name)
        let yaml = imported.yaml(source: name)
        let (config, diagnostics) = ConfigLoader.parse(yaml, file: "imported.yaml")
        let errors = diagnostics.filter(\.isError).map(\.description)
        try #require(errors.isEmpty, "\(name): \(errors)\n\(yaml)")
        return (imported, yaml, try #require(config))
    }
}

extension Config {
    /// The action that runs when `kind` with these fingers and direction fires.
    /// `command:` is a discrete gesture's `.recognized` action and a continuous one's `.began`.
    func action(_ kind: GestureKind, fingers: Int, direction: String? = nil, apps: Bool = false, phase: GesturePhase? = nil) -> String? {
        let spec = specs.first { (s: GestureSpec) in
            let names = s.directions.map(\.rawValue) + s.senses.map(\.rawValue)
            return s.kind == kind && s.fingers == fingers...fingers && s.apps.only.isEmpty != apps && (direction.map { names.contains($0) } ?? true)
        }
        guard let spec, let binding = bindings.first(where: { $0.name == spec.name }) else { return nil }
        return (phase.map { binding.actions[$0] } ?? binding.actions[.recognized] ?? binding.actions[.began])?.description
    }
}

@Suite struct ImportFixtureTests {
    /// Every fixture: its format is recognized, the output passes `gestured check`'s
    /// parser with no error, and every gesture says the line it came from, which is
    /// a line of the input that holds a setting.
    @Test(arguments: Fixtures.all.map(\.file))
    func everyFixtureImportsAndPassesCheck(file: String) throws {
        let bytes = try Fixtures.bytes(file)
        #expect(ImportFormat.detect(bytes) == Fixtures.all.first { $0.file == file }!.format)
        let (imported, yaml, config) = try Fixtures.imported(file)
        #expect(!imported.gestures.isEmpty)
        #expect(config.specs.count == imported.gestures.count)
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        for g in imported.gestures {
            #expect(yaml.contains("# from \(file):\(g.line)\n"))
            let source = lines[g.line - 1].drop { $0 == " " || $0 == "\t" }
            #expect(!source.isEmpty && !source.hasPrefix("#"), "\(file):\(g.line) is no setting: '\(source)'")
        }
    }

    @Test func theIssuesExampleBecomesAThreeFingerSwipeThatPressesSuperRight() throws {
        let text = "gesture swipe left 3 xdotool key super+Right\n"
        let imported = try ImportFormat.detect(Array(text.utf8)).translate(Array(text.utf8), file: "l.conf")
        let (config, _) = ConfigLoader.parse(imported.yaml(source: "l.conf"), file: "x.yaml")
        let c = try #require(config)
        #expect(c.specs.count == 1)
        #expect(c.action(.swipe, fingers: 3, direction: "left") == "keys super+Right")
        #expect(c.specs[0].devices == DeviceFilter(kind: .touchpad))
    }

    @Test func libinputGesturesDefaultConfig() throws {
        let (imported, yaml, c) = try Fixtures.imported("libinput-gestures.conf")
        // `gesture swipe up _internal ws_up`, no finger count: both counts, the next workspace.
        #expect(c.action(.swipe, fingers: 3, direction: "up") == "workspace next")
        #expect(c.action(.swipe, fingers: 4, direction: "up") == "workspace next")
        #expect(c.action(.swipe, fingers: 3, direction: "down") == "workspace previous")
        #expect(c.action(.swipe, fingers: 4, direction: "right") == "keys alt+Left")
        #expect(c.action(.pinch, fingers: 2, direction: "in") == "keys super+s")
        #expect(imported.keptCount == 0)
        #expect(yaml.contains("libinput-gestures acts when the fingers lift"))
    }

    @Test func libinputGesturesExamples() throws {
        let (imported, yaml, c) = try Fixtures.imported("libinput-gestures-examples.conf")
        // The last of several lines for the same gesture is the one libinput-gestures runs.
        #expect(c.action(.swipe, fingers: 3, direction: "left") == "keys ctrl+alt+Left")
        #expect(c.action(.swipe, fingers: 3, direction: "up") == "workspace next")  // `swipe up 3 _internal ws_up` beats the any-count lines
        #expect(c.action(.swipe, fingers: 4, direction: "up") == "keys ctrl+alt+Up")
        #expect(c.action(.swipe, fingers: 4, direction: "up-right") == nil)  // line 21, a grid, is the last for it
        #expect(c.action(.hold, fingers: 4, phase: .ended) == "keys control+t")
        #expect(c.action(.pinch, fingers: 2, direction: "out")?.hasPrefix("dbus-send --session") == true)
        #expect(yaml.contains("# not imported, libinput-gestures-examples.conf:21: _internal with a grid of workspaces"))
        #expect(yaml.contains("# not imported, libinput-gestures-examples.conf:34: gestured has no time limit"))
        #expect(imported.gestures.allSatisfy { $0.value("device-name") == "\"DLL0665:01 06CB:76AD Touchpad\"" })
    }

    @Test func fusumaDefaultConfig() throws {
        let (_, _, c) = try Fixtures.imported("fusuma-default.yml")
        #expect(c.action(.swipe, fingers: 3, direction: "left") == "keys alt+Right")
        #expect(c.action(.swipe, fingers: 4, direction: "up") == "keys super+a")
        #expect(c.action(.pinch, fingers: 2, direction: "in") == "keys ctrl+equal")
        #expect(c.action(.pinch, fingers: 4, direction: "out") == "keys super+s")
    }

    @Test func fusumaReadmeExample() throws {
        let (imported, _, c) = try Fixtures.imported("fusuma-readme-ubuntu.yml")
        #expect(c.action(.swipe, fingers: 4, direction: "left") == "keys ctrl+alt+Down")
        // `pinch: in:` without fingers: each count fusuma reads; the xdotool command that
        // is not a plain key press stays a command.
        for n in 2...4 { #expect(c.action(.pinch, fingers: n, direction: "in") == "xdotool keydown ctrl click 4 keyup ctrl") }
        // A hold begins after fusuma's 0.7 s base threshold.
        let hold = try #require(imported.gestures.first { $0.kind == "hold" })
        #expect(hold.value("min-duration") == "0.7s")
        #expect(c.action(.hold, fingers: 4, phase: .began) == "keys super")
    }

    @Test func fusumaAppmatcherSectionsBecomeApps() throws {
        let (imported, yaml, c) = try Fixtures.imported("fusuma-appmatcher-readme.yml")
        #expect(c.action(.swipe, fingers: 4, direction: "up") == "keys LEFTCTRL+LEFTALT+DOWN")
        #expect(c.action(.swipe, fingers: 3, direction: "up", apps: true) == "keys LEFTCTRL+T")
        let chrome = try #require(c.specs.first { $0.apps.only == ["Google-chrome"] })
        #expect(chrome.kind == .swipe)
        #expect(yaml.contains("gestured has no gestures that depend on keys held on the keyboard"))
        #expect(imported.items.contains { if case .kept(_, let t, _) = $0 { return t.hasPrefix("window:") } else { return false } })
    }

    /// fusuma's documents after a `---`, each with its `context:`: an application's
    /// become `apps:`, another context stays a comment at its line.
    @Test func fusumaContextDocumentsBecomeApps() throws {
        let (_, yaml, c) = try Fixtures.imported("fusuma-contexts.yml")
        let chrome = try #require(c.specs.first { $0.apps.only == ["Google-chrome"] }, "\(yaml)")
        #expect(chrome.kind == .swipe && chrome.fingers == 3...3)
        #expect(c.bindings.first { $0.name == chrome.name }?.actions[.recognized]?.description == "keys LEFTALT+RIGHT")
        let terminals = try #require(c.specs.first { $0.apps.only == ["Alacritty", "kitty"] }, "\(yaml)")
        #expect(terminals.kind == .pinch)
        #expect(c.specs.contains { $0.apps.only.isEmpty && $0.kind == .swipe && $0.fingers == 3...3 }, "the first document is for every app")
        #expect(yaml.contains("fusuma-contexts.yml:22") && yaml.contains("only appmatcher's application: context"), "\(yaml)")
        #expect(!c.specs.contains { $0.fingers == 4...4 }, "the thumbsense document is not imported")
    }

    @Test func toucheggDefaultConfig() throws {
        let (_, yaml, c) = try Fixtures.imported("touchegg.conf")
        #expect(c.action(.swipe, fingers: 4, direction: "up") == "workspace next")
        #expect(c.action(.pinch, fingers: 4, direction: "out") == "show-desktop toggle")
        #expect(c.action(.tap, fingers: 2) == "button right")
        #expect(c.action(.pinch, fingers: 4, direction: "in") == "keys super+A")
        // The browsers' pinch: Ctrl held through the gesture, a key per 10 % of scale.
        let zoom = try #require(c.specs.first { !$0.apps.only.isEmpty && $0.senses.map(\.rawValue) == ["in"] })
        #expect(zoom.apps.only == ["Google-chrome", "Chromium-browser"])
        let binding = try #require(c.bindings.first { $0.name == zoom.name })
        #expect(binding.hold?.description == "ctrl")
        #expect(binding.actions[.changed]?.description == "keys kpminus")
        #expect(binding.reverse?.description == "keys kpplus")
        #expect(yaml.contains("# not imported, touchegg.conf:44: gestured has no window actions"))
        #expect(yaml.contains("touchegg's animation has no equivalent"))
    }

    @Test func toucheggReadmeRepeatsBecomeSteps() throws {
        let (imported, _, c) = try Fixtures.imported("touchegg-readme-actions.conf")
        // Alt held, Tab per step right, Shift+Tab per step left: the window switcher.
        let switcher = try #require(imported.gestures.first { $0.kind == "pan" && $0.value("hold") == "\"alt\"" && $0.value("direction") == "right" })
        #expect(switcher.value("every") == "4.33mm")
        #expect(switcher.action("update") == .keys(["Tab"], reverse: ["shift+Tab"]))
        #expect(c.specs.contains { $0.name == "pan-right-3" && $0.axis == .horizontal })
        // A repeated command with its decreaseCommand: one update, the sign in GESTURE_STEP.
        let notify = try #require(imported.gestures.first { $0.kind == "pan" && $0.fingers == 4 })
        #expect(notify.action("update") == .command("if [ \"$GESTURE_STEP\" = 1 ]; then notify-send 'Swipe direction' 'DOWN'\nelse notify-send 'Swipe direction' 'UP'\nfi"))
    }
}
