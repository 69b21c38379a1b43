import LatchkeyDescriptor
import Testing

/// `SwiftNames.identifier`: any text becomes a valid Swift identifier, one `_` for each scalar that is not an
/// ASCII letter or digit.
@Suite struct SwiftIdentifierTests {
    @Test(arguments: [
        ("", "_"), ("plain", "plain"), ("camelCase42", "camelCase42"), ("9lives", "_9lives"),
        ("with-dash", "with_dash"), ("two words", "two_words"), ("café", "caf_"), ("日本", "__"), ("😀x", "_x"),
        ("e\u{301}", "e_"), ("class", "`class`"), ("default", "`default`"), ("_under", "_under"), ("a.b", "a_b"),
    ])
    func identifier(text: String, expected: String) {
        #expect(SwiftNames.identifier(text) == expected)
    }
}
