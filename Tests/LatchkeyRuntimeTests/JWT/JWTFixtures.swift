import Foundation
import LatchkeyPlatform
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import LatchkeyTokens
import Testing

/// Keys, clock and token builders shared by the JWT tests. Keys are generated once per test run.
enum JWTFixtures {
    static let rsa = try! TestSigner(.rsa())
    static let otherRSA = try! TestSigner(.rsa())
    static let p256 = try! TestSigner(.p256)
    static let p384 = try! TestSigner(.p384)
    static let ed25519 = try! TestSigner(.ed25519)

    static let issuer = "https://issuer.example"
    static let clientID = "client-123"
    static let nonce = "n-0S6_WzA2Mj"
    /// 2023-11-14T22:13:20Z.
    static let now = Date(timeIntervalSince1970: 1_700_000_000)
    static let epoch = 1_700_000_000

    /// Pass as `kid:` to leave the kid out of the header.
    static let noKid: String?? = .some(nil)

    /// The signer and a kid for an algorithm.
    static func signer(for algorithm: SignatureAlgorithm) -> (TestSigner, String) {
        switch algorithm {
        case .rs256, .rs384, .rs512, .ps256, .ps384, .ps512: (rsa, "rsa-1")
        case .es256: (p256, "p256-1")
        case .es384: (p384, "p384-1")
        case .edDSA: (ed25519, "ed-1")
        }
    }

    /// A JWKS holding one key per test signer, each with a kid and `use: sig`.
    static var allKeysJWKS: Data {
        jwks([
            rsa.publicJWK(keyID: "rsa-1"), p256.publicJWK(keyID: "p256-1"), p384.publicJWK(keyID: "p384-1"),
            ed25519.publicJWK(keyID: "ed-1"),
        ])
    }

    static var allKeys: JSONWebKeySet { try! JSONWebKeySet(data: allKeysJWKS) }

    /// A JWKS document from JWK members.
    static func jwks(_ keys: [[String: Any]]) -> Data {
        try! JSONSerialization.data(withJSONObject: ["keys": keys], options: [.sortedKeys])
    }

    /// Claims that pass validation with ``validator()``.
    static func claims(_ changes: [String: Any?] = [:]) -> [String: Any] {
        var claims: [String: Any] = [
            "iss": issuer, "sub": "user-1", "aud": clientID, "iat": epoch - 10, "exp": epoch + 600, "nonce": nonce,
            "email": "ada@example.com", "name": "Ada Lovelace",
        ]
        for (name, value) in changes {
            claims[name] = value
        }
        return claims
    }

    /// The base64url of a JSON object.
    static func part(_ object: [String: Any]) -> String {
        Base64URL.encode(try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
    }

    /// A signed compact JWS. The header gets `alg` (unless `header` sets it) and the kid (unless nil).
    static func token(
        _ claims: [String: Any] = claims(), algorithm: SignatureAlgorithm = .rs256, signer: TestSigner? = nil,
        kid: String?? = .none, header extra: [String: Any] = [:]
    ) -> String {
        let (defaultSigner, defaultKid) = Self.signer(for: algorithm)
        var header: [String: Any] = ["alg": algorithm.rawValue, "typ": "JWT"]
        if let keyID = kid ?? defaultKid { header["kid"] = keyID }
        header.merge(extra) { _, new in new }
        return sign(header: part(header), payload: part(claims), signer: signer ?? defaultSigner, algorithm: algorithm)
    }

    /// Signs already-encoded parts.
    static func sign(header: String, payload: String, signer: TestSigner, algorithm: SignatureAlgorithm) -> String {
        let input = header + "." + payload
        let signature = try! signer.sign(Array(input.utf8), algorithm: algorithm)
        return input + "." + Base64URL.encode(signature)
    }

    /// A validator for the fixture issuer and client at the fixed clock.
    static func validator(
        allowedAlgorithms: Set<SignatureAlgorithm> = IDTokenValidator.defaultAlgorithms, maxAge: TimeInterval? = nil
    ) -> IDTokenValidator {
        IDTokenValidator(
            issuer: issuer, clientID: clientID, allowedAlgorithms: allowedAlgorithms, maxAge: maxAge, now: { now })
    }
}

/// Expects `body` to throw an ``AuthError`` with `code` whose message contains `reason`, and whose
/// message never contains the token or any of its parts.
func expectJWTError(
    _ code: AuthError.Code, _ reason: String, token: String? = nil,
    sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> Void
) async {
    let error = await #expect(throws: AuthError.self, sourceLocation: sourceLocation) { try await body() }
    guard let error else { return }
    #expect(error.code == code, "got \(error)", sourceLocation: sourceLocation)
    #expect(error.message.contains(reason), "got \(error)", sourceLocation: sourceLocation)
    if let token {
        for part in token.split(separator: ".") where part.count >= 8 {
            #expect(!error.description.contains(part), "the error quotes the token", sourceLocation: sourceLocation)
        }
    }
}

/// A clock tests move by hand.
final class JWTTestClock: Sendable {
    private let current: Locked<Date>

    init(_ start: Date = JWTFixtures.now) {
        current = Locked(start)
    }

    var now: Date { current.withLock { $0 } }

    func advance(_ seconds: TimeInterval) {
        current.withLock { $0 += seconds }
    }
}
