import Foundation
import LatchkeyDescriptor
import LatchkeyGenerator
import Testing

/// An input with `values` generates a Swift enum (raw value = the wire string) that the initializer takes
/// instead of a `String`, and the spec literal keeps the list for values from the environment.
@Suite struct InputEnumGenerationTests {
    static let descriptorText = #"""
        {
          "formatVersion": 2,
          "name": "regional",
          "displayName": "Regional",
          "inputs": {
            "clientID": {},
            "region": {"description": "Where the tenant lives.", "values": ["us", "eu-west-1", "default"],
              "default": "us", "environment": "REGIONAL_REGION"},
            "tier": {"values": ["free", "pro"]}
          },
          "requests": {
            "exchangeCode": {"method": "POST", "url": "https://{region}.regional.example/oauth/token",
              "encoding": "form", "body": {"code": "{code}", "client_id": "{clientID}", "tier": "{tier}"},
              "response": "session"}
          },
          "flows": {"authorizationCode": {"authorizeURL": "https://{region}.regional.example/oauth/authorize",
            "query": {"client_id": "{clientID}", "redirect_uri": "{redirect_uri}", "state": "{state}"},
            "exchange": "exchangeCode"}}
        }
        """#

    static func generated() throws -> String {
        let result = DescriptorLoader.load(bytes: Array(Self.descriptorText.utf8), fileName: "regional.json")
        let descriptor = try #require(result.descriptor, "\(result.diagnostics)")
        let generator = try Generator(templatesDirectory: PackageRoot.path("Templates"))
        return try generator.render(descriptor, fileName: "regional.json")
    }

    @Test("the enum, its cases and raw values, the initializer's argument and the spec's allowed values")
    func enumGenerated() throws {
        let code = try Self.generated()
        #expect(code.contains("public enum Region: Swift.String, Swift.Sendable, Swift.Hashable, Swift.CaseIterable {"))
        #expect(code.contains(#"case us = "us""#))
        #expect(code.contains(#"case euWest1 = "eu-west-1""#))
        #expect(code.contains(#"case `default` = "default""#))
        #expect(code.contains("public enum Tier: Swift.String"))
        #expect(code.contains("region: Region? = nil,"))
        #expect(code.contains("tier: Tier,"))
        #expect(code.contains("clientID: Swift.String,"))
        #expect(code.contains(#"values["region"] = region?.rawValue"#))
        #expect(code.contains(#"values["tier"] = tier.rawValue"#))
        #expect(code.contains(#"allowedValues: ["us", "eu-west-1", "default"]"#))
        #expect(code.contains("The values the `region` input accepts. Where the tenant lives."))
    }

    #if os(macOS) || os(Linux)
        @Test("the generated client compiles and the enum is usable at the call site")
        func compiles() async throws {
            let usage = """

                func useRegional() throws {
                    _ = try RegionalClient(clientID: "app", region: .euWest1, tier: .pro)
                    _ = try RegionalClient(clientID: "app", tier: Tier(rawValue: "free")!)
                    let all: [RegionalClient.Region] = RegionalClient.Region.allCases
                    precondition(all.map(\\.rawValue) == ["us", "eu-west-1", "default"])
                }
                typealias Tier = RegionalClient.Tier
                """
            try await HostileInputTests.typecheck(try Self.generated() + usage)
        }
    #endif
}
