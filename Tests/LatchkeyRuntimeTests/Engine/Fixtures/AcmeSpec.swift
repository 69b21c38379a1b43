import Foundation
@_spi(Generated) import LatchkeyRuntime
import LatchkeyVocabulary

/// A hand-made OAuth-style provider: password, authorization code with PKCE, refresh, sign-out,
/// user info, two actions, an `apikey` common header and an extra token parameter.
enum AcmeSpec {
    static func make(
        discovery: DiscoverySpec? = nil, clientPolicy: ClientPolicy = ClientPolicy(),
        callback: CallbackSpec = CallbackSpec(
            issuerParameter: "iss", errorCodeParameter: "error_code", allowedRedirectKinds: [.customScheme, .loopback]),
        returnsState: Bool = true, usesNonce: Bool = false, fetchesUser: Bool = false,
        signOutRequest: String? = "logout",
        authorizeURL: ValueTemplate = template("{baseURL}/authorize")
    ) -> ProviderSpec {
        ProviderSpec(
            name: "acme", displayName: "Acme Auth",
            inputs: [
                InputSpec(name: "baseURL", kind: .url, trimsTrailingSlash: true),
                InputSpec(name: "clientID"),
                InputSpec(
                    name: "apiKey",
                    rejections: [
                        .init(test: .prefix("sk_secret_"), message: "A secret key must never ship in an app."),
                        .init(test: .jwtClaim(name: "role", equals: "service_role"), message: "service_role key"),
                    ], environmentKey: "ACME_API_KEY"),
            ],
            discovery: discovery,
            commonHeaders: [ParameterSpec("apikey", string("{apiKey}"))],
            extraTokenParameters: [ParameterSpec("audience", string("api"))],
            requests: requests,
            flows: FlowSet(
                password: PasswordFlowSpec(request: "password"),
                authorizationCode: AuthorizationCodeFlowSpec(
                    authorizeURL: authorizeURL,
                    authorizeQuery: [
                        ParameterSpec("response_type", string("code")),
                        ParameterSpec("client_id", string("{clientID}")),
                        ParameterSpec("redirect_uri", string("{redirect_uri}")),
                        ParameterSpec("scope", string("{scope}")),
                        ParameterSpec("state", string("{state}")),
                        ParameterSpec("code_challenge", string("{code_challenge}")),
                        ParameterSpec("code_challenge_method", string("{code_challenge_method}")),
                        ParameterSpec("nonce", string("{nonce}")),
                    ],
                    exchangeRequest: "exchange", usesNonce: usesNonce, returnsState: returnsState,
                    defaultScopes: ["openid", "email"], fetchesUser: fetchesUser),
                refresh: RefreshFlowSpec(request: "refresh", reuseCodes: ["refresh_token_already_used"]),
                signOut: SignOutFlowSpec(request: signOutRequest, scopes: ["local", "global"], defaultScope: "local"),
                userInfo: UserInfoFlowSpec(request: "user")),
            actions: [
                ActionSpec(
                    name: "resetPassword", request: "recover",
                    parameters: [
                        .init(name: "email", minimumLength: 3),
                        .init(name: "redirect", type: .url, isOptional: true),
                        .init(name: "create", type: .bool, isOptional: true),
                        .init(name: "channel", isOptional: true, allowedValues: ["email", "sms"]),
                    ]),
                ActionSpec(
                    name: "signUp", request: "signup",
                    parameters: [.init(name: "email"), .init(name: "password", minimumLength: 8)]),
                ActionSpec(name: "settings", request: "settings", parameters: []),
                ActionSpec(
                    name: "verifyCode", request: "verify", parameters: [.init(name: "email"), .init(name: "code")]),
            ],
            errors: ErrorMappingSpec(
                codePointers: ["/error_code", "/error"], messagePointers: ["/msg", "/error_description"],
                rules: [
                    .init(providerCode: "invalid_credentials", code: "invalid_credentials", kind: .rejected),
                    .init(providerCode: "refresh_token_already_used", code: "session_expired", kind: .rejected),
                    .init(providerCode: "session_expired", code: "session_expired", kind: .rejected),
                    .init(status: 422, code: "validation_failed", kind: .invalidInput),
                ],
                callbackRules: [.init(providerCode: "otp_expired", code: "otp_expired", kind: .rejected)]),
            callback: callback,
            session: SessionMapping(user: "/user"),
            user: UserMapping(id: "/id", email: "/email", name: "/name"),
            tokens: TokenSpec(issuer: template("{baseURL}")),
            clientPolicy: clientPolicy)
    }

