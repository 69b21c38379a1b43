// A copy of SupabaseClient.provider from Generated/supabase.swift; scripts/fuzz.sh refreshes it.
// (The Latchkey product, which holds the generated clients, cannot be built with --sanitize=fuzzer.)
// swift-format-ignore-file

import Foundation
import LatchkeyRuntime

let supabaseProvider: LatchkeyRuntime.ProviderSpec = LatchkeyRuntime.ProviderSpec(
    name: "supabase",
    displayName: "Supabase Auth",
    inputs: [
        .init(name: "projectURL", kind: .url, trimsTrailingSlash: true),
        .init(
            name: "publishableKey",
            rejections: [
                .init(
                    test: .prefix("sb_secret_"),
                    code: "secret_in_app",
                    message: "a Supabase secret key must never ship in an app; use the publishable key"
                ),
                .init(
                    test: .jwtClaim(name: "role", equals: "service_role"),
                    code: "secret_in_app",
                    message: "a service_role key must never ship in an app; use the anon or publishable key"
                ),
            ]
        ),
    ],
    variables: [.init("baseURL", .string("{projectURL}/auth/v1"))],
    commonHeaders: [
        .init("apikey", .string("{publishableKey}")),
        .init("X-Supabase-Api-Version", .string("2024-01-01")),
    ],
    requests: [
        "getUser": LatchkeyRuntime.RequestSpec(
            method: "GET",
            url: "{baseURL}/user",
            authorization: .accessToken,
            response: .user
        ),
        "idTokenGrant": LatchkeyRuntime.RequestSpec(
            method: "POST",
            url: "{baseURL}/token",
            query: [.init("grant_type", .string("id_token"))],
            encoding: .json,
            body: [
                .init("provider", .string("{provider}")),
                .init("id_token", .string("{idToken}")),
                .init("nonce", .string("{nonce}")),
                .init("access_token", .string("{providerAccessToken}")),
            ],
            response: .session
        ),
        "logout": LatchkeyRuntime.RequestSpec(
            method: "POST",
            url: "{baseURL}/logout",
            query: [.init("scope", .string("{scope}"))],
            authorization: .accessToken,
            ignoredErrorStatuses: [401, 403, 404]
        ),
        "passwordGrant": LatchkeyRuntime.RequestSpec(
            method: "POST",
            url: "{baseURL}/token",
            query: [.init("grant_type", .string("password"))],
            encoding: .json,
            body: [.init("email", .string("{username}")), .init("password", .string("{password}"))],
            response: .session
        ),
        "pkceGrant": LatchkeyRuntime.RequestSpec(
            method: "POST",
            url: "{baseURL}/token",
            query: [.init("grant_type", .string("pkce"))],
            encoding: .json,
            body: [
                .init("auth_code", .string("{code}")),
                .init("code_verifier", .string("{code_verifier}")),
            ],
            response: .session
        ),
        "recovery": LatchkeyRuntime.RequestSpec(
            method: "POST",
            url: "{baseURL}/recover",
            query: [.init("redirect_to", .string("{redirectTo}"))],
            encoding: .json,
            body: [
                .init("email", .string("{email}")),
                .init("code_challenge", .string("{code_challenge}")),
                .init("code_challenge_method", .string("{code_challenge_method}")),
            ]
        ),
        "refreshGrant": LatchkeyRuntime.RequestSpec(
            method: "POST",
            url: "{baseURL}/token",
            query: [.init("grant_type", .string("refresh_token"))],
            encoding: .json,
            body: [.init("refresh_token", .string("{refresh_token}"))],
            response: .session
        ),
        "resend": LatchkeyRuntime.RequestSpec(
            method: "POST",
            url: "{baseURL}/resend",
            query: [.init("redirect_to", .string("{redirectTo}"))],
            encoding: .json,
            body: [.init("type", .string("{type}")), .init("email", .string("{email}"))]
        ),
        "signUp": LatchkeyRuntime.RequestSpec(
            method: "POST",
            url: "{baseURL}/signup",
            query: [.init("redirect_to", .string("{redirectTo}"))],
            encoding: .json,
            body: [.init("email", .string("{email}")), .init("password", .string("{password}"))],
            response: .sessionOrUser
        ),
        "updateUser": LatchkeyRuntime.RequestSpec(
            method: "PUT",
            url: "{baseURL}/user",
            encoding: .json,
            body: [.init("password", .string("{password}")), .init("email", .string("{email}"))],
            authorization: .accessToken,
            response: .user
        ),
        "verifyOTP": LatchkeyRuntime.RequestSpec(
            method: "POST",
            url: "{baseURL}/verify",
            encoding: .json,
            body: [
                .init("type", .string("{type}")),
                .init("email", .string("{email}")),
                .init("token", .string("{token}")),
                .init("token_hash", .string("{tokenHash}")),
            ],
            response: .session
        ),
    ],
    flows: LatchkeyRuntime.FlowSet(
        password: LatchkeyRuntime.PasswordFlowSpec(request: "passwordGrant", identifierLabel: "email"),
        authorizationCode: LatchkeyRuntime.AuthorizationCodeFlowSpec(
            authorizeURL: "{baseURL}/authorize",
            authorizeQuery: [
                .init("provider", .string("{provider}")),
                .init("redirect_to", .string("{redirect_uri}")),
                .init("scopes", .string("{scope}")),
                .init("code_challenge", .string("{code_challenge}")),
                .init("code_challenge_method", .string("s256")),
            ],
            exchangeRequest: "pkceGrant",
            returnsState: false,
            pendingLifetime: 300
        ),
        refresh: LatchkeyRuntime.RefreshFlowSpec(
            request: "refreshGrant",
            reuseCodes: ["refresh_token_already_used"]
        ),
        signOut: LatchkeyRuntime.SignOutFlowSpec(
            request: "logout",
            scopes: ["global", "local", "others"],
            defaultScope: "global"
        ),
        userInfo: LatchkeyRuntime.UserInfoFlowSpec(request: "getUser")
    ),
    actions: [
        .init(
            name: "signUp",
            request: "signUp",
            parameters: [
                .init(name: "email"),
                .init(name: "password", minimumLength: 6),
                .init(name: "redirectTo", type: .url, isOptional: true),
            ]
        ),
        .init(
            name: "resetPasswordForEmail",
            request: "recovery",
            parameters: [.init(name: "email"), .init(name: "redirectTo", type: .url, isOptional: true)]
        ),
        .init(
            name: "updatePassword",
            request: "updateUser",
            parameters: [.init(name: "password", minimumLength: 6)]
        ),
        .init(
            name: "resendConfirmation",
            request: "resend",
            parameters: [
                .init(name: "email"),
                .init(name: "type", allowedValues: ["signup", "email_change"]),
                .init(name: "redirectTo", type: .url, isOptional: true),
            ]
        ),
        .init(
            name: "verifyOTP",
            request: "verifyOTP",
            parameters: [
                .init(
                    name: "type",
                    allowedValues: ["signup", "invite", "recovery", "magiclink", "email_change", "email"]
                ),
                .init(name: "email", isOptional: true),
                .init(name: "token", isOptional: true),
                .init(name: "tokenHash", isOptional: true),
            ]
        ),
        .init(
            name: "signInWithIdToken",
            request: "idTokenGrant",
            parameters: [
                .init(
                    name: "provider",
                    allowedValues: ["apple", "google", "azure", "facebook", "kakao", "keycloak"]
                ),
                .init(name: "idToken"),
                .init(name: "nonce", isOptional: true),
                .init(name: "providerAccessToken", isOptional: true),
            ]
        ),
    ],
    errors: LatchkeyRuntime.ErrorMappingSpec(
        codePointers: ["/error_code", "/code", "/error"],
        messagePointers: ["/msg", "/message", "/error_description"],
        rules: [
            .init(
                providerCode: "invalid_credentials",
                code: "invalid_credentials",
                kind: .rejected
            ),
            .init(
                providerCode: "email_not_confirmed",
                code: "email_not_confirmed",
                kind: .rejected
            ),
            .init(
                providerCode: "phone_not_confirmed",
                code: "email_not_confirmed",
                kind: .rejected
            ),
            .init(
                providerCode: "user_already_exists",
                code: "user_already_exists",
                kind: .invalidInput
            ),
            .init(
                providerCode: "email_exists",
                code: "user_already_exists",
                kind: .invalidInput
            ),
            .init(
                providerCode: "phone_exists",
                code: "user_already_exists",
                kind: .invalidInput
            ),
            .init(
                providerCode: "identity_already_exists",
                code: "user_already_exists",
                kind: .invalidInput
            ),
            .init(providerCode: "weak_password", code: "weak_password", kind: .invalidInput),
            .init(providerCode: "same_password", code: "weak_password", kind: .invalidInput),
            .init(providerCodePrefix: "over_", code: "rate_limited", kind: .transport),
            .init(
                providerCode: "refresh_token_already_used",
                code: "session_expired",
                kind: .rejected
            ),
            .init(
                providerCode: "refresh_token_not_found",
                code: "session_expired",
                kind: .rejected
            ),
            .init(providerCode: "session_not_found", code: "session_expired", kind: .rejected),
            .init(providerCode: "session_expired", code: "session_expired", kind: .rejected),
            .init(providerCode: "bad_jwt", code: "session_expired", kind: .rejected),
            .init(providerCode: "no_authorization", code: "session_missing", kind: .rejected),
            .init(providerCode: "user_not_found", code: "session_expired", kind: .rejected),
            .init(providerCode: "user_banned", code: "user_banned", kind: .rejected),
            .init(providerCode: "bad_code_verifier", code: "bad_code_verifier", kind: .rejected),
            .init(
                providerCode: "flow_state_expired",
                code: "flow_state_expired",
                kind: .rejected
            ),
            .init(
                providerCode: "flow_state_not_found",
                code: "flow_state_not_found",
                kind: .rejected
            ),
            .init(providerCode: "otp_expired", code: "otp_expired", kind: .rejected),
            .init(providerCode: "otp_disabled", code: "provider_disabled", kind: .misconfigured),
            .init(
                providerCode: "validation_failed",
                code: "validation_failed",
                kind: .invalidInput
            ),
            .init(providerCode: "bad_json", code: "invalid_request", kind: .invalidInput),
            .init(
                providerCode: "email_address_invalid",
                code: "validation_failed",
                kind: .invalidInput
            ),
            .init(
                providerCode: "email_address_not_authorized",
                code: "validation_failed",
                kind: .invalidInput
            ),
            .init(
                providerCode: "reauthentication_needed",
                code: "mfa_required",
                kind: .rejected
            ),
            .init(providerCode: "insufficient_aal", code: "mfa_required", kind: .rejected),
            .init(
                providerCode: "mfa_verification_failed",
                code: "mfa_required",
                kind: .rejected
            ),
            .init(
                providerCode: "current_password_required",
                code: "validation_failed",
                kind: .invalidInput
            ),
            .init(
                providerCode: "current_password_invalid",
                code: "invalid_credentials",
                kind: .rejected
            ),
            .init(
                providerCode: "captcha_failed",
                code: "validation_failed",
                kind: .invalidInput
            ),
            .init(
                providerCode: "signup_disabled",
                code: "provider_disabled",
                kind: .misconfigured
            ),
            .init(
                providerCode: "email_provider_disabled",
                code: "provider_disabled",
                kind: .misconfigured
            ),
            .init(
                providerCode: "phone_provider_disabled",
                code: "provider_disabled",
                kind: .misconfigured
            ),
            .init(
                providerCode: "provider_disabled",
                code: "provider_disabled",
                kind: .misconfigured
            ),
            .init(
                providerCode: "anonymous_provider_disabled",
                code: "provider_disabled",
                kind: .misconfigured
            ),
            .init(
                providerCode: "feature_disabled",
                code: "provider_disabled",
                kind: .misconfigured
            ),
            .init(providerCode: "conflict", code: "rate_limited", kind: .transport),
            .init(providerCode: "request_timeout", code: "timeout", kind: .transport),
            .init(providerCode: "hook_timeout", code: "timeout", kind: .transport),
            .init(providerCode: "unexpected_failure", code: "server_error", kind: .transport),
            .init(
                providerCode: "request_entity_too_large",
                code: "invalid_request",
                kind: .invalidInput
            ),
            .init(providerCode: "invalid request", code: "invalid_request", kind: .invalidInput),
            .init(providerCode: "invalid nonce", code: "invalid_request", kind: .invalidInput),
            .init(status: 429, code: "rate_limited", kind: .transport),
            .init(status: 401, code: "invalid_client", kind: .misconfigured),
        ],
        callbackRules: [
            .init(providerCode: "access_denied", code: "login_cancelled", kind: .cancelled),
            .init(providerCode: "otp_expired", code: "otp_expired", kind: .rejected),
            .init(
                providerCode: "bad_oauth_state",
                code: "state_mismatch",
                kind: .invalidResponse
            ),
            .init(
                providerCode: "bad_oauth_callback",
                code: "invalid_callback",
                kind: .invalidResponse
            ),
            .init(
                providerCode: "flow_state_already_used",
                code: "invalid_callback",
                kind: .invalidResponse
            ),
            .init(
                providerCode: "signup_disabled",
                code: "provider_disabled",
                kind: .misconfigured
            ),
            .init(providerCode: "server_error", code: "server_error", kind: .transport),
            .init(
                providerCode: "temporarily_unavailable",
                code: "server_error",
                kind: .transport
            ),
            .init(providerCode: "invalid_request", code: "invalid_request", kind: .invalidInput),
        ]
    ),
    callback: LatchkeyRuntime.CallbackSpec(
        location: .queryOrFragment,
        codeParameter: "code",
        stateParameter: "state",
        errorParameter: "error",
        errorCodeParameter: "error_code",
        errorDescriptionParameter: "error_description",
        allowedRedirectKinds: [.customScheme, .https, .loopback]
    ),
    session: LatchkeyRuntime.SessionMapping(
        accessToken: "/access_token",
        refreshToken: "/refresh_token",
        idToken: nil,
        tokenType: "/token_type",
        expiresIn: "/expires_in",
        expiresAt: "/expires_at",
        scope: nil,
        user: "/user"
    ),
    user: LatchkeyRuntime.UserMapping(
        id: "/id",
        email: "/email",
        name: "/user_metadata/full_name",
        role: "/role",
        scopes: nil
    ),
    tokens: LatchkeyRuntime.TokenSpec(accessTokenFormat: .jwt)
)
