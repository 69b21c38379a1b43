import LatchkeyDescriptor
import LatchkeyVocabulary

/// The spec literal's requests and how endpoints are discovered: `RequestSpec`, `PaginationSpec`,
/// `DiscoverySpec`.
extension SpecLiteral {
    static func request(_ r: Descriptor.Request) -> Expr {
        RuntimeConstruct.requestSpec.call([
            "method": .string(r.method), "url": template(r.url), "query": parameters(r.query),
            "headers": parameters(r.headers), "encoding": .term(r.encoding), "body": parameters(r.body),
            "clientAuthentication": .term(r.clientAuthentication), "authorization": .term(r.authorization),
            "response": .term(r.response), "ignoredErrorStatuses": .array(r.ignoreErrorStatuses.map(Expr.int)),
            "authorizationScheme": .string(r.authorizationScheme), "session": r.session.map(session),
            "pagination": r.pagination.map(pagination), "omitsEmptyBody": .bool(r.omitsEmptyBody),
        ])
    }

    /// A request's pagination.
    static func pagination(_ p: Descriptor.Pagination) -> Expr {
        RuntimeConstruct.paginationSpec.call([
            "totalHeader": p.totalHeader.map(Expr.string), "linkHeader": p.linkHeader.map(Expr.string),
            "pageParameter": .string(p.pageParameter),
        ])
    }

    static func discovery(_ d: Descriptor.Discovery) -> Expr {
        switch d {
        case .openID(let issuer, let documentURL):
            RuntimeConstruct.openIDDiscovery.call([
                "issuer": template(issuer), "documentURL": documentURL.map(template),
            ])
        case .custom(let request, let members):
            RuntimeConstruct.customDiscovery.call([
                "request": .string(request),
                "members": .array(
                    members.map {
                        RuntimeConstruct.discoveryMember.call(["name": .string($0.name), "pointer": .string($0.value)])
                    }),
            ])
        }
    }
}

extension RuntimeConstruct {
    static let requestSpec = RuntimeConstruct(
        "RequestSpec", .qualified,
        [
            .always("method"), .always("url"), .unless("query", .array([])), .unless("headers", .array([])),
            .unless("encoding", .symbol(".none")), .unless("body", .array([])),
            .unless("clientAuthentication", .symbol(".none")), .unless("authorization", .symbol(".none")),
            .unless("response", .symbol(".none")), .unless("ignoredErrorStatuses", .array([])),
            .unless("authorizationScheme", .string("Bearer")), .optional("session"), .optional("pagination"),
            .unless("omitsEmptyBody", .bool(false)),
        ])
    static let paginationSpec = RuntimeConstruct(
        "PaginationSpec", .qualified,
        [.optional("totalHeader"), .optional("linkHeader"), .unless("pageParameter", .string("page"))])
    static let openIDDiscovery = RuntimeConstruct(
        "DiscoverySpec", .member("openID"), [.always("issuer"), .optional("documentURL")])
    static let customDiscovery = RuntimeConstruct(
        "DiscoverySpec", .member("custom"), [.always("request"), .always("members")])
    static let discoveryMember = RuntimeConstruct(
        "DiscoverySpec.Member", .initializer, [.always("name"), .always("pointer")])
}
