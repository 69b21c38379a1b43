import LatchkeyDescriptor
import Testing

@Suite("Did-you-mean suggestions")
struct SuggestionsTests {
    static let fields = ["clientId", "clientSecret", "scopes", "tokenURL", "authorizeURL", "grantType", "audience"]

    @Test(
        "close misspellings find their field",
        arguments: [
            ("clientID", "clientId"),  // case only
            ("clinetId", "clientId"),  // adjacent swap
            ("clientSecre", "clientSecret"),  // deletion
            ("scoppes", "scopes"),  // insertion
            ("tokenUrl", "tokenURL"),
            ("TOKENURL", "tokenURL"),
            ("grant_type", "grantType"),  // 2 edits, 10 characters: threshold 3
            ("audiance", "audience"),
        ])
    func suggestion(word: String, expected: String) {
        #expect(Suggestions.closest(to: word, among: Self.fields) == expected)
    }

    @Test("distant words get no suggestion", arguments: ["colour", "x", "redirect", "", "scopesscopes"])
    func noSuggestion(word: String) {
        #expect(Suggestions.closest(to: word, among: Self.fields) == nil)
    }

    @Test("the threshold is max(1, count / 3)")
    func threshold() {
        #expect(Suggestions.closest(to: "ab", among: ["xb"]) == "xb")  // 1 edit allowed
        #expect(Suggestions.closest(to: "ab", among: ["xy"]) == nil)  // 2 edits
        #expect(Suggestions.closest(to: "abcdef", among: ["abcdxy"]) == "abcdxy")  // 2 edits allowed at 6
        #expect(Suggestions.closest(to: "abcdef", among: ["abcxyz"]) == nil)  // 3 edits
        #expect(Suggestions.closest(to: "a", among: ["ab", "b", ""]) == "")  // ties at 1: "" < "ab" < "b"
    }

    @Test("ties break alphabetically, whatever the candidate order")
    func ties() {
        #expect(Suggestions.closest(to: "cat", among: ["hat", "bat", "rat"]) == "bat")
        #expect(Suggestions.closest(to: "cat", among: ["rat", "hat", "bat"]) == "bat")
        #expect(Suggestions.closest(to: "cat", among: ["cart", "bat"]) == "bat")
        #expect(Suggestions.closest(to: "cat", among: ["cart", "cats"]) == "cart")
    }

    @Test("the closest candidate wins over an alphabetically earlier one")
    func closestWins() {
        #expect(Suggestions.closest(to: "scopess", among: ["scope", "scopes"]) == "scopes")
        #expect(Suggestions.closest(to: "scopez", among: ["scopes", "scope"]) == "scope")  // a tie at 1
        #expect(Suggestions.closest(to: "tokn", among: ["a", "token", "took"]) == "token")
    }

    @Test("an exact match is preferred over a case-insensitive one")
    func exactCase() {
        #expect(Suggestions.closest(to: "type", among: ["Type", "type"]) == "type")
        #expect(Suggestions.closest(to: "Type", among: ["type"]) == "type")
    }

    @Test("no candidates, and very long words, give nil quickly")
    func edges() {
        #expect(Suggestions.closest(to: "scopes", among: []) == nil)
        let long = String(repeating: "a", count: 100_000)
        #expect(Suggestions.closest(to: long, among: [long]) == nil)
        #expect(
            Suggestions.closest(to: String(repeating: "a", count: 256), among: [String(repeating: "a", count: 250)])
                != nil)
    }
}
