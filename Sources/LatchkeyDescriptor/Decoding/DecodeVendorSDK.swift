import LatchkeyVocabulary

extension DescriptorDecoder {
    /// The names a vendor-SDK module re-exports from the runtime: no declared type may take one.
    static let vendorReexportedNames: Set<String> = [
        "AuthClientOptions", "AuthError", "FileSessionStore", "InMemorySessionStore", "KeychainSessionStore",
        "SessionStore", "WebAuthenticationRequest", "WebAuthenticator",
    ]

    /// Decodes `vendorSDK` and checks it against the descriptor's inputs, flows and tokens.
    func decodeVendorSDK(
        _ node: JSONNode, inputs: [Descriptor.Input], flows: Descriptor.Flows, tokens: Descriptor.Tokens
    ) -> VendorSDK? {
        requireFormatVersion(2, for: "\"vendorSDK\"", at: node)
        guard var reader = ObjectReader(node, sink, expected: "\"vendorSDK\"") else { return nil }
        defer { reader.finish() }
        let moduleNode = reader.required("module", "the vendor's module and product name, e.g. \"BaseIdP\"")
        let module = moduleNode.flatMap { typeName($0, what: "module") }
        var typeNodes: [(name: String, node: JSONNode?)] = []
        func field(_ key: String, default suffix: (String) -> String) -> String {
            let declared = reader.member(key)
            let name = declared.flatMap { typeName($0, what: key) } ?? suffix(module ?? "Vendor")
            typeNodes.append((name, declared ?? node))
            return name
        }
        let authType = field("authType") { "\($0)Auth" }
        let configType = field("configType") { "\($0)Config" }
        let errorType = field("errorType") { "\($0)Error" }
        let sessionType = field("sessionType") { "\($0)Session" }
        let principalType = field("principalType") { "\($0)Principal" }
        let signInButton = field("signInButton") { "SignInWith\($0)Button" }
        let inputNode = reader.required("primaryInput", "the input the short initializer takes, e.g. \"clientID\"")
        let primaryInput = inputNode.flatMap { ObjectReader.string($0, sink, "an input name") }
        let labelNode = reader.member("primaryInputLabel")
        let label = labelNode.flatMap { identifier($0, what: "primaryInputLabel") }
        let states =
            reader.member("states").map { decodeVendorStates($0) } ?? VendorSDK.runtimeStates.map { Named($0, $0) }
        let claimsNode = reader.member("principalClaims")
        let claims = claimsNode.map { ObjectReader.strings($0, sink, "a claim name") } ?? []
        guard let module, let moduleNode, let primaryInput, let inputNode else { return nil }

        checkVendorTypeNames(typeNodes, module: module, moduleNode: moduleNode)
        if flows.authorizationCode == nil {
            sink.error(
                "a vendor SDK signs in through a browser, and this descriptor has no \"flows.authorizationCode\"",
                at: node, fixIt: "declare the authorization code flow, or remove \"vendorSDK\"")
        }
        let input = inputs.first { $0.name == primaryInput }
        if input == nil {
            sink.error(
                "\"\(primaryInput.prefix(40))\" is not an input of this descriptor", at: inputNode,
                fixIt: "use one of: \(inputs.map(\.name).joined(separator: ", "))")
        } else if input?.type == .url || input?.environment == nil {
            sink.error(
                "the primary input must be a string input with an \"environment\" key (fromInfoPlist() reads it)",
                at: inputNode, fixIt: "add \"environment\" to the input \"\(primaryInput)\"")
        }
        let primaryLabel = label ?? SwiftNames.lowerCamelCase(primaryInput)
        let otherLabels = inputs.filter { $0.name != primaryInput }.map { SwiftNames.lowerCamelCase($0.name) }
        if otherLabels.contains(primaryLabel) {
            sink.error(
                "the label \"\(primaryLabel)\" is already the label of another input", at: labelNode ?? inputNode,
                fixIt: "choose another \"primaryInputLabel\"")
        }
        let builtIn: Set<String> = ["id", "email", "name", "role", "scopes"]
        for claim in claims {
            guard let claimsNode else { break }
            if !SwiftNames.isValidLowerCamelIdentifier(claim) || builtIn.contains(claim) {
                sink.error(
                    "\"\(claim.prefix(40))\" cannot be a property of the principal", at: claimsNode,
                    fixIt: "use a lowerCamelCase claim name other than id, email, name, role and scopes")
            } else if !tokens.requiredClaims.contains(claim) {
                sink.error(
                    "the principal claim \"\(claim)\" is not in \"tokens.requiredClaims\"", at: claimsNode,
                    fixIt: "require the claim in \"tokens.requiredClaims\" (the principal's claims are never missing)")
            }
        }
        return VendorSDK(
            module: module, authType: authType, configType: configType, errorType: errorType,
            sessionType: sessionType, principalType: principalType, signInButton: signInButton,
            primaryInput: primaryInput, primaryInputLabel: primaryLabel, states: states, principalClaims: claims)
    }

