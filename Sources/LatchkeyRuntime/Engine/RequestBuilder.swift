import Foundation

/// Turns a ``RequestSpec`` and a ``VariableScope`` into an ``TransportRequest``.
struct RequestBuilder: Sendable {
    /// The provider.
    let provider: ProviderSpec
    /// The client secret for `basic`/`post` client authentication, supplied at run time.
    let clientSecret: String?
    /// The `User-Agent` header, if any.
    let userAgent: String?

    /// Builds a request.
    /// - Parameters:
    ///   - spec: The request as the descriptor declares it.
    ///   - scope: The variables.
    ///   - accessToken: The bearer token, for requests with `.accessToken` authorization.
    ///   - isTokenRequest: Whether ``ProviderSpec/extraTokenParameters`` are added (code exchange, refresh).
    /// - Throws: `invalid_configuration` for a URL that is not https (or loopback http), a missing
    ///   client secret, or a template variable that has no value.
    func build(
        _ spec: RequestSpec, scope: VariableScope, accessToken: String? = nil, isTokenRequest: Bool = false
    ) throws(AuthError) -> TransportRequest {
        let extras = isTokenRequest ? provider.extraTokenParameters : []
        var query = try TemplateRenderer.pairs(spec.query, in: scope)
        var form = spec.encoding == .json ? [] : try TemplateRenderer.pairs(spec.body + extras, in: scope)
        var headers = try TemplateRenderer.pairs(provider.commonHeaders + spec.headers, in: scope)
        var jsonBody: [String: JSON] = [:]
        if spec.encoding == .json {
            for parameter in spec.body + extras {
                if let value = try TemplateRenderer.render(parameter.value, in: scope) {
                    jsonBody[parameter.name] = value
                }
            }
        }
        let clientID =
            form.first { $0.name == "client_id" }?.value ?? jsonBody["client_id"]?.scalarText
            ?? query.first { $0.name == "client_id" }?.value
            ?? ["client_id", "clientID", "clientId"].lazy.compactMap { scope.text($0) }.first
        var method = spec.clientAuthentication
        if method.isOptional {
            // `…_if_secret`: authenticate when the app supplies a secret, else send a public client's request.
            let hasSecret = !(clientSecret ?? "").isEmpty
            method = !hasSecret || method == .none ? .none : (method == .basicIfSecret ? .basic : .post)
        }
        switch method {
        case .none, .basicIfSecret, .postIfSecret:
            break
        case .basic:
            let (id, secret) = try credentials(clientID)
            let pair = PercentEncoding.encode(id) + ":" + PercentEncoding.encode(secret)
            headers.append(("Authorization", "Basic " + Data(pair.utf8).base64EncodedString()))
        case .post:
            let (id, secret) = try credentials(clientID)
            if !form.contains(where: { $0.name == "client_id" }) { form.append(("client_id", id)) }
            form.append(("client_secret", secret))
            jsonBody["client_id"] = jsonBody["client_id"] ?? .string(id)
            jsonBody["client_secret"] = .string(secret)
        }
        if spec.authorization == .accessToken {
            guard let accessToken else {
                throw AuthError(.sessionMissing, "This request needs a signed-in session.", provider: provider.name)
            }
            headers.append(("Authorization", spec.authorizationScheme + " " + accessToken))
        }
        var body: Data?
        switch spec.encoding {
        case .none:
            query += form
        case .form:
            headers.append(("Content-Type", "application/x-www-form-urlencoded"))
            body = Data(PercentEncoding.encodePairs(form).utf8)
        case .json:
            headers.append(("Content-Type", "application/json"))
            body = JSON.object(jsonBody).serialized
        }
        headers.append(("Accept", "application/json"))
        if let userAgent { headers.append(("User-Agent", userAgent)) }
        let url = try endpoint(spec.url, query: query, scope: scope)
        return TransportRequest(method: spec.method.uppercased(), url: url, headers: headers, body: body)
    }

    /// Fills a URL template, appends a query, and checks that the result may be requested.
    /// - Throws: `invalid_configuration` unless the URL is absolute https, or http on a loopback host.
    func endpoint(
        _ template: ValueTemplate, query: [(name: String, value: String)], scope: VariableScope
    ) throws(AuthError) -> URL {
        var text = try TemplateRenderer.text(template, in: scope)
        if !query.isEmpty {
            text += (text.contains("?") ? "&" : "?") + PercentEncoding.encodePairs(query)
        }
        guard let url = URL(string: text), url.fragment == nil, RedirectURI.isAllowedEndpoint(url) else {
            throw AuthError(
                .invalidConfiguration, "The URL for '\(template)' is not an absolute https (or loopback http) URL.",
                provider: provider.name)
        }
        return url
    }

    private func credentials(_ clientID: String?) throws(AuthError) -> (String, String) {
        guard let clientID, let clientSecret, !clientSecret.isEmpty else {
            throw AuthError(
                .invalidConfiguration, "This request authenticates the client: a client id and secret are required.",
                provider: provider.name)
        }
        return (clientID, clientSecret)
    }
}
