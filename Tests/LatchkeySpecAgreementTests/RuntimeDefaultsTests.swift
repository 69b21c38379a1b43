@_spi(Generated) import LatchkeyRuntime
import LatchkeyVocabulary
import Testing

@testable import LatchkeyGenerator

/// Every argument the generator may leave out (a ``RuntimeConstruct`` parameter with an `omittedDefault`) has
/// that default in the runtime: each spec type is built here with its initializer's required arguments only, and
/// each defaulted property compared with the generator's table.
@Suite(timeLimit(minutes: 5)) struct RuntimeDefaultsTests {
    /// One runtime value per construct with defaults, made with the required arguments only.
    static let minimalValues: [(construct: RuntimeConstruct, value: any Sendable)] = {
        let url = ValueTemplate.literal("https://p.example")
        return [
            (.providerSpec, ProviderSpec(name: "p", displayName: "P")),
            (.clientPolicy, ClientPolicy()),
            (.clientSecretRequirement, ClientSecretRequirement()),
            (.captureSpec, CaptureSpec(name: "c")),
            (.senderConstraintSpec, SenderConstraintSpec()),
            (.inputSpec, InputSpec(name: "i")),
            (.requestSpec, RequestSpec(method: "GET", url: url)),
            (.paginationSpec, PaginationSpec()),
            (.openIDDiscovery, DiscoverySpec.openID(issuer: url)),
            (.flowSet, FlowSet()),
            (
                .authorizationCodeFlowSpec,
                AuthorizationCodeFlowSpec(authorizeURL: url, authorizeQuery: [], exchangeRequest: "e")
            ),
            (.refreshFlowSpec, RefreshFlowSpec(request: "r")),
            (.signOutFlowSpec, SignOutFlowSpec()),
            (.clientCredentialsFlowSpec, ClientCredentialsFlowSpec(request: "r")),
            (.actionSpec, ActionSpec(name: "a", request: "r", parameters: [])),
            (.actionParameter, ActionSpec.Parameter(name: "p")),
            (.linkPKCESpec, LinkPKCESpec()),
            (.actionFollowUpSpec, ActionFollowUpSpec(action: "a", arguments: [:])),
            (.errorMappingSpec, ErrorMappingSpec()),
            (.errorRule, ErrorMappingSpec.Rule(code: "c", kind: .rejected)),
            (.callbackSpec, CallbackSpec()),
            (.implicitSessionSpec, ImplicitSessionSpec(redirects: [])),
            (.callbackUserSpec, CallbackUserSpec(parameter: "user")),
            (.userMapping, UserMapping()),
            (.tokenSpec, TokenSpec()),
            (.accessTokenClaimsSpec, AccessTokenClaimsSpec(keysRequest: "k")),
            (.assuranceSpec, AssuranceSpec(levelClaim: "aal", elevatedLevel: "aal2")),
        ]
    }()

    @Test func everyDefaultTheGeneratorLeavesOutIsTheRuntimes() {
        var comparison = SpecComparison()
        for (construct, value) in Self.minimalValues {
            comparison.compareDefaults(of: value, construct, at: SpecComparison.key(construct))
        }
        #expect(comparison.mismatches.isEmpty, "\(comparison.mismatches.joined(separator: "\n"))")
        let unchecked = SpecComparison.everyDefaultedKey().subtracting(comparison.defaulted).sorted()
        #expect(
            unchecked.isEmpty,
            "defaults in the generator's tables with no runtime value above:\n\(unchecked.joined(separator: "\n"))")
    }

    /// A table whose default differs from the runtime's is reported with the type and the label.
    @Test func aDefaultTheRuntimeDoesNotHaveIsReported() throws {
        let wrong = RuntimeConstruct(
            "AuthorizationCodeFlowSpec", .qualified,
            RuntimeConstruct.authorizationCodeFlowSpec.parameters.map {
                $0.property == "pendingLifetime" ? .unless("pendingLifetime", .int(300)) : $0
            })
        var comparison = SpecComparison()
        comparison.constructs = RuntimeConstruct.all.map { $0.type == wrong.type ? wrong : $0 }
        let url = ValueTemplate.literal("https://p.example/authorize")
        // A descriptor stating 300 seconds: the wrong table leaves the argument out, the runtime holds 600.
        let literal = wrong.call([
            "authorizeURL": SpecLiteral.template(url), "authorizeQuery": .array([]), "exchangeRequest": .string("t"),
            "pendingLifetime": .int(300),
        ])
        let compiled = AuthorizationCodeFlowSpec(authorizeURL: url, authorizeQuery: [], exchangeRequest: "t")
        comparison.compare(compiled, literal, at: "p.flows.authorizationCode")
        #expect(comparison.mismatches.count == 1)
        let message = try #require(comparison.mismatches.first)
        #expect(message.contains("p.flows.authorizationCode.pendingLifetime:"), "\(message)")
        #expect(message.contains("LatchkeyRuntime.AuthorizationCodeFlowSpec pendingLifetime:"), "\(message)")

        var defaults = SpecComparison()
        defaults.constructs = comparison.constructs
        defaults.compareDefaults(of: compiled, wrong, at: "AuthorizationCodeFlowSpec")
        #expect(defaults.mismatches.count == 1)
        #expect(
            defaults.mismatches.first?.contains("LatchkeyRuntime.AuthorizationCodeFlowSpec pendingLifetime:") == true,
            "\(defaults.mismatches)")
    }
}
