import LatchkeyDescriptor
import Testing

@Suite("JSON pointers")
struct JSONPointerTests {
    @Test(
        "string form escapes ~ and /",
        arguments: [
            ([String](), ""),
            ([""], "/"),
            (["a"], "/a"),
            (["a", "0", "b/c"], "/a/0/b~1c"),
            (["~"], "/~0"),
            (["~1"], "/~01"),
            (["/~/"], "/~1~0~1"),
            (["a b", "é", ""], "/a b/é/"),
        ])
    func description(tokens: [String], text: String) throws {
        let pointer = JSONPointer(tokens: tokens)
        #expect(pointer.description == text)
        #expect(pointer.tokens == tokens)
        #expect(pointer.count == tokens.count)
        let parsed = try #require(JSONPointer(text))
        #expect(parsed == pointer)
        #expect(parsed.tokens == tokens)
    }

    @Test("invalid string forms are rejected", arguments: ["a", "/~", "/~2", "/a~"])
    func invalid(text: String) {
        #expect(JSONPointer(text) == nil)
    }

    @Test("appending builds the same pointer as tokens, whatever the route")
    func appending() {
        let built = JSONPointer.root.appending("a").appending(0).appending("b/c")
        let fromTokens = JSONPointer(tokens: ["a", "0", "b/c"])
        #expect(built == fromTokens)
        #expect(built.hashValue == fromTokens.hashValue)
        #expect(built.description == "/a/0/b~1c")
        #expect(built.lastToken == "b/c")
        #expect(JSONPointer.root.appending(-1).tokens == ["-1"])
        #expect(JSONPointer.root.appending(7) == JSONPointer(tokens: ["7"]))
        #expect(JSONPointer.root.appending(7) != JSONPointer(tokens: ["07"]))
        #expect(JSONPointer.root.appending("a") != JSONPointer.root.appending("b"))
        #expect(JSONPointer.root.appending("a") != JSONPointer.root.appending("a").appending("a"))
        #expect(JSONPointer.root.tokens.isEmpty)
        #expect(JSONPointer.root.description == "")
        #expect(JSONPointer.root.lastToken == nil)
    }

    @Test("pointers work as set members")
    func hashing() {
        let set: Set<JSONPointer> = [
            JSONPointer(tokens: ["a", "1"]), JSONPointer.root.appending("a").appending(1), JSONPointer(tokens: ["a"]),
            .root,
        ]
        #expect(set.count == 3)
    }

    @Test("setting tokens replaces the pointer")
    func settingTokens() {
        var pointer = JSONPointer.root.appending("x")
        pointer.tokens = ["p", "q"]
        #expect(pointer.description == "/p/q")
        pointer.tokens.append("r")
        #expect(pointer == JSONPointer(tokens: ["p", "q", "r"]))
    }

    @Test("a very long pointer chain is released without overflowing the stack")
    func longChain() {
        var pointer = JSONPointer.root
        for index in 0..<200_000 {
            pointer = pointer.appending(index)
        }
        #expect(pointer.count == 200_000)
        #expect(pointer.lastToken == "199999")
        pointer = .root
        #expect(pointer.count == 0)
    }

    @Test("parsed values carry their pointers")
    func parsedPointers() throws {
        let root = try #require(JSONParser.parse("{\"a~b\": [[{\"c/d\": 1}]]}").root)
        let leaf = try #require(root.object?["a~b"]?.array?[0].array?[0].object?["c/d"])
        #expect(leaf.pointer.description == "/a~0b/0/0/c~1d")
        #expect(leaf.pointer.tokens == ["a~b", "0", "0", "c/d"])
        #expect(leaf.pointer == JSONPointer("/a~0b/0/0/c~1d"))
    }
}

/// The descriptor's pointers read RFC 6901 section 5's examples as the runtime's `JSONPointerSyntax` does.
@Suite("JSON pointer: RFC 6901 section 5")
struct JSONPointerRFCExampleTests {
    @Test("section 5's pointers parse to their tokens and print back unchanged")
    func sectionFive() throws {
        let examples: [(String, [String])] = [
            ("", []), ("/foo", ["foo"]), ("/foo/0", ["foo", "0"]), ("/", [""]), ("/a~1b", ["a/b"]),
            ("/c%d", ["c%d"]), ("/e^f", ["e^f"]), ("/g|h", ["g|h"]), (#"/i\j"#, [#"i\j"#]), (#"/k"l"#, [#"k"l"#]),
            ("/ ", [" "]), ("/m~0n", ["m~n"]), ("/~01", ["~1"]),
        ]
        for (text, tokens) in examples {
            let pointer = try #require(JSONPointer(text), "\(text)")
            #expect(pointer.tokens == tokens, "\(text)")
            #expect(pointer.description == text, "\(text)")
        }
        #expect(JSONPointer("/~2") == nil)
        #expect(JSONPointer("foo") == nil)
    }
}
