import Foundation
import LatchkeyDescriptor
import LatchkeyVocabulary
import Testing

/// The keys that describe how a provider's SDKs check its access tokens and name its failures
/// (`tokens.footer`, `claimValues`, `requiredClaims`, `userFromAccessToken`, `userDocumentMustMatch`, a
/// templated `audience`, `errors.verification`, rows with `requests`, `clientPolicy.allowedScopesField`):
/// decoded when right, located errors otherwise.
@Suite struct TokenRulesValidationTests {
    static func descriptor(tokens: String, errors: String = "{}", format: String = "paseto_v4_public") -> String {
        """
        {
          "formatVersion": 2,
          "name": "acme",
          "displayName": "Acme",
          "inputs": { "audience": { "default": "acme-api" } },
          "requests": {
            "token": { "method": "POST", "url": "https://e.com/token", "encoding": "form",
                       "body": { "code": "{code}" }, "response": "session" },
            "me": { "method": "GET", "url": "https://e.com/me", "authorization": "accessToken", "response": "user" }
          },
          "flows": { "authorizationCode": { "authorizeURL": "https://e.com/authorize", "exchange": "token" } },
          "errors": \(errors),
          "tokens": { "accessToken": "\(format)", "accessTokenKeys": "https://e.com/keys", \(tokens) },
          "clientPolicy": { "allowedScopesField": "/allowed_scopes" }
        }
        """
    }

    static let fullTokens = """
        "audience": "{audience}", "footer": { "typ": "paseto", "alg": "v4.public" },
        "claimValues": { "token_use": "access" }, "requiredClaims": ["gid", "sub"],
        "userFromAccessToken": true, "userDocumentMustMatch": ["/gid", "/sub"]
        """

    static let fullErrors = """
        { "codes": { "unknown_kid": { "kind": "invalid_response" }, "token_exchange_failed": { "kind": "rejected" } },
          "map": [ { "requests": ["token"], "code": "token_exchange_failed" } ],
          "verification": { "unknown_key": "unknown_kid", "expired": "invalid_token" } }
        """

    static func errors(_ text: String) -> [Diagnostic] {
        DescriptorLoader.load(bytes: Array(text.utf8), fileName: "acme.json").diagnostics.filter {
            $0.severity == .error
        }
    }

    @Test func theKeysDecode() throws {
        let result = DescriptorLoader.load(
            bytes: Array(Self.descriptor(tokens: Self.fullTokens, errors: Self.fullErrors).utf8),
            fileName: "acme.json")
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let descriptor = try #require(result.descriptor)
        let tokens = descriptor.tokens
        #expect(tokens.audience?.description == "{audience}")
        #expect(tokens.footer.map(\.name) == ["typ", "alg"])
        #expect(tokens.footer.map(\.value) == ["paseto", "v4.public"])
        #expect(tokens.claimValues.map(\.name) == ["token_use"])
        #expect(tokens.requiredClaims == ["gid", "sub"])
        #expect(tokens.userFromAccessToken)
        #expect(tokens.userDocumentMustMatch == ["/gid", "/sub"])
        #expect(descriptor.errors.map.first?.requests == ["token"])
        #expect(descriptor.errors.verification.map(\.name) == ["unknown_key", "expired"])
        #expect(descriptor.clientPolicy.allowedScopesField == "/allowed_scopes")
    }

    @Test func theTokenChecksNeedAVerifiedAccessToken() {
        let found = Self.errors(Self.descriptor(tokens: Self.fullTokens, format: "opaque"))
        #expect(found.contains { $0.message.contains("need a verified access token") }, "\(found)")
    }

    @Test func anUnknownVerificationReasonIsAnErrorWithASuggestion() {
        let found = Self.errors(
            Self.descriptor(
                tokens: #""audience": "x""#, errors: #"{ "verification": { "unknown_kid": "invalid_token" } }"#))
        let error = found.first { $0.message.contains("not a token verification failure") }
        #expect(error != nil, "\(found)")
        #expect(error?.fixIt?.contains("unknown_key") == true)
    }

    @Test func aVerificationCodeMustBeBuiltInOrDeclared() {
        let found = Self.errors(
            Self.descriptor(tokens: #""audience": "x""#, errors: #"{ "verification": { "expired": "token_expired" } }"#)
        )
        #expect(found.contains { $0.message.contains("unknown error code \"token_expired\"") }, "\(found)")
    }

    @Test func aRowMayMatchOnRequestsAloneButTheyMustExist() {
        let found = Self.errors(
            Self.descriptor(
                tokens: #""audience": "x""#,
                errors: #"{ "map": [ { "requests": ["tokne"], "code": "invalid_grant" } ] }"#))
        #expect(found.contains { $0.message.contains("no request named \"tokne\"") }, "\(found)")
        #expect(!found.contains { $0.message.contains("needs at least one") })
    }

    @Test func anAudienceTemplateMayOnlyNameInputs() {
        let found = Self.errors(Self.descriptor(tokens: #""audience": "{audiense}""#))
        #expect(found.contains { $0.message.contains("unknown variable") }, "\(found)")
    }
}
