import Foundation
@_spi(Generated) import LatchkeyRuntime
import LatchkeyTokens

/// The documents the simulator answers with: sessions, user documents, protected resources and ID tokens.
extension SimulatorCore {
    // MARK: - Documents

    func session(
        user: SimulatedUser, tokens: (access: String, refresh: String), nonce: String?, clientID: String,
        _ routes: SimulatorRoutes, _ route: SimulatorRoutes.Route
    ) -> TestResponse {
        let mapping = route.spec.session ?? provider.session
        var document: [String: Any] = [:]
        let now = Int(Date().timeIntervalSince1970)
        JSONPointerWriter.set(tokens.access, at: mapping.accessToken, in: &document)
        JSONPointerWriter.set(tokens.refresh, at: mapping.refreshToken, in: &document)
        JSONPointerWriter.set(tokenType(of: tokens.access), at: mapping.tokenType, in: &document)
        JSONPointerWriter.set(3600, at: mapping.expiresIn, in: &document)
        JSONPointerWriter.set(now + 3600, at: mapping.expiresAt, in: &document)
        JSONPointerWriter.set("openid profile email", at: mapping.scope, in: &document)
        if mapping.user == "" {
            // The token response is the user document itself (Firebase's `signInWithPassword`).
            for (name, value) in userDocument(user) where document[name] == nil { document[name] = value }
        } else {
            JSONPointerWriter.set(userDocument(user), at: mapping.user, in: &document)
        }
        for capture in provider.captures where capture.request == nil {
            if let pointer = capture.pointer {
                JSONPointerWriter.set(Self.capturedValue(capture.name), at: pointer, in: &document)
            }
        }
        if provider.tokens.validatesIDToken,
            let idToken = idToken(user: user, nonce: nonce, clientID: clientID, routes: routes, now: now)
        {
            JSONPointerWriter.set(idToken, at: mapping.idToken ?? "/id_token", in: &document)
        }
        return .json(document, headers: [("Cache-Control", "no-store")] + tokenResponseCaptureHeaders)
    }

    func userDocument(_ user: SimulatedUser) -> [String: Any] {
        var document: [String: Any] = ["sub": user.id, "email": user.email, "name": user.name]
        let mapping = provider.user
        JSONPointerWriter.set(user.id, at: mapping.id, in: &document)
        JSONPointerWriter.set(user.email, at: mapping.email, in: &document)
        JSONPointerWriter.set(user.name, at: mapping.name, in: &document)
        for (pointer, part) in nameParts(of: user.name, count: mapping.nameParts.count) {
            JSONPointerWriter.set(part, at: mapping.nameParts[pointer], in: &document)
        }
        JSONPointerWriter.set(user.role, at: mapping.role, in: &document)
        JSONPointerWriter.set("openid profile email", at: mapping.scopes, in: &document)
        return document
    }

    func userResponse(_ request: SimulatorRequest, scheme: String = "Bearer") -> TestResponse {
        let token = request.authorizationToken(scheme: scheme) ?? request.authorizationToken(scheme: "DPoP")
        guard let grant = ledger.withLock({ $0.grant(forAccessToken: token) }) else {
            return error("invalid_token", "A current access token is required.", status: 401)
        }
        return .json(userDocument(grant.user))
    }

    /// The demo resource: a current bearer token, or a DPoP-bound token with its proof (RFC 9449 §7).
    func protected(_ request: SimulatorRequest, _ routes: SimulatorRoutes) -> TestResponse {
        switch resourceGrant(request, scheme: "Bearer", routes) {
        case .failure(let refusal): return refusal
        case .success(let grant): return .json(["message": "Hello, \(grant.user.name)"])
        }
    }

    func idToken(user: SimulatedUser, nonce: String?, clientID: String, routes: SimulatorRoutes, now: Int)
        -> String?
    {
        let header: [String: Any] = ["alg": "RS256", "typ": "JWT", "kid": keyID]
        let lifetime = ledger.withLock(\.idTokenLifetime)
        var claims: [String: Any] = [
            "iss": routes.issuer, "aud": clientID, "sub": user.id, "iat": now, "exp": now + lifetime,
            "email": user.email, "name": user.name,
        ]
        if let nonce { claims["nonce"] = nonce }
        // A provider that sends the name in the callback (Apple) leaves it out of the ID token.
        if provider.callback.user != nil { claims["name"] = nil }
        if let template = routes.tenantIssuerTemplate {
            claims["tid"] = SimulatorRoutes.tenantID
            claims["iss"] = template.replacingOccurrences(
                of: IssuerValidation.tenantPlaceholderText, with: SimulatorRoutes.tenantID)
        }
        guard let headerData = try? JSONSerialization.data(withJSONObject: header, options: [.sortedKeys]),
            let claimsData = try? JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys])
        else { return nil }
        let input = Base64URL.encode(headerData) + "." + Base64URL.encode(claimsData)
        guard let signature = try? signer.sign(Array(input.utf8), algorithm: .rs256) else { return nil }
        return input + "." + Base64URL.encode(signature)
    }
}
