import DaemonCore
import Glibc
import GestureActions
import GestureConfig
import GestureInput
import LinuxSystem
import Testing
import TouchModel
import TouchTimeline
@testable import GesturedCLI

/// keyd's t/ for gestures: each `Tests/Scenarios/NAME.scenario` is a config, a touch
/// timeline and the lines `gestured replay` prints for it, in one text file, played
/// in-process through `ReplayPipeline`. A new behaviour test is a new file. Sections:
///
///     # what it shows, for a reader
///     [config]               the config (YAML), or [config FILE] to read one
///     [timeline]             a touch timeline (Tests/Support/TouchTimeline), or
///                            [timeline FILE], one the VM plays too (Tests/vm/timelines)
///     [app]                  optional: the focused application, one line
///     [diagnostics]          optional: the config's warnings, one a line (else none)
///     [expect]               replay's lines: `TIME  GESTURE…`, `    would run: …`
///                            (of the GESTURE_* environment under a command, only
///                            GESTURE_STEP)
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

    @Test(arguments: names) func scenario(_ name: String) throws {
        let s = try Scenario(path: Self.directory + "/" + name)
        #expect(s.diagnostics == s.expectedDiagnostics, "config diagnostics of \(name)")
        let actual = try s.replayLines()
        #expect(actual == s.expected, "\(name): replay printed\n\(actual.joined(separator: "\n"))")
    }
}

/// One scenario file, split into its sections and read.
struct Scenario {
    var config: Config
    var diagnostics: [String]
    var expectedDiagnostics: [String]
    var recording: Recording
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
                current = words[0]
                guard sections[words[0]] == nil else { throw TimelineError("\(path):\(index + 1): a second [\(words[0])]") }
                sections[words[0]] = (words.count > 1 ? words[1] : nil, index + 2, [])
            } else if let current {
                sections[current]!.lines.append(String(line))
            }
        }
        let unknown = Set(sections.keys).subtracting(["config", "timeline", "app", "diagnostics", "expect"])
        guard unknown.isEmpty else { throw TimelineError("\(path): unknown sections \(unknown.sorted())") }
        guard let configSection = sections["config"], let timelineSection = sections["timeline"], let expect = sections["expect"] else {
            throw TimelineError("\(path): needs [config], [timeline] and [expect]")
        }
        let base = String(path[..<path.lastIndex(of: "/")!])
        func nonEmpty(_ lines: [String]) -> [String] {
            var lines = lines
            while let last = lines.last, last.allSatisfy({ $0 == " " || $0 == "\t" }) { lines.removeLast() }
            return lines.filter { !$0.hasPrefix("#") }
        }

        let (loaded, found): (Config?, [Diagnostic])
        if let file = configSection.argument {
            (loaded, found) = ConfigLoader.load(path: base + "/" + file)
        } else {
            // Blank lines in front, so that a diagnostic's line is the scenario file's.
            let yaml = String(repeating: "\n", count: configSection.line - 1) + configSection.lines.joined(separator: "\n")
            (loaded, found) = ConfigLoader.parse(yaml, file: String(path[path.index(after: path.lastIndex(of: "/")!)...]))
        }
        diagnostics = found.map(\.description)
        config = try #require(loaded, "\(path): \(diagnostics)").forDesktop(nil)
        expectedDiagnostics = nonEmpty(sections["diagnostics"]?.lines ?? [])

        let timeline: Timeline
        if let file = timelineSection.argument {
            timeline = try Timeline.load(path: base + "/" + file)
        } else {
            timeline = try Timeline.parse(timelineSection.lines.joined(separator: "\n"), path: path, firstLine: timelineSection.line,
                                          baseDirectory: base)
        }
        recording = timeline.recording(path: path)
        app = sections["app"].flatMap { nonEmpty($0.lines).first }
        expected = nonEmpty(expect.lines)
    }

    /// What `gestured replay --config … RECORDING` prints for each gesture event.
    func replayLines() throws -> [String] {
        let pipeline = try ReplayPipeline(recording: recording, specs: config.specs)
        pipeline.engine.focusedApp = app
        var mapper = ActionMapper(config: config)
        let start = recording.events.first?.time ?? Timestamp(microseconds: 0)
        var lines: [String] = []
        var invocations: [Invocation] = []
        pipeline.run(onEvents: { events in
            for e in events {
                mapper.map(e, device: pipeline.device, into: &invocations)
                lines += ReplayCommand.textLines(e, at: e.time.seconds(since: start), invocations: invocations)
                    .flatMap { $0.split(separator: "\n").map(String.init) }
                    .filter { !$0.hasPrefix("        GESTURE_") || $0.hasPrefix("        GESTURE_STEP=") }
                invocations.removeAll(keepingCapacity: true)
            }
        })
        return lines
    }
}
