import Foundation
import LatchkeyGenerator
import Testing

@Suite struct DiffTests {
    @Test func equalTextsHaveNoDiff() {
        #expect(UnifiedDiff.make(old: "a\nb\n", new: "a\nb\n", oldName: "x", newName: "y").isEmpty)
    }

    @Test func changedLineIsShownWithContext() {
        let old = (1...10).map { "line \($0)" }.joined(separator: "\n")
        let new = old.replacingOccurrences(of: "line 5", with: "line five")
        let diff = UnifiedDiff.make(old: old, new: new, oldName: "a/f", newName: "b/f")
        #expect(diff.hasPrefix("--- a/f\n+++ b/f\n@@ -2,7 +2,7 @@\n"))
        #expect(diff.contains("\n-line 5\n+line five\n"))
        #expect(!diff.contains("line 1\n"))
    }
}
