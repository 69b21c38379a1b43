import Foundation
import FuzzSupport
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import LatchkeyTokens

// Fuzzes PASETO v4.public handling: PasetoV4Public.verify, footer(of:), keyID(of:), PasetoKeySet
// (document decoding and kid-selected verification) and PasetoClaimsValidator.
//
// Each input is used three ways:
// 1. as a token, as it is, against a key generated when the process starts: it can never verify;
// 2. as a token to sign: the first line is the payload, the rest (after one line break) the footer; the
//    harness signs PAE("v4.public.", payload, footer, implicit assertion) with its key, so payload
//    decoding, footer kid parsing and claim validation are reached;
// 3. as a key document.
//
// Invariants:
// - nothing crashes;
// - a token verifies only when signed here; then its payload and footer are exactly what was signed,
//   the claims are the payload's JSON object, and keyID equals keyID(of:);
// - a signed token fails with another implicit assertion, another expected footer or another key;
// - keyID(of:) is only found in a footer that footer(of:) returns;
// - PasetoKeySet accepts only a token whose claims have a string exp and exactly the configured iss
//   and aud;
// - error messages never contain the token.

let now = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z
let implicitAssertion = Array("latchkey-fuzz".utf8)
let issuer = "https://issuer.example.com"
let audience = "fuzz-app"

struct Keys: Sendable {
    let signer: TestSigner
    let publicKey: [UInt8]
    let otherPublicKey: [UInt8]
    let set: PasetoKeySet

    static let shared: Keys = {
        do {
            let signer = try TestSigner(.ed25519)
            let other = try TestSigner(.ed25519)
            guard case .ed25519(let raw) = signer.publicKey, case .ed25519(let otherRaw) = other.publicKey else {
                fatalError("FUZZ SETUP: not an Ed25519 key")
            }
            let set = try PasetoKeySet(keys: [
                PasetoKeySet.Key(keyID: "k1", publicKey: raw, implicitAssertion: implicitAssertion),
                PasetoKeySet.Key(keyID: "k2", publicKey: otherRaw),
            ])
            return Keys(signer: signer, publicKey: raw, otherPublicKey: otherRaw, set: set)
        } catch {
            fatalError("FUZZ SETUP: \(error)")
        }
    }()
}

let validator = PasetoClaimsValidator(issuer: issuer, audience: audience)

/// PAE (paseto-spec Common.md), written out here rather than borrowed from the runtime.
func pae(_ pieces: [[UInt8]]) -> [UInt8] {
    func le64(_ value: Int) -> [UInt8] {
        let cleared = UInt64(value) & 0x7FFF_FFFF_FFFF_FFFF
        return (0..<8).map { UInt8(truncatingIfNeeded: cleared >> (8 * UInt64($0))) }
    }
    var out = le64(pieces.count)
    for piece in pieces { out += le64(piece.count) + piece }
    return out
}

func checkQuiet(_ error: AuthError, _ token: String) {
    guard token.utf8.count >= 24 else { return }
    Fuzz.check(!Fuzz.quotes(error.description, token), "an error quotes the token: \(error.description)")
}

func checkFooterAccessors(_ token: String) {
    let footer = PasetoV4Public.footer(of: token)
    if PasetoV4Public.keyID(of: token) != nil {
        Fuzz.check(footer.map { !$0.isEmpty } ?? false, "keyID(of:) found a kid without a footer")
    }
}

/// Case 1: the input is a token.
func fuzzToken(_ text: String) {
    checkFooterAccessors(text)
    do {
        _ = try PasetoV4Public.verify(text, publicKey: Keys.shared.publicKey, implicitAssertion: implicitAssertion)
        Fuzz.check(false, "a token not signed here verified")
    } catch {
        Fuzz.check(error.code == .invalidToken, "verify threw \(error.code), not invalid_token")
        checkQuiet(error, text)
    }
    do {
        _ = try Keys.shared.set.verify(text, validator: validator, now: now)
        Fuzz.check(false, "a token not signed here verified with the key set")
    } catch {
        checkQuiet(error, text)
    }
}

