import Foundation
@_spi(Generated) import LatchkeyRuntime

/// The simulator's answers for format-version-2 features: `form_post` callbacks with a first-sign-in
/// user document, token information for non-Bearer schemes, and device approval by the user.
extension SimulatorCore {
    /// Where the user approves a device code: `GET` or `POST` with `user_code`.
    static let deviceVerificationPath = "/device/verify"

    /// The callback: a redirect with the parameters in the query or fragment, or, for `form_post`, a page
    /// whose form POSTs them to the redirect URI (submitted by script in a real browser).
    func callbackResponse(_ items: [(String, String)], to redirect: String) -> TestResponse {
        let location = provider.callback.location
        guard location == .formPost else {
            return .redirect(to: Self.append(items, to: redirect, location: location))
        }
        let fields = items.map { name, value in
            "<input type=\"hidden\" name=\"\(Self.escape(name))\" value=\"\(Self.escape(value))\">"
        }.joined(separator: "\n")
        let html = """
            <!doctype html>
            <html><head><meta charset="utf-8"><title>Signing in</title></head>
            <body onload="document.forms[0].submit()">
            <form method="post" action="\(Self.escape(redirect))">
            \(fields)
            <noscript><button type="submit">Continue</button></noscript>
            </form></body></html>
            """
        return TestResponse(
            status: 200,
            headers: [("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-store")],
            body: Data(html.utf8))
    }

    /// The callback's user document (the descriptor's ``CallbackSpec/user``), sent on a user's first
    /// sign-in only, as Apple does.
    func firstSignInUser(_ user: SimulatedUser) -> (String, String)? {
        guard let spec = provider.callback.user else { return nil }
        let first = ledger.withLock { $0.callbackUsersSent.insert(user.id).inserted }
        guard first else { return nil }
        var document: [String: Any] = [:]
        let parts = user.name.split(separator: " ", maxSplits: 1).map(String.init)
        JSONPointerWriter.set(user.email, at: spec.email, in: &document)
        JSONPointerWriter.set(user.name, at: spec.name, in: &document)
        JSONPointerWriter.set(parts.first ?? user.name, at: spec.givenName, in: &document)
        if parts.count > 1 { JSONPointerWriter.set(parts[1], at: spec.familyName, in: &document) }
        guard let data = try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys]),
            let text = String(data: data, encoding: .utf8)
        else { return nil }
        return (spec.parameter, text)
    }

    /// A `document` request with a current token (in the request's scheme): what the token is.
    func tokenInformation(_ request: SimulatorRequest, _ route: SimulatorRoutes.Route) -> TestResponse {
        let token = request.authorizationToken(scheme: route.spec.authorizationScheme)
        guard route.spec.authorization == .accessToken,
            let grant = ledger.withLock({ $0.grant(forAccessToken: token) })
        else { return .json([String: Any]()) }
        return .json([
            "client_id": grant.clientID, "user_id": grant.user.id, "login": grant.user.email, "expires_in": 3600,
            "scopes": ["openid"],
        ])
    }

    /// The user approves a device code at the verification page: the next poll gets tokens.
    func approveDevice(_ request: SimulatorRequest) -> TestResponse {
        guard let code = request.parameter("user_code") else {
            return .text("Enter the code shown on your device.", headers: [("Cache-Control", "no-store")])
        }
        let approved = ledger.withLock { ledger -> Bool in
            guard let key = ledger.deviceCodes.first(where: { $0.value.userCode == code })?.key else { return false }
            ledger.deviceCodes[key]?.approved = true
            return true
        }
        guard approved else { return .text("Unknown or expired code.", status: 400) }
        return .text("Device approved. You can return to your device.")
    }

    /// A fresh user code, eight letters in two groups (`BCDF-GHJK`), without vowels.
    static func userCode() -> String {
        let letters = Array("BCDFGHJKLMNPQRSTVWXZ")
        let picked = (0..<8).map { _ in letters[Int.random(in: 0..<letters.count)] }
        return String(picked[0..<4]) + "-" + String(picked[4...])
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "'", with: "&#39;")
    }
}

extension SimulatorRoutes {
    /// The tenant id of tokens the simulator issues for multi-tenant descriptors.
    static let tenantID = "9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d"

    /// For a descriptor with `tenant_placeholder` issuer validation: the issuer with the path segment that
    /// holds a configured value (the tenant) replaced by `{tenantid}`, as the `common` tenant's discovery
    /// document names it; `nil` otherwise.
    static func tenantIssuerTemplate(provider: ProviderSpec, issuer: String, inputs: [String: String]) -> String? {
        guard provider.tokens.issuerValidation == .tenantPlaceholder,
            var components = URLComponents(string: issuer)
        else { return nil }
        let values = Set(inputs.values)
        var segments = components.percentEncodedPath.split(separator: "/", omittingEmptySubsequences: false)
            .map(String.init)
        guard let index = segments.firstIndex(where: { values.contains($0) }) else { return nil }
        segments[index] = "{tenantid}"
        components.percentEncodedPath = ""
        guard let origin = components.string else { return nil }
        return origin + segments.joined(separator: "/")
    }
}

extension SimulatorRequest {
    /// The token of an `Authorization: <scheme> <token>` header (the scheme compared case-insensitively).
    func authorizationToken(scheme: String) -> String? {
        guard let header = recorded.header("Authorization") else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == scheme.lowercased() else { return nil }
        return String(parts[1])
    }
}
