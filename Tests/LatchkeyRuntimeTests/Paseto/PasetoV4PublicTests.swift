import Foundation
@_spi(Generated) import LatchkeyRuntime
import LatchkeyTokens
import Testing

@Suite("PASETO v4.public verification")
struct PasetoV4PublicTests {
    let tokens: PasetoTestTokens
    let payload = #"{"sub":"user-1","exp":"2030-01-01T00:00:00Z"}"#
    let footer = #"{"kid":"key-1"}"#

    init() throws {
        tokens = try PasetoTestTokens()
    }

    /// The body bytes (`m || sig`) and footer of a token.
    func decode(_ token: String) throws -> (body: [UInt8], footer: [UInt8]) {
        let segments = token.dropFirst("v4.public.".count).split(separator: ".", omittingEmptySubsequences: false)
        let body = try #require(Base64URL.decode(String(segments[0])))
        let footer = segments.count > 1 ? try #require(Base64URL.decode(String(segments[1]))) : []
        return (body, footer)
    }

    func expectInvalid(
        _ token: String, publicKey: [UInt8]? = nil, footer expected: String? = nil, implicitAssertion: [UInt8] = [],
        message: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let error = #expect(throws: AuthError.self, sourceLocation: sourceLocation) {
            try PasetoV4Public.verify(
                token, publicKey: publicKey ?? tokens.publicKey, footer: expected, implicitAssertion: implicitAssertion)
        }
        #expect(error?.code == .invalidToken, sourceLocation: sourceLocation)
        if let message { #expect(error?.message == message, sourceLocation: sourceLocation) }
        // Messages never carry the token (nor a long piece of it).
        if let error, token.count > 40 {
            #expect(!error.description.contains(token.prefix(40)), sourceLocation: sourceLocation)
            #expect(!error.description.contains(token.suffix(30)), sourceLocation: sourceLocation)
        }
    }

    @Test("a signed token verifies, with and without footer and implicit assertion")
    func roundTrip() throws {
        let plain = try tokens.token(payload)
        let verified = try PasetoV4Public.verify(plain, publicKey: tokens.publicKey, footer: "")
        #expect(verified.payload == Array(payload.utf8))
        #expect(verified.footer == [])
        #expect(verified.claims["sub"] == .string("user-1"))
        #expect(verified.keyID == nil)

        let full = try tokens.token(payload, footer: footer, implicitAssertion: "tenant-7")
        let fullVerified = try PasetoV4Public.verify(
            full, publicKey: tokens.publicKey, footer: footer, implicitAssertion: Array("tenant-7".utf8))
        #expect(fullVerified.footer == Array(footer.utf8))
        #expect(fullVerified.keyID == "key-1")
    }

    @Test("a tampered payload is rejected")
    func tamperedPayload() throws {
        let token = try tokens.token(payload)
        var (body, _) = try decode(token)
        body[8] ^= 0x01
        expectInvalid(
            PasetoTestTokens.assemble(message: Array(body.dropLast(64)), signature: Array(body.suffix(64)), footer: []),
            message: "PASETO signature is invalid")
        // Dropping a payload byte keeps the signature intact but changes m.
        expectInvalid(
            PasetoTestTokens.assemble(
                message: Array(body.dropLast(64).dropLast()), signature: Array(body.suffix(64)), footer: []))
    }

    @Test("a tampered signature is rejected")
    func tamperedSignature() throws {
        let token = try tokens.token(payload)
        let (body, _) = try decode(token)
        for index in [body.count - 64, body.count - 33, body.count - 1] {
            var tampered = body
            tampered[index] ^= 0x80
            expectInvalid(
                PasetoTestTokens.assemble(
                    message: Array(tampered.dropLast(64)), signature: Array(tampered.suffix(64)), footer: []),
                message: "PASETO signature is invalid")
        }
    }

