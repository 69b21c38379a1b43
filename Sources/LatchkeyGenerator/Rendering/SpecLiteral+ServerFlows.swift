import LatchkeyDescriptor

extension SpecLiteral {
    /// The `clientCredentials` and `endSession` arguments of a `FlowSet`.
    static func serverFlows(_ f: Descriptor.Flows) -> [Arg] {
        var args: [Arg] = []
        if let c = f.clientCredentials {
            var a = [Arg(label: "request", value: .string(c.request))]
            if !c.scopes.isEmpty { a.append(Arg(label: "defaultScopes", value: .array(c.scopes.map(Expr.string)))) }
            if c.scopeSeparator != " " { a.append(Arg(label: "scopeSeparator", value: .string(c.scopeSeparator))) }
            args.append(Arg(label: "clientCredentials", value: .call("LatchkeyRuntime.ClientCredentialsFlowSpec", a)))
        }
        if let e = f.endSession {
            args.append(
                Arg(
                    label: "endSession",
                    value: .call(
                        "LatchkeyRuntime.EndSessionFlowSpec",
                        [Arg(label: "url", value: template(e.url)), Arg(label: "query", value: parameters(e.query))])))
        }
        return args
    }
}
