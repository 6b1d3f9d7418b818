import Glibc
import Testing
@testable import GestureConfig
import GestureEngine

func readText(_ path: String) -> String? {
    guard let f = fopen(path, "r") else { return nil }
    defer { fclose(f) }
    var bytes: [UInt8] = []
    var buf = [UInt8](repeating: 0, count: 4096)
    while true {
        let n = fread(&buf, 1, buf.count, f)
        if n == 0 { break }
        bytes.append(contentsOf: buf[0..<n])
    }
    return String(decoding: bytes, as: UTF8.self)
}

@Suite struct DefaultConfigTests {
    @Test func shippedDefaultIsClean() throws {
        let path = repositoryRoot + "/config/default.yaml"
        let text = try #require(readText(path))
        let (config, diagnostics) = ConfigLoader.parse(text, file: path)
        #expect(diagnostics.map(\.description) == [])
        let c = try #require(config)
        #expect(c.specs.map(\.name) == ["workspace-next", "workspace-previous"])
        #expect(c.specs.allSatisfy { $0.kind == .swipe && $0.fingers == 3...3 })
        #expect(c.specs.map(\.directions) == [[.left], [.right]])
        // One spelling for every desktop: no shell script, no desktop's own shortcut.
        #expect(c.bindings[0].actions[.recognized] == .desktop(.workspace(.next)))
        #expect(c.bindings[1].actions[.recognized] == .desktop(.workspace(.previous)))
        #expect(!c.bindings.contains { $0.needsInput })
        #expect(c.settings.commandTimeout == 10)
    }

    @Test func builtInDefaultIsTheShippedFile() throws {
        let text = try #require(readText(repositoryRoot + "/config/default.yaml"))
        #expect(text == defaultConfigYAML, "regenerate Sources/GestureConfig/DefaultConfig.swift (command in its header)")
        let (config, diagnostics) = ConfigLoader.load(.builtIn)
        #expect(diagnostics.isEmpty)
        #expect(config?.file == ConfigLoader.builtInName)
    }

    /// Every example in the default, uncommented, is a valid config too.
    @Test func commentedExamplesAreValid() throws {
        let text = try #require(readText(repositoryRoot + "/config/default.yaml"))
        var inExamples = false
        let uncommented = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            if line.contains("--- More examples") { inExamples = true }
            let example = inExamples && (line.hasPrefix("  # - ") || line.hasPrefix("  #   "))
            return example ? "  " + line.dropFirst(4) : String(line)
        }.joined(separator: "\n")
        let (config, diagnostics) = ConfigLoader.parse(uncommented, file: "uncommented.yaml")
        #expect(diagnostics.filter(\.isError).map(\.description) == [])
        #expect(config?.specs.map(\.kind.rawValue) == ["swipe", "swipe", "pinch", "pan", "hold", "tap", "edgepan", "pan"])
    }
}
