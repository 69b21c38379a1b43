import Foundation
@_spi(Generated) import Latchkey
import LatchkeyPlatform
@_spi(Generated) import LatchkeyTesting

/// The server's mutable state.
struct BaseIdPState: Sendable {
    struct CodeGrant: Sendable {
        var redirectURI: String
        var challenge: String
        var scope: String
        var nonce: String
    }

    var issuer = ""
    var clientKey = BaseIdPServer.clientKey
    var confidential = false
    var allowedRedirectURIs = [BaseIdPServer.customRedirect.absoluteString]
    var allowedScopes = ["openid", "profile", "email"]
    /// The `aud` of the access tokens (the SDKs' default unless a test overrides it).
    var audience = BaseIdPServer.audience
    /// Key-document entries published before the signing key (other versions, purposes, broken entries).
    var extraKeyEntries: [[String: String]] = []
    /// The `crv` the signing key is published with (anything but `Ed25519` makes its entry unusable).
    var publishedCurve = "Ed25519"
    /// When set, the signing key is published as these base64 bytes instead (a wrong size makes it unusable).
    var publishedKeyBase64: String?
    /// When set, the key endpoint answers this status with no keys.
    var keyEndpointStatus: Int?
    /// When set, the token endpoint refuses every request with this OAuth error and status.
    var tokenFailure: (error: String, status: Int)?
    /// When set, `/v1/me` describes this account instead of the token's.
    var mePerson: BaseIdPServer.Person?
    var authorizeOutcome = BaseIdPServer.AuthorizeOutcome.approve
    var tokenDefect = BaseIdPServer.TokenDefect.none
    var accessLifetime = 900
    var publishedImplicitAssertion: String?
    var person = BaseIdPServer.person

    var signer: TestSigner
    var keyID = "base-k1"
    var keyGeneration = 1
    var codes: [String: CodeGrant] = [:]
    var liveRefreshTokens: Set<String> = []
    var liveAccessTokens: Set<String> = []
    var serial = 0

    mutating func next(_ prefix: String) -> String {
        serial += 1
        return "\(prefix)_\(serial)_\(UUID().uuidString.prefix(8))"
    }
}

/// The request handling of ``BaseIdPServer`` (the server's threads hold this, not the server).
final class BaseIdPCore: Sendable {
    let state: Locked<BaseIdPState>
    let clock: BaseIdPClock

    init(clock: BaseIdPClock) throws {
        self.clock = clock
        self.state = Locked(BaseIdPState(signer: try TestSigner(.ed25519)))
    }

    func handle(_ request: RecordedRequest) -> TestResponse {
        state.withLock { state in
            switch (request.method, request.path) {
            case ("GET", "/v1/client-config"): return clientConfig(request, &state)
            case ("GET", "/.well-known/square-identity"): return .json(metadata(state))
            case ("GET", "/v1/paseto-keys"): return keySet(state)
            case ("GET", "/oauth2/authorize"): return authorize(request, &state)
            case ("POST", "/oauth2/token"): return token(request, &state)
            case ("GET", "/v1/me"): return me(request, state)
            default: return .json(["error": "not_found"], status: 404)
            }
        }
    }

    // MARK: - Routes

    private func endpoints(_ state: BaseIdPState) -> [String: Any] {
        [
            "issuer": state.issuer,
            "authorization_endpoint": state.issuer + "/oauth2/authorize",
            "token_endpoint": state.issuer + "/oauth2/token",
            "paseto_public_key_endpoint": state.issuer + "/v1/paseto-keys",
        ]
    }

    private func clientConfig(_ request: RecordedRequest, _ state: inout BaseIdPState) -> TestResponse {
        guard request.query("key") == state.clientKey else {
            return .json(["error": "client_not_found", "message": "no client has this key"], status: 404)
        }
        var config = endpoints(state)
        config["client_id"] = BaseIdPServer.clientID
        config["anon_key"] = state.clientKey
        config["product"] = "latchkey"
        config["display_name"] = "Latchkey Tests"
        config["app_domain"] = "latchkey.example"
        config["allowed_redirect_uris"] = state.allowedRedirectURIs
        config["allowed_scopes"] = state.allowedScopes
        config["allowed_auth_methods"] = ["password", "magic_link"]
        config["requested_claims"] = ["email", "profile"]
        config["confidential"] = state.confidential
        config["status"] = "active"
        return .json(config)
    }

