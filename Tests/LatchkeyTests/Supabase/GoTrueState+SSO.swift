import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting

/// `POST /sso` (sso.go) and the Web3 grant (web3.go, without the signature's cryptography: the form is checked).
extension GoTrueState {
    /// `SingleSignOn`: exactly one of `domain` and `provider_id`; with `skip_http_redirect`, `{"url": …}`.
    mutating func sso(_ request: RecordedRequest) throws(Reject) -> TestResponse {
        let body = try jsonBody(
            request,
            allowed: [
                "provider_id", "domain", "redirect_to", "skip_http_redirect", "code_challenge",
                "code_challenge_method", "gotrue_meta_security",
            ])
        _ = try captchaAndData(body, request)
        let domain = try string(body, "domain", request)
        let providerID = try string(body, "provider_id", request)
        guard (domain == nil) != (providerID == nil) else {
            throw httpError(request, 400, "validation_failed", "Only one of provider_id or domain supported")
        }
        guard
            let provider = calls.ssoProviders.first(where: {
                $0.domain == domain?.lowercased() || $0.id == providerID
            })
        else {
            let code = domain == nil ? "sso_provider_not_found" : "sso_domain_not_found"
            throw httpError(request, 404, code, "No SSO provider assigned for this domain")
        }
        let challenge = try string(body, "code_challenge", request) ?? ""
        let method = (try string(body, "code_challenge_method", request) ?? "").lowercased()
        guard challenge.isEmpty == method.isEmpty, method.isEmpty || method == "s256" else {
            throw httpError(
                request, 400, "validation_failed", "PKCE flow requires code_challenge_method and code_challenge")
        }
        let flow = FlowState(
            id: Self.uuid(), authCode: Self.uuid(), challenge: challenge, method: method,
            provider: "sso:" + provider.id,
            authenticationMethod: "sso/saml", redirectTo: allowedRedirect(try string(body, "redirect_to", request)),
            userID: nil, codeIssued: false, callbackUsed: false, createdAt: now)
        let location = base.absoluteString + "/idp/saml?" + Self.encode([("state", flow.id)])
        guard body["skip_http_redirect"] as? Bool == true else { return .redirect(to: location, status: 303) }
        flowStates.append(flow)
        return .json(["url": location])
    }

    /// `grant_type=web3`: a known chain, a message naming the account on its second line, a signature of the
    /// chain's form (hex 0x + 130 digits for Ethereum, base64 of 64 bytes for Solana); a session for the wallet.
    mutating func web3Grant(_ request: RecordedRequest) throws(Reject) -> TestResponse {
        let body = try jsonBody(request, allowed: ["chain", "message", "signature", "gotrue_meta_security"])
        _ = try captchaAndData(body, request)
        let chain = try string(body, "chain", request) ?? ""
        let message = try string(body, "message", request) ?? ""
        let signature = try string(body, "signature", request) ?? ""
        let lines = message.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count > 1, !lines[1].isEmpty else {
            throw oauthError("invalid request", "Web3 message is not a valid SIWE or SIWS message")
        }
        let wellFormed: Bool
        switch chain {
        case "ethereum":
            wellFormed =
                signature.hasPrefix("0x") && signature.count == 132 && signature.dropFirst(2).allSatisfy(\.isHexDigit)
        case "solana":
            wellFormed = Data(base64Encoded: signature)?.count == 64
        default:
            throw oauthError("invalid request", "Unsupported chain \(chain)")
        }
        guard wellFormed else { throw oauthError("invalid request", "Signature is not valid for \(chain)") }
        let account = String(lines[1])
        let email = "\(account.lowercased())@\(chain).web3.invalid"
        let userID =
            users.first(where: { $0.email == email })?.id
            ?? createUser(email: email, password: nil, provider: "web3", confirmed: true, name: nil)
        return .json(newSession(for: userID))
    }
}