/// Case 2: the input is a payload and a footer, signed here.
func fuzzSigned(_ bytes: [UInt8]) {
    var payload = bytes
    var footer: [UInt8] = []
    if let newline = bytes.firstIndex(of: 0x0A) {
        payload = Array(bytes[..<newline])
        footer = Array(bytes[(newline + 1)...])
    }
    let signature: [UInt8]
    do {
        signature = try Keys.shared.signer.sign(
            pae([Array(PasetoV4Public.header.utf8), payload, footer, implicitAssertion]), algorithm: .edDSA)
    } catch {
        fatalError("FUZZ SETUP: signing failed: \(error)")
    }
    var token = PasetoV4Public.header + Base64URL.encode(payload + signature)
    if !footer.isEmpty { token += "." + Base64URL.encode(footer) }
    checkFooterAccessors(token)
    Fuzz.check(PasetoV4Public.footer(of: token) == footer, "footer(of:) is not the footer")

    let payloadObject = JSON(data: Data(payload))?.object
    var plain: PasetoVerifiedToken?
    do {
        let verified = try PasetoV4Public.verify(
            token, publicKey: Keys.shared.publicKey, implicitAssertion: implicitAssertion)
        Fuzz.check(verified.payload == payload, "the verified payload is not the signed one")
        Fuzz.check(verified.footer == footer, "the verified footer is not the signed one")
        Fuzz.check(payloadObject != nil, "a payload that is not a JSON object verified")
        Fuzz.check(verified.claims == payloadObject, "the claims are not the payload's object")
        Fuzz.check(verified.keyID == PasetoV4Public.keyID(of: token), "keyID differs from keyID(of:)")
        _ = verified.footerText
        plain = verified
    } catch {
        Fuzz.check(error.code == .invalidToken, "verify threw \(error.code), not invalid_token")
        checkQuiet(error, token)
    }
    // Anything else than what was signed must fail; the footer that was signed, expected, changes nothing.
    Fuzz.check(
        (try? PasetoV4Public.verify(token, publicKey: Keys.shared.publicKey, implicitAssertion: implicitAssertion + [0]))
            == nil, "a token verified with another implicit assertion")
    Fuzz.check(
        (try? PasetoV4Public.verify(token, publicKey: Keys.shared.otherPublicKey, implicitAssertion: implicitAssertion))
            == nil, "a token verified with another key")
    let otherFooter = String(decoding: footer, as: UTF8.self) + "x"
    Fuzz.check(
        (try? PasetoV4Public.verify(
            token, publicKey: Keys.shared.publicKey, footer: otherFooter, implicitAssertion: implicitAssertion)) == nil,
        "a token verified with another expected footer")
    if let expected = String(validating: footer, as: UTF8.self) {
        let withFooter = try? PasetoV4Public.verify(
            token, publicKey: Keys.shared.publicKey, footer: expected, implicitAssertion: implicitAssertion)
        Fuzz.check(withFooter == plain, "expecting the signed footer changed the outcome")
    }

    // Key set: kid from the footer, then claims.
    do {
        let verified = try Keys.shared.set.verify(token, validator: validator, now: now)
        let claims = verified.claims
        Fuzz.check(verified.keyID == "k1", "the key set verified with kid \(String(describing: verified.keyID))")
        Fuzz.check(claims["exp"]?.string != nil, "the key set accepted a token without a string exp")
        Fuzz.check(claims["iss"]?.string == issuer, "the key set accepted iss \(String(describing: claims["iss"]))")
        Fuzz.check(claims["aud"]?.string == audience, "the key set accepted aud \(String(describing: claims["aud"]))")
        for name in ["nbf", "iat"] where claims[name] != nil {
            Fuzz.check(claims[name]?.string != nil, "the key set accepted a \(name) that is not a string")
        }
    } catch {
        checkQuiet(error, token)
    }
    if let payloadObject {
        _ = try? validator.validate(payloadObject, now: now)
        _ = try? PasetoClaimsValidator(
            issuer: nil, audience: nil, subject: "user-1", skew: -5, requiresExpiration: false
        )
        .validate(payloadObject, now: now)
    }
}

/// Case 3: the input is a key document.
func fuzzKeyDocument(_ bytes: [UInt8]) {
    guard let set = try? PasetoKeySet(document: Data(bytes)) else { return }
    for key in set.keys {
        Fuzz.check(key.publicKey.count == 32, "a key of \(key.publicKey.count) bytes")
        Fuzz.check(set.key(for: key.keyID) == key, "a key is not found by its kid")
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
    fuzzToken(String(decoding: bytes, as: UTF8.self))
    fuzzSigned(bytes)
    fuzzKeyDocument(bytes)
    return 0
}
