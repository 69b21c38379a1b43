import LatchkeyVocabulary

/// Checks that every name a descriptor uses is declared: variables, requests, error codes.
extension DescriptorDecoder {
    /// Variables the runtime supplies while a flow runs.
    static let flowVariables: Set<String> = [
        "username", "password", "code", "code_verifier", "code_challenge", "code_challenge_method", "state", "nonce",
        "redirect_uri", "scope", "refresh_token", "access_token", "id_token", "device_code", "prompt", "login_hint",
        "max_age", "client_secret", "post_logout_redirect_uri",
    ]

    func checkReferences(_ descriptor: Descriptor) {
        let inputs = Set(descriptor.inputs.map(\.name))
        let actionParameters = Set(descriptor.actions.flatMap { $0.value.parameters.map(\.name) })
        var configurationNames = inputs
        // Variables may use inputs and the variables declared before them.
        for variable in descriptor.variables {
            for name in variable.value.variables where !configurationNames.contains(name) {
                reportUnknownVariable(name, in: variable.value, candidates: configurationNames)
            }
            configurationNames.insert(variable.name)
        }
        let requestNames = descriptor.requests.map(\.name)
        let discovered: Set<String>? =
            switch descriptor.discovery {
            case .custom(_, let members): Set(members.map { "discovered." + $0.name })
            case .openID: nil  // any member of the discovery document
            case nil: []
            }
        let captureNames = Set(descriptor.captures.map(\.name))
        checkCaptureNames(descriptor, taken: configurationNames.union(Self.flowVariables).union(actionParameters))
        for use in templateUses where use.context != .configuration {
            for name in use.template.variables {
                if configurationNames.contains(name) || Self.flowVariables.contains(name)
                    || actionParameters.contains(name) || captureNames.contains(name)
                {
                    continue
                }
                if name.hasPrefix("discovered.") {
                    if let discovered, !discovered.contains(name) {
                        let fix =
                            descriptor.discovery == nil
                            ? "declare \"discovery\" to use discovered values"
                            : "add it to discovery \"members\""
                        sink.error("\"{\(name)}\" is not a discovered value", at: use.node, fixIt: fix)
                    }
                    continue
                }
                let candidates = Array(configurationNames) + Self.flowVariables + actionParameters + captureNames
                let suggestion = Suggestions.closest(to: name, among: candidates.sorted())
                sink.error(
                    "unknown variable \"{\(name)}\"", at: use.node,
                    fixIt: suggestion.map { "did you mean {\($0)}?" }
                        ?? "declare it in \"inputs\" or \"variables\", or use a flow variable")
            }
        }
        for use in templateUses where use.context == .configuration {
            _ = use  // checked above in declaration order
        }
        for reference in requestReferences {
            guard let request = descriptor.requests.first(where: { $0.name == reference.name }) else {
                let suggestion = Suggestions.closest(to: reference.name, among: requestNames)
                sink.error(
                    "no request named \"\(reference.name.prefix(40))\"", at: reference.node,
                    fixIt: suggestion.map { "did you mean \"\($0)\"?" } ?? "declare it in \"requests\"")
                continue
            }
            if !reference.expectedResponses.isEmpty,
                !reference.expectedResponses.contains(request.value.response.rawValue)
            {
                sink.error(
                    "request \"\(reference.name)\" has response \"\(request.value.response.rawValue)\" but is used where \(reference.expectedResponses.map { "\"\($0)\"" }.joined(separator: " or ")) is needed",
                    at: reference.node, fixIt: "set its \"response\" accordingly")
            }
        }
        let declaredCodes = Set(descriptor.errors.codes.map(\.name))
        for reference in codeReferences
        where BuiltInErrorCode(rawValue: reference.code) == nil && !declaredCodes.contains(reference.code) {
            let suggestion = Suggestions.closest(
                to: reference.code, among: (Set(BuiltInErrorCode.descriptorSpellings).union(declaredCodes)).sorted())
            sink.error(
                "unknown error code \"\(reference.code.prefix(40))\"", at: reference.node,
                fixIt: suggestion.map { "did you mean \"\($0)\"?" } ?? "declare it under errors.codes with its kind")
        }
        checkActionNames(descriptor)
    }

    private func reportUnknownVariable(_ name: String, in template: Template, candidates: Set<String>) {
        guard let use = templateUses.first(where: { $0.template == template && $0.context == .configuration }) else {
            return
        }
        let suggestion = Suggestions.closest(to: name, among: candidates.sorted())
        sink.error(
            "unknown variable \"{\(name)}\" (variables may use inputs and earlier variables)", at: use.node,
            fixIt: suggestion.map { "did you mean {\($0)}?" } ?? "declare it in \"inputs\"")
    }

    private func checkActionNames(_ descriptor: Descriptor) {
        let reserved: Set<String> = [
            "signIn", "signOut", "signInWithBrowser", "signInWithLoopback", "prepareAuthorization", "handleCallback",
            "currentSession", "validAccessToken", "restore", "fetchUser", "client", "provider", "init", "perform",
            "clientCredentialsToken", "endSession", "prepareEndSession",
        ]
        // An overload is told apart by its required argument labels; `signIn` may be one beside the password
        // flow's `signIn(<identifierLabel>:password:)`.
        let passwordSignIn = descriptor.flows.password.map { "signIn(\($0.identifierLabel):password:)" }
        var seen: [String: String] = [:]
        // The names an ungrouped action may not take, made once rather than for every action.
        let clientMembers = reserved.union(descriptor.actionGroups.map(\.name))
        for group in descriptor.actionGroups where reserved.contains(group.name) {
            sink.add(
                .error(
                    "action group \"\(group.name.prefix(40))\" is one of the client's own members", at: .start,
                    pointer: "/actionGroups/\(group.name)", fixIt: "use another name, such as \"mfa\""))
        }
        for action in descriptor.actions {
            let swiftName = action.value.method ?? SwiftNames.lowerCamelCase(action.name)
            let overloadsSignIn = action.value.method == "signIn"
            // A grouped action lives in its sub-client, whose only own members are `client` and `init`.
            let group = action.value.group
            let taken =
                isGenerated(swiftName, descriptor, group: group)
                || (group == nil ? clientMembers.contains(swiftName) : swiftName == "client" || swiftName == "init")
            // `signOut` may name an action with a required argument when there is no sign-out flow: its labels
            // tell it apart from every client's `signOut(scope:)` (an admin's `signOut(jwt:scope:)`).
            let overloadsSignOut =
                action.value.method == "signOut" && descriptor.flows.signOut == nil
                && action.value.parameters.contains { !$0.value.optional }
            guard SwiftNames.isValidLowerCamelIdentifier(swiftName),
                overloadsSignIn || overloadsSignOut || !taken
            else {
                sink.add(
                    .error(
                        "action name \"\(swiftName.prefix(40))\" does not give a usable Swift method name",
                        at: .start, pointer: "/actions/\(action.name)" + (action.value.method == nil ? "" : "/method"),
                        fixIt:
                            "use a lowerCamelCase name such as \"resetPassword\" that is not one of the client's own methods"
                    ))
                continue
            }
            let labels = action.value.parameters.filter { !$0.value.optional }.map {
                SwiftNames.lowerCamelCase($0.name) + ":"
            }
            let signature = (action.value.group.map { "\($0)." } ?? "") + "\(swiftName)(\(labels.joined()))"
            if let other = seen[signature] ?? (signature == passwordSignIn ? "the password flow" : nil) {
                sink.add(
                    .error(
                        "actions \"\(other)\" and \"\(action.name)\" both become the Swift method \(signature)",
                        at: .start, pointer: "/actions/\(action.name)",
                        fixIt: "rename one of them, or give them different required parameters"))
            }
            seen[signature] = action.name
        }
    }

    /// Whether `name` is a method `accessTokenClaims` generates in a scope: `getClaims` on the client, and
    /// `getAuthenticatorAssuranceLevel` where `assurance.group` puts it.
    private func isGenerated(_ name: String, _ descriptor: Descriptor, group: String?) -> Bool {
        guard let claims = descriptor.accessTokenClaims else { return false }
        if group == nil, name == "getClaims" { return true }
        guard let assurance = claims.assurance, assurance.group == group else { return false }
        return name == "getAuthenticatorAssuranceLevel"
    }
}
