import Foundation
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import LatchkeyTokens
import Testing

@Suite("JWS compact parsing")
struct JWTCompactParsingTests {
    @Test("a well-formed token parses into header, payload, signing input and signature")
    func parses() throws {
        let compact = JWTFixtures.token(kid: "rsa-1")
        let token = try JWSToken(compact: compact)
        let parts = compact.split(separator: ".").map(String.init)
        #expect(token.header.algorithm == "RS256")
        #expect(token.header.keyID == "rsa-1")
        #expect(token.header.type == "JWT")
        #expect(token.payload["sub"] == .string("user-1"))
        #expect(token.payload["exp"]?.int == JWTFixtures.epoch + 600)
        #expect(token.signingInput == Array((parts[0] + "." + parts[1]).utf8))
        #expect(token.signature == Base64URL.decode(parts[2]))
        #expect(token.signature.count == 256)
    }

    @Test("the wrong number of parts is refused", arguments: ["a.b", "a.b.c.d", "abc", "", "...", "a..b.c", "a.b.c."])
    func partCount(_ text: String) async {
        await expectJWTError(.invalidToken, "3 dot-separated parts") { _ = try JWSToken(compact: text) }
    }

    @Test("a token whose 2 parts are valid is still refused")
    func twoValidParts() async {
        let parts = JWTFixtures.token().split(separator: ".")
        let compact = parts[0] + "." + parts[1]
        await expectJWTError(.invalidIDToken, "3 dot-separated parts", token: String(compact)) {
            _ = try JWSToken(compact: String(compact), failureCode: .invalidIDToken)
        }
    }

    @Test("bad base64url is refused", arguments: [0, 1, 2])
    func badBase64(_ index: Int) async {
        var parts = JWTFixtures.token().split(separator: ".").map(String.init)
        for corruption in [
            "*" + parts[index], parts[index] + "=", parts[index] + "+/", String(parts[index].dropLast(1)) + "\u{e9}",
        ] {
            var corrupted = parts
            corrupted[index] = corruption
            await expectJWTError(.invalidToken, "is not unpadded base64url") {
                _ = try JWSToken(compact: corrupted.joined(separator: "."))
            }
        }
        parts[index] = "A"  // 1 character is never valid base64
        await expectJWTError(.invalidToken, "is not unpadded base64url") {
            _ = try JWSToken(compact: parts.joined(separator: "."))
        }
    }

