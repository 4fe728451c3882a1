/// Nearest-name suggestions for typos ("did you mean --state-dir?").
enum Suggestion {
    /// The candidate closest to `word` by optimal string alignment distance (insertions,
    /// deletions, substitutions and adjacent transpositions each cost 1), or `nil` when none is
    /// close enough: distance 1 for words under 4 characters, 2 otherwise. Ties go to the
    /// earlier candidate.
    static func nearest(to word: String, in candidates: [String]) -> String? {
        let limit = word.count >= 4 ? 2 : 1
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let distance = Self.distance(word, candidate)
            if distance <= limit, distance < (best?.distance ?? Int.max) {
                best = (candidate, distance)
            }
        }
        return best?.candidate
    }

    /// Optimal string alignment distance between `a` and `b`, over Unicode scalars.
    /// - Complexity: O(a.count × b.count).
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a.unicodeScalars)
        let b = Array(b.unicodeScalars)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, table[i - 2][j - 2] + 1)
                }
                table[i][j] = value
            }
        }
        return table[a.count][b.count]
    }
}
