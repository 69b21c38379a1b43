import Foundation
import LatchkeyTokens
import LatchkeyVocabulary

/// Decides whether an unbound (version 1) session record, written before records carried their client's
/// identity, provably belongs to a client, so that upgrading does not sign its user out.
///
/// Version 1 records were kept under the descriptor name alone, so any configuration of the provider could
/// have written one. A record is adopted only when its own tokens say whom they were issued by and for:
/// a JWT among its ID and access tokens whose `iss` is the client's configured issuer (or, for providers
/// that name none, one of the client's configured URLs), and, when the client has a client id, a JWT whose
/// `aud`, `azp`, `client_id` or `cid` names it. Anything else (opaque tokens, another issuer, another client,
/// another provider) is ignored and never sent anywhere: that user signs in again once.
enum LegacySessionMigration {
    /// Whether a legacy session provably belongs to a client.
    /// - Parameters:
    ///   - session: The session read from a version 1 record.
    ///   - identity: The client's identity.
    ///   - provider: The client's provider spec.
    ///   - inputs: The client's resolved inputs.
    /// - Returns: `true` only when the session's own tokens name the client's issuer (and client id).
    static func belongs(
        _ session: Session, to identity: ProviderIdentity, provider: ProviderSpec, inputs: [String: String]
    ) -> Bool {
        guard session.provider == identity.provider else { return false }
        let claims = [session.idToken, session.accessToken].compactMap { $0 }.compactMap(JWTPayload.claims(of:))
        let issuers = acceptedIssuers(identity: identity, provider: provider, inputs: inputs)
        guard !issuers.isEmpty,
            claims.contains(where: { $0["iss"]?.string.map(issuers.contains) == true })
        else { return false }
        guard let clientID = identity.clientID else { return true }
        return claims.contains { names(clientID, in: $0) }
    }

    /// The configured issuer; for a provider that names none, every URL among the inputs and derived
    /// variables (Supabase signs with `iss` = its `{projectURL}/auth/v1`).
    static func acceptedIssuers(
        identity: ProviderIdentity, provider: ProviderSpec, inputs: [String: String]
    ) -> Set<String> {
        if let issuer = identity.issuer { return [issuer] }
        let scope = VariableScope(inputs: inputs, discovered: [:], derived: provider.variables)
        let names = provider.inputs.filter { $0.kind == .url }.map(\.name) + provider.variables.map(\.name)
        return Set(
            names.compactMap { scope.text($0) }.filter { value in
                guard let url = URL(string: value), let host = url.host, !host.isEmpty else { return false }
                return RedirectURI.isAllowedEndpoint(url)
            })
    }

    /// Whether a token's claims name a client id as audience, authorized party or client.
    private static func names(_ clientID: String, in claims: [String: JSON]) -> Bool {
        if claims["azp"]?.string == clientID || claims["client_id"]?.string == clientID
            || claims["cid"]?.string == clientID
        {
            return true
        }
        switch claims["aud"] {
        case .string(let audience)?: return audience == clientID
        case .array(let audiences)?: return audiences.contains { $0.string == clientID }
        default: return false
        }
    }
}
