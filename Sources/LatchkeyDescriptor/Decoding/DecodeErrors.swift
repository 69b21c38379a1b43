import LatchkeyVocabulary

extension DescriptorDecoder {

    func decodeErrors(_ node: JSONNode) -> Descriptor.Errors? {
        guard var reader = ObjectReader(node, sink, expected: "\"errors\"") else { return nil }
        defer { reader.finish() }
        let base = Descriptor.Errors()
        let codeFields = reader.member("codeFields").map { pointers($0) } ?? base.codeFields
        let messageFields = reader.member("messageFields").map { pointers($0) } ?? base.messageFields
        let inSuccess = reader.member("errorInSuccessBody").flatMap { decodePointer($0) }
        let statusField = reader.member("statusField").flatMap { decodePointer($0) }
        let codes = reader.members("codes", "\"codes\"").compactMap {
            member -> Named<Descriptor.Errors.DeclaredCode>? in
            guard SwiftNames.isValidErrorCode(member.key) else {
                sink.error(
                    "\"\(member.key.prefix(40))\" is not a valid error code", at: member.keyLocation,
                    pointer: member.value.pointer.description, fixIt: "use lower_snake_case, e.g. \"mfa_required\"")
                return nil
            }
            guard var codeReader = ObjectReader(member.value, sink, expected: "a code declaration") else { return nil }
            defer { codeReader.finish() }
            let kind = codeReader.oneOf("kind", default: ErrorKind.invalidResponse)
            return Named(member.key, .init(kind: kind, summary: codeReader.string("description")))
        }
        let map = reader.member("map").map { rules($0) } ?? []
        let callback = reader.member("callback").map { rules($0, callbackRows: true) } ?? []
        let verification = reader.members("verification", "\"verification\"").compactMap {
            member -> Named<String>? in
            guard Self.verificationFailures.contains(member.key) else {
                let suggestion = Suggestions.closest(to: member.key, among: Self.verificationFailures)
                sink.error(
                    "\"\(member.key.prefix(40))\" is not a token verification failure", at: member.keyLocation,
                    pointer: member.value.pointer.description,
                    fixIt: suggestion.map { "did you mean \"\($0)\"?" }
                        ?? "use one of \(Self.verificationFailures.joined(separator: ", "))")
                return nil
            }
            guard let code = ObjectReader.string(member.value, sink, "the error code it maps to") else { return nil }
            codeReferences.append((code, member.value))
            return Named(member.key, code)
        }
        var sessionEnded: [String] = []
        if let node = reader.member("sessionEndedCodes") {
            requireFormatVersion(2, for: "\"sessionEndedCodes\"", at: node)
            sessionEnded = ObjectReader.strings(node, sink, "a provider error code")
            for (index, code) in sessionEnded.enumerated() where code.isEmpty || sessionEnded[..<index].contains(code) {
                sink.error(
                    code.isEmpty ? "a provider error code may not be empty" : "\"\(code.prefix(40))\" is listed twice",
                    at: node, fixIt: "list each provider code once")
            }
        }
        var sessionEndedEvents: [Named<String>] = []
        if let node = reader.member("sessionEndedEvents") {
            requireFormatVersion(2, for: "\"sessionEndedEvents\"", at: node)
            for member in node.object?.members ?? [] {
                guard let event = decodeEventName(member.value) else { continue }
                if !sessionEnded.contains(member.key) {
                    sink.error(
                        "\"\(member.key.prefix(40))\" is not one of \"sessionEndedCodes\"", at: member.value,
                        fixIt: "list it in \"sessionEndedCodes\" too")
                }
                sessionEndedEvents.append(Named(member.key, event))
            }
            if node.object == nil { sink.error("expected an object of provider codes and event names", at: node) }
        }
        var errors = Descriptor.Errors(
            codeFields: codeFields, messageFields: messageFields, errorInSuccessBody: inSuccess,
            statusField: statusField, codes: codes, map: map, callback: callback)
        errors.verification = verification
        errors.sessionEndedCodes = sessionEnded
        errors.sessionEndedEvents = sessionEndedEvents
        return errors
    }

    /// The runtime's reasons for a failed token verification, which `errors.verification` maps to codes.
    static let verificationFailures = TokenVerificationFailure.descriptorSpellings

    private func pointers(_ node: JSONNode) -> [String] {
        guard let items = node.array else {
            sink.error("expected an array of JSON pointers", at: node)
            return []
        }
        return items.compactMap { decodePointer($0) }
    }

    /// The request names of a row's `requests`, each checked to name a request.
    private func requestNames(_ node: JSONNode) -> [String] {
        guard let items = node.array, !items.isEmpty else {
            sink.error("expected a non-empty array of request names", at: node)
            return []
        }
        return items.compactMap { item in
            guard let name = ObjectReader.string(item, sink, "a request name") else { return nil }
            requestReferences.append((name, item, []))
            return name
        }
    }

    private func rules(_ node: JSONNode, callbackRows: Bool = false) -> [Descriptor.Errors.Rule] {
        guard let items = node.array else {
            sink.error("expected an array of mapping rows", at: node)
            return []
        }
        return items.compactMap { item in
            guard var reader = ObjectReader(item, sink, expected: "a mapping row") else { return nil }
            defer { reader.finish() }
            let providerCode = reader.member("providerCode").flatMap { codeNode -> String? in
                if case .number(let number) = codeNode.value { return number.lexeme }
                return ObjectReader.string(codeNode, sink)
            }
            let prefix = reader.string("providerCodePrefix")
            let status = reader.int("status", range: 100...599)
            let requests = reader.member("requests").map { requestNames($0) } ?? []
            let matchNode = reader.member("match")
            let match = matchNode.map { decodeMemberMatch($0, callbackRow: callbackRows) } ?? []
            let codeNode = reader.required("code", "the stable error code it maps to")
            let code = codeNode.flatMap { ObjectReader.string($0, sink) }
            if providerCode == nil && prefix == nil && status == nil && requests.isEmpty && matchNode == nil {
                sink.error(
                    "a mapping row needs at least one of \"providerCode\", \"providerCodePrefix\", \"status\", \"requests\" or \"match\"",
                    at: item)
            }
            guard let code, let codeNode else { return nil }
            codeReferences.append((code, codeNode))
            var rule = Descriptor.Errors.Rule(
                providerCode: providerCode, providerCodePrefix: prefix, status: status, code: code)
            rule.requests = requests
            rule.match = match
            return rule
        }
    }
}
