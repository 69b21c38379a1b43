/// A unified diff of two texts, line by line, for `latchkey-gen check`.
public enum UnifiedDiff {
    /// Computes a unified diff with three lines of context.
    /// - Parameters:
    ///   - old: The committed text.
    ///   - new: The freshly generated text.
    ///   - oldName: The label of the committed side.
    ///   - newName: The label of the generated side.
    /// - Returns: The diff, or an empty string when the texts are equal.
    public static func make(old: String, new: String, oldName: String, newName: String, context: Int = 3) -> String {
        if old == new { return "" }
        let a = old.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let b = new.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let ops = editScript(a, b)
        var out = "--- \(oldName)\n+++ \(newName)\n"
        var index = 0
        while index < ops.count {
            guard ops[index].kind != .equal else {
                index += 1
                continue
            }
            var start = index
            var contextBefore = 0
            while start > 0 && ops[start - 1].kind == .equal && contextBefore < context {
                start -= 1
                contextBefore += 1
            }
            var end = index
            var trailing = 0
            while end < ops.count {
                if ops[end].kind == .equal {
                    trailing += 1
                    if trailing > context * 2 { break }
                } else {
                    trailing = 0
                }
                end += 1
            }
            while end > index && ops[end - 1].kind == .equal && trailing > context {
                end -= 1
                trailing -= 1
            }
            let hunk = ops[start..<end]
            let oldStart = (hunk.first?.oldIndex ?? 0) + 1
            let newStart = (hunk.first?.newIndex ?? 0) + 1
            let oldCount = hunk.filter { $0.kind != .insert }.count
            let newCount = hunk.filter { $0.kind != .delete }.count
            out += "@@ -\(oldStart),\(oldCount) +\(newStart),\(newCount) @@\n"
            for op in hunk {
                switch op.kind {
                case .equal: out += " " + a[op.oldIndex] + "\n"
                case .delete: out += "-" + a[op.oldIndex] + "\n"
                case .insert: out += "+" + b[op.newIndex] + "\n"
                }
            }
            index = end
        }
        return out
    }

    struct Operation {
        enum Kind { case equal, delete, insert }
        var kind: Kind
        var oldIndex: Int
        var newIndex: Int
    }

    /// A longest-common-subsequence edit script, trimmed of common prefix and suffix first.
    static func editScript(_ a: [String], _ b: [String]) -> [Operation] {
        var prefix = 0
        while prefix < a.count && prefix < b.count && a[prefix] == b[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < a.count - prefix && suffix < b.count - prefix
            && a[a.count - 1 - suffix] == b[b.count - 1 - suffix]
        {
            suffix += 1
        }
        let midA = Array(a[prefix..<(a.count - suffix)])
        let midB = Array(b[prefix..<(b.count - suffix)])
        var ops = (0..<prefix).map { Operation(kind: .equal, oldIndex: $0, newIndex: $0) }
        if midA.count * midB.count > 4_000_000 {
            ops += midA.indices.map { Operation(kind: .delete, oldIndex: prefix + $0, newIndex: prefix) }
            ops += midB.indices.map { Operation(kind: .insert, oldIndex: prefix + midA.count, newIndex: prefix + $0) }
        } else {
            var table = Array(repeating: Array(repeating: 0, count: midB.count + 1), count: midA.count + 1)
            for i in stride(from: midA.count - 1, through: 0, by: -1) {
                for j in stride(from: midB.count - 1, through: 0, by: -1) {
                    table[i][j] = midA[i] == midB[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
                }
            }
            var i = 0
            var j = 0
            while i < midA.count || j < midB.count {
                if i < midA.count && j < midB.count && midA[i] == midB[j] {
                    ops.append(Operation(kind: .equal, oldIndex: prefix + i, newIndex: prefix + j))
                    i += 1
                    j += 1
                } else if i < midA.count && (j == midB.count || table[i + 1][j] >= table[i][j + 1]) {
                    ops.append(Operation(kind: .delete, oldIndex: prefix + i, newIndex: prefix + j))
                    i += 1
                } else {
                    ops.append(Operation(kind: .insert, oldIndex: prefix + i, newIndex: prefix + j))
                    j += 1
                }
            }
        }
        let tailA = a.count - suffix
        let tailB = b.count - suffix
        ops += (0..<suffix).map { Operation(kind: .equal, oldIndex: tailA + $0, newIndex: tailB + $0) }
        return ops
    }
}