    static var requests: [String: RequestSpec] {
        [
            "password": RequestSpec(
                method: "POST", url: template("{baseURL}/token"),
                query: [ParameterSpec("grant_type", string("password"))],
                encoding: .json,
                body: [
                    ParameterSpec("username", string("{username}")), ParameterSpec("password", string("{password}")),
                    ParameterSpec("client_id", string("{clientID}")),
                    ParameterSpec("meta", .object([.init("device", .string(template("swift-{clientID}")))])),
                ], response: .session),
            "exchange": RequestSpec(
                method: "POST", url: template("{baseURL}/oauth/token"), encoding: .form,
                body: [
                    ParameterSpec("grant_type", string("authorization_code")), ParameterSpec("code", string("{code}")),
                    ParameterSpec("code_verifier", string("{code_verifier}")),
                    ParameterSpec("redirect_uri", string("{redirect_uri}")),
                    ParameterSpec("client_id", string("{clientID}")),
                ], response: .session),
            "refresh": RequestSpec(
                method: "POST", url: template("{baseURL}/oauth/token"), encoding: .form,
                body: [
                    ParameterSpec("grant_type", string("refresh_token")),
                    ParameterSpec("refresh_token", string("{refresh_token}")),
                    ParameterSpec("client_id", string("{clientID}")),
                ], response: .session),
            "logout": RequestSpec(
                method: "POST", url: template("{baseURL}/logout"), query: [ParameterSpec("scope", string("{scope}"))],
                authorization: .accessToken, ignoredErrorStatuses: [401, 404]),
            "user": RequestSpec(
                method: "GET", url: template("{baseURL}/user"), authorization: .accessToken, response: .user),
            "recover": RequestSpec(
                method: "POST", url: template("{baseURL}/recover"), encoding: .json,
                body: [
                    ParameterSpec("email", string("{email}")), ParameterSpec("redirect_to", string("{redirect}")),
                    ParameterSpec("create", string("{create}")), ParameterSpec("channel", string("{channel}")),
                ]),
            "signup": RequestSpec(
                method: "POST", url: template("{baseURL}/signup"), encoding: .json,
                body: [ParameterSpec("email", string("{email}")), ParameterSpec("password", string("{password}"))],
                response: .sessionOrUser),
            "settings": RequestSpec(method: "GET", url: template("{baseURL}/settings"), response: .document),
            "verify": RequestSpec(
                method: "POST", url: template("{baseURL}/verify"), encoding: .json,
                body: [ParameterSpec("email", string("{email}")), ParameterSpec("token", string("{code}"))],
                response: .session),
            "config": RequestSpec(method: "GET", url: template("{baseURL}/client-config"), response: .document),
        ]
    }

    /// Parses `{name}` references (no escapes needed in these fixtures).
    static func template(_ text: String) -> ValueTemplate {
        var parts: [ValueTemplate.Segment] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            if open > rest.startIndex { parts.append(.literal(String(rest[..<open]))) }
            parts.append(.variable(String(rest[rest.index(after: open)..<close])))
            rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty { parts.append(.literal(String(rest))) }
        return ValueTemplate(segments: parts)
    }

    static func string(_ text: String) -> JSONTemplate { .string(template(text)) }
}
