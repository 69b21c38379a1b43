import Foundation
import FuzzSupport
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import LatchkeyTokens

// Fuzzes JWT handling: JWSToken(compact:), signature verification against a JWKS, JSONWebKeySet(data:),
// IDTokenClaims and IDTokenValidator (new and refreshed ID tokens).
//
// Each input is used three ways:
// 1. as a compact token, as it is: parsed, verified and validated against keys generated when the
//    process starts, so it can never validate (nobody else has the keys);
// 2. as a token to sign: the first line is the protected header (JSON), the rest the payload (any
//    bytes); without a line break, the whole input is the payload under {"alg":"EdDSA","kid":"ed-1"}.
//    The harness signs it with the key the header's `alg` names, so the claims checks are reached;
// 3. as a JWKS document.
//
// Invariants:
// - nothing crashes;
// - a token that validates was signed here, and its claims satisfy OpenID Connect Core §3.1.3.7 as the
//   validator is configured: the exact issuer, the client among the audiences and only trusted others,
//   azp rules, exp/iat/nbf/auth_time within the leeway at the fixed clock, auth_time within max_age,
//   the expected nonce; never `alg` none or HMAC, never a foreign `typ`;
// - a refreshed token that validates has the original's iss, sub and aud;
// - error messages never contain the token;
// - a JWKS keeps or skips every entry: keys + skipped = entries.

let now = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z
let issuer = "https://issuer.example.com"
let clientID = "fuzz-client"
let trustedAudience = "https://api.example.com"
let nonce = "n-0S6_WzA2Mj"
let accessToken = "fuzz-access-token"

struct Keys: Sendable {
    let ed25519: TestSigner
    let p256: TestSigner
    let p384: TestSigner
    let rsa: TestSigner
    let set: JSONWebKeySet

    static let shared: Keys = {
        do {
            let ed25519 = try TestSigner(.ed25519)
            let p256 = try TestSigner(.p256)
            let p384 = try TestSigner(.p384)
            let rsa = try TestSigner(.rsa(bits: 2048))
            let set = JSONWebKeySet(keys: [
                JSONWebKey(material: ed25519.publicKey, keyID: "ed-1"),
                JSONWebKey(material: p256.publicKey, keyID: "ec-1", algorithm: .es256),
                JSONWebKey(material: p384.publicKey, keyID: "ec-2"),
                JSONWebKey(material: rsa.publicKey, keyID: "rsa-1"),
            ])
            return Keys(ed25519: ed25519, p256: p256, p384: p384, rsa: rsa, set: set)
        } catch {
            fatalError("FUZZ SETUP: \(error)")
        }
    }()

    /// The signer and algorithm for a header's `alg`; Ed25519 for anything else.
    func signer(for alg: String?) -> (TestSigner, SignatureAlgorithm) {
        switch alg.flatMap(SignatureAlgorithm.init(rawValue:)) {
        case .es256?: (p256, .es256)
        case .es384?: (p384, .es384)
        case let algorithm? where rsa.algorithms.contains(algorithm): (rsa, algorithm)
        default: (ed25519, .edDSA)
        }
    }
}

let validator = IDTokenValidator(
    issuer: issuer, clientID: clientID, maxAge: 3600, trustedAudiences: [trustedAudience], now: { now })

let previousClaims: IDTokenClaims = {
    do {
        return try IDTokenClaims(raw: [
            "iss": .string(issuer), "sub": .string("user-1"), "aud": .string(clientID),
            "exp": .number(1_767_229_200), "iat": .number(1_767_225_000),
        ])
    } catch {
        fatalError("FUZZ SETUP: \(error)")
    }
}()

func checkQuiet(_ error: AuthError, _ token: String) {
    guard token.utf8.count >= 24 else { return }
    Fuzz.check(!Fuzz.quotes(error.description, token), "an error quotes the token: \(error.description)")
}

/// Independent checks of the claims of a token that validated.
func checkAccepted(_ claims: IDTokenClaims, header: JWSHeader, maxAgeApplies: Bool) {
    let leeway = IDTokenValidator.defaultLeeway
    Fuzz.check(claims.iss == issuer, "accepted iss \(claims.iss)")
    Fuzz.check(claims.aud.contains(clientID), "accepted aud without the client: \(claims.aud)")
    Fuzz.check(
        claims.aud.allSatisfy { $0 == clientID || $0 == trustedAudience }, "accepted untrusted aud \(claims.aud)")
    if let azp = claims.azp {
        Fuzz.check(azp == clientID, "accepted azp \(azp)")
    } else {
        Fuzz.check(Set(claims.aud).count <= 1, "accepted several audiences without azp")
    }
    Fuzz.check(claims.exp.timeIntervalSince(now) > -leeway, "accepted an expired token: exp \(claims.exp)")
    Fuzz.check(claims.iat.timeIntervalSince(now) <= leeway, "accepted iat in the future: \(claims.iat)")
    if let nbf = claims.nbf { Fuzz.check(nbf.timeIntervalSince(now) <= leeway, "accepted nbf in the future: \(nbf)") }
    if maxAgeApplies {
        Fuzz.check(claims.authTime != nil, "accepted without auth_time although max_age is set")
        if let authTime = claims.authTime {
            Fuzz.check(now.timeIntervalSince(authTime) <= 3600 + leeway, "accepted auth_time older than max_age")
        }
    }
    if let authTime = claims.authTime {
        Fuzz.check(authTime.timeIntervalSince(now) <= leeway, "accepted auth_time in the future")
    }
    let alg = header.algorithm.lowercased()
    Fuzz.check(alg != "none" && !alg.hasPrefix("hs"), "accepted alg \(header.algorithm)")
    if let type = header.type?.lowercased() {
        Fuzz.check(
            !["at+jwt", "logout+jwt", "secevent+jwt"].contains(type.replacingOccurrences(of: "application/", with: "")),
            "accepted typ \(type)")
    }
}

