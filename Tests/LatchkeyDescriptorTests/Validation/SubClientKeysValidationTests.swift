import Foundation
import LatchkeyDescriptor
import Testing

/// Format version 2's `actionGroups`, an action's `group`, `event` and `then`, and `accessTokenClaims`:
/// decoded when complete, located errors otherwise.
@Suite struct SubClientKeysValidationTests {
    static func descriptor(
        version: Int = 2,
        groups: String = #""actionGroups": { "mfa": { "swiftName": "MFA", "description": "MFA." } },"#,
        challenge: String = #""group": "mfa""#,
        verify: String = #""group": "mfa", "event": "mfa_challenge_verified""#,
        both: String = #""group": "mfa", "then": { "action": "verify", "arguments": { "challengeId": "/id" } }"#,
        claims: String = #"""
        "accessTokenClaims": { "keys": "jwks", "issuer": "https://e.com", "fallback": "user",
          "assurance": { "group": "mfa", "levelClaim": "aal", "methodsClaim": "amr", "factors": "/factors",
                         "elevatedLevel": "aal2" } },
        """#
    ) -> String {
        """
        {
          "formatVersion": \(version),
          "name": "acme",
          "displayName": "Acme",
          \(groups)
          \(claims)
          "requests": {
            "jwks": { "url": "https://e.com/jwks.json", "response": "document" },
            "user": { "url": "https://e.com/user", "headers": { "Authorization": "Bearer {jwt}" }, "response": "user" },
            "challenge": { "method": "POST", "url": "https://e.com/factors/{factorId}/challenge",
                           "authorization": "accessToken", "response": "document" },
            "verify": { "method": "POST", "url": "https://e.com/factors/{factorId}/verify", "encoding": "json",
                        "body": { "challenge_id": "{challengeId}", "code": "{code}" },
                        "authorization": "accessToken", "response": "session" }
          },
          "actions": {
            "lookUp": { "request": "user", "parameters": { "jwt": {} } },
            "challenge": { "request": "challenge", \(challenge), "parameters": { "factorId": {} } },
            "verify": { "request": "verify", \(verify),
                        "parameters": { "factorId": {}, "challengeId": {}, "code": {} } },
            "challengeAndVerify": { "request": "challenge", \(both),
                                    "parameters": { "factorId": {}, "code": {} } }
          }
        }
        """
    }

    static func errors(_ text: String) -> [Diagnostic] {
        DescriptorLoader.load(bytes: Array(text.utf8), fileName: "acme.json").diagnostics.filter {
            $0.severity == .error
        }
    }

    @Test func completeDescriptorIsValidAndDecoded() throws {
        let result = DescriptorLoader.load(bytes: Array(Self.descriptor().utf8), fileName: "acme.json")
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let descriptor = try #require(result.descriptor)
        #expect(descriptor.actionGroups.map(\.name) == ["mfa"])
        #expect(descriptor.actionGroups.first?.value.swiftName == "MFA")
        let verify = try #require(descriptor.actions.first { $0.name == "verify" }?.value)
        #expect(verify.group == "mfa" && verify.event == "mfa_challenge_verified")
        let both = try #require(descriptor.actions.first { $0.name == "challengeAndVerify" }?.value)
        #expect(both.then.map(\.action) == ["verify"])
        #expect(both.then.first?.arguments.map(\.value) == ["/id"])
        let claims = try #require(descriptor.accessTokenClaims)
        #expect(claims.keys == "jwks" && claims.fallback == "user" && claims.algorithms == ["ES256", "RS256"])
        #expect(claims.assurance?.levelClaim == "aal" && claims.assurance?.factorStatus == "/status")
    }

    @Test(arguments: [
        (descriptor(version: 1), "needs formatVersion 2"),
        (descriptor(challenge: #""group": "factors""#), "action group \"factors\" is not declared"),
        (descriptor(groups: #""actionGroups": { "MFA": {} },"#), "is not a lowerCamelCase Swift name"),
        (descriptor(groups: #""actionGroups": { "mfa": { "swiftName": "mfa" } },"#), "is not an UpperCamelCase"),
        (descriptor(groups: #""actionGroups": { "signOut": {} },"#), "is one of the client's own members"),
        (descriptor(verify: #""group": "mfa", "event": "MFA-Verified""#), "is not lower_snake_case"),
        (descriptor(both: #""then": { "action": "nowhere" }"#), "which is not another action"),
        (descriptor(both: #""then": { "action": "challengeAndVerify" }"#), "which is not another action"),
        (descriptor(both: #""then": { "action": "verify" }"#), "needs \"challengeId\", which \"then\" does not supply"),
        (
            descriptor(both: #""then": { "action": "verify", "arguments": { "challengeId": "/id", "nope": "/x" } }"#),
            "\"nope\" is not a parameter of \"verify\""
        ),
        (
            descriptor(both: #""then": { "action": "verify", "arguments": { "challengeId": "id" } }"#),
            "is not a JSON pointer"
        ),
        (descriptor(both: #""then": []"#), "lists no step"),
        (
            descriptor(both: #""then": [{ "action": "challenge" }, { "action": "nowhere" }]"#),
            "which is not another action"
        ),
        (
            descriptor(
                both:
                    #""then": { "action": "verify", "arguments": { "challengeId": "/id" }, "ceremony": { "type": "signature", "options": "/o", "credential": "code" } }"#
            ),
            "\"signature\" is not one of \"registration\", \"assertion\""
        ),
        (
            descriptor(
                both:
                    #""then": { "action": "verify", "arguments": { "challengeId": "/id" }, "ceremony": { "type": "assertion", "options": "/o", "credential": "code" } }"#
            ),
            "\"code\" is not an object parameter of \"verify\""
        ),
        (
            descriptor(
                both:
                    #""then": { "action": "verify", "arguments": { "challengeId": "/id" }, "ceremony": { "type": "assertion", "credential": "code" } }"#
            ),
            "missing required key \"options\""
        ),
        (
            descriptor(
                both:
                    #""then": { "action": "verify", "arguments": { "challengeId": "/id" }, "ceremony": { "type": "assertion", "options": "o", "credential": "code" } }"#
            ),
            "is not a JSON pointer"
        ),
        (descriptor(claims: #""accessTokenClaims": { "keys": "verify" },"#), "has response \"session\""),
        (
            descriptor(claims: #""accessTokenClaims": { "keys": "jwks", "fallback": "jwks" },"#),
            "has response \"document\""
        ),
        (
            descriptor(claims: #""accessTokenClaims": { "keys": "jwks", "algorithms": ["HS256"] },"#),
            "is not an asymmetric"
        ),
        (descriptor(claims: #""accessTokenClaims": { "fallback": "user" },"#), "missing required key \"keys\""),
        (
            descriptor(claims: #""accessTokenClaims": { "keys": "jwks", "assurance": { "levelClaim": "aal" } },"#),
            "missing required key \"elevatedLevel\""
        ),
        (
            descriptor(
                claims:
                    #""accessTokenClaims": { "keys": "jwks", "assurance": { "group": "x", "levelClaim": "a", "elevatedLevel": "b" } },"#
            ),
            "action group \"x\" is not declared"
        ),
    ])
    func locatedErrors(text: String, message: String) throws {
        let errors = Self.errors(text)
        #expect(
            errors.contains { $0.message.contains(message) || $0.description.contains(message) },
            "expected \(message) in \(errors)")
    }

    @Test func stepsAndCeremoniesAreDecoded() throws {
        let text = Self.descriptor(
            both:
                #""group": "mfa", "then": [{ "action": "challenge", "arguments": { "factorId": "/factor/id" } }, { "action": "verify", "arguments": { "challengeId": "/id" }, "ceremony": { "type": "registration", "options": "/webauthn/credential_options", "credential": "code" } }]"#
        ).replacingOccurrences(of: #""code": {} } },"#, with: #""code": { "type": "object" } } },"#)
        let result = DescriptorLoader.load(bytes: Array(text.utf8), fileName: "acme.json")
        #expect(result.diagnostics.filter { $0.severity == .error }.isEmpty, "\(result.diagnostics)")
        let both = try #require(result.descriptor?.actions.first { $0.name == "challengeAndVerify" }?.value)
        #expect(both.then.map(\.action) == ["challenge", "verify"])
        let ceremony = try #require(both.then.last?.ceremony)
        #expect(ceremony.kind == .registration && ceremony.credential == "code")
        #expect(ceremony.options == "/webauthn/credential_options")
        // A step that names an action with a then of its own is refused.
        let nested = Self.descriptor(
            both: #""group": "mfa", "then": [{ "action": "verify", "arguments": { "challengeId": "/id" } }]"#
        ).replacingOccurrences(
            of: #""verify": { "request": "verify", "group": "mfa", "event": "mfa_challenge_verified","#,
            with: #""verify": { "request": "verify", "group": "mfa", "then": { "action": "challenge" },"#)
        #expect(Self.errors(nested).contains { $0.message.contains("which has a \"then\" of its own") })
    }

    @Test func generatedMethodNamesAreTaken() {
        let claims = Self.descriptor().replacingOccurrences(
            of: #""lookUp": { "request": "user", "parameters""#,
            with: #""lookUp": { "request": "user", "method": "getClaims", "parameters""#)
        #expect(Self.errors(claims).contains { $0.message.contains("does not give a usable Swift method name") })
        let level = Self.descriptor().replacingOccurrences(
            of: #""challenge": { "request": "challenge", "group": "mfa","#,
            with: #""challenge": { "request": "challenge", "group": "mfa", "method": "getAuthenticatorAssuranceLevel","#
        )
        #expect(Self.errors(level).contains { $0.message.contains("does not give a usable Swift method name") })
    }

    @Test func groupedMethodsMayShareTopLevelNames() {
        // `verify` in the `mfa` group and a top-level `verify` are different Swift methods.
        let text = Self.descriptor().replacingOccurrences(
            of: #""lookUp": { "request": "user", "parameters": { "jwt": {} } },"#,
            with: #""lookUp": { "request": "user", "method": "verify", "parameters": { "jwt": {} } },"#)
        #expect(Self.errors(text).isEmpty, "\(Self.errors(text))")
    }
}
