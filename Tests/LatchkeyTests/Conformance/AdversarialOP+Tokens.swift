import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import LatchkeyTokens

/// The token endpoint and ID-token signing of the adversarial provider.
extension AdversarialOP {
    /// `POST /token`: the authorization code (PKCE S256, one use) or a refresh token (rotated).
    func token(_ request: RecordedRequest) -> TestResponse {
        let form = request.formBody
        guard form["client_id"] == Self.clientID else { return oauthError("invalid_client", status: 401) }
        switch form["grant_type"] {
        case "authorization_code":
            let grant = state.withLock { state -> Grant? in
                guard let code = form["code"] else { return nil }
                return state.codes.removeValue(forKey: code)
            }
            guard let grant, form["redirect_uri"] == grant.redirectURI,
                PKCE.challenge(for: form["code_verifier"] ?? "") == grant.challenge
            else { return oauthError("invalid_grant") }
            state.withLock { state in
                state.authTime = clock.now.addingTimeInterval(-5)
                if let key = state.behaviour.rotateBeforeSigning {
                    state.keys = [key]
                    state.signingKey = key
                    state.behaviour.rotateBeforeSigning = nil
                }
            }
            return tokens(nonce: grant.nonce, refreshing: false)
        case "urn:ietf:params:oauth:grant-type:device_code":
            guard form["device_code"] == "device-code-1" else { return oauthError("invalid_grant") }
            state.withLock { $0.authTime = clock.now.addingTimeInterval(-5) }
            return tokens(nonce: nil, refreshing: false)
        case "refresh_token":
            let live = state.withLock { state -> Bool in
                guard let token = form["refresh_token"], state.refreshTokens.remove(token) != nil else { return false }
                return true
            }
            guard live else { return oauthError("invalid_grant") }
            return tokens(nonce: nil, refreshing: true)
        default:
            return oauthError("unsupported_grant_type")
        }
    }

    private func tokens(nonce: String?, refreshing: Bool) -> TestResponse {
        let (number, key, edit, authTime) = state.withLock { state in
            state.issued += 1
            state.accessTokens.insert("at-\(state.issued)")
            state.refreshTokens.insert("rt-\(state.issued)")
            let edit = refreshing ? state.behaviour.refreshIDToken : state.behaviour.idToken
            return (state.issued, state.signingKey, edit, state.authTime ?? clock.now)
        }
        let accessToken = "at-\(number)"
        let now = Int(clock.now.timeIntervalSince1970)
        var claims: [String: Any] = [
            "iss": issuer, "sub": Self.subject, "aud": Self.clientID, "iat": now, "exp": now + 600,
            "auth_time": Int(authTime.timeIntervalSince1970), "at_hash": Self.atHash(accessToken),
        ]
        if let nonce { claims["nonce"] = nonce }
        var header: [String: Any] = ["alg": "RS256", "typ": "JWT"]
        if let keyID = key.keyID { header["kid"] = keyID }
        var draft = IDTokenDraft(header: header, claims: claims, signer: key.signer, algorithm: .rs256)
        edit(&draft)
        let body: [String: Any] = [
            "access_token": accessToken, "token_type": "Bearer", "expires_in": 3600,
            "refresh_token": "rt-\(number)", "id_token": Self.sign(draft), "scope": "openid profile email",
        ]
        return .json(body)
    }

    private func oauthError(_ code: String, status: Int = 400) -> TestResponse {
        .json(["error": code, "error_description": "The conformance provider refused the request."], status: status)
    }

    // MARK: - Signing

    /// `at_hash` for an RS256 token: the left half of SHA-256 of the access token, base64url.
    static func atHash(_ accessToken: String) -> String {
        Base64URL.encode(SHA2Hash.sha256(Data(accessToken.utf8)).prefix(16))
    }

    /// The compact JWS of a draft.
    static func sign(_ draft: IDTokenDraft) -> String {
        var header = draft.header
        switch draft.signature {
        case .none: header["alg"] = "none"
        case .hs256: header["alg"] = "HS256"
        case .valid, .corrupted: break
        }
        let input = part(header) + "." + part(draft.claims)
        switch draft.signature {
        case .none:
            return input + "."
        case .hs256:
            return input + "." + Base64URL.encode(SHA2Hash.sha256(Data((input + "guessed-secret").utf8)))
        case .valid, .corrupted:
            var signature = try! draft.signer.sign(Array(input.utf8), algorithm: draft.algorithm)
            if case .corrupted = draft.signature { signature[signature.count / 2] ^= 0x5A }
            return input + "." + Base64URL.encode(signature)
        }
    }

    private static func part(_ object: [String: Any]) -> String {
        Base64URL.encode(try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
    }
}
