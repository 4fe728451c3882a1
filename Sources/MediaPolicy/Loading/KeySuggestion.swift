/// "Did you mean …?" for misspelled keys and values: the closest candidate by edit distance.
enum KeySuggestion {
    /// The candidate closest to `word` (case-insensitive Levenshtein distance), when the distance
    /// is at most 2 or a third of `word`'s length, whichever is larger; ties go to the first.
    static func closest(to word: String, in candidates: [String]) -> String? {
        let target = Array(word.lowercased().unicodeScalars)
        let limit = max(2, target.count / 3)
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(target, Array(candidate.lowercased().unicodeScalars))
            if distance <= limit, distance < (best?.distance ?? Int.max) { best = (candidate, distance) }
        }
        return best?.candidate
    }

    /// ` (did you mean `x`?)` or an empty string.
    static func hint(for word: String, in candidates: [String]) -> String {
        guard let match = closest(to: word, in: candidates), match != word else { return "" }
        return " (did you mean `\(match)`?)"
    }

    static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
