import LatchkeyVocabulary

/// Format version 2's authoring keys: `clientSecret`, and error rows' `match`.
extension DescriptorDecoder {
    /// `clientSecret`: `{"required": true, "reason": "…"}`. A required secret needs a request that sends it.
    func decodeClientSecret(_ node: JSONNode, requests: [Named<Descriptor.Request>]) -> Descriptor.ClientSecret? {
        requireFormatVersion(2, for: "\"clientSecret\"", at: node)
        guard var reader = ObjectReader(node, sink, expected: "\"clientSecret\"") else { return nil }
        defer { reader.finish() }
        let required = reader.bool("required", default: false)
        let reason = reader.string("reason", "why the client needs a secret")
        let sendsSecret = requests.contains { request in
            switch request.value.clientAuthentication {
            case .basic, .post, .basicIfSecret, .postIfSecret, .basicSecretOrEmpty: true
            case .none: false
            }
        }
        if required, !sendsSecret {
            sink.error(
                "\"clientSecret\" is required but no request sends it", at: node,
                fixIt: "set a request's \"clientAuthentication\" to \"basic\" or \"post\", or remove \"clientSecret\"")
        }
        return Descriptor.ClientSecret(required: required, reason: reason)
    }

    /// A mapping row's `match`: JSON pointer → the value there (a string, an integer or a boolean). In a callback
    /// row each pointer is one segment naming a callback parameter.
    func decodeMemberMatch(_ node: JSONNode, callbackRow: Bool) -> [Descriptor.MemberMatch] {
        requireFormatVersion(2, for: "a mapping row's \"match\"", at: node)
        guard case .object(let object) = node.value, !object.members.isEmpty else {
            sink.error(
                "\"match\" must be a non-empty JSON object of JSON pointers and values", at: node,
                fixIt: "write it as {\"/errors/0/field\": \"client_id\"}")
            return []
        }
        return object.members.compactMap { member -> Descriptor.MemberMatch? in
            let pointer = member.key
            guard pointer.hasPrefix("/") else {
                sink.error(
                    "\"\(pointer.prefix(40))\" is not a JSON pointer", at: member.keyLocation,
                    pointer: member.value.pointer.description, fixIt: "start it with \"/\", e.g. \"/errors/0/field\"")
                return nil
            }
            if callbackRow, pointer.dropFirst().contains(where: { $0 == "/" || $0 == "~" }) || pointer.count < 2 {
                sink.error(
                    "a callback row's \"match\" names a callback parameter: \"\(pointer.prefix(40))\" is not one",
                    at: member.keyLocation, pointer: member.value.pointer.description,
                    fixIt: "use one segment, e.g. \"/error_reason\"")
                return nil
            }
            let text: String
            switch member.value.value {
            case .string(let value): text = value
            case .bool(let flag): text = flag ? "true" : "false"
            case .number(let number) where number.lexeme.allSatisfy({ $0 == "-" || $0.isASCII && $0.isNumber }):
                text = number.lexeme
            default:
                sink.error(
                    "expected a string, an integer or true/false, found \(member.value.typeName)", at: member.value)
                return nil
            }
            return Descriptor.MemberMatch(pointer: pointer, equals: text)
        }
    }
}

/// Format version 2's `captures`.
extension DescriptorDecoder {
    /// `captures`: name → `{"request": …, "pointer": …}` or `{"header": …}`.
    func decodeCaptures(_ node: JSONNode) -> [Named<Descriptor.Capture>] {
        requireFormatVersion(2, for: "\"captures\"", at: node)
        guard case .object(let object) = node.value else {
            sink.error("\"captures\" must be a JSON object, found \(node.typeName)", at: node)
            return []
        }
        return object.members.compactMap { member -> Named<Descriptor.Capture>? in
            guard Template.isValidVariableName(member.key), !member.key.contains(".") else {
                sink.error(
                    "\"\(member.key.prefix(40))\" is not a valid capture name", at: member.keyLocation,
                    pointer: member.value.pointer.description,
                    fixIt: "use letters, digits and _, not starting with a digit (e.g. \"cloudid\")")
                return nil
            }
            guard var reader = ObjectReader(member.value, sink, expected: "a capture") else { return nil }
            defer { reader.finish() }
            let requestNode = reader.member("request")
            let request = requestNode.flatMap { ObjectReader.string($0, sink, "a request name") }
            if let request, let requestNode { requestReferences.append((request, requestNode, ["document", "none"])) }
            let pointer = reader.member("pointer").flatMap { decodePointer($0) }
            let header = reader.string("header", "a response header name")
            if (pointer == nil) == (header == nil) {
                sink.error(
                    "a capture reads exactly one of \"pointer\" and \"header\"", at: member.value,
                    fixIt: "give \"pointer\" (a JSON pointer into the response) or \"header\" (a header name)")
            }
            return Named(member.key, Descriptor.Capture(request: request, pointer: pointer, header: header))
        }
    }

    /// Capture names must not shadow inputs, variables, flow variables or action parameters.
    func checkCaptureNames(_ descriptor: Descriptor, taken: Set<String>) {
        for capture in descriptor.captures where taken.contains(capture.name) {
            sink.add(
                .error(
                    "the capture \"\(capture.name)\" has the name of an input, variable or flow variable",
                    at: .start, pointer: "/captures/\(capture.name)", fixIt: "rename the capture"))
        }
    }
}

/// Format version 2's user mapping from several members, and granted scopes from the callback.
extension DescriptorDecoder {
    /// `user.nameParts`: a non-empty array of JSON pointers.
    func decodeNameParts(_ node: JSONNode) -> [String] {
        requireFormatVersion(2, for: "\"nameParts\"", at: node)
        guard let items = node.array, !items.isEmpty else {
            sink.error(
                "expected a non-empty array of JSON pointers", at: node,
                fixIt: "e.g. [\"/given_name\", \"/family_name\"]")
            return []
        }
        return items.compactMap { decodePointer($0) }
    }

    /// `callback.scope`: the callback parameter holding the granted scopes.
    func decodeCallbackScope(_ node: JSONNode) -> String? {
        requireFormatVersion(2, for: "\"callback\".\"scope\"", at: node)
        guard let name = ObjectReader.string(node, sink, "a callback parameter name"), !name.isEmpty else { return nil }
        return name
    }
}
