import Foundation
@_spi(Generated) import LatchkeyTesting
import Testing

/// Issue 27, item 4.4d: `TestResponse.json` checks its object before `JSONSerialization` sees it. On Apple
/// platforms serializing a NaN or an infinity raises an Objective-C exception that `try?` cannot catch, so a
/// test handler with a bad number ended the whole test process; now it is a 500 that says what and where.
@Suite("Test server: TestResponse.json refuses what JSON cannot express")
struct TestResponseJSONTests {
    /// The objects refused, by name (test arguments must be `Sendable`; `Any` is not).
    enum Refused: String, CaseIterable, Sendable {
        case nan, infinity, nanNumber, nestedInfinity, deepInfinity, floatNaN, escapedKey, integerKey, date

        var object: Any {
            switch self {
            case .nan: Double.nan
            case .infinity: Double.infinity
            case .nanNumber: NSNumber(value: Double.nan)
            case .nestedInfinity: ["expires_in": Double.infinity] as [String: Any]
            case .deepInfinity: ["keys": [["n": 1], ["e": -Double.infinity]]] as [String: Any]
            case .floatNaN: [Float.nan] as [Any]
            case .escapedKey: ["a/b~c": Double.nan] as [String: Any]
            case .integerKey: [1: "one"] as [Int: String]
            case .date: ["issued": Date(timeIntervalSince1970: 0)] as [String: Any]
            }
        }

        /// What the message names.
        var fragment: String {
            switch self {
            case .nan, .infinity, .nanNumber: "the top level"
            case .nestedInfinity: "/expires_in"
            case .deepInfinity: "/keys/1/e"
            case .floatNaN: "/0"
            case .escapedKey: "/a~1b~0c"
            case .integerKey: "not a string"
            case .date: "Date"
            }
        }
    }

    @Test(
        "a non-finite number, a non-string key or a foreign value, at any depth, is a 500 naming it",
        arguments: Refused.allCases)
    func refused(_ refused: Refused) {
        let response = TestResponse.json(refused.object)
        let message = String(decoding: response.body, as: UTF8.self)
        #expect(response.status == 500)
        #expect(message.contains("not JSON"), "\(message)")
        #expect(message.contains(refused.fragment), "\(message)")
    }

    @Test("valid objects serialize as before, keys sorted")
    func valid() {
        let object: [String: Any] = [
            "b": [1, 2.5, true, NSNull(), "s"] as [Any], "a": ["n": Int64.max, "f": Float(0.5)] as [String: Any],
        ]
        let response = TestResponse.json(object)
        #expect(response.status == 200)
        #expect(
            String(decoding: response.body, as: UTF8.self)
                == #"{"a":{"f":0.5,"n":9223372036854775807},"b":[1,2.5,true,null,"s"]}"#)
        #expect(String(decoding: TestResponse.json("text").body, as: UTF8.self) == #""text""#)
    }
}