    /// `states`: every runtime state, each mapped to a case; the `failed` case carries the error and no other
    /// state may show as it.
    private func decodeVendorStates(_ node: JSONNode) -> [Named<String>] {
        guard var reader = ObjectReader(node, sink, expected: "\"states\"") else { return [] }
        defer { reader.finish() }
        let nodes = [
            ("loading", reader.required("loading", "the case the loading state shows as")),
            ("signedOut", reader.required("signedOut", "the case the signedOut state shows as")),
            ("authenticating", reader.required("authenticating", "the case the authenticating state shows as")),
            ("signedIn", reader.required("signedIn", "the case the signedIn state shows as")),
            ("failed", reader.required("failed", "the case the failed state shows as")),
        ]
        let states = nodes.compactMap { runtimeState, valueNode in
            valueNode.flatMap { identifier($0, what: "a state case") }.map { Named(runtimeState, $0) }
        }
        if let failed = states.first(where: { $0.name == "failed" }),
            states.contains(where: { $0.name != "failed" && $0.value == failed.value })
        {
            sink.error(
                "the case \"\(failed.value)\" carries the error of the failed state: no other state may show as it",
                at: node, fixIt: "map the other states to other cases")
        }
        return states
    }

    private func checkVendorTypeNames(_ types: [(name: String, node: JSONNode?)], module: String, moduleNode: JSONNode)
    {
        if module.hasPrefix("Latchkey") {
            sink.error(
                "the module \"\(module)\" would take a name of Latchkey's own", at: moduleNode,
                fixIt: "use the vendor's module name, e.g. \"BaseIdP\"")
        }
        var seen: Set<String> = [module]
        for (name, node) in types {
            guard let node else { continue }
            if !seen.insert(name).inserted {
                sink.error("the type name \"\(name)\" is used twice (or is the module's name)", at: node)
            } else if CommonlyImportedTypeNames.all.contains(name) || Self.vendorReexportedNames.contains(name) {
                let module = CommonlyImportedTypeNames.module(declaring: name) ?? "the runtime"
                sink.error(
                    "the type name \"\(name)\" is declared by \(module), which apps import beside the vendor SDK",
                    at: node, fixIt: "choose another name")
            }
        }
    }

    private func typeName(_ node: JSONNode, what: String) -> String? {
        guard let text = ObjectReader.string(node, sink) else { return nil }
        guard SwiftNames.isValidTypeNamePrefix(text) else {
            sink.error(
                "invalid \(what) \"\(text.prefix(60))\"", at: node,
                fixIt: "use an UpperCamelCase Swift identifier of ASCII letters and digits")
            return nil
        }
        return text
    }

    private func identifier(_ node: JSONNode, what: String) -> String? {
        guard let text = ObjectReader.string(node, sink) else { return nil }
        guard SwiftNames.isValidLowerCamelIdentifier(text) else {
            sink.error(
                "invalid \(what) \"\(text.prefix(60))\"", at: node,
                fixIt: "use a lowerCamelCase Swift identifier of ASCII letters and digits")
            return nil
        }
        return text
    }
}
