/// Suggestions for misspelt keys, kinds, directions and names, the way
/// swift-argument-parser suggests options: the closest candidate by edit distance,
/// if it is close enough to be a plausible typo. The one did-you-mean of gestured:
/// the config, the command line and the control socket's names all ask here.
///
/// Its cost is bounded whatever it is given (a control client's 4 KiB name against a
/// 1,000-gesture config took the loop 2 s with an unbounded edit distance): a word
/// longer than `maxWordLength` gets no suggestion, a candidate whose length alone
/// puts it out of reach is skipped, and a comparison stops at the first row of the
/// table that is already beyond the limit.
public enum DidYouMean {
    /// Longer words are not typos of a name; nothing is suggested for them (scalars).
    public static let maxWordLength = 64

    /// The candidate nearest to `word`, or nil when none is within a third of its length (at least 2 edits).
    public static func suggestion(for word: String, among candidates: [String]) -> String? {
        let w = Array(word.lowercased().unicodeScalars.prefix(maxWordLength + 1))
        guard w.count <= maxWordLength else { return nil }
        var limit = max(2, w.count / 3)
        var best: String?
        for c in candidates {
            // The distance is at least the difference in length: skip the costly count.
            let scalars = c.unicodeScalars
            guard abs(scalars.count - w.count) <= limit else { continue }
            // Only a closer one can replace the best so far.
            if let d = distance(w, Array(c.lowercased().unicodeScalars), atMost: limit), best == nil || d < limit {
                best = c
                limit = d
            }
        }
        return best
    }

    /// `; did you mean 'x'?` or the empty string.
    public static func hint(for word: String, among candidates: [String]) -> String {
        guard let s = suggestion(for: word, among: candidates) else { return "" }
        return "; did you mean '\(s)'?"
    }

    /// Damerau–Levenshtein (optimal string alignment): a swapped pair of letters is one edit.
    static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        distance(a, b, atMost: Int.max)!
    }

    /// The distance, or nil as soon as it is known to exceed `bound` (every cell of a
    /// row is; later rows never shrink below a row's minimum but for one transposition,
    /// which the row before also bounds).
    static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], atMost bound: Int) -> Int? {
        if a.isEmpty { return b.count <= bound ? b.count : nil }
        if b.isEmpty { return a.count <= bound ? a.count : nil }
        var prev2 = [Int](repeating: 0, count: b.count + 1)
        var prev = Array(0...b.count)
        var cur = [Int](repeating: 0, count: b.count + 1)
        var previousMinimum = 0
        for i in 1...a.count {
            cur[0] = i
            var rowMinimum = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    cur[j] = min(cur[j], prev2[j - 2] + 1)
                }
                rowMinimum = min(rowMinimum, cur[j])
            }
            if rowMinimum > bound, previousMinimum > bound { return nil }
            previousMinimum = rowMinimum
            (prev2, prev, cur) = (prev, cur, prev2)
        }
        return prev[b.count] <= bound ? prev[b.count] : nil
    }
}
