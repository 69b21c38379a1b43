import LatchkeyVocabulary

/// Format version 2's keys for server-side clients and list answers: `audience`, an input's `require`, a
/// request's `pagination`.
extension DescriptorDecoder {
    /// `audience`: `app` (default) or `server`. A server-side client has no sign-in flows: it holds a secret, so
    /// it never signs a person in.
    func decodeAudience(_ node: JSONNode?, flows: Descriptor.Flows) -> ClientAudience {
        guard let node else { return .app }
        requireFormatVersion(2, for: "\"audience\"", at: node)
        guard let text = ObjectReader.string(node, sink) else { return .app }
        guard let audience = ClientAudience(rawValue: text) else {
            sink.error(
                "\"audience\" must be one of \(ClientAudience.descriptorSpellings.joined(separator: ", "))", at: node)
            return .app
        }
        if audience == .server, flows != Descriptor.Flows() {
            sink.error(
                "a server-side client (\"audience\": \"server\") has no sign-in flows", at: node,
                fixIt: "remove \"flows\" and declare the calls as actions, or describe the app's client separately")
        }
        return audience
    }

    /// An input's `require`: `{"anyOf": [{"prefix": …} | {"jwtClaim": …, "equals": …}], "message": …, "code": …}`.
    func decodeRequirement(_ node: JSONNode) -> Descriptor.InputRequirement? {
        requireFormatVersion(2, for: "an input's \"require\"", at: node)
        guard var reader = ObjectReader(node, sink, expected: "a requirement") else { return nil }
        defer { reader.finish() }
        let message = reader.string("message", required: true, "the message shown to developers")
        let code = reader.string("code") ?? BuiltInErrorCode.invalidConfiguration.rawValue
        if let codeNode = node.object?["code"] { codeReferences.append((code, codeNode)) }
        guard let testsNode = reader.required("anyOf", "the tests of which one must pass") else { return nil }
        guard let items = testsNode.array, !items.isEmpty else {
            sink.error("\"anyOf\" must be a non-empty array of tests", at: testsNode)
            return nil
        }
        let tests = items.compactMap { item -> Descriptor.InputRequirement.Test? in
            guard var test = ObjectReader(item, sink, expected: "a test") else { return nil }
            defer { test.finish() }
            let prefix = test.string("prefix")
            let claim = test.string("jwtClaim")
            let equals = test.string("equals")
            if (prefix == nil) == (claim == nil) {
                sink.error("a test needs exactly one of \"prefix\" or \"jwtClaim\"", at: item)
                return nil
            }
            if claim != nil && equals == nil {
                sink.error("a \"jwtClaim\" test needs \"equals\"", at: item)
                return nil
            }
            return Descriptor.InputRequirement.Test(prefix: prefix, jwtClaim: claim, equals: equals)
        }
        guard let message, tests.count == items.count else { return nil }
        return Descriptor.InputRequirement(anyOf: tests, code: code, message: message)
    }

    /// A request's `pagination`: `{"totalHeader": …, "linkHeader": …, "pageParameter": "page"}`; the response
    /// must be `document`.
    func decodePagination(_ node: JSONNode, response: ResponseMeaning) -> Descriptor.Pagination? {
        requireFormatVersion(2, for: "a request's \"pagination\"", at: node)
        guard var reader = ObjectReader(node, sink, expected: "\"pagination\"") else { return nil }
        defer { reader.finish() }
        let total = reader.string("totalHeader", "a response header name")
        let link = reader.string("linkHeader", "a response header name")
        let page = reader.string("pageParameter", "a query parameter name") ?? "page"
        if total == nil, link == nil {
            sink.error("\"pagination\" needs \"totalHeader\" or \"linkHeader\"", at: node)
            return nil
        }
        if response != .document {
            sink.error(
                "a request with \"pagination\" must have \"response\": \"document\"", at: node,
                fixIt: "set \"response\": \"document\"")
            return nil
        }
        return Descriptor.Pagination(totalHeader: total, linkHeader: link, pageParameter: page)
    }
}
