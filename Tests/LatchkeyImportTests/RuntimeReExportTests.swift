// This file imports LatchkeyRuntime the way an app that selects its providers does: plainly, with no @_spi and
// neither LatchkeyTokens nor LatchkeyVocabulary. If the runtime re-exported either module whole again, every
// unqualified use of a fixture type below would be ambiguous and this target would not compile.
import Foundation
import LatchkeyNamespaceFixture
import LatchkeyRuntime
import Testing

@Suite("import LatchkeyRuntime: the runtime's API and the types it spells, declaration by declaration")
struct RuntimeReExportTests {
    /// Every `@_exported import` of LatchkeyRuntime, as `Sources/LatchkeyRuntime/Support/ReExports.swift` writes
    /// them. A line added here is public API: each is a type the runtime's public API spells.
    static let expectedReExports = [
        "@_exported import struct LatchkeyPlatform.LatchkeyDuration",
        "@_exported import struct LatchkeyTokens.AuthError",
        "@_exported import struct LatchkeyTokens.IDTokenClaims",
        "@_exported import enum LatchkeyTokens.JSON",
        "@_exported import struct LatchkeyTokens.JSONWebKeySet",
        "@_exported import enum LatchkeyTokens.SignatureAlgorithm",
        "@_exported import enum LatchkeyVocabulary.ErrorKind",
        "@_exported import enum LatchkeyVocabulary.IssuerValidation",
    ]

    private static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("an app's own JWSToken, TokenFormat, Flow, ValueTemplate, ... stay unambiguous beside import LatchkeyRuntime")
    func tokenAndVocabularyTypesDoNotCollide() {
        // Each name in a type position: a second declaration of it would make the lookup ambiguous.
        let pasetoV4Public: PasetoV4Public = .init()
        let jwsHeader: JWSHeader = .init()
        let tokenFormat: TokenFormat = .init()
        let flow: Flow = .init()
        let valueTemplate: ValueTemplate = .init()
        let bodyEncoding: BodyEncoding = .init()
        let clientAuthenticationMethod: ClientAuthenticationMethod = .init()
        let base64URL: Base64URL = .init()
        let jsonWebKey: JSONWebKey = .init()
        let jwsToken: JWSToken = .init()
        let providerSpec: ProviderSpec = .init()
        let authClient: AuthClient = .init()
        let names = [
            "\(type(of: pasetoV4Public))", "\(type(of: jwsHeader))", "\(type(of: tokenFormat))", "\(type(of: flow))",
            "\(type(of: valueTemplate))", "\(type(of: bodyEncoding))", "\(type(of: clientAuthenticationMethod))",
            "\(type(of: base64URL))", "\(type(of: jsonWebKey))", "\(type(of: jwsToken))", "\(type(of: providerSpec))",
            "\(type(of: authClient))",
        ]
        #expect(names == runtimeFixtureTypeNames)
        #expect(String(reflecting: TokenFormat.self) == "LatchkeyNamespaceFixture.TokenFormat")
        #expect(String(reflecting: JWSToken.self) == "LatchkeyNamespaceFixture.JWSToken")
    }

    @Test("each re-exported declaration is usable by name, with its members")
    func reExportsAreUsable() throws {
        let error = AuthError(.loginCancelled, "closed")
        let code: AuthError.Code = error.code
        let kind: ErrorKind = error.kind
        let sameKind: AuthError.Kind = kind
        #expect(code == .loginCancelled && sameKind == .cancelled)
        let attributes: JSON = .object(["plan": .string("pro")])
        #expect(attributes["plan"] == .string("pro"))
        let claims = try IDTokenClaims(raw: [
            "iss": .string("https://issuer.example"), "sub": .string("user-1"), "aud": .string("client"),
            "exp": .number(2_000_000_000), "iat": .number(1_900_000_000),
        ])
        #expect(claims.sub == "user-1")
        let keys = JSONWebKeySet(keys: [])
        #expect(!keys.containsKey(withID: "kid"))
        var validator = IDTokenValidator(
            issuer: "https://issuer.example", clientID: "client", allowedAlgorithms: [SignatureAlgorithm.es256])
        validator.issuerValidation = IssuerValidation.tenantPlaceholder
        #expect(validator.allowedAlgorithms == [.es256] && validator.issuerValidation == .tenantPlaceholder)
        let leeway: LatchkeyDuration = .seconds(30)
        #expect(leeway == .milliseconds(30_000))
    }

    @Test("the runtime re-exports exactly the reviewed declarations, and no module whole")
    func reExportListIsPinned() throws {
        var found: [String] = []
        let files = FileManager.default.enumerator(
            at: Self.root.appendingPathComponent("Sources/LatchkeyRuntime"), includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            guard file.pathExtension == "swift" else { continue }
            let source = try String(contentsOf: file, encoding: .utf8)
            for line in source.split(separator: "\n") {
                let text = line.drop { $0 == " " }
                if text.hasPrefix("@_exported") { found.append(String(text)) }
            }
        }
        #expect(found.sorted() == Self.expectedReExports.sorted())
    }
}
