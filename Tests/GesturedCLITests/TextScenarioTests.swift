import DaemonCore
import Glibc
import GestureActions
import GestureConfig
import GestureEngine
import GestureInput
import LinuxSystem
import PlainText
import Testing
import TouchModel
import TouchTimeline
@testable import Commands
@testable import DaemonLoop
import JSON
@testable import LiveView

/// keyd's t/ for gestures: each `Tests/Scenarios/NAME.scenario` is a config, a touch
/// timeline and the lines `gestured replay` prints for it, in one text file, played
/// in-process by the daemon's rules (`ScenarioDaemon`). A new behaviour test is a new
/// file. Sections:
///
///     # what it shows, for a reader
///     [config]               the config (YAML), or [config FILE] to read one
///     [timeline]             a touch timeline (Tests/Support/TouchTimeline), or
///                            [timeline FILE], one the VM plays too (Tests/vm/timelines)
///     [reload NAME]          optional, any number: a config (YAML) that the timeline's
///                            `reload NAME` step swaps in
///     [app]                  optional: the focused application at the start, one line
///     [diagnostics]          optional: the config's warnings, one a line (else none)
///     [expect]               replay's lines: `TIME  GESTURE…`, `    would run: …`
///                            (of the GESTURE_* environment under a command, only
///                            GESTURE_STEP), and `TIME  STEP` for each daemon step of
///                            the timeline (`focus firefox`, `screen 90`, `reload NAME`,
///                            `disable NAME`), with a reloaded config's diagnostics
///                            under its `reload`, indented
///
/// Times are seconds from the timeline's first event or daemon step. At a daemon step
/// the timer first fires what was due by then; the step's own line comes before what
/// it causes (a reload's cancellations). A reload whose config has errors is not
/// taken, as the daemon keeps its old config. The timeline's `create` and `remove`
/// are the kernel's business: the device is there from the start to the end.
///
/// FILE paths are relative to Tests/Scenarios; `#` starts a comment line in
/// [expect] and [diagnostics]. An inline config's diagnostics name the scenario file
/// and its lines.
@Suite struct TextScenarioTests {
    static let directory: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(2)
        return parts.joined(separator: "/") + "/Scenarios"
    }()

    static let names = FileSystem.entries(of: directory).filter { $0.hasSuffix(".scenario") }.sorted()

    @Test func thereAreScenarios() { #expect(Self.names.count >= 12, "\(Self.names)") }

    /// Issue 33: every gesture kind fires in some scenario, and every daemon step is
    /// taken in one.
    @Test func everyKindAndEveryDaemonStepHasAScenario() throws {
        var kinds: Set<String> = [], steps: Set<String> = []
        for name in Self.names {
            let s = try Scenario(path: Self.directory + "/" + name)
            for line in s.expected {
                let words = line.split(separator: " ")
                if words.count > 3, words[3] == "recognized" || words[3] == "began" { kinds.insert(String(words[2])) }
            }
            for (_, step) in s.timeline.daemonSteps { steps.insert(String(step.description.split(separator: " ")[0])) }
        }
        #expect(Set(GestureKind.allCases.map(\.rawValue)).subtracting(kinds) == [])
        #expect(Set(["focus", "screen", "reload", "enable", "disable"]).subtracting(steps) == [])
    }

    @Test(arguments: names) func scenario(_ name: String) throws {
        let s = try Scenario(path: Self.directory + "/" + name)
        #expect(s.diagnostics == s.expectedDiagnostics, "config diagnostics of \(name)")
        let actual = try s.lines()
        #expect(actual == s.expected, "\(name): replay printed\n\(actual.joined(separator: "\n"))")
    }
}

/// One scenario file, split into its sections and read.
struct Scenario {
    var config: Config
    var diagnostics: [String]
    var expectedDiagnostics: [String]
    var timeline: Timeline
    /// `[reload NAME]`: the config (nil when it has errors) and its diagnostics.
    var reloads: [String: (config: Config?, diagnostics: [String])] = [:]
    var app: String?
    var expected: [String]

