import Foundation
@_spi(Generated) import LatchkeyRuntime
import LatchkeyTokens
import Testing

/// ``PasetoKeySet/usableEntries(of:)``: the lenient reading of a key document, as Base IdP's SDKs read it.
@Suite("PASETO key documents read leniently")
struct PasetoKeySetUsableEntriesTests {
    let good = Base64URL.encode(Array(repeating: 7, count: 32))
    let other = Base64URL.encode(Array(repeating: 9, count: 32))

    @Test("entries of other versions, purposes and broken ones are skipped")
    func skipsUnusableEntries() throws {
        let document = PasetoKeySetTests.document([
            PasetoKeySetTests.entry(kid: "v3", key: good, alg: "v3.public"),
            PasetoKeySetTests.entry(kid: "local", key: good, alg: "v4.local"),
            PasetoKeySetTests.entry(kid: "x25519", key: good, crv: "X25519"),
            PasetoKeySetTests.entry(kid: "ec", key: good, kty: "EC"),
            PasetoKeySetTests.entry(kid: "short", key: "AAAA"),
            PasetoKeySetTests.entry(kid: "", key: good),
            .string("not an object"),
            PasetoKeySetTests.entry(kid: "k1", key: good),
        ])
        let (keySet, skipped) = try PasetoKeySet.usableEntries(of: document)
        #expect(keySet.keys.map(\.keyID) == ["k1"])
        #expect(skipped == 7)
        // The strict reading refuses the same document.
        #expect(throws: AuthError.self) { try PasetoKeySet(document: document) }
    }

    @Test("a kid on two usable entries is ambiguous: both are skipped")
    func skipsDuplicateKeyIDs() throws {
        let document = PasetoKeySetTests.document([
            PasetoKeySetTests.entry(kid: "k1", key: good), PasetoKeySetTests.entry(kid: "k1", key: other),
            PasetoKeySetTests.entry(kid: "k2", key: other),
        ])
        let (keySet, skipped) = try PasetoKeySet.usableEntries(of: document)
        #expect(keySet.keys.map(\.keyID) == ["k2"])
        #expect(skipped == 2)
    }

    @Test("a document with no usable entry, or no keys array, is invalid_response")
    func rejectsDocumentsWithoutUsableKeys() {
        for data in [
            PasetoKeySetTests.document([PasetoKeySetTests.entry(kid: "local", key: good, alg: "v4.local")]),
            PasetoKeySetTests.document([]),
            Data(#"{"keys":{}}"#.utf8),
            Data("garbage".utf8),
        ] {
            let error = #expect(throws: AuthError.self) { try PasetoKeySet.usableEntries(of: data) }
            #expect(error?.code == .invalidResponse)
        }
    }
}
