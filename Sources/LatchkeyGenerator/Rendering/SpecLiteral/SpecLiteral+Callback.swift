import LatchkeyDescriptor
import LatchkeyVocabulary

/// The spec literal's callback: `CallbackSpec`, the implicit sessions and the user document it may carry.
extension SpecLiteral {
    static func callback(_ c: Descriptor.Callback) -> Expr {
        RuntimeConstruct.callbackSpec.call([
            "location": .term(c.location), "codeParameter": .string(c.code), "stateParameter": .string(c.state),
            "issuerParameter": c.iss.map(Expr.string), "errorParameter": .string(c.error),
            "errorCodeParameter": c.errorCode.map(Expr.string),
            "errorDescriptionParameter": .string(c.errorDescription),
            "allowedRedirectKinds": .array(c.redirectKinds.map(Expr.term)),
            "implicitSession": c.implicit.map(implicitSession), "user": c.user.map(callbackUser),
            "scopeParameter": c.scope.map(Expr.string),
        ])
    }

    /// `ImplicitSessionSpec(...)` for a descriptor's `callback.implicit`.
    static func implicitSession(_ i: Descriptor.ImplicitSession) -> Expr {
        RuntimeConstruct.implicitSessionSpec.call([
            "redirects": .array(i.redirects.map(Expr.string)), "typeParameter": i.typeParameter.map(Expr.string),
            "events": .dictionary(i.events.map { ($0.name, Expr.string($0.value)) }),
        ])
    }

    /// A callback's user document.
    static func callbackUser(_ u: Descriptor.CallbackUser) -> Expr {
        RuntimeConstruct.callbackUserSpec.call([
            "parameter": .string(u.parameter), "email": u.email.map(Expr.string), "name": u.name.map(Expr.string),
            "givenName": u.givenName.map(Expr.string), "familyName": u.familyName.map(Expr.string),
        ])
    }
}

extension RuntimeConstruct {
    static let callbackSpec = RuntimeConstruct(
        "CallbackSpec", .qualified,
        [
            .always("location"), .always("codeParameter"), .always("stateParameter"), .optional("issuerParameter"),
            .always("errorParameter"), .optional("errorCodeParameter"), .always("errorDescriptionParameter"),
            .always("allowedRedirectKinds"), .optional("implicitSession"), .optional("user"),
            .optional("scopeParameter"),
        ])
    static let implicitSessionSpec = RuntimeConstruct(
        "ImplicitSessionSpec", .qualified,
        [.always("redirects"), .optional("typeParameter"), .unless("events", .dictionary([]))])
    static let callbackUserSpec = RuntimeConstruct(
        "CallbackUserSpec", .qualified,
        [
            .always("parameter"), .optional("email"), .optional("name"), .optional("givenName"),
            .optional("familyName"),
        ])
}
