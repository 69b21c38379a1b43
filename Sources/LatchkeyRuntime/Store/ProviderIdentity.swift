import Foundation
import LatchkeyTokens
import LatchkeyVocabulary

/// Who a client is to its provider: the descriptor, the configuration inputs, and the issuer and client id
/// they resolve to.
///
/// Every record an `AuthClient` stores (session, pending sign-ins, discovery) carries the identity's
/// ``digest`` and is refused when it does not match, so a session is never restored into, nor its tokens
/// sent by, a client of another provider, issuer, tenant or client id — even when two clients share a
/// store and a key. The default store key is derived from it (``defaultStoreKey``), so clients side by
/// side keep their own sessions without any option.
public struct ProviderIdentity: Sendable, Hashable, CustomStringConvertible {
    /// The descriptor name.
    public let provider: String
    /// The issuer the configuration names (rendered from the descriptor without any request), if it names one.
    public let issuer: String?
    /// The client id the configuration sends, if the provider has one.
    public let clientID: String?
    /// The SHA-256 (64 lowercase hex digits) of the descriptor name, every resolved input, the issuer and the
    /// client id.
    public let digest: String

    /// Computes the identity of a configured client.
    /// - Parameters:
    ///   - provider: The provider spec.
    ///   - inputs: The resolved input values by name.
    init(provider: ProviderSpec, inputs: [String: String]) {
        let scope = VariableScope(inputs: inputs, discovered: [:], derived: provider.variables)
        self.provider = provider.name
        self.issuer = Self.configuredIssuer(of: provider, in: scope)
        self.clientID = Self.configuredClientID(of: provider, in: scope)
        var fields = ["latchkey.identity.v1", provider.name, issuer ?? "", clientID ?? ""]
        for name in inputs.keys.sorted() { fields += [name, inputs[name] ?? ""] }
        self.digest = Self.hex(SHA2Hash.sha256(Data(Self.lengthPrefixed(fields).utf8)))
    }

    /// The store key a client uses when ``AuthClientOptions/storeKey`` is `nil`: the descriptor name, a dot
    /// and the first 16 hex digits of ``digest`` (`oidc.3f9a…`).
    public var defaultStoreKey: String { provider + "." + digest.prefix(16) }

    /// The provider, issuer, client id and digest prefix (no input value beyond them).
    public var description: String {
        "ProviderIdentity(provider: \(provider), issuer: \(issuer ?? "none"), clientID: \(clientID ?? "none"), "
            + "digest: \(digest.prefix(16))…)"
    }

    /// The issuer from the descriptor's token settings or OpenID discovery, when it renders from the inputs alone.
    private static func configuredIssuer(of provider: ProviderSpec, in scope: VariableScope) -> String? {
        var templates: [ValueTemplate] = provider.tokens.issuer.map { [$0] } ?? []
        if case .openID(let template, _) = provider.discovery { templates.append(template) }
        return templates.lazy.compactMap { try? TemplateRenderer.text($0, in: scope) }.first { !$0.isEmpty }
    }

    /// The `client_id` the authorization request sends, else an input named like a client id.
    private static func configuredClientID(of provider: ProviderSpec, in scope: VariableScope) -> String? {
        if let parameter = provider.flows.authorizationCode?.authorizeQuery.first(where: { $0.name == "client_id" }),
            let value = (try? TemplateRenderer.render(parameter.value, in: scope))??.scalarText, !value.isEmpty
        {
            return value
        }
        return ["clientID", "client_id", "clientId"].lazy.compactMap { scope.text($0) }.first { !$0.isEmpty }
    }

    /// Joins fields so that no two lists give the same text: each is its UTF-8 length, a colon and itself.
    private static func lengthPrefixed(_ fields: [String]) -> String {
        fields.map { "\($0.utf8.count):\($0)" }.joined()
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }
}
