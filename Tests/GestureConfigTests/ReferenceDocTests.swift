import Glibc
import Testing
import GestureConfig

/// docs/CONFIG.md carries `Schema.referenceMarkdown()` verbatim between its markers,
/// so the reference cannot drift from the parser.
@Suite struct ReferenceDocTests {
    static let begin = "<!-- BEGIN GENERATED: Schema.referenceMarkdown() -->\n"
    static let end = "<!-- END GENERATED -->"

    @Test func configReferenceMatchesTheSchema() throws {
        let doc = try #require(readText(repositoryRoot + "/docs/CONFIG.md"))
        let start = try #require(doc.firstRange(of: Self.begin))
        let stop = try #require(doc.firstRange(of: Self.end))
        let generated = String(doc[start.upperBound..<stop.lowerBound])
        let expected = Schema.referenceMarkdown() + "\n"
        if generated != expected {
            // Leaves the expected text where `make`/a human can paste it from.
            let f = fopen("/tmp/gestured-CONFIG-reference.md", "w")
            fputs(expected, f)
            fclose(f)
        }
        #expect(generated == expected, "docs/CONFIG.md is out of date: paste /tmp/gestured-CONFIG-reference.md between its markers")
    }

    /// Every environment variable a command sees is documented.
    @Test func environmentVariablesAreDocumented() throws {
        let doc = try #require(readText(repositoryRoot + "/docs/CONFIG.md"))
        for name in ["GESTURE_NAME", "GESTURE_KIND", "GESTURE_PHASE", "GESTURE_FINGERS", "GESTURE_DIRECTION",
                     "GESTURE_X_MM", "GESTURE_Y_MM", "GESTURE_DX_MM", "GESTURE_DY_MM", "GESTURE_VELOCITY",
                     "GESTURE_VX", "GESTURE_VY", "GESTURE_SCALE", "GESTURE_ROTATION_DEG", "GESTURE_DURATION_S",
                     "GESTURE_DEVICE", "GESTURE_DEVICE_KIND", "GESTURE_STEP", "GESTURE_STEP_SIGN", "GESTURE_STEPS",
                     "GESTURE_SIDE", "GESTURE_SHAPE", "GESTURE_SCORE", "GESTURE_TRIGGER"] {
            #expect(doc.contains("`\(name)`"), "\(name) is not documented")
        }
    }

    /// The example in the "Shape" section is a clean config.
    @Test func documentedExampleIsValid() throws {
        let doc = try #require(readText(repositoryRoot + "/docs/CONFIG.md"))
        let start = try #require(doc.firstRange(of: "```yaml\n"))
        let rest = doc[start.upperBound...]
        let stop = try #require(rest.firstRange(of: "```"))
        let (config, diagnostics) = ConfigLoader.parse(String(rest[..<stop.lowerBound]), file: "CONFIG.md")
        #expect(diagnostics.map(\.description) == [])
        #expect(config?.specs.map(\.name) == ["workspace-next", "volume", "zoom", "turn"])
    }
}
