import LatchkeyDescriptor
@_spi(Generated) import LatchkeyRuntime
import LatchkeyVocabulary
import Testing

@testable import LatchkeyGenerator

/// Generated code is checked against the vocabulary here, not first by the compiler in a user's build: every
/// case of every vocabulary enum, spelled in a descriptor, comes out of the generator as that case's Swift name.
@Suite struct VocabularyEmissionTests {
    /// How to make a descriptor spell one case of a vocabulary enum, and what the generated code then holds.
    struct Probe: Sendable {
        /// The descriptor fragment that spells the case (its raw value).
        var fragment: @Sendable (_ rawValue: String) -> String
        /// The text the generated code must hold for the case, given the case's emission (`.basicIfSecret`),
        /// or `nil` when the case is the runtime's default and is left out.
        var expected: @Sendable (_ rawValue: String, _ emission: String) -> String?
        /// The descriptor format version the fragment needs.
        var formatVersion: Int = 1
    }

    static let request = #""method": "POST", "url": "https://example.com/r""#

    /// One probe per vocabulary enum, by type name. A new vocabulary enum without a probe fails
    /// ``everyVocabularyEnumHasAProbe()``.
    static let probes: [String: Probe] = [
        "BodyEncoding": Probe(
            fragment: { #""requests": { "r": { \#(request), "encoding": "\#($0)" } }"# },
            expected: { raw, emission in raw == "none" ? nil : "encoding: \(emission)" }),
        "ClientAuthenticationMethod": Probe(
            fragment: { #""requests": { "r": { \#(request), "clientAuthentication": "\#($0)" } }"# },
            expected: { raw, emission in raw == "none" ? nil : "clientAuthentication: \(emission)" },
            formatVersion: 2),
        "RequestAuthorization": Probe(
            fragment: { #""requests": { "r": { \#(request), "authorization": "\#($0)" } }"# },
            expected: { raw, emission in raw == "none" ? nil : "authorization: \(emission)" }),
        "ResponseMeaning": Probe(
            fragment: { #""requests": { "r": { \#(request), "response": "\#($0)" } }"# },
            expected: { raw, emission in raw == "none" ? nil : "response: \(emission)" }),
        "TokenFormat": Probe(
            fragment: { #""tokens": { "accessToken": "\#($0)", "accessTokenKeys": "https://example.com/keys" }"# },
            expected: { _, emission in "accessTokenFormat: \(emission)" }),
        "IssuerValidation": Probe(
            fragment: { #""tokens": { "issuerValidation": "\#($0)" }"# },
            expected: { raw, emission in raw == "exact" ? nil : "issuerValidation: \(emission)" },
            formatVersion: 2),
        "CallbackLocation": Probe(
            fragment: { #""callback": { "location": "\#($0)" }"# },
            expected: { _, emission in "location: \(emission)," }, formatVersion: 2),
        "RedirectKind": Probe(
            fragment: { #""callback": { "redirectKinds": ["\#($0)"] }"# },
            expected: { _, emission in "allowedRedirectKinds: [\(emission)]" }),
        "InputKind": Probe(
            fragment: { #""inputs": { "value": { "type": "\#($0)" } }"# },
            expected: { raw, emission in raw == "string" ? nil : #"name: "value", kind: \#(emission)"# }),
        "ParameterType": Probe(
            fragment: {
                #""requests": { "r": { \#(request), "encoding": "json", "body": { "p": "{p}" } } },"#
                    + #" "actions": { "act": { "request": "r", "parameters": { "p": { "type": "\#($0)" } } } }"#
            },
            expected: { _, emission in #"arguments["p"] = \#(emission)(p)"# }, formatVersion: 2),
        "PKCEMethod": Probe(
            fragment: {
                #""requests": { "r": { \#(request), "encoding": "json", "#
                    + #""body": { "c": "{code_challenge}", "m": "{code_challenge_method}" } }, "#
                    + #""x": { \#(request), "response": "session" } },"#
                    + #" "flows": { "authorizationCode": { "authorizeURL": "https://example.com/a", "exchange": "x" } },"#
                    + #" "actions": { "act": { "request": "r", "pkce": { "method": "\#($0)" } } }"#
            },
            // A wire value: the runtime sends it as it is, so it stays a string literal.
            expected: { raw, _ in raw == "S256" ? nil : #"method: "\#(raw)""# }, formatVersion: 2),
        "Flow": Probe(
            fragment: { flowFragment[$0] ?? "" },
            expected: { _, emission in "\(emission.dropFirst()): LatchkeyRuntime." }),
        "ErrorKind": Probe(
            fragment: {
                #""errors": { "codes": { "my_code": { "kind": "\#($0)" } }, "map": [{ "status": 418, "code": "my_code" }] }"#
            },
            expected: { _, emission in #"code: "my_code", kind: \#(emission)"# }),
        "ClientAudience": Probe(
            fragment: { #""audience": "\#($0)""# },
            expected: { raw, emission in raw == "app" ? nil : "audience: \(emission)" }, formatVersion: 2),
        "BuiltInErrorCode": Probe(
            fragment: { #""errors": { "map": [{ "status": 418, "code": "\#($0)" }] }"# },
            expected: { raw, _ in
                let kind = BuiltInErrorCode(rawValue: raw).map { SwiftExpression.term($0.kind).singleLine } ?? "?"
                return #"code: "\#(raw)", kind: \#(kind)"#
            }),
    ]

    /// A descriptor fragment declaring each flow.
    static let flowFragment: [String: String] = [
        "password":
            #""requests": { "t": { \#(request), "response": "session" } }, "flows": { "password": { "request": "t" } }"#,
        "authorizationCode":
            #""requests": { "t": { \#(request), "response": "session" } }, "flows": { "authorizationCode": { "authorizeURL": "https://example.com/authorize", "exchange": "t" } }"#,
        "refresh":
            #""requests": { "t": { \#(request), "response": "session" } }, "flows": { "refresh": { "request": "t" } }"#,
        "signOut": #""requests": { "t": { \#(request) } }, "flows": { "signOut": { "request": "t" } }"#,
        "userInfo":
            #""requests": { "t": { \#(request), "response": "user" } }, "flows": { "userInfo": { "request": "t" } }"#,
        "deviceCode":
            #""requests": { "a": { \#(request), "response": "document" }, "t": { \#(request), "response": "session" } }, "flows": { "deviceCode": { "authorization": "a", "token": "t" } }"#,
        "clientCredentials":
            #""requests": { "t": { \#(request), "response": "session" } }, "flows": { "clientCredentials": { "request": "t" } }"#,
        "endSession": #""flows": { "endSession": { "url": "https://example.com/logout" } }"#,
    ]

    static var typeNames: [String] { Vocabulary.termTypes.map { String(describing: $0) } }

    /// The raw value and the generator's emission of every case of a vocabulary enum.
    static func emissions(_ type: any VocabularyTerm.Type) -> [(term: String, rawValue: String, emission: String)] {
        func open<Term: VocabularyTerm>(_: Term.Type) -> [(term: String, rawValue: String, emission: String)] {
            Term.allCases.map { term in
                (String(reflecting: term), term.rawValue, SwiftExpression.term(term).singleLine)
            }
        }
        return open(type)
    }

    /// Whether an emission round-trips: `.name` names a case of the type whose raw value is `rawValue`.
    static func roundTrips(_ type: any VocabularyTerm.Type, emission: String, rawValue: String) -> Bool {
        func open<Term: VocabularyTerm>(_: Term.Type) -> Bool {
            guard emission.hasPrefix("."), let term = Term(swiftCase: String(emission.dropFirst())) else {
                return false
            }
            return term.rawValue == rawValue && Term(rawValue: rawValue) == term
        }
        return open(type)
    }

    @Test func everyVocabularyEnumHasAProbe() {
        for name in Self.typeNames {
            #expect(
                Self.probes[name] != nil, "no emission probe for \(name): add one to VocabularyEmissionTests.probes")
        }
        #expect(Set(Self.probes.keys) == Set(Self.typeNames), "a probe for a type the vocabulary does not list")
        #expect(Set(Self.flowFragment.keys) == Set(Flow.descriptorSpellings))
    }

    @Test(arguments: Vocabulary.termTypes.indices)
    func everyCaseIsEmittedAsItsOwnSwiftName(index: Int) throws {
        let type = Vocabulary.termTypes[index]
        let probe = try #require(Self.probes[String(describing: type)])
        let rows = Self.emissions(type)
        #expect(!rows.isEmpty)
        #expect(Set(rows.map(\.emission)).count == rows.count, "two cases of \(type) emit the same text")
        for row in rows {
            #expect(
                Self.roundTrips(type, emission: row.emission, rawValue: row.rawValue),
                "\(row.term) emits \(row.emission), which does not name it")
            let generated = try Snippet.generate(probe.fragment(row.rawValue), formatVersion: probe.formatVersion)
            if let expected = probe.expected(row.rawValue, row.emission) {
                #expect(generated.contains(expected), "\(row.term): no \(expected) in the generated client")
            }
        }
    }

    /// The cases the generator leaves out are the runtime's defaults, so leaving them out means them.
    @Test func omittedCasesAreTheRuntimeDefaults() {
        let request = RequestSpec(method: "GET", url: .literal("https://example.com"))
        #expect(request.encoding == BodyEncoding.none)
        #expect(request.clientAuthentication == ClientAuthenticationMethod.none)
        #expect(request.authorization == RequestAuthorization.none)
        #expect(request.response == ResponseMeaning.none)
        #expect(InputSpec(name: "x").kind == InputKind.string)
        #expect(ActionSpec.Parameter(name: "x").type == ParameterType.string)
        #expect(TokenSpec().issuerValidation == IssuerValidation.exact)
        #expect(LinkPKCESpec().method == PKCEMethod.s256.rawValue)
    }

    /// The runtime's spec enums are the vocabulary's own types, not copies kept equal by hand.
    @Test func runtimeSpecEnumsAreTheVocabulary() {
        #expect(RequestSpec.Encoding.self == BodyEncoding.self)
        #expect(RequestSpec.ClientAuthentication.self == ClientAuthenticationMethod.self)
        #expect(RequestSpec.Authorization.self == RequestAuthorization.self)
        #expect(RequestSpec.Response.self == ResponseMeaning.self)
        #expect(TokenSpec.Format.self == TokenFormat.self)
        #expect(CallbackSpec.Location.self == CallbackLocation.self)
        #expect(CallbackSpec.RedirectKind.self == RedirectKind.self)
        #expect(InputSpec.Kind.self == InputKind.self)
        #expect(ActionSpec.ParameterType.self == ParameterType.self)
        #expect(AuthError.Kind.self == ErrorKind.self)
        let url: LatchkeyVocabulary.ValueTemplate = RequestSpec(method: "GET", url: .literal("https://e.com")).url
        #expect(url.segments == [.literal("https://e.com")])
        #expect(LatchkeyDescriptor.Template.self == LatchkeyVocabulary.ValueTemplate.self)
    }
}
