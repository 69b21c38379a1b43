import Foundation
import LatchkeyTokens
import LatchkeyVocabulary

/// Turns a ``RequestSpec`` and a ``VariableScope`` into an ``TransportRequest``: URL, query, body and the
/// descriptor's headers. What a request gets besides is added by the ``RequestPipeline``'s stages: the extra
/// token parameters (``ExtraParametersStage``), client authentication (``ClientAuthenticationStage``), the
/// `Authorization` header of an access token and a DPoP proof. A class: it holds the whole ``ProviderSpec`` and is
/// handed to every request, so passing it is one reference, not a copy of the spec.
final class RequestBuilder: Sendable {
    /// The provider.
    let provider: ProviderSpec
    /// The default `User-Agent` header, if any: a descriptor's own `User-Agent` header replaces it.
    let userAgent: String?
    /// The app's own headers (``AuthClientOptions/additionalHeaders``), checked, appended to every request.
    let additionalHeaders: [(String, String)]

    /// Creates a builder.
    /// - Parameters:
    ///   - provider: The provider.
    ///   - userAgent: The default `User-Agent` header, if any.
    ///   - additionalHeaders: The app's own headers, checked.
    init(provider: ProviderSpec, userAgent: String?, additionalHeaders: [(String, String)] = []) {
        self.provider = provider
        self.userAgent = userAgent
        self.additionalHeaders = additionalHeaders
    }

    /// Builds a request.
    /// - Parameters:
    ///   - spec: The request as the descriptor declares it.
    ///   - scope: The variables.
    /// - Throws: `invalid_configuration` for a URL that is not https (or loopback http) or a template variable
    ///   that has no value; `invalid_request` for a header with CR, LF or NUL (a token or input that would
    ///   smuggle a header).
    func build(_ spec: RequestSpec, scope: VariableScope) throws(AuthError) -> TransportRequest {
        var query = try TemplateRenderer.pairs(spec.query, in: scope)
        let form = spec.encoding == .json ? [] : try TemplateRenderer.pairs(spec.body, in: scope)
        // A request's own header replaces a common one of the same name (GoTrue's admin sign-out sends the
        // user's token as Authorization where every other admin call sends the secret key).
        let own = try TemplateRenderer.pairs(spec.headers, in: scope)
        let common = try TemplateRenderer.pairs(provider.commonHeaders, in: scope).filter { field in
            !own.contains { $0.name.caseInsensitiveCompare(field.name) == .orderedSame }
        }
        var headers = HTTPHeaderFields(common + own)
        for (name, value) in additionalHeaders { headers.append(name, value) }
        var jsonBody: [String: JSON] = [:]
        if spec.encoding == .json {
            for parameter in spec.body {
                if let value = try TemplateRenderer.render(parameter.value, in: scope) {
                    jsonBody[parameter.name] = value
                }
            }
        }
        var body: Data?
        switch spec.encoding {
        case .none:
            query += form
        case .form:
            headers.set("Content-Type", "application/x-www-form-urlencoded")
            body = Data(PercentEncoding.encodePairs(form).utf8)
        case .json where jsonBody.isEmpty && spec.omitsEmptyBody:
            break
        case .json:
            headers.set("Content-Type", "application/json")
            body = JSON.object(jsonBody).serialized
        }
        // The descriptor's own Accept replaces the default: one field, never two joined by a comma.
        if !headers.contains("Accept") { headers.append("Accept", "application/json") }
        // So does its User-Agent: the options' one is only the default.
        if let userAgent, !headers.contains("User-Agent") { headers.append("User-Agent", userAgent) }
        let url = try endpoint(spec.url, query: query, scope: scope)
        var request = TransportRequest(method: spec.method.uppercased(), url: url, body: body)
        request.headerFields = headers
        // Whatever transport the app supplies, a header that could smuggle another one is never handed to it.
        do {
            try HeaderFieldRules.check(request)
        } catch {
            var refused = error
            refused.provider = provider.name
            throw refused
        }
        return request
    }

    /// Fills a URL template, merges a query into it, and checks that the result may be requested.
    ///
    /// An endpoint may carry a query of its own (`https://idp.example/authorize?p=b2c_signin`): its parameters
    /// are kept as they are, except those `query` also names, which `query`'s values replace; no name is sent
    /// twice.
    /// - Throws: `invalid_configuration` unless the URL is absolute https, or http on a loopback host.
    func endpoint(
        _ template: ValueTemplate, query: [(name: String, value: String)], scope: VariableScope
    ) throws(AuthError) -> URL {
        var text = try TemplateRenderer.text(template, in: scope)
        if !query.isEmpty {
            text = Self.merging(query, into: text)
        }
        guard let url = URL(string: text), url.fragment == nil, RedirectURI.isAllowedEndpoint(url) else {
            throw AuthError(
                .invalidConfiguration, "The URL for '\(template)' is not an absolute https (or loopback http) URL.",
                provider: provider.name)
        }
        return url
    }

    /// `text` with `query` appended, after dropping the parameters of its own query that `query` names.
    static func merging(_ query: [(name: String, value: String)], into text: String) -> String {
        // The common case, an endpoint without a query or fragment of its own: nothing to drop or keep (the
        // general path below, with its set and Character searches, gives the same text).
        if !text.utf8.contains(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) {
            return text + "?" + PercentEncoding.encodePairs(query)
        }
        let ours = Set(query.map(\.name))
        let fragmentStart = text.firstIndex(of: "#") ?? text.endIndex
        let queryStart = text[..<fragmentStart].firstIndex(of: "?")
        var base = String(text[..<(queryStart ?? fragmentStart)])
        var kept: [Substring] = []
        if let queryStart {
            let own = text[text.index(after: queryStart)..<fragmentStart]
            kept = own.split(separator: "&", omittingEmptySubsequences: true).filter { pair in
                let name = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)[0]
                let decoded = PercentEncoding.decode(name, plusIsSpace: true) ?? String(name)
                return !ours.contains(decoded)
            }
        }
        base += "?" + (kept.map(String.init) + [PercentEncoding.encodePairs(query)]).joined(separator: "&")
        return base + text[fragmentStart...]
    }
}