    @Test("a non-canonical encoding (non-zero unused bits) is refused")
    func nonCanonical() async {
        // "QQ" and "QR" both decode to "A", but only "QQ" has its unused bits zero.
        let payload = JWTFixtures.part(JWTFixtures.claims())
        let header = Base64URL.encode(Array(#"{"alg":"RS256","x":"A"}"#.utf8))
        #expect(throws: Never.self) { try JWSToken(compact: header + "." + payload + ".QQ") }
        await expectJWTError(.invalidToken, "signature is not unpadded base64url") {
            _ = try JWSToken(compact: header + "." + payload + ".QR")
        }
    }

    @Test(
        "a header or payload that is not a JSON object is refused",
        arguments: ["[1,2]", #""text""#, "42", "null", "{", "{\"alg\":\"RS256\"} x", ""])
    func notAnObject(_ json: String) async {
        let object = JWTFixtures.part(["alg": "RS256"])
        let encoded = Base64URL.encode(Array(json.utf8))
        await expectJWTError(.invalidToken, "header is not a UTF-8 JSON object") {
            _ = try JWSToken(compact: encoded + "." + object + ".c2ln")
        }
        await expectJWTError(.invalidToken, "payload is not a UTF-8 JSON object") {
            _ = try JWSToken(compact: object + "." + encoded + ".c2ln")
        }
    }

    @Test("a header or payload in another encoding than UTF-8 is refused")
    func notUTF8() async {
        let object = JWTFixtures.part(["alg": "RS256"])
        let utf16 = Base64URL.encode(Array(#"{"alg":"RS256"}"#.data(using: .utf16)!))
        await expectJWTError(.invalidToken, "header is not a UTF-8 JSON object") {
            _ = try JWSToken(compact: utf16 + "." + object + ".c2ln")
        }
        let latin1 = Base64URL.encode([0x7B, 0x22, 0xE9, 0x22, 0x3A, 0x31, 0x7D])  // {"é":1} in Latin-1
        await expectJWTError(.invalidToken, "payload is not a UTF-8 JSON object") {
            _ = try JWSToken(compact: object + "." + latin1 + ".c2ln")
        }
    }

    @Test(
        "a repeated member name is refused (JSONDecoder would keep the first)",
        arguments: [
            #"{"alg":"RS256","alg":"none"}"#, #"{"alg":"RS256","\u0061lg":"none"}"#,
            #"{"alg":"RS256", "kid":"a" , "kid" :"b"}"#,
        ])
    func duplicateMembers(_ header: String) async {
        let payload = JWTFixtures.part(JWTFixtures.claims())
        await expectJWTError(.invalidToken, "unique member names") {
            _ = try JWSToken(compact: Base64URL.encode(Array(header.utf8)) + "." + payload + ".c2ln")
        }
        await expectJWTError(.invalidToken, "payload is not a UTF-8 JSON object with unique member names") {
            _ = try JWSToken(
                compact: JWTFixtures.part(["alg": "RS256"]) + "." + Base64URL.encode(Array(header.utf8)) + ".c2ln")
        }
    }

    @Test("repeated names in nested objects, or escaped but distinct names, are not repeats")
    func notDuplicates() throws {
        let header = #"{"alg":"RS256","x":{"a":1,"a":2},"y":[{"b":1},{"b":2}],"k\"1":1,"k1":"\"k1\""}"#
        let token = try JWSToken(
            compact: Base64URL.encode(Array(header.utf8)) + "." + JWTFixtures.part(["sub": "x"]) + ".c2ln")
        #expect(token.header.members["k\"1"] == .number(1))
    }

    @Test("a header without a string alg, with a non-string kid or typ, or with crit is refused")
    func badHeaders() async {
        let payload = JWTFixtures.part(JWTFixtures.claims())
        let cases: [([String: Any], String)] = [
            ([:], "no alg string"), (["alg": 256], "no alg string"), (["alg": ""], "no alg string"),
            (["alg": "RS256", "kid": 1], "kid is not a string"),
            (["alg": "RS256", "typ": ["JWT"]], "typ is not a string"),
            (["alg": "RS256", "crit": ["b64"], "b64": false], "critical extensions"),
        ]
        for (header, reason) in cases {
            await expectJWTError(.invalidToken, reason) {
                _ = try JWSToken(compact: JWTFixtures.part(header) + "." + payload + ".c2ln")
            }
        }
    }

    @Test("1 MB of garbage is refused by size before any decoding")
    func hugeGarbage() async {
        let garbage = String(repeating: "eyJhbGciOiJSUzI1NiJ9.", count: 50_000)
        await expectJWTError(.invalidIDToken, "at most 65536") {
            _ = try JWSToken(compact: garbage, failureCode: .invalidIDToken)
        }
        let validator = JWTFixtures.validator()
        await expectJWTError(.invalidIDToken, "at most 65536") {
            _ = try validator.validate(garbage, keys: JWTFixtures.allKeys, nonce: nil)
        }
    }

    @Test("random inputs never crash: every one is refused with an AuthError")
    func fuzz() {
        let source = SeededRandomSource(seed: "jws-fuzz")
        let alphabet = Array("AZaz09-_.=+/ {}\":,\\é\u{0}".unicodeScalars)
        let valid = Array(JWTFixtures.token().unicodeScalars)
        for round in 0..<2_000 {
            let bytes = source.bytes(count: 64)
            var scalars: [Unicode.Scalar]
            if round % 2 == 0 {
                scalars = bytes.map { alphabet[Int($0) % alphabet.count] }
            } else {
                // Mutate a valid token: a few substitutions, deletions or insertions.
                scalars = valid
                for step in 0..<(1 + Int(bytes[0] % 4)) {
                    let position = Int(bytes[1 + step]) * scalars.count / 256
                    let replacement = alphabet[Int(bytes[10 + step]) % alphabet.count]
                    switch bytes[20 + step] % 3 {
                    case 0: scalars[position] = replacement
                    case 1: scalars.remove(at: position)
                    default: scalars.insert(replacement, at: position)
                    }
                }
            }
            var text = ""
            text.unicodeScalars.append(contentsOf: scalars)
            guard scalars != valid else { continue }
            do {
                let token = try JWSToken(compact: text)
                // Whatever parses must still fail verification against the keys.
                #expect(throws: AuthError.self) {
                    try token.verifySignature(
                        keys: JWTFixtures.allKeys, allowedAlgorithms: IDTokenValidator.defaultAlgorithms)
                }
            } catch {
                #expect(error.code == .invalidToken)
            }
        }
    }

    @Test("the description and dump never show the payload or the signature")
    func redacted() throws {
        let compact = JWTFixtures.token()
        let token = try JWSToken(compact: compact)
        var dumped = ""
        dump(token, to: &dumped)
        for text in [String(describing: token), String(reflecting: token), dumped] {
            #expect(text.contains("RS256"))
            #expect(!text.contains("user-1"))
            #expect(!text.contains(compact.split(separator: ".")[2].prefix(16)))
        }
    }
}
