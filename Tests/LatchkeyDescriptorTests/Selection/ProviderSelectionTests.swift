import LatchkeyDescriptor
import Testing

/// `latchkey-providers.json`: the catalog providers an app selects, and every way the file can be wrong.
@Suite("Provider selection file")
struct ProviderSelectionTests {
    static let catalog = ["oidc", "supabase", "github", "google"]

    static func read(_ text: String) -> ProviderSelection.Result {
        ProviderSelection.read(bytes: Array(text.utf8), catalog: catalog)
    }

    static func errors(_ text: String) -> [String] {
        read(text).diagnostics.map { $0.formatted(file: "latchkey-providers.json") }
    }

    @Test("the selected names, in file order")
    func validSelection() {
        let result = Self.read(#"{ "providers": ["supabase", "oidc"] }"#)
        #expect(result.names == ["supabase", "oidc"])
        #expect(result.diagnostics.isEmpty)
    }

    @Test("an empty selection selects nothing")
    func emptySelection() {
        #expect(Self.read(#"{"providers": []}"#).names == [])
    }

    @Test("an unknown provider is an error at its line and column, with a suggestion")
    func unknownProvider() {
        let result = Self.read("{\n  \"providers\": [\"supabase\",\n    \"gogle\"]\n}")
        #expect(result.names == nil)
        #expect(
            Self.errors("{\n  \"providers\": [\"supabase\",\n    \"gogle\"]\n}") == [
                "latchkey-providers.json:3:5: error: the Latchkey catalog has no provider \"gogle\" (at /providers/1); "
                    + "did you mean \"google\"?"
            ])
    }

    @Test("a name far from every provider lists the catalog")
    func unknownProviderListsTheCatalog() {
        #expect(
            Self.errors(#"{"providers": ["acme-corporation"]}"#) == [
                "latchkey-providers.json:1:16: error: the Latchkey catalog has no provider \"acme-corporation\" "
                    + "(at /providers/0); the catalog has: github, google, oidc, supabase"
            ])
    }

    @Test(
        "a bad selection file fails with a located error",
        arguments: [
            (#"["supabase"]"#, "1:1: error: a provider selection must be a JSON object, found array"),
            (
                #"{"provider": ["supabase"]}"#,
                "1:2: error: unknown key \"provider\" (at /provider); did you mean \"providers\"?"
            ),
            (#"{}"#, "1:1: error: missing required key \"providers\""),
            (
                #"{"providers": "supabase"}"#,
                "1:15: error: \"providers\" must be an array of descriptor names, found string"
            ),
            (#"{"providers": [42]}"#, "1:16: error: a provider must be a descriptor name (a string), found number"),
            (#"{"providers": ["oidc", "oidc"]}"#, "1:24: error: \"oidc\" is selected twice"),
            (#"{"providers": ["oidc",]}"#, "1:22: error: "),
            ("", "1:1: error: "),
        ])
    func badSelection(text: String, expected: String) {
        let result = Self.read(text)
        #expect(result.names == nil)
        let errors = Self.errors(text)
        #expect(errors.contains { $0.hasPrefix("latchkey-providers.json:" + expected) }, "\(errors)")
    }
}