    init(path: String) throws {
        let file = try OwnedFileDescriptor(opening: path, O_RDONLY)
        let text = String(decoding: try file.descriptor.readToEnd(maximumBytes: 1 << 20), as: UTF8.self)
        var sections: [String: (argument: String?, line: Int, lines: [String])] = [:]
        var current: String?
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.hasPrefix("["), line.hasSuffix("]") {
                let words = line.dropFirst().dropLast().split(separator: " ", maxSplits: 1).map(String.init)
                // `[reload NAME]` sections are told apart by their names.
                let key = words[0] == "reload" ? line.dropFirst().dropLast().description : words[0]
                current = key
                guard sections[key] == nil else { throw TimelineError("\(path):\(index + 1): a second [\(key)]") }
                sections[key] = (words.count > 1 ? words[1] : nil, index + 2, [])
            } else if let current {
                sections[current]!.lines.append(String(line))
            }
        }
        let unknown = Set(sections.keys).subtracting(["config", "timeline", "app", "diagnostics", "expect"]).filter { !$0.hasPrefix("reload ") }
        guard unknown.isEmpty else { throw TimelineError("\(path): unknown sections \(unknown.sorted())") }
        guard let configSection = sections["config"], let timelineSection = sections["timeline"], let expect = sections["expect"] else {
            throw TimelineError("\(path): needs [config], [timeline] and [expect]")
        }
        let base = String(path[..<path.lastIndex(of: "/")!])
        let fileName = String(path[path.index(after: path.lastIndex(of: "/")!)...])
        func nonEmpty(_ lines: [String]) -> [String] {
            var lines = lines
            while let last = lines.last, last.allSatisfy({ $0 == " " || $0 == "\t" }) { lines.removeLast() }
            return lines.filter { !$0.hasPrefix("#") }
        }
        /// An inline config, with blank lines in front so that a diagnostic's line is the scenario file's.
        func inline(_ section: (argument: String?, line: Int, lines: [String])) -> (Config?, [Diagnostic]) {
            let yaml = String(repeating: "\n", count: section.line - 1) + section.lines.joined(separator: "\n")
            let (loaded, found) = ConfigLoader.parse(yaml, file: fileName)
            return (loaded?.forDesktop(nil), found)
        }

        let (loaded, found): (Config?, [Diagnostic])
        if let file = configSection.argument {
            let (c, d) = ConfigLoader.load(path: base + "/" + file)
            (loaded, found) = (c?.forDesktop(nil), d)
        } else {
            (loaded, found) = inline(configSection)
        }
        diagnostics = found.map(\.description)
        config = try #require(loaded, "\(path): \(diagnostics)")
        expectedDiagnostics = nonEmpty(sections["diagnostics"]?.lines ?? [])
        for (key, section) in sections where key.hasPrefix("reload ") {
            let (c, d) = inline(section)
            reloads[String(key.dropFirst("reload ".count))] = (c, d.map(\.description))
        }

        if let file = timelineSection.argument {
            timeline = try Timeline.load(path: base + "/" + file)
        } else {
            timeline = try Timeline.parse(timelineSection.lines.joined(separator: "\n"), path: path, firstLine: timelineSection.line,
                                          baseDirectory: base)
        }
        for case let (_, .daemon(.reload(name?))) in timeline.steps where reloads[name] == nil {
            throw TimelineError("\(path): 'reload \(name)' but no [reload \(name)] section")
        }
        app = sections["app"].flatMap { nonEmpty($0.lines).first }
        expected = nonEmpty(expect.lines)
    }

    /// What the daemon does with the timeline, as `replay` prints it: its events
    /// through the device's decoder, its daemon steps told to the daemon in order,
    /// timed as the recording would be (from 1 s, so no frame is at the clock's zero).
    func lines() throws -> [String] {
        let decoder = try TouchDecoder(description: timeline.device)
        let first = timeline.steps.first { step in
            switch step.action {
            case .emit, .daemon: return true
            case .create, .remove, .await, .mark: return false
            }
        }
        func time(_ at: Int64) -> Timestamp { Timestamp(microseconds: 1_000_000 + at) }
        let start = time(first?.at ?? 0)
        let daemon = ScenarioDaemon(config: config, decoder: decoder, name: timeline.device.name, app: app, start: start)
        var lines: [String] = []
        for (at, action) in timeline.steps {
            switch action {
            case let .emit(type, code, value):
                if decoder.feed(InputEvent(time: time(at), type: type, code: code, value: value)) {
                    lines += daemon.frame(decoder.framePointer)
                }
            case let .daemon(step):
                lines += daemon.timer(at: time(at))
                lines.append(time(at).seconds(since: start).fixed(3) + "  " + step.description)
                lines += try tell(daemon, step, at: time(at))
            case .create, .remove, .await, .mark:
                continue
            }
        }
        // After the last frame the timer would still fire for what is pending.
        return lines + daemon.timer(at: Timestamp(microseconds: .max))
    }

    /// One daemon step; a reload's diagnostics come first, indented.
    private func tell(_ daemon: ScenarioDaemon, _ step: DaemonStep, at now: Timestamp) throws -> [String] {
        switch step {
        case .focus(let app):
            return daemon.focus(app)
        case .screen(let orientation):
            return daemon.rotate(orientation)
        case let .enable(on, name):
            return daemon.setEnabled(on, name: name)
        case .reload(let name):
            let (new, diagnostics) = name.map { reloads[$0]! } ?? (config, self.diagnostics)
            let said = diagnostics.map { "    " + $0 }
            // An invalid config is not taken: the daemon keeps running the old one.
            guard let new else { return said }
            return said + daemon.reload(config: new, at: now)
        }
    }
}
