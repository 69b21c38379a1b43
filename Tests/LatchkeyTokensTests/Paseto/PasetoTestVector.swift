import Foundation
import Testing

/// One entry of the PASETO test-vector format (paseto-standard/test-vectors).
struct PasetoTestVector: Decodable, Sendable, CustomTestStringConvertible {
    let name: String
    let expectFail: Bool
    /// The Ed25519 public key, hex (public vectors).
    let publicKey: String?
    /// The symmetric key, hex (local vectors; 4-F-2 pairs one with a public token).
    let key: String?
    let token: String
    /// The expected payload text; `null` for vectors that must fail.
    let payload: String?
    let footer: String
    let implicitAssertion: String

    enum CodingKeys: String, CodingKey {
        case name, key, token, payload, footer
        case expectFail = "expect-fail"
        case publicKey = "public-key"
        case implicitAssertion = "implicit-assertion"
    }

    /// The `v4.local` vectors of the official v4.json, left out of the fixture on purpose: Latchkey only
    /// verifies `v4.public` tokens.
    static let skippedLocalVectors = [
        "4-E-1", "4-E-2", "4-E-3", "4-E-4", "4-E-5", "4-E-6", "4-E-7", "4-E-8", "4-E-9", "4-F-3", "4-F-4",
    ]

    /// Every vector of the fixture.
    static let all: [PasetoTestVector] = {
        struct File: Decodable { let tests: [PasetoTestVector] }
        return try! JSONDecoder().decode(File.self, from: Data(PasetoV4PublicVectors.json.utf8)).tests
    }()

    /// The vectors that must verify.
    static var succeeding: [PasetoTestVector] { all.filter { !$0.expectFail } }
    /// The vectors that must be rejected.
    static var failing: [PasetoTestVector] { all.filter(\.expectFail) }

    /// The key to verify with: the public key, or for 4-F-2 the symmetric key misused as one.
    var verificationKey: [UInt8] { TestVectorHex.bytes(publicKey ?? key ?? "") }

    /// The expected footer argument: the vector's footer, or `nil` when it has none.
    var expectedFooter: String? { footer.isEmpty ? nil : footer }

    var testDescription: String { name }
}

/// Names parameterized test cases after the vector.
protocol CustomTestStringConvertible {
    var testDescription: String { get }
}
