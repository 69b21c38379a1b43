import Foundation
@_spi(Generated) import LatchkeyRuntime
import LatchkeyTokens
import LatchkeyVocabulary
import Testing

/// The one RFC 6901 reader of the runtime (lookups) and the simulator (writer), on RFC 6901 section 5's examples.
@Suite("JSON pointers (RFC 6901)")
struct JSONPointerSyntaxTests {
    /// RFC 6901 section 5's document.
    static let document = #"""
        {"foo": ["bar", "baz"], "": 0, "a/b": 1, "c%d": 2, "e^f": 3, "g|h": 4, "i\\j": 5, "k\"l": 6, " ": 7,
         "m~n": 8}
        """#

    /// RFC 6901 section 5's pointers and the values they evaluate to.
    static let examples: [(pointer: String, value: String)] = [
        ("", "whole"), ("/foo", #"["bar","baz"]"#), ("/foo/0", #""bar""#), ("/", "0"), ("/a~1b", "1"),
        ("/c%d", "2"), ("/e^f", "3"), ("/g|h", "4"), (#"/i\j"#, "5"), (#"/k"l"#, "6"), ("/ ", "7"),
        ("/m~0n", "8"),
    ]

    @Test("RFC 6901 section 5: every example evaluates to its value")
    func sectionFiveExamples() throws {
        let document = try #require(JSON(data: Data(Self.document.utf8)))
        for example in Self.examples {
            let found = try #require(document.value(at: example.pointer), "\(example.pointer)")
            if example.value == "whole" {
                #expect(found == document)
            } else {
                #expect(found == JSON(data: Data(example.value.utf8)), "\(example.pointer)")
            }
        }
    }

    @Test("reference tokens unescape ~1 before ~0, and malformed pointers are refused")
    func tokens() {
        #expect(JSONPointerSyntax.referenceTokens("") == [])
        #expect(JSONPointerSyntax.referenceTokens("/") == [""])
        #expect(JSONPointerSyntax.referenceTokens("/a~1b/m~0n") == ["a/b", "m~n"])
        #expect(JSONPointerSyntax.referenceTokens("/~01") == ["~1"])
        #expect(JSONPointerSyntax.referenceTokens("/~2") == nil)
        #expect(JSONPointerSyntax.referenceTokens("/a~") == nil)
        #expect(JSONPointerSyntax.referenceTokens("foo") == nil)
        #expect(JSONPointerSyntax.escape("a/b~c") == "a~1b~0c")
        for token in ["a/b", "m~n", "~1", "plain", ""] {
            #expect(JSONPointerSyntax.referenceTokens("/" + JSONPointerSyntax.escape(token)) == [token])
        }
    }

    @Test("array indices: no leading zeros, no signs, in range")
    func arrayIndices() throws {
        let document = try #require(JSON(data: Data(Self.document.utf8)))
        #expect(document.value(at: "/foo/1") == .string("baz"))
        #expect(document.value(at: "/foo/01") == nil)
        #expect(document.value(at: "/foo/-") == nil)
        #expect(document.value(at: "/foo/2") == nil)
        #expect(document.value(at: "/foo/+1") == nil)
    }
}
