import Foundation
import LatchkeyTokens
import LatchkeyVocabulary

/// Authenticates the client (RFC 6749 §2.3.1) on the descriptor requests that say so (``RequestSpec/clientAuthentication``):
/// `basic` as an `Authorization: Basic` header of the percent-encoded id and secret, `post` as `client_id` (unless
/// the request already sends one) and `client_secret` parameters; `basic_if_secret`/`post_if_secret` only when the
/// app supplied a secret; `basic_secret_or_empty` as `Basic` with `id:` when it did not.
struct ClientAuthenticationStage: RequestStage {
    /// The client secret, supplied at run time (``ProviderConfiguration/clientSecret``).
    let clientSecret: String?

    func prepare(_ request: inout TransportRequest, context: RequestContext) throws(AuthError) {
        guard let descriptor = context.descriptorRequest, descriptor.spec.clientAuthentication != .none else { return }
        let encoding = descriptor.spec.encoding
        let clientID =
            request.parameterText(named: "client_id", encoding: encoding)
            ?? (encoding == .form ? request.parameterText(named: "client_id", encoding: .none) : nil)
            ?? ["client_id", "clientID", "clientId"].lazy.compactMap { descriptor.scope.text($0) }.first
        var method = descriptor.spec.clientAuthentication
        if method == .basicSecretOrEmpty {
            // HTTP Basic whether or not there is a secret: `id:` for a client that has none.
            guard let clientID else {
                throw AuthError(
                    .invalidConfiguration, "This request authenticates the client: a client id is required.",
                    provider: context.provider)
            }
            request.headerFields.append("Authorization", Self.basic(clientID, clientSecret ?? ""))
            return
        }
        if method.isOptional {
            // `…_if_secret`: authenticate when the app supplies a secret, else send a public client's request.
            let hasSecret = !(clientSecret ?? "").isEmpty
            method = !hasSecret || method == .none ? .none : (method == .basicIfSecret ? .basic : .post)
        }
        switch method {
        case .none, .basicIfSecret, .postIfSecret, .basicSecretOrEmpty:
            return
        case .basic:
            let (id, secret) = try credentials(clientID, provider: context.provider)
            request.headerFields.append("Authorization", Self.basic(id, secret))
        case .post:
            let (id, secret) = try credentials(clientID, provider: context.provider)
            if encoding == .json {
                var members = ["client_secret": JSON.string(secret)]
                if request.parameterText(named: "client_id", encoding: .json) == nil {
                    members["client_id"] = .string(id)
                }
                request.mergeJSONMembers(members)
            } else {
                var pairs: [(name: String, value: String)] = []
                if request.parameterText(named: "client_id", encoding: encoding) == nil {
                    pairs.append(("client_id", id))
                }
                pairs.append(("client_secret", secret))
                request.appendParameters(pairs, encoding: encoding)
            }
        }
    }

    /// `Basic` and the base64 of the percent-encoded `id:secret` (RFC 6749 §2.3.1).
    private static func basic(_ id: String, _ secret: String) -> String {
        let pair = PercentEncoding.encode(id) + ":" + PercentEncoding.encode(secret)
        return "Basic " + Data(pair.utf8).base64EncodedString()
    }

    private func credentials(_ clientID: String?, provider: String) throws(AuthError) -> (String, String) {
        guard let clientID, let clientSecret, !clientSecret.isEmpty else {
            throw AuthError(
                .invalidConfiguration, "This request authenticates the client: a client id and secret are required.",
                provider: provider)
        }
        return (clientID, clientSecret)
    }
}
