import LatchkeyDescriptor

extension SpecLiteral {
    /// `ImplicitSessionSpec(...)` for a descriptor's `callback.implicit`.
    static func implicitSession(_ i: Descriptor.ImplicitSession) -> Expr {
        var args = [Arg(label: "redirects", value: .array(i.redirects.map(Expr.string)))]
        if let parameter = i.typeParameter { args.append(Arg(label: "typeParameter", value: .string(parameter))) }
        if !i.events.isEmpty {
            args.append(Arg(label: "events", value: .dictionary(i.events.map { ($0.name, Expr.string($0.value)) })))
        }
        return .call("LatchkeyRuntime.ImplicitSessionSpec", args)
    }

    /// `LinkPKCESpec(...)` for an action's `pkce`.
    static func linkPKCE(_ p: Descriptor.LinkPKCE) -> Expr {
        var args: [Arg] = []
        if p.method != "S256" { args.append(Arg(label: "method", value: .string(p.method))) }
        if !p.redirects.isEmpty { args.append(Arg(label: "redirects", value: .array(p.redirects.map(Expr.string)))) }
        if let lifetime = p.lifetime { args.append(Arg(label: "lifetime", value: .int(lifetime))) }
        if let event = p.event { args.append(Arg(label: "event", value: .string(event))) }
        if !p.when.isEmpty { args.append(Arg(label: "when", value: .array(p.when.map(Expr.string)))) }
        return .call("LatchkeyRuntime.LinkPKCESpec", args)
    }
}