    @Test("a tampered, added or removed footer is rejected")
    func tamperedFooter() throws {
        let token = try tokens.token(payload, footer: footer)
        let (body, signedFooter) = try decode(token)
        let message = Array(body.dropLast(64))
        let signature = Array(body.suffix(64))
        #expect(signedFooter == Array(footer.utf8))
        expectInvalid(
            PasetoTestTokens.assemble(message: message, signature: signature, footer: Array(#"{"kid":"key-2"}"#.utf8)))
        expectInvalid(PasetoTestTokens.assemble(message: message, signature: signature, footer: []))
        let unsigned = try tokens.token(payload)
        expectInvalid(unsigned + "." + Base64URL.encode(Array(footer.utf8)))
    }

    @Test("an unexpected footer is rejected before the signature is checked")
    func expectedFooterMismatch() throws {
        let token = try tokens.token(payload, footer: footer)
        expectInvalid(token, footer: #"{"kid":"key-2"}"#, message: "PASETO footer does not match the expected footer")
        expectInvalid(token, footer: "", message: "PASETO footer does not match the expected footer")
        expectInvalid(
            try tokens.token(payload), footer: footer, message: "PASETO footer does not match the expected footer")
    }

    @Test("another key is rejected; a key of the wrong length too")
    func wrongKey() throws {
        let token = try tokens.token(payload)
        let other = try PasetoTestTokens()
        expectInvalid(token, publicKey: other.publicKey, message: "PASETO signature is invalid")
        expectInvalid(token, publicKey: Array(tokens.publicKey.dropLast()))
        expectInvalid(token, publicKey: [])
    }

    @Test("a missing or different implicit assertion is rejected")
    func implicitAssertion() throws {
        let token = try tokens.token(payload, implicitAssertion: "tenant-7")
        expectInvalid(token, message: "PASETO signature is invalid")
        expectInvalid(token, implicitAssertion: Array("tenant-8".utf8), message: "PASETO signature is invalid")
        #expect(
            try PasetoV4Public.verify(token, publicKey: tokens.publicKey, implicitAssertion: Array("tenant-7".utf8))
                .payload == Array(payload.utf8))
    }

    @Test(
        "other versions and purposes are rejected by their header",
        arguments: [
            "v3.public.", "v4.local.", "v2.public.", "V4.public.", "v4.public", "v4.publi.", "v4..", " v4.public.",
        ])
    func otherHeaders(_ header: String) throws {
        let token = try tokens.token(payload, footer: footer)
        let rest = token.dropFirst("v4.public.".count)
        expectInvalid(header + rest, message: #"not a PASETO v4.public token (the header must be "v4.public.")"#)
    }

    @Test(
        "malformed encodings are rejected",
        arguments: [
            "", "v4.public.", "v4.public..", "v4.public.AAAA", "v4.public.!!!!", "v4.public.a.b.c",
        ])
    func malformed(_ token: String) {
        expectInvalid(token)
    }

    @Test("padding, a trailing dot, extra segments and non-canonical base64url are rejected")
    func strictEncoding() throws {
        let token = try tokens.token(payload)
        let withFooter = try tokens.token(payload, footer: footer)
        expectInvalid(token + "=")
        expectInvalid(token + "==")
        expectInvalid(token + ".", message: "PASETO token ends with an empty footer segment")
        expectInvalid(withFooter + ".AA", message: "PASETO v4.public token has too many segments")
        expectInvalid(withFooter + "=")
        // A 3-byte payload makes the body 67 bytes, so its last base64url character has unused low bits.
        // Setting one keeps the decoded bytes but makes the text non-canonical.
        let short = try tokens.token("{ }")
        #expect(try decode(short).body.count == 67)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        let lastCharacter = try #require(short.last)
        let value = try #require(alphabet.firstIndex(of: lastCharacter))
        let noncanonical = String(short.dropLast()) + String(alphabet[value ^ 1])
        #expect(try PasetoV4Public.verify(short, publicKey: tokens.publicKey).claims.isEmpty)
        expectInvalid(noncanonical, message: "PASETO body is not canonical unpadded base64url")
        let footerToken = try tokens.token("{}", footer: "ab")  // "YWI": one unused bit pair
        let lastFooterCharacter = try #require(footerToken.last)
        let footerValue = try #require(alphabet.firstIndex(of: lastFooterCharacter))
        expectInvalid(
            String(footerToken.dropLast()) + String(alphabet[footerValue ^ 1]),
            message: "PASETO footer is not canonical unpadded base64url")
    }

    @Test("a body shorter than a signature is rejected")
    func shortBody() {
        expectInvalid(
            "v4.public." + Base64URL.encode([UInt8](repeating: 1, count: 63)),
            message: "PASETO body is shorter than an Ed25519 signature")
    }

    @Test(
        "a validly signed payload that is not a JSON object is rejected",
        arguments: [
            "", "[]", #"["a"]"#, "null", "12", "not json", #"{"a":1"#,
        ])
    func nonObjectPayload(_ text: String) throws {
        let token = try tokens.token(bytes: Array(text.utf8))
        expectInvalid(token, message: "PASETO payload is not a JSON object")
    }

    @Test("payloads nested deeper than 32 levels are rejected before parsing")
    func deepPayload() throws {
        func nested(_ depth: Int) -> String {
            #"{"a":"# + String(repeating: "[", count: depth - 1) + String(repeating: "]", count: depth - 1) + "}"
        }
        #expect(try PasetoV4Public.verify(try tokens.token(nested(32)), publicKey: tokens.publicKey).claims["a"] != nil)
        // 33 levels is well within what the JSON parser accepts: only the pre-parse limit rejects it.
        expectInvalid(try tokens.token(nested(33)), message: "PASETO payload is not a JSON object")
        expectInvalid(try tokens.token(nested(5000)), message: "PASETO payload is not a JSON object")
        // Brackets inside strings do not count.
        let quoted = #"{"a":""# + String(repeating: "[", count: 100) + #""}"#
        #expect(try PasetoV4Public.verify(try tokens.token(quoted), publicKey: tokens.publicKey).claims["a"] != nil)
    }

    @Test("the kid is read only from small, shallow JSON object footers")
    func footerKeyIDLimits() throws {
        func keyID(footer: String) throws -> String? {
            let token = try tokens.token(payload, footer: footer)
            let fromToken = PasetoV4Public.keyID(of: token)
            #expect(try PasetoV4Public.verify(token, publicKey: tokens.publicKey).keyID == fromToken)
            return fromToken
        }
        #expect(try keyID(footer: #"{"kid":"k","x":[[["deep"]]]}"#) == "k")  // depth 4
        #expect(try keyID(footer: #"{"kid":"k","x":[[[["deeper"]]]]}"#) == nil)  // depth 5
        #expect(try keyID(footer: #"{"kid":"k","pad":""# + String(repeating: "x", count: 4000) + #""}"#) == "k")
        #expect(try keyID(footer: #"{"kid":"k","pad":""# + String(repeating: "x", count: 4100) + #""}"#) == nil)
        #expect(try keyID(footer: #"{"kid":""}"#) == nil)
        #expect(try keyID(footer: #"{"kid":["k"]}"#) == nil)
        #expect(try keyID(footer: #"["k"]"#) == nil)
        #expect(try keyID(footer: "kid") == nil)
    }

    @Test("a 10 MB garbage token is rejected by its size, before any decoding, by verify, footer(of:) and keyID(of:)")
    func hugeToken() throws {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.".utf8)
        let chunk = (0..<1000).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }
        let garbage = "v4.public." + String(repeating: String(decoding: chunk, as: UTF8.self), count: 10_000)
        #expect(garbage.utf8.count == 10_000_010)
        // The size check's message proves nothing was decoded first (no wall-clock bound: machines vary).
        expectInvalid(garbage, message: "PASETO token is longer than 65536 bytes")
        #expect(PasetoV4Public.footer(of: garbage) == nil)
        #expect(PasetoV4Public.keyID(of: garbage) == nil)
    }

    @Test("the size cap is exact")
    func sizeCap() throws {
        let header = "v4.public."
        let atCap = header + String(repeating: "A", count: PasetoV4Public.maximumTokenLength - header.count)
        let overCap = atCap + "A"
        expectInvalid(atCap)  // within the cap: rejected later, by the signature
        let error = #expect(throws: AuthError.self) { try PasetoV4Public.verify(atCap, publicKey: tokens.publicKey) }
        #expect(error?.message == "PASETO signature is invalid")
        expectInvalid(overCap, message: "PASETO token is longer than 65536 bytes")
    }
}
