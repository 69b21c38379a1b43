import LatchkeyDescriptor

/// The spec literal's arguments for the keys format version 2 added to requests and callbacks.
enum SpecLiteralVersion2 {
    typealias Expr = SwiftExpression
    typealias Arg = SwiftExpression.Argument

    /// `authorizationScheme` and a request's own `session`, when they differ from the defaults.
    static func requestArguments(_ r: Descriptor.Request) -> [Arg] {
        var args: [Arg] = []
        if r.authorizationScheme != "Bearer" {
            args.append(Arg(label: "authorizationScheme", value: .string(r.authorizationScheme)))
        }
        if let session = r.session { args.append(Arg(label: "session", value: SpecLiteral.session(session))) }
        if let pagination = r.pagination {
            args.append(Arg(label: "pagination", value: SpecLiteralServer.pagination(pagination)))
        }
        if r.omitsEmptyBody { args.append(Arg(label: "omitsEmptyBody", value: .bool(true))) }
        return args
    }

    /// A callback's user document.
    static func callbackUser(_ u: Descriptor.CallbackUser) -> Expr {
        .call(
            "LatchkeyRuntime.CallbackUserSpec",
            [Arg(label: "parameter", value: .string(u.parameter))]
                + SpecLiteral.optionalArgs([
                    ("email", u.email.map(Expr.string)), ("name", u.name.map(Expr.string)),
                    ("givenName", u.givenName.map(Expr.string)), ("familyName", u.familyName.map(Expr.string)),
                ]))
    }
}
