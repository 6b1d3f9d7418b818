/// Suggestions for misspelt keys, kinds, directions and names, the way
/// swift-argument-parser suggests options: the closest candidate by edit distance,
/// if it is close enough to be a plausible typo.
enum DidYouMean {
    /// The candidate nearest to `word`, or nil when none is within a third of its length (at least 2 edits).
    static func suggestion(for word: String, among candidates: [String]) -> String? {
        let w = Array(word.lowercased().unicodeScalars)
        let limit = max(2, w.count / 3)
        var best: (String, Int)?
        for c in candidates {
            // The distance is at least the difference in length: skip the costly count.
            guard abs(c.unicodeScalars.count - w.count) <= limit else { continue }
            let d = distance(w, Array(c.lowercased().unicodeScalars))
            if d <= limit, best == nil || d < best!.1 { best = (c, d) }
        }
        return best?.0
    }

    /// `; did you mean 'x'?` or the empty string.
    static func hint(for word: String, among candidates: [String]) -> String {
        guard let s = suggestion(for: word, among: candidates) else { return "" }
        return "; did you mean '\(s)'?"
    }

    /// Damerau–Levenshtein (optimal string alignment): a swapped pair of letters is one edit.
    static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var prev2 = [Int](repeating: 0, count: b.count + 1)
        var prev = Array(0...b.count)
        var cur = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            cur[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    cur[j] = min(cur[j], prev2[j - 2] + 1)
                }
            }
            (prev2, prev, cur) = (prev, cur, prev2)
        }
        return prev[b.count]
    }
}
