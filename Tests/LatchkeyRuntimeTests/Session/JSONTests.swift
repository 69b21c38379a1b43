import Foundation
@_spi(Generated) import LatchkeyRuntime
import Testing

@Suite("Session: JSON values and pointers")
struct SessionJSONTests {
    private let document = JSON(data: Data(#"{"a":{"b":[10,{"c":"d"}]},"m~n":1,"x/y":2,"":3,"t":true,"n":null}"#.utf8))!

    @Test(
        "RFC 6901 pointers",
        arguments: [
            ("", true), ("/a/b/0", true), ("/a/b/1/c", true), ("/m~0n", true), ("/x~1y", true), ("/", true),
            ("/a/b/2", false), ("/a/b/01", false), ("/a/b/-", false), ("a", false), ("/a/z", false), ("/m~2n", false),
            ("/t/x", false),
        ])
    func pointers(pointer: String, found: Bool) {
        #expect((document.value(at: pointer) != nil) == found)
    }

    @Test("accessors")
    func accessors() {
        #expect(document.value(at: "/a/b/1/c")?.string == "d")
        #expect(document.value(at: "/a/b/0")?.int == 10)
        #expect(document.value(at: "/m~0n")?.double == 1)
        #expect(document.value(at: "/t")?.bool == true)
        #expect(document.value(at: "/n")?.isNull == true)
        #expect(document.value(at: "/")?.int == 3)
        #expect(JSON.number(1.5).int == nil)
        #expect(JSON.string("1").int == nil)
    }

    @Test("malformed input never traps")
    func neverCrashes() {
        var generator = SystemRandomNumberGenerator()
        let samples: [String] = [
            "", "{", "[1,", "\"\\u12\"", "nul", "{\"a\":}", "1e999", String(repeating: "[", count: 10_000),
        ]
        for sample in samples { _ = JSON(data: Data(sample.utf8)) }
        for _ in 0..<200 {
            let bytes = (0..<Int.random(in: 0..<64, using: &generator)).map { _ in
                UInt8.random(in: 0...255, using: &generator)
            }
            _ = JSON(data: Data(bytes))
        }
        #expect(JSON(data: Data("<html>".utf8)) == nil)
        #expect(JSON(data: Data("\"text\"".utf8)) == .string("text"))
    }

    @Test("serialization is compact, sorted and round-trips")
    func serialization() throws {
        let value = JSON.object([
            "b": .array([.number(1), .number(2.5), .bool(false), .null]), "a": .string("q\"\n\u{1}"),
        ])
        #expect(value.serializedText == #"{"a":"q\"\n\u0001","b":[1,2.5,false,null]}"#)
        #expect(JSON(data: value.serialized) == value)
        let encoded = try JSONEncoder().encode(value)
        #expect(try JSONDecoder().decode(JSON.self, from: encoded) == value)
    }

    @Test("string escapes: every control character, quotes, backslashes and non-ASCII text, byte for byte")
    func stringEscapes() throws {
        // Every C0 control character, then the characters around the escapes and non-ASCII text (2-, 3- and
        // 4-byte UTF-8, and DEL), which is written as it is.
        let controls = String((0..<0x20).map { Character(Unicode.Scalar(UInt8($0))) })
        let text = controls + #"a"b\c/dé€😀"# + "\u{7F}end"
        let expectedControls = (0..<0x20).map { code -> String in
            switch code {
            case 0x0A: return #"\n"#
            case 0x0D: return #"\r"#
            case 0x09: return #"\t"#
            default: return #"\u00"# + (code < 0x10 ? "0" : "") + String(code, radix: 16)
            }
        }.joined()
        let expected = "\"" + expectedControls + #"a\"b\\c/dé€😀"# + "\u{7F}end\""
        let object = JSON.object(["k\"ey": .string(text), "": .string("")])
        #expect(object.serializedText == #"{"":"","k\"ey":"# + expected + "}")
        #expect(Array(object.serialized) == Array(object.serializedText.utf8))
        #expect(JSON(data: object.serialized) == object)
        // JSONSerialization reads the same strings back.
        let parsed = try JSONSerialization.jsonObject(with: object.serialized) as? [String: String]
        #expect(parsed?["k\"ey"] == text)
    }
}
