import Testing
@testable import GestureConfig

/// Hostile and mangled files: the parser reports, it never crashes or hangs (SPEC §10).
@Suite struct FuzzTests {
    /// xorshift64*: deterministic, so a failure replays.
    struct Random {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state ^= state >> 12
            state ^= state << 25
            state ^= state >> 27
            return Int((state &* 2685821657736338717) >> 33) % bound
        }

        /// `original` with 1 to `most` bytes removed, inserted from `alphabet`, or replaced.
        mutating func mutated(_ original: [UInt8], most: Int, from alphabet: [UInt8]) -> [UInt8] {
            var bytes = original
            for _ in 0..<(1 + next(most)) {
                let at = next(bytes.count)
                switch next(3) {
                case 0: bytes.remove(at: at)
                case 1: bytes.insert(alphabet[next(alphabet.count)], at: at)
                default: bytes[at] = alphabet[next(alphabet.count)]
                }
            }
            return bytes
        }
    }

    @Test func mutatedDefaultConfigsNeverCrash() {
        let original = Array(defaultConfigYAML.utf8)
        let alphabet = Array(" \n\t:-[]{}&*!|>'\"#%@`,?0123456789abcxyz\r\u{7f}".utf8) + [0x00, 0xc3, 0xa9, 0xff]
        var rng = Random(state: 0x9E37_79B9_7F4A_7C15)
        var outcomes = (valid: 0, invalid: 0)
        for _ in 0..<2000 {
            let bytes = rng.mutated(original, most: 8, from: alphabet)
            let (config, diagnostics) = ConfigLoader.parse(bytes, file: "fuzz.yaml")
            if config == nil {
                outcomes.invalid += 1
                // A refused file always says why, at a place in the file.
                #expect(diagnostics.contains { $0.isError && $0.mark != nil })
            } else {
                outcomes.valid += 1
            }
        }
        #expect(outcomes.valid > 0 && outcomes.invalid > 0)
    }
}