/// Case 1: the input is a compact token.
func fuzzCompact(_ text: String) {
    do {
        let token = try JWSToken(compact: text)
        Fuzz.check(Array(text.utf8).starts(with: token.signingInput), "the signing input is not the token's prefix")
        _ = token.description
        do {
            try token.verifySignature(keys: Keys.shared.set, allowedAlgorithms: Set(SignatureAlgorithm.allCases))
            Fuzz.check(false, "a token not signed here verified")
        } catch {
            checkQuiet(error, text)
        }
    } catch {
        checkQuiet(error, text)
    }
    do {
        _ = try validator.validate(text, keys: Keys.shared.set, nonce: nonce, accessToken: accessToken)
        Fuzz.check(false, "a token not signed here validated")
    } catch {
        Fuzz.check(error.code == .invalidIDToken, "validate threw \(error.code), not invalid_id_token")
        checkQuiet(error, text)
    }
}

/// Case 2: the input is a header and a payload, signed here.
func fuzzSigned(_ bytes: [UInt8]) {
    var headerBytes = Array(#"{"alg":"EdDSA","kid":"ed-1"}"#.utf8)
    var payloadBytes = bytes
    if let newline = bytes.firstIndex(of: 0x0A) {
        headerBytes = Array(bytes[..<newline])
        payloadBytes = Array(bytes[(newline + 1)...])
    }
    let alg = JSON(data: Data(headerBytes))?["alg"]?.string
    let (signer, algorithm) = Keys.shared.signer(for: alg)
    let signingInput = Base64URL.encode(headerBytes) + "." + Base64URL.encode(payloadBytes)
    let signature: [UInt8]
    do {
        signature = try signer.sign(Array(signingInput.utf8), algorithm: algorithm)
    } catch {
        fatalError("FUZZ SETUP: signing failed: \(error)")
    }
    let compact = signingInput + "." + Base64URL.encode(signature)

    do {
        let claims = try validator.validate(compact, keys: Keys.shared.set, nonce: nonce, accessToken: accessToken)
        let header = try JWSToken(compact: compact).header
        checkAccepted(claims, header: header, maxAgeApplies: true)
        Fuzz.check(claims.nonce == nonce, "accepted another nonce")
    } catch {
        Fuzz.check(error.code == .invalidIDToken, "validate threw \(error.code), not invalid_id_token")
        checkQuiet(error, compact)
    }
    do {
        let claims = try validator.validateRefreshed(
            newToken: compact, previousClaims: previousClaims, keys: Keys.shared.set, accessToken: accessToken)
        let header = try JWSToken(compact: compact).header
        checkAccepted(claims, header: header, maxAgeApplies: false)
        Fuzz.check(
            claims.iss == previousClaims.iss && claims.sub == previousClaims.sub
                && Set(claims.aud) == Set(previousClaims.aud),
            "a refreshed token for another user or audience validated")
    } catch {
        checkQuiet(error, compact)
    }
    if let payload = JSON(data: Data(payloadBytes))?.object {
        _ = try? IDTokenClaims(raw: payload).description
    }
}

/// Case 3: the input is a JWKS document.
func fuzzKeySet(_ bytes: [UInt8]) {
    guard let set = try? JSONWebKeySet(data: Data(bytes)) else { return }
    let entries = JSON(data: Data(bytes))?["keys"]?.array?.count
    Fuzz.check(entries == set.keys.count + set.skippedKeyCount, "JWKS keys + skipped != entries")
    for key in set.keys {
        _ = SignatureAlgorithm.allCases.filter(key.canVerify)
        if let keyID = key.keyID { Fuzz.check(set.containsKey(withID: keyID), "a key's kid is not found") }
    }
}

/// libFuzzer's entry point: runs one input.
/// - Parameters:
///   - data: The input's bytes.
///   - size: How many.
/// - Returns: 0 (inputs are never rejected).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Fuzz.bytes(data, size)
    fuzzCompact(String(decoding: bytes, as: UTF8.self))
    fuzzSigned(bytes)
    fuzzKeySet(bytes)
    return 0
}