    private func metadata(_ state: BaseIdPState) -> [String: Any] {
        var metadata = endpoints(state)
        metadata["token_format"] = "paseto"
        metadata["paseto_purpose"] = "v4.public"
        metadata["grant_types_supported"] = ["authorization_code", "refresh_token"]
        metadata["code_challenge_methods_supported"] = ["S256"]
        metadata["token_endpoint_auth_methods_supported"] = ["none", "client_secret_post"]
        return metadata
    }

    private func keySet(_ state: BaseIdPState) -> TestResponse {
        guard case .ed25519(let raw) = state.signer.publicKey else { return .text("no key", status: 500) }
        var key: [String: Any] = [
            "kid": state.keyID, "alg": "v4.public", "kty": "OKP", "crv": state.publishedCurve,
            "public_key_base64": state.publishedKeyBase64 ?? Data(raw).base64EncodedString(),
        ]
        if let assertion = state.publishedImplicitAssertion { key["implicit_assertion"] = assertion }
        if let status = state.keyEndpointStatus { return .json(["error": "unavailable"], status: status) }
        let entries: [Any] = state.extraKeyEntries.map { $0 as [String: Any] } + [key]
        return .json(["keys": entries])
    }

    private func authorize(_ request: RecordedRequest, _ state: inout BaseIdPState) -> TestResponse {
        let query = Dictionary(request.queryItems.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
        guard query["client_id"] == BaseIdPServer.clientID, query["response_type"] == "code",
            let redirect = query["redirect_uri"], state.allowedRedirectURIs.contains(redirect),
            query["code_challenge_method"] == "S256", let challenge = query["code_challenge"], !challenge.isEmpty,
            let requestState = query["state"], !requestState.isEmpty, let nonce = query["nonce"], !nonce.isEmpty,
            let scope = query["scope"]
        else {
            return .text("invalid authorization request", status: 400)
        }
        let code = state.next("code")
        state.codes[code] = .init(redirectURI: redirect, challenge: challenge, scope: scope, nonce: nonce)
        func back(_ target: String, _ items: [(String, String)]) -> TestResponse {
            var components = URLComponents(string: target)!
            components.queryItems = items.map { URLQueryItem(name: $0.0, value: $0.1) }
            return .redirect(to: components.url!.absoluteString)
        }
        switch state.authorizeOutcome {
        case .approve:
            return back(redirect, [("code", code), ("state", requestState)])
        case .deny:
            return back(
                redirect,
                [("error", "access_denied"), ("error_description", "The user denied access."), ("state", requestState)])
        case .forgeState:
            return back(redirect, [("code", code), ("state", "forged-state")])
        case .redirect(let other):
            return back(other.absoluteString, [("code", code), ("state", requestState)])
        case .page:
            return TestResponse(
                status: 200, headers: [("Content-Type", "text/html")], body: Data("<html>Sign in</html>".utf8))
        }
    }

    private func token(_ request: RecordedRequest, _ state: inout BaseIdPState) -> TestResponse {
        guard request.header("Content-Type")?.hasPrefix("application/x-www-form-urlencoded") == true else {
            return oauthError("invalid_request", "the body must be a form")
        }
        let form = request.formBody
        if let failure = state.tokenFailure {
            return oauthError(failure.error, "the token request was refused", status: failure.status)
        }
        guard form["client_id"] == BaseIdPServer.clientID, form["client_secret"] == nil else {
            return oauthError("invalid_client", "unknown client", status: 401)
        }
        switch form["grant_type"] {
        case "authorization_code":
            guard let code = form["code"], let grant = state.codes.removeValue(forKey: code) else {
                return oauthError("invalid_grant", "unknown or used code")
            }
            guard form["redirect_uri"] == grant.redirectURI else {
                return oauthError("invalid_grant", "redirect_uri does not match")
            }
            guard let verifier = form["code_verifier"], BaseIdPServer.challenge(for: verifier) == grant.challenge else {
                return oauthError("invalid_grant", "PKCE verification failed")
            }
            return issueTokens(&state)
        case "refresh_token":
            guard let refresh = form["refresh_token"], state.liveRefreshTokens.remove(refresh) != nil else {
                return oauthError("invalid_grant", "unknown or used refresh token")
            }
            return issueTokens(&state)
        default:
            return oauthError("unsupported_grant_type", "unsupported grant type")
        }
    }

    private func me(_ request: RecordedRequest, _ state: BaseIdPState) -> TestResponse {
        guard let header = request.header("Authorization"), header.hasPrefix("Bearer "),
            state.liveAccessTokens.contains(String(header.dropFirst("Bearer ".count)))
        else {
            return .json(["error": "invalid_token", "message": "missing or unknown access token"], status: 401)
        }
        let person = state.mePerson ?? state.person
        return .json([
            "sub": person.sub, "gid": person.gid, "email": person.email, "name": person.name, "role": person.role,
            "scp": person.scopes, "ctx": ["kind": "client"],
        ])
    }

    private func oauthError(_ error: String, _ description: String, status: Int = 400) -> TestResponse {
        .json(["error": error, "error_description": description], status: status)
    }

    // MARK: - Tokens

    private func issueTokens(_ state: inout BaseIdPState) -> TestResponse {
        let now = clock.now
        guard let access = try? mintAccessToken(&state, now: now) else { return .text("signing failed", status: 500) }
        let refresh = state.next("rt")
        state.liveAccessTokens.insert(access)
        state.liveRefreshTokens.insert(refresh)
        return .json([
            "access_token": access, "refresh_token": refresh, "token_type": "PASETO",
            "expires_in": state.accessLifetime,
            "refresh_token_expires_at": BaseIdPServer.rfc3339(now.addingTimeInterval(30 * 86_400)),
        ])
    }

    private func mintAccessToken(_ state: inout BaseIdPState, now: Date) throws -> String {
        let person = state.person
        let defect = state.tokenDefect
        var issuedAt = now
        var expiry = now.addingTimeInterval(TimeInterval(state.accessLifetime))
        if case .expired = defect {
            issuedAt = now.addingTimeInterval(-1200)
            expiry = now.addingTimeInterval(-300)
        }
        var claims: [String: Any] = [
            "iss": state.issuer, "sub": person.sub, "aud": state.audience,
            "exp": BaseIdPServer.rfc3339(expiry), "nbf": BaseIdPServer.rfc3339(issuedAt),
            "iat": BaseIdPServer.rfc3339(issuedAt), "jti": state.next("jti"), "gid": person.gid,
            "email": person.email, "name": person.name, "role": person.role, "sid": "sid_9a1b",
            "ctx": ["kind": "client", "tenant_id": "tnt_1"], "scp": person.scopes, "token_use": "access",
        ]
        if case .wrongAudience = defect { claims["aud"] = "another-audience" }
        if case .wrongIssuer = defect { claims["iss"] = "https://impostor.example" }
        if case .notForAccess = defect { claims["token_use"] = "refresh" }
        if case .missingSessionID = defect { claims["sid"] = nil }
        if case .notBefore(let seconds) = defect {
            claims["nbf"] = BaseIdPServer.rfc3339(issuedAt.addingTimeInterval(TimeInterval(seconds)))
        }
        var signer = state.signer
        var keyID = state.keyID
        if case .unknownKey = defect {
            signer = try TestSigner(.ed25519)
            keyID = "base-unpublished"
        }
        var footerMembers = ["kid": keyID, "alg": "v4.public", "typ": "paseto"]
        if case .footerWithoutType = defect { footerMembers["typ"] = nil }
        let footer = BaseIdPServer.jsonBytes(footerMembers)
        let message = BaseIdPServer.jsonBytes(claims)
        var assertion = BaseIdPServer.implicitAssertion
        if case .otherImplicitAssertion = defect { assertion = "square-experience:idp:refresh:v1" }
        let signed = try BaseIdPServer.sign(
            message: message, footer: footer, implicitAssertion: Array(assertion.utf8), with: signer)
        guard case .tampered = defect else { return signed.token }
        claims["role"] = "admin"
        return BaseIdPServer.assemble(
            message: BaseIdPServer.jsonBytes(claims), signature: signed.signature, footer: footer)
    }
}
