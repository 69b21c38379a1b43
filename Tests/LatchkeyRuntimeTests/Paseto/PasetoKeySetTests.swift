import Foundation
@_spi(Generated) import LatchkeyRuntime
import LatchkeyTokens
import Testing

@Suite("PASETO key sets")
struct PasetoKeySetTests {
    /// 2030-06-01T12:00:00Z.
    static let now = Date(timeIntervalSince1970: 1_906_545_600)
    let first: PasetoTestTokens
    let second: PasetoTestTokens
    let validator = PasetoClaimsValidator(issuer: "https://id.example.com", audience: "api.example.com")
    let claims = PasetoTestTokens.claims([
        "iss": "https://id.example.com", "aud": "api.example.com", "sub": "user-1", "exp": "2030-06-01T12:10:00Z",
    ])

    init() throws {
        first = try PasetoTestTokens()
        second = try PasetoTestTokens()
    }

    static func entry(
        kid: String, key: String, alg: String = "v4.public", kty: String = "OKP", crv: String = "Ed25519",
        implicitAssertion: String? = nil
    ) -> JSON {
        var members: [String: JSON] = [
            "kid": .string(kid), "alg": .string(alg), "kty": .string(kty), "crv": .string(crv),
            "public_key_base64": .string(key),
        ]
        if let implicitAssertion { members["implicit_assertion"] = .string(implicitAssertion) }
        return .object(members)
    }

    static func document(_ entries: [JSON]) -> Data {
        JSON.object(["keys": .array(entries)]).serialized
    }

    /// Both keys: the first in standard padded base64, the second in base64url.
    func keySet(implicitAssertion: String? = nil) throws -> PasetoKeySet {
        try PasetoKeySet(
            document: Self.document([
                Self.entry(kid: "key-1", key: Data(first.publicKey).base64EncodedString()),
                Self.entry(kid: "key-2", key: Base64URL.encode(second.publicKey), implicitAssertion: implicitAssertion),
            ]))
    }

