import LatchkeyVocabulary

extension DescriptorDecoder {
    /// `flows.authorizationCode.parameters` (format version 2): the typed arguments of the generated
    /// `authorizationURL(…)` and `signInWithBrowser(…)`. Each is a required string that fills the variable of
    /// the same name in the authorize `query` (Supabase's `{provider}`), with an optional `description` and
    /// `values` (a Swift enum, as an action parameter's: `Authorization` + the name, `AuthorizationProvider`).
    func decodeAuthorizeParameters(
        _ node: JSONNode, query: [Named<Value>]
    ) -> [Named<Descriptor.Action.Parameter>] {
        requireFormatVersion(2, for: "\"parameters\" of \"authorizationCode\"", at: node)
        guard let object = node.object else {
            sink.error("expected an object of parameters", at: node)
            return []
        }
        let named = Set(
            query.flatMap { parameter -> [String] in
                if case .string(let template) = parameter.value { return template.variables }
                return []
            })
        return object.members.compactMap { member -> Named<Descriptor.Action.Parameter>? in
            guard var reader = ObjectReader(member.value, sink, expected: "a parameter") else { return nil }
            defer { reader.finish() }
            guard named.contains(member.key) else {
                sink.error(
                    "the authorize query names no variable {\(member.key.prefix(40))}", at: member.value,
                    fixIt: "add \"NAME\": \"{\(member.key.prefix(40))}\" to \"query\", or remove the parameter")
                return nil
            }
            guard SwiftNames.lowerCamelCase(member.key) != "scopes", member.key != "redirectTo",
                member.key != "queryParams"
            else {
                sink.error("\"\(member.key)\" is an argument the generated methods already take", at: member.value)
                return nil
            }
            let valuesNode = reader.member("values")
            let values = valuesNode.map { ObjectReader.strings($0, sink) } ?? []
            if let valuesNode {
                checkValues(
                    values, type: .string, at: valuesNode, action: "authorization", parameter: member.key,
                    enums: &valueEnums)
            }
            return Named(
                member.key,
                Descriptor.Action.Parameter(
                    type: .string, optional: false, minLength: nil, values: values,
                    summary: reader.string("description")))
        }
    }
}
