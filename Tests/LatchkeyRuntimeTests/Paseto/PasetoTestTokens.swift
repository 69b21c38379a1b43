@_spi(Generated) import LatchkeyTesting
import LatchkeyTokens

@_spi(Generated) @testable import LatchkeyRuntime

/// Builds `v4.public` tokens for tests, signing with ``TestSigner`` (Ed25519 from libcrypto/CryptoKit).
struct PasetoTestTokens {
    let signer: TestSigner

    init() throws {
        signer = try TestSigner(.ed25519)
    }

    /// The raw 32-byte public key.
    var publicKey: [UInt8] {
        guard case .ed25519(let raw) = signer.publicKey else { return [] }
        return raw
    }

    /// Signs a payload as the specification's Sign steps do.
    func token(_ payload: String, footer: String = "", implicitAssertion: String = "") throws -> String {
        try token(
            bytes: Array(payload.utf8), footer: Array(footer.utf8), implicitAssertion: Array(implicitAssertion.utf8))
    }

    /// Signs raw message bytes.
    func token(bytes message: [UInt8], footer: [UInt8] = [], implicitAssertion: [UInt8] = []) throws -> String {
        let signed = PreAuthenticationEncoding.encode([Array("v4.public.".utf8), message, footer, implicitAssertion])
        let signature = try signer.sign(signed, algorithm: .edDSA)
        return Self.assemble(message: message, signature: signature, footer: footer)
    }

    /// Encodes a token from its parts, without signing.
    static func assemble(message: [UInt8], signature: [UInt8], footer: [UInt8]) -> String {
        var token = "v4.public." + Base64URL.encode(message + signature)
        if !footer.isEmpty { token += "." + Base64URL.encode(footer) }
        return token
    }

    /// A claims payload with RFC 3339 dates.
    static func claims(_ members: [String: String]) -> String {
        JSON.object(members.mapValues(JSON.string)).serializedText
    }
}