    func expectRejected(
        _ token: String, by keySet: PasetoKeySet, validator: PasetoClaimsValidator? = nil, at now: Date = Self.now,
        message: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let error = #expect(throws: AuthError.self, sourceLocation: sourceLocation) {
            try keySet.verify(token, validator: validator ?? self.validator, now: now)
        }
        #expect(error?.code == .invalidToken, sourceLocation: sourceLocation)
        #expect(error?.message == message, sourceLocation: sourceLocation)
    }

    func expectBadDocument(_ data: Data, message: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let error = #expect(throws: AuthError.self, sourceLocation: sourceLocation) { try PasetoKeySet(document: data) }
        #expect(error?.code == .invalidResponse, sourceLocation: sourceLocation)
        #expect(error?.message == message, sourceLocation: sourceLocation)
    }

    @Test("a document decodes, in standard base64 and base64url, padded or not")
    func decodes() throws {
        let keySet = try keySet(implicitAssertion: "tenant-7")
        #expect(keySet.keys.map(\.keyID) == ["key-1", "key-2"])
        #expect(keySet.key(for: "key-1")?.publicKey == first.publicKey)
        #expect(keySet.key(for: "key-2")?.publicKey == second.publicKey)
        #expect(keySet.key(for: "key-2")?.implicitAssertion == Array("tenant-7".utf8))
        #expect(keySet.key(for: "key-1")?.implicitAssertion == [])
        #expect(keySet.key(for: "key-3") == nil)
        let unpadded = String(Data(first.publicKey).base64EncodedString().dropLast())
        let padded = Base64URL.encode(first.publicKey) + "="
        for text in [unpadded, padded] {
            let set = try PasetoKeySet(document: Self.document([Self.entry(kid: "k", key: text)]))
            #expect(set.key(for: "k")?.publicKey == first.publicKey)
        }
    }

    @Test("the standard alphabet is accepted too")
    func standardAlphabet() throws {
        // A fixed key whose encodings differ between the alphabets.
        let raw = [UInt8](repeating: 0xFB, count: 32)
        let standard = Data(raw).base64EncodedString()
        #expect(standard.contains("+") || standard.contains("/"))
        let set = try PasetoKeySet(document: Self.document([Self.entry(kid: "k", key: standard)]))
        #expect(set.key(for: "k")?.publicKey == raw)
        // Mixing the alphabets is refused.
        #expect(standard.hasPrefix("+/"))
        expectBadDocument(
            Self.document([Self.entry(kid: "k", key: "-" + String(standard.dropFirst()))]),
            message: #"PASETO key document entry 0 (kid "k") has no valid public_key_base64"#)
    }

    @Test("keys of the wrong length, other algorithms and curves are rejected")
    func rejectsBadKeys() {
        let good = Base64URL.encode(first.publicKey)
        expectBadDocument(
            Self.document([Self.entry(kid: "k", key: Base64URL.encode(Array(first.publicKey.dropLast())))]),
            message: #"PASETO key document entry 0 (kid "k") public key is 31 bytes; Ed25519 needs 32"#)
        expectBadDocument(
            Self.document([Self.entry(kid: "k", key: Base64URL.encode(first.publicKey + first.publicKey))]),
            message: #"PASETO key document entry 0 (kid "k") public key is 64 bytes; Ed25519 needs 32"#)
        expectBadDocument(
            Self.document([Self.entry(kid: "k", key: "not base64!")]),
            message: #"PASETO key document entry 0 (kid "k") has no valid public_key_base64"#)
        expectBadDocument(
            Self.document([Self.entry(kid: "a", key: good), Self.entry(kid: "k", key: good, alg: "v3.public")]),
            message: #"PASETO key document entry 1 (kid "k") must have alg "v4.public""#)
        expectBadDocument(
            Self.document([Self.entry(kid: "k", key: good, alg: "v4.local")]),
            message: #"PASETO key document entry 0 (kid "k") must have alg "v4.public""#)
        expectBadDocument(
            Self.document([Self.entry(kid: "k", key: good, crv: "X25519")]),
            message: #"PASETO key document entry 0 (kid "k") must have crv "Ed25519""#)
        expectBadDocument(
            Self.document([Self.entry(kid: "k", key: good, kty: "EC")]),
            message: #"PASETO key document entry 0 (kid "k") must have kty "OKP""#)
        expectBadDocument(
            Self.document([Self.entry(kid: "", key: good)]),
            message: "PASETO key document entry 0 has no kid string")
        expectBadDocument(
            Self.document([Self.entry(kid: "k", key: good), Self.entry(kid: "k", key: good)]),
            message: #"PASETO key ID "k" appears more than once"#)
        expectBadDocument(Data(#"{"keys":{}}"#.utf8), message: "the PASETO key document has no keys array")
        expectBadDocument(Data(#"[]"#.utf8), message: "the PASETO key document is not a JSON object")
        expectBadDocument(Data("garbage".utf8), message: "the PASETO key document is not a JSON object")
        expectBadDocument(
            Data(
                #"{"keys":[{"kid":"k","alg":"v4.public","kty":"OKP","crv":"Ed25519","public_key_base64":"\#(good)","implicit_assertion":1}]}"#
                    .utf8),
            message: #"PASETO key document entry 0 (kid "k") implicit_assertion is not a string"#)
    }

    @Test("keys built in code are checked too")
    func keysInCode() throws {
        #expect(throws: AuthError.self) { try PasetoKeySet.Key(keyID: "k", publicKey: [1, 2, 3]) }
        #expect(throws: AuthError.self) { try PasetoKeySet.Key(keyID: "", publicKey: first.publicKey) }
        let key = try PasetoKeySet.Key(keyID: "k", publicKey: first.publicKey)
        #expect(throws: AuthError.self) { try PasetoKeySet(keys: [key, key]) }
        let set = try PasetoKeySet(keys: [key])
        let token = try first.token(claims, footer: #"{"kid":"k"}"#)
        #expect(try set.verify(token, validator: validator, now: Self.now).claims["sub"] == .string("user-1"))
    }

    @Test("the key is selected by the footer kid")
    func selectsByKeyID() throws {
        let keySet = try keySet(implicitAssertion: "tenant-7")
        let fromFirst = try first.token(claims, footer: #"{"kid":"key-1"}"#)
        let fromSecond = try second.token(
            claims, footer: #"{"kid":"key-2","extra":{"n":[1,2]}}"#, implicitAssertion: "tenant-7")
        #expect(PasetoV4Public.keyID(of: fromSecond) == "key-2")
        #expect(try keySet.verify(fromFirst, validator: validator, now: Self.now).keyID == "key-1")
        #expect(try keySet.verify(fromSecond, validator: validator, now: Self.now).payload == Array(claims.utf8))
        // Signed by one key, labelled with the other: the other key cannot verify it.
        let mislabelled = try first.token(claims, footer: #"{"kid":"key-2"}"#, implicitAssertion: "tenant-7")
        expectRejected(mislabelled, by: keySet, message: "PASETO signature is invalid")
        // The second key's implicit assertion comes from the document.
        let withoutAssertion = try second.token(claims, footer: #"{"kid":"key-2"}"#)
        expectRejected(withoutAssertion, by: keySet, message: "PASETO signature is invalid")
    }

    @Test("an unknown kid, a footer without kid and a token without footer fail closed")
    func failsClosed() throws {
        let keySet = try keySet()
        expectRejected(
            try first.token(claims, footer: #"{"kid":"key-3"}"#), by: keySet,
            message: "no key in the PASETO key set has the token's kid")
        expectRejected(
            try first.token(claims, footer: #"{"kid":"KEY-1"}"#), by: keySet,
            message: "no key in the PASETO key set has the token's kid")
        expectRejected(
            try first.token(claims, footer: #"{"key":"key-1"}"#), by: keySet,
            message: "PASETO footer has no kid to select a key")
        expectRejected(
            try first.token(claims, footer: #"{"kid":1}"#), by: keySet,
            message: "PASETO footer has no kid to select a key")
        expectRejected(
            try first.token(claims, footer: "key-1"), by: keySet,
            message: "PASETO footer has no kid to select a key")
        expectRejected(try first.token(claims), by: keySet, message: "PASETO footer has no kid to select a key")
        expectRejected(
            "v3.public.AAAA", by: keySet,
            message: #"not a PASETO v4.public token (the header must be "v4.public.")"#)
        expectRejected(
            String(repeating: "v4.public.", count: 10_000), by: keySet,
            message: "PASETO token is longer than 65536 bytes")
    }

    @Test("claims are validated after verification")
    func validatesClaims() throws {
        let keySet = try keySet()
        let token = try first.token(claims, footer: #"{"kid":"key-1"}"#)
        _ = try keySet.verify(token, validator: validator, now: Self.now)
        expectRejected(
            token, by: keySet, at: Self.now.addingTimeInterval(3600),
            message: "PASETO token has expired (exp is in the past)")
        expectRejected(
            token, by: keySet, validator: PasetoClaimsValidator(issuer: "https://other.example.com", audience: nil),
            message: #"PASETO iss claim is not "https://other.example.com""#)
        expectRejected(
            token, by: keySet, validator: PasetoClaimsValidator(issuer: nil, audience: "other-api"),
            message: #"PASETO aud claim is not "other-api""#)
    }
}
