import LatchkeyVocabulary

/// Typed sub-clients (`actionGroups`, an action's `group`), an action's `then`, and
/// `accessTokenClaims`: the format version 2 keys for MFA-style APIs.
extension DescriptorDecoder {
    /// The signature algorithms `accessTokenClaims.algorithms` may name (asymmetric only).
    static let claimAlgorithms = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "EdDSA"]

    /// `actionGroups`: name → `{"swiftName": "MFA", "description": "…"}`.
    func decodeActionGroups(_ members: [JSONMember], at node: JSONNode?) -> [Named<Descriptor.ActionGroup>] {
        if let node, !members.isEmpty { requireFormatVersion(2, for: "\"actionGroups\"", at: node) }
        return members.compactMap { member -> Named<Descriptor.ActionGroup>? in
            guard var reader = ObjectReader(member.value, sink, expected: "an action group") else { return nil }
            defer { reader.finish() }
            if !SwiftNames.isValidLowerCamelIdentifier(member.key) {
                sink.error(
                    "action group name \"\(member.key.prefix(40))\" is not a lowerCamelCase Swift name",
                    at: member.keyLocation, pointer: member.value.pointer.description,
                    fixIt: "use a lowerCamelCase name such as \"mfa\"; it becomes the client's property")
            }
            let swiftNode = reader.member("swiftName")
            let swiftName = swiftNode.flatMap { ObjectReader.string($0, sink) } ?? SwiftNames.upperCamelCase(member.key)
            if !SwiftNames.isValidTypeNamePrefix(swiftName) {
                sink.error(
                    "\"\(swiftName.prefix(40))\" is not an UpperCamelCase Swift type name",
                    at: swiftNode ?? member.value,
                    fixIt: "use an UpperCamelCase name such as \"MFA\"")
            }
            return Named(
                member.key, Descriptor.ActionGroup(swiftName: swiftName, summary: reader.string("description")))
        }
    }

    /// An action's `group` and `then` (its `event` is decoded with the action).
    func decodeActionExtensions(_ reader: inout ObjectReader, into action: inout Descriptor.Action) {
        if let node = reader.member("group") {
            requireFormatVersion(2, for: "action \"group\"", at: node)
            action.group = ObjectReader.string(node, sink, "an action group name")
        }
        if let node = reader.member("then") {
            requireFormatVersion(2, for: "action \"then\"", at: node)
            if let steps = node.array {
                if steps.isEmpty {
                    sink.error(
                        "\"then\" lists no step", at: node, fixIt: "name at least one action, or remove \"then\"")
                }
                action.then = steps.compactMap { decodeFollowUp($0) }
            } else {
                action.then = decodeFollowUp(node).map { [$0] } ?? []
            }
        }
    }

    /// One step of `then`: `{"action": …, "arguments": {…}, "ceremony": {…}}`.
    private func decodeFollowUp(_ node: JSONNode) -> Descriptor.ActionFollowUp? {
        guard var then = ObjectReader(node, sink, expected: "a \"then\" step") else { return nil }
        defer { then.finish() }
        let name = then.string("action", required: true, "the action performed next")
        let arguments = then.members("arguments", "\"arguments\"").compactMap { member -> Named<String>? in
            decodePointer(member.value).map { Named(member.key, $0) }
        }
        let ceremony = then.member("ceremony").flatMap { decodeCeremony($0) }
        guard let name else { return nil }
        return Descriptor.ActionFollowUp(action: name, arguments: arguments, ceremony: ceremony)
    }

    /// A step's `ceremony`: `{"type": "registration", "options": "/options", "credential": "credential"}`.
    private func decodeCeremony(_ node: JSONNode) -> Descriptor.Ceremony? {
        guard var reader = ObjectReader(node, sink, expected: "\"ceremony\"") else { return nil }
        defer { reader.finish() }
        let kinds = Descriptor.Ceremony.Kind.allCases.map(\.rawValue)
        let kindNode = reader.required("type", "\"registration\" or \"assertion\"")
        let kind = kindNode.flatMap { node -> Descriptor.Ceremony.Kind? in
            guard let text = ObjectReader.string(node, sink) else { return nil }
            guard let kind = Descriptor.Ceremony.Kind(rawValue: text) else {
                sink.error(
                    "\"\(text.prefix(40))\" is not one of \(kinds.map { "\"\($0)\"" }.joined(separator: ", "))",
                    at: node, fixIt: "use \"registration\" (a new passkey) or \"assertion\" (a sign-in with one)")
                return nil
            }
            return kind
        }
        let options = reader.required("options", "where the answer holds the W3C options").flatMap {
            decodePointer($0)
        }
        let credentialWhat = "the parameter of the step's action that receives the credential"
        let credential = reader.string("credential", required: true, credentialWhat)
        guard let kind, let options, let credential else { return nil }
        return Descriptor.Ceremony(kind: kind, options: options, credential: credential)
    }

    /// `accessTokenClaims`.
    func decodeAccessTokenClaims(_ node: JSONNode) -> Descriptor.AccessTokenClaims? {
        requireFormatVersion(2, for: "\"accessTokenClaims\"", at: node)
        guard var reader = ObjectReader(node, sink, expected: "\"accessTokenClaims\"") else { return nil }
        defer { reader.finish() }
        let keysNode = reader.required("keys", "the request that fetches the JWKS")
        let keys = keysNode.flatMap { ObjectReader.string($0, sink, "a request name") }
        if let keys, let keysNode { requestReferences.append((keys, keysNode, ["document"])) }
        let algorithmsNode = reader.member("algorithms")
        let algorithms = algorithmsNode.map { ObjectReader.strings($0, sink, "an algorithm") } ?? ["ES256", "RS256"]
        for algorithm in algorithms where !Self.claimAlgorithms.contains(algorithm) {
            sink.error(
                "\"\(algorithm.prefix(20))\" is not an asymmetric signature algorithm", at: algorithmsNode ?? node,
                fixIt: "use \(Self.claimAlgorithms.joined(separator: ", ")); HMAC tokens go to the \"fallback\" request"
            )
        }
        let issuer = reader.member("issuer").flatMap { decodeTemplate($0, context: .url) }
        let fallbackNode = reader.member("fallback")
        let fallback = fallbackNode.flatMap { ObjectReader.string($0, sink, "a request name") }
        if let fallback, let fallbackNode { requestReferences.append((fallback, fallbackNode, ["user"])) }
        let assurance = reader.member("assurance").flatMap { decodeAssurance($0) }
        guard let keys else { return nil }
        return Descriptor.AccessTokenClaims(
            keys: keys, algorithms: algorithms, issuer: issuer, fallback: fallback, assurance: assurance)
    }

    private func decodeAssurance(_ node: JSONNode) -> Descriptor.Assurance? {
        guard var reader = ObjectReader(node, sink, expected: "\"assurance\"") else { return nil }
        defer { reader.finish() }
        let group = reader.string("group")
        let level = reader.string("levelClaim", required: true, "the claim holding the level, e.g. \"aal\"")
        let methods = reader.string("methodsClaim")
        let factors = reader.member("factors").flatMap { decodePointer($0) }
        let status = reader.member("factorStatus").flatMap { decodePointer($0) } ?? "/status"
        let verified = reader.string("verifiedStatus") ?? "verified"
        let elevatedWhat = "the level a verified factor reaches, e.g. \"aal2\""
        let elevated = reader.string("elevatedLevel", required: true, elevatedWhat)
        guard let level, let elevated else { return nil }
        return Descriptor.Assurance(
            group: group, levelClaim: level, methodsClaim: methods, factors: factors, factorStatus: status,
            verifiedStatus: verified, elevatedLevel: elevated)
    }

    /// Checks that groups and follow-ups name what exists.
    func checkSubClients(_ descriptor: Descriptor, root: JSONNode) {
        let groups = Set(descriptor.actionGroups.map(\.name))
        let actionsNode = root.object?["actions"]?.object
        for action in descriptor.actions {
            let node = actionsNode?[action.name]?.object
            if let group = action.value.group, !groups.contains(group), let groupNode = node?["group"] {
                sink.error(
                    "action group \"\(group.prefix(40))\" is not declared", at: groupNode,
                    fixIt: "declare it in \"actionGroups\"")
            }
            guard !action.value.then.isEmpty, let thenNode = node?["then"] else { continue }
            checkFollowUps(of: action, in: descriptor, at: thenNode)
        }
        if let group = descriptor.accessTokenClaims?.assurance?.group, !groups.contains(group),
            let node = root.object?["accessTokenClaims"]?.object?["assurance"]
        {
            sink.error(
                "action group \"\(group.prefix(40))\" is not declared", at: node,
                fixIt: "declare it in \"actionGroups\"")
        }
    }

    /// Checks each step of an action's `then`: another action, without a `then` of its own, whose required
    /// parameters are all supplied (by the caller's arguments, an earlier step, a pointer or the ceremony).
    private func checkFollowUps(of action: Named<Descriptor.Action>, in descriptor: Descriptor, at thenNode: JSONNode) {
        var supplied = Set(action.value.parameters.map(\.name))
        for (index, step) in action.value.then.enumerated() {
            let stepNode = thenNode.array.map { $0.indices.contains(index) ? $0[index] : thenNode } ?? thenNode
            guard let next = descriptor.actions.first(where: { $0.name == step.action }), next.name != action.name
            else {
                sink.error(
                    "\"then\" names \"\(step.action.prefix(40))\", which is not another action", at: stepNode,
                    fixIt: "name an action declared in \"actions\"")
                return
            }
            if !next.value.then.isEmpty {
                sink.error(
                    "\"then\" names \"\(next.name.prefix(40))\", which has a \"then\" of its own", at: stepNode,
                    fixIt: "list every step in this action's \"then\" array instead")
            }
            supplied.formUnion(step.arguments.map(\.name))
            for argument in step.arguments where !next.value.parameters.contains(where: { $0.name == argument.name }) {
                sink.error(
                    "\"\(argument.name.prefix(40))\" is not a parameter of \"\(next.name.prefix(40))\"", at: stepNode,
                    fixIt: "name one of its parameters")
            }
            if let ceremony = step.ceremony {
                let ceremonyNode = stepNode.object?["ceremony"] ?? stepNode
                let parameter = next.value.parameters.first { $0.name == ceremony.credential }
                if parameter?.value.type != .object {
                    sink.error(
                        "\"\(ceremony.credential.prefix(40))\" is not an object parameter of \"\(next.name.prefix(40))\"",
                        at: ceremonyNode,
                        fixIt: "name the parameter (\"type\": \"object\") that receives the credential JSON")
                }
                supplied.insert(ceremony.credential)
            }
            for parameter in next.value.parameters where !parameter.value.optional && !supplied.contains(parameter.name)
            {
                sink.error(
                    "\"\(next.name.prefix(40))\" needs \"\(parameter.name.prefix(40))\", which \"then\" does not supply",
                    at: stepNode, fixIt: "add it to this action's parameters or to the step's \"arguments\"")
            }
        }
    }
}
