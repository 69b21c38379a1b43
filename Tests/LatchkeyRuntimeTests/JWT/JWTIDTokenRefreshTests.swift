import Foundation
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

@Suite("Refreshed ID tokens")
struct JWTIDTokenRefreshTests {
    let keys = JWTFixtures.allKeys
    let validator = JWTFixtures.validator()

    func original(_ changes: [String: Any?] = ["auth_time": JWTFixtures.epoch - 500]) throws -> IDTokenClaims {
        try validator.validate(JWTFixtures.token(JWTFixtures.claims(changes)), keys: keys, nonce: JWTFixtures.nonce)
    }

    /// A refreshed token: issued now, no nonce, same user.
    func refreshed(_ changes: [String: Any?] = [:]) -> String {
        var all: [String: Any?] = ["nonce": nil, "iat": JWTFixtures.epoch, "auth_time": JWTFixtures.epoch - 500]
        all.merge(changes) { _, new in new }
        return JWTFixtures.token(JWTFixtures.claims(all), algorithm: .es256)
    }

    @Test("the same iss, sub and aud without a nonce is accepted")
    func accepted() throws {
        let previous = try original()
        let claims = try validator.validateRefreshed(newToken: refreshed(), previousClaims: previous, keys: keys)
        #expect(claims.sub == previous.sub)
        #expect(claims.nonce == nil)
        // The original nonce repeated is fine too.
        _ = try validator.validateRefreshed(
            newToken: refreshed(["nonce": JWTFixtures.nonce]), previousClaims: previous, keys: keys)
    }

    @Test("a later auth_time is accepted: providers report the latest login there")
    func laterAuthTime() async throws {
        let previous = try original()
        let token = refreshed(["auth_time": JWTFixtures.epoch - 10])
        let claims = try validator.validateRefreshed(newToken: token, previousClaims: previous, keys: keys)
        #expect(claims.authTime != previous.authTime)
    }

    @Test("a changed sub, aud, azp or nonce is refused")
    func changes() async throws {
        let previous = try original()
        let cases: [([String: Any?], String)] = [
            (["sub": "user-2"], "sub differs"),
            (["aud": [JWTFixtures.clientID, "https://api.example"], "azp": JWTFixtures.clientID], "aud differs"),
            (["azp": JWTFixtures.clientID], "azp differs"),
            (["nonce": "new-nonce"], "nonce differs"),
        ]
        for (change, reason) in cases {
            let token = refreshed(change)
            await expectJWTError(.invalidIDToken, reason, token: token) {
                _ = try validator.validateRefreshed(newToken: token, previousClaims: previous, keys: keys)
            }
        }
    }

    @Test("a changed iss is refused even when the validator would accept it")
    func changedIssuer() async throws {
        let previous = try IDTokenClaims(raw: [
            "iss": .string("https://old-issuer.example"), "sub": .string("user-1"),
            "aud": .string(JWTFixtures.clientID),
            "exp": .number(0), "iat": .number(0),
        ])
        let token = refreshed()
        await expectJWTError(.invalidIDToken, "iss differs", token: token) {
            _ = try validator.validateRefreshed(newToken: token, previousClaims: previous, keys: keys)
        }
    }

    @Test("a refreshed token is still fully verified: signature and expiry")
    func stillVerified() async throws {
        let previous = try original()
        let forged = JWTFixtures.token(JWTFixtures.claims(["nonce": nil]), signer: JWTFixtures.otherRSA)
        await expectJWTError(.invalidIDToken, "signature does not verify", token: forged) {
            _ = try validator.validateRefreshed(newToken: forged, previousClaims: previous, keys: keys)
        }
        let expired = refreshed(["exp": JWTFixtures.epoch - 3600])
        await expectJWTError(.invalidIDToken, "the token expired", token: expired) {
            _ = try validator.validateRefreshed(newToken: expired, previousClaims: previous, keys: keys)
        }
    }

    @Test("max_age is not applied to a refreshed token")
    func maxAgeNotApplied() async throws {
        let previous = try original(["auth_time": JWTFixtures.epoch - 30])
        let token = refreshed(["auth_time": JWTFixtures.epoch - 30])
        let later = IDTokenValidator(
            issuer: JWTFixtures.issuer, clientID: JWTFixtures.clientID, maxAge: 60,
            now: { JWTFixtures.now.addingTimeInterval(500) })
        await expectJWTError(.invalidIDToken, "more than max_age 60 s ago", token: token) {
            _ = try later.validate(token, keys: keys, nonce: nil)
        }
        #expect(try later.validateRefreshed(newToken: token, previousClaims: previous, keys: keys).sub == "user-1")
    }
}
