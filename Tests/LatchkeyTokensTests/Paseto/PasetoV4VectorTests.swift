import LatchkeyTokens
import Testing

/// The official PASETO v4 test vectors for `v4.public`, from
/// https://github.com/paseto-standard/test-vectors/blob/master/v4.json (fixture: ``PasetoV4PublicVectors``).
@Suite("PASETO v4.public official test vectors")
struct PasetoV4VectorTests {
    @Test("the fixture holds every v4.public vector and only the local ones are skipped")
    func fixtureIsComplete() {
        let names = PasetoTestVector.all.map(\.name)
        #expect(names == ["4-S-1", "4-S-2", "4-S-3", "4-F-1", "4-F-2"])
        #expect(PasetoTestVector.succeeding.count == 3)
        #expect(PasetoTestVector.failing.count == 2)
        // 16 vectors upstream: the 5 kept plus the 11 symmetric ones Latchkey does not implement.
        #expect(Set(names).isDisjoint(with: PasetoTestVector.skippedLocalVectors))
        #expect(names.count + PasetoTestVector.skippedLocalVectors.count == 16)
        for vector in PasetoTestVector.all where vector.token.hasPrefix("v4.local.") {
            // The only local token kept is 4-F-1, which pairs it with a public key and must fail.
            #expect(vector.expectFail && vector.publicKey != nil, "\(vector.name)")
        }
    }

    @Test("succeeding vectors verify to the exact payload and footer", arguments: PasetoTestVector.succeeding)
    func succeeding(_ vector: PasetoTestVector) throws {
        let verified = try PasetoV4Public.verify(
            vector.token, publicKey: vector.verificationKey, footer: vector.expectedFooter,
            implicitAssertion: Array(vector.implicitAssertion.utf8))
        #expect(verified.payload == Array(try #require(vector.payload).utf8))
        #expect(verified.footer == Array(vector.footer.utf8))
        #expect(verified.claims["data"] == .string("this is a signed message"))
        #expect(verified.claims["exp"] == .string("2022-01-01T00:00:00+00:00"))
    }

    @Test("succeeding vectors also verify without an expected footer", arguments: PasetoTestVector.succeeding)
    func succeedingWithoutFooterCheck(_ vector: PasetoTestVector) throws {
        let verified = try PasetoV4Public.verify(
            vector.token, publicKey: vector.verificationKey, implicitAssertion: Array(vector.implicitAssertion.utf8))
        #expect(verified.payload == Array(try #require(vector.payload).utf8))
    }

    @Test("failing vectors are rejected", arguments: PasetoTestVector.failing)
    func failing(_ vector: PasetoTestVector) {
        #expect(vector.payload == nil)
        #expect(vector.verificationKey.count == 32)
        let error = #expect(throws: AuthError.self) {
            try PasetoV4Public.verify(
                vector.token, publicKey: vector.verificationKey, footer: vector.expectedFooter,
                implicitAssertion: Array(vector.implicitAssertion.utf8))
        }
        #expect(error?.code == .invalidToken)
        // Also without the footer check, so the rejection cannot come from the footer alone.
        #expect(throws: AuthError.self) {
            try PasetoV4Public.verify(
                vector.token, publicKey: vector.verificationKey, implicitAssertion: Array(vector.implicitAssertion.utf8)
            )
        }
    }

    @Test("4-F-2 is rejected by its signature, not its syntax")
    func publicTokenWithSymmetricKey() throws {
        let vector = try #require(PasetoTestVector.all.first { $0.name == "4-F-2" })
        #expect(PasetoV4Public.footer(of: vector.token) == Array(vector.footer.utf8))
        let error = #expect(throws: AuthError.self) {
            try PasetoV4Public.verify(
                vector.token, publicKey: vector.verificationKey, implicitAssertion: Array(vector.implicitAssertion.utf8)
            )
        }
        #expect(error?.message == "PASETO signature is invalid")
    }

    @Test("a vector's implicit assertion is bound to its signature")
    func implicitAssertionMatters() throws {
        let vector = try #require(PasetoTestVector.all.first { $0.name == "4-S-3" })
        #expect(throws: AuthError.self) {
            try PasetoV4Public.verify(vector.token, publicKey: vector.verificationKey)
        }
        #expect(throws: AuthError.self) {
            try PasetoV4Public.verify(
                vector.token, publicKey: vector.verificationKey,
                implicitAssertion: Array(#"{"test-vector":"4-S-2"}"#.utf8))
        }
    }

    @Test("footer and kid can be read before verifying")
    func footerAndKeyID() throws {
        let vectors = Dictionary(uniqueKeysWithValues: PasetoTestVector.all.map { ($0.name, $0) })
        let plain = try #require(vectors["4-S-1"])
        #expect(PasetoV4Public.footer(of: plain.token) == [])
        #expect(PasetoV4Public.keyID(of: plain.token) == nil)
        let withKeyID = try #require(vectors["4-S-2"])
        #expect(PasetoV4Public.footer(of: withKeyID.token) == Array(withKeyID.footer.utf8))
        #expect(PasetoV4Public.keyID(of: withKeyID.token) == "zVhMiPBP9fRf2snEcT7gFTioeA9COcNy9DfgL1W60haN")
        let verified = try PasetoV4Public.verify(withKeyID.token, publicKey: withKeyID.verificationKey)
        #expect(verified.keyID == "zVhMiPBP9fRf2snEcT7gFTioeA9COcNy9DfgL1W60haN")
        #expect(verified.footerText == withKeyID.footer)
        // 4-F-1 is a local token: not a v4.public footer to read.
        #expect(PasetoV4Public.footer(of: try #require(vectors["4-F-1"]).token) == nil)
    }
}
