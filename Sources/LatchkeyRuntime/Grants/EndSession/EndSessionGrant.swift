import Foundation
import LatchkeyTokens
import LatchkeyVocabulary

/// The RP-initiated logout (OpenID Connect RP-Initiated Logout 1.0) as a unit: what the end-session URL is
/// rendered from. It is a browser URL, not a request the pipeline sends: the client renders ``templates`` with
/// ``variables`` (discovery included) and wraps the URL with ``request(url:)``.
struct EndSessionGrant: Sendable {
    /// The flow.
    let flow: EndSessionFlowSpec
    /// The post-logout redirect URI (already checked), or `nil` for none.
    let redirect: URL?
    /// The state the callback must carry back.
    let state: String
    /// The session's ID token, sent as `{id_token}` (`id_token_hint`), if any.
    let idToken: String?

    /// The URL's variables: `{state}`, `{post_logout_redirect_uri}` and `{id_token}`; `nil` leaves a parameter
    /// out.
    var variables: [String: JSON?] {
        [
            "state": .string(state), "post_logout_redirect_uri": redirect.map { .string($0.absoluteString) },
            "id_token": idToken.map(JSON.string),
        ]
    }

    /// The templates the URL is rendered from: the endpoint and the query's values.
    var templates: [ValueTemplate] { [flow.url] + ProviderSpec.templates(in: flow.query) }

    /// The prepared logout for the rendered URL.
    func request(url: URL) -> EndSessionRequest {
        EndSessionRequest(url: url, state: state, postLogoutRedirectURI: redirect)
    }
}
