import Foundation
import LatchkeyDescriptor
import Testing

/// The `vendorSDK` section: decoded with its defaults, and every mistake reported at its line and column.
@Suite struct VendorSDKValidationTests {
    static func load(
        _ vendorSDK: String,
        flows: String = #""authorizationCode": { "authorizeURL": "{issuer}/authorize", "exchange": "token" }"#
    )
        -> DescriptorLoader.Result
    {
        let text = """
            {
              "formatVersion": 2,
              "name": "acme",
              "displayName": "Acme",
              "inputs": { "issuer": { "type": "url" }, "clientID": { "environment": "ACME_CLIENT_ID" } },
              "requests": { "token": { "method": "POST", "url": "{issuer}/token", "encoding": "form", "body": { "code": "{code}" }, "response": "session" } },
              "flows": { \(flows) },
              "tokens": { "accessToken": "paseto_v4_public", "accessTokenKeys": "{issuer}/keys", "requiredClaims": ["gid"] },
              "vendorSDK": \(vendorSDK)
            }
            """
        return DescriptorLoader.load(bytes: Array(text.utf8), fileName: "acme.json")
    }

    static func errors(_ result: DescriptorLoader.Result) -> [Diagnostic] {
        result.diagnostics.filter { $0.severity == .error }
    }

    @Test func theDefaultsFollowTheModuleName() throws {
        let result = Self.load(#"{ "module": "Acme", "primaryInput": "clientID", "principalClaims": ["gid"] }"#)
        #expect(Self.errors(result).isEmpty, "\(result.diagnostics)")
        let sdk = try #require(result.descriptor?.vendorSDK)
        #expect(
            [sdk.authType, sdk.configType, sdk.errorType, sdk.sessionType, sdk.principalType, sdk.signInButton] == [
                "AcmeAuth", "AcmeConfig", "AcmeError", "AcmeSession", "AcmePrincipal", "SignInWithAcmeButton",
            ])
        #expect(sdk.primaryInputLabel == "clientID")
        #expect(sdk.stateCases == ["loading", "signedOut", "authenticating", "signedIn", "failed"])
    }

    @Test func mistakesAreLocated() throws {
        let cases: [(json: String, message: String, line: Int)] = [
            (#"{ "module": "acme", "primaryInput": "clientID" }"#, "invalid module \"acme\"", 9),
            (#"{ "module": "Acme", "primaryInput": "tenant" }"#, "\"tenant\" is not an input", 9),
            (#"{ "module": "Acme", "primaryInput": "issuer" }"#, "must be a string input", 9),
            (#"{ "module": "Acme", "primaryInput": "clientID", "authType": "AcmeError" }"#, "used twice", 9),
            (#"{ "module": "Acme", "primaryInput": "clientID", "authType": "SessionStore" }"#, "declared by", 9),
            (#"{ "module": "Acme", "primaryInput": "clientID", "principalClaims": ["sub"] }"#, "requiredClaims", 9),
            (#"{ "module": "Acme", "primaryInput": "clientID", "colour": 1 }"#, "unknown key \"colour\"", 9),
            (
                #"{ "module": "Acme", "primaryInput": "clientID", "states": { "loading": "a", "signedOut": "a", "authenticating": "b", "signedIn": "c", "failed": "a" } }"#,
                "carries the error", 9
            ),
            (#"{ "module": "Acme", "primaryInput": "clientID", "states": { "loading": "a" } }"#, "\"signedOut\"", 9),
            (#"{ "module": "LatchkeyAcme", "primaryInput": "clientID" }"#, "Latchkey's own", 9),
        ]
        for item in cases {
            let errors = Self.errors(Self.load(item.json))
            let match = errors.first { $0.message.contains(item.message) || ($0.fixIt ?? "").contains(item.message) }
            #expect(match != nil, "\(item.json): \(errors.map(\.message))")
            #expect(match?.location.line == item.line, "\(item.json)")
        }
    }

    @Test func aVendorSDKNeedsBrowserSignIn() {
        let errors = Self.errors(
            Self.load(
                #"{ "module": "Acme", "primaryInput": "clientID" }"#, flows: #""refresh": { "request": "token" }"#))
        #expect(errors.contains { $0.message.contains("flows.authorizationCode") }, "\(errors.map(\.message))")
    }
}
