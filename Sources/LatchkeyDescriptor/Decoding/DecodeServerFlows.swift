extension DescriptorDecoder {
    /// Decodes `flows.clientCredentials`: `{"request", "scopes"?, "scopeSeparator"?}`.
    func decodeClientCredentials(_ node: JSONNode) -> Descriptor.Flows.ClientCredentials? {
        guard var reader = ObjectReader(node, sink, expected: "\"clientCredentials\"") else { return nil }
        defer { reader.finish() }
        let request = reader.requestName("request", self, expecting: ["session"])
        let scopes = reader.strings("scopes")
        let separator = reader.string("scopeSeparator") ?? " "
        return request.map {
            Descriptor.Flows.ClientCredentials(request: $0, scopes: scopes, scopeSeparator: separator)
        }
    }

    /// Decodes `flows.endSession`: `{"url", "query"?}`.
    func decodeEndSession(_ node: JSONNode) -> Descriptor.Flows.EndSession? {
        guard var reader = ObjectReader(node, sink, expected: "\"endSession\"") else { return nil }
        defer { reader.finish() }
        let urlNode = reader.required("url", "the end-session endpoint URL template")
        let url = urlNode.flatMap { decodeTemplate($0, context: .url) }
        if let url, let urlNode { URLRules.checkEndpoint(url, urlNode, sink) }
        let query = reader.members("query", "\"query\"").map { member in
            SecretRules.check(member, sink)
            return Named(member.key, decodeValue(member.value, .request))
        }
        return url.map { Descriptor.Flows.EndSession(url: $0, query: query) }
    }
}
