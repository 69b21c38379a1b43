/// "Did you mean ...?" suggestions for misspelt names.
public enum Suggestions {
    /// Words longer than this (in characters) get no suggestion, which keeps the cost bounded.
    public static let maximumWordLength = 256

    /// The candidate closest to `word`, or nil when none is close enough.
    ///
    /// Distance is the case-insensitive Damerau-Levenshtein distance (optimal string alignment:
    /// insertions, deletions, substitutions and swaps of adjacent characters, counted in
    /// `Character`s). A candidate qualifies when its distance is at most `max(1, word.count / 3)`.
    /// Ties go to the candidate equal to `word` exactly, then to the alphabetically first.
    /// An empty word, or one longer than ``maximumWordLength``, gets no suggestion.
    public static func closest(to word: String, among candidates: [String]) -> String? {
        let target = Array(word.lowercased())
        guard !target.isEmpty, target.count <= maximumWordLength else { return nil }
        let threshold = max(1, word.count / 3)
        var best: (distance: Int, inexact: Int, candidate: String)?
        for candidate in candidates {
            let other = Array(candidate.lowercased())
            guard abs(other.count - target.count) <= threshold,
                let distance = distance(target, other, limit: threshold)
            else { continue }
            let key = (distance, candidate == word ? 0 : 1, candidate)
            if let current = best, (current.distance, current.inexact, current.candidate) <= key { continue }
            best = key
        }
        return best?.candidate
    }

    /// The optimal-string-alignment distance between `a` and `b`, or nil when it exceeds `limit`.
    static func distance(_ a: [Character], _ b: [Character], limit: Int) -> Int? {
        if a.isEmpty { return b.count <= limit ? b.count : nil }
        if b.isEmpty { return a.count <= limit ? a.count : nil }
        var previousPrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var row = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            row[0] = i
            var rowMinimum = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, previousPrevious[j - 2] + 1)
                }
                row[j] = value
                rowMinimum = min(rowMinimum, value)
            }
            if rowMinimum > limit { return nil }
            (previousPrevious, previous, row) = (previous, row, previousPrevious)
        }
        let result = previous[b.count]
        return result <= limit ? result : nil
    }
}
