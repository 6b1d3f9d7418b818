import Glibc
import PlainText
import Testing
import TouchModel

/// The one glob the engine, `check` and the daemon share (issue 10, finding 7).
@Suite struct GlobTests {
    @Test(arguments: [
        ("*", "", true), ("*", "SynPS/2 Synaptics TouchPad", true),
        ("*TouchPad", "SynPS/2 Synaptics TouchPad", true), ("*Touchpad", "SynPS/2 Synaptics TouchPad", false),
        ("Syn*Pad", "SynPS/2 Synaptics TouchPad", true), ("*/*", "SynPS/2", true), ("*", ".hidden", true),
        ("?", "a", true), ("?", "", false), ("??", "a", false), ("ELAN?", "ELAN9", true), ("é?", "éa", true),
        ("[abc]x", "bx", true), ("[abc]x", "dx", false), ("[a-z]9", "q9", true), ("[a-z]9", "Q9", false),
        ("[!a-z]9", "Q9", true), ("[^a-z]9", "q9", false), ("[]]", "]", true), ("[!]]", "]", false), ("[a-]", "-", true),
        ("[[:digit:]][[:upper:]]", "7Q", true), ("[[:digit:]]", "x", false), ("[[:alpha:][:space:]]", " ", true),
        ("\\*", "*", true), ("\\*", "x", false), ("a\\", "a\\", false), ("[a", "[a", true), ("[a", "a", false),
        ("Wacom [!P]*", "Wacom ISDv4 E6 Finger", true), ("Wacom [!I]*", "Wacom ISDv4 E6 Finger", false),
    ])
    func matchesLikeFnmatch(_ pattern: String, _ name: String, _ expected: Bool) {
        #expect(Glob.matches(pattern, name) == expected)
        if name.utf8.allSatisfy({ $0 < 0x80 }) {
            #expect((fnmatch(pattern, name, 0) == 0) == expected, "fnmatch disagrees with this table")
        }
    }

    /// Seeded random patterns over the characters that have meaning, against
    /// glibc's fnmatch: the two agree on every one.
    @Test func agreesWithFnmatchOnRandomPatterns() {
        let alphabet = Array("ab[]!^-\\*?")
        let texts = ["", "a", "b", "ab", "ba", "[", "]", "-", "!", "^", "\\", "*", "?", "a]", "[a", "a-b", "aab", "b[a]", "ab*?", "]]"]
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func random(_ n: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(n))
        }
        var disagreements: [String] = []
        for _ in 0..<20_000 {
            let pattern = String((0..<random(7) + 1).map { _ in alphabet[random(alphabet.count)] })
            for text in texts where Glob.matches(pattern, text) != (fnmatch(pattern, text, 0) == 0) {
                disagreements.append("'\(pattern)' vs '\(text)': fnmatch says \(fnmatch(pattern, text, 0) == 0)")
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(10))")
    }

    /// Backtracking over every `*` made this exponential (more than 30 s at 80
    /// characters); here it is pattern × name steps, so a far longer name and
    /// more stars end at once.
    @Test func manyStarsAgainstALongNameDoNotBacktrackExponentially() {
        let stars = String(repeating: "*a", count: 40) + "*b"
        #expect(!Glob.matches("*a*a*a*a*a*a*b", String(repeating: "a", count: 80)))
        #expect(!Glob.matches(stars, String(repeating: "a", count: 10_000)))
        #expect(Glob.matches(stars, String(repeating: "a", count: 10_000) + "b"))
    }
}
