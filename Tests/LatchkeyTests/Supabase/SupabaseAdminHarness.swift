import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

extension SupabaseHarness {
    /// An admin client made with the generated initializer, as server-side code makes it.
    func makeAdmin(secretKey: String = GoTrueServer.secretKey) throws(AuthError) -> SupabaseAdminClient {
        try SupabaseAdminClient(
            projectURL: gotrue.projectURL, secretKey: secretKey, options: options(store: InMemorySessionStore()))
    }
}

/// Checks one admin request: method, path (as sent, percent-encoded), query, `apikey` (the secret key), the bearer
/// token (the secret key, or a user's token), `X-Supabase-Api-Version`, and the JSON body.
func expectAdminRequest(
    _ request: RecordedRequest?, _ method: String, _ path: String, query: [String: String] = [:],
    bearer: String = GoTrueServer.secretKey, body: [String: Any]? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    guard let request else {
        Issue.record("no \(method) \(path) request was sent", sourceLocation: sourceLocation)
        return
    }
    #expect(request.method == method, sourceLocation: sourceLocation)
    #expect(request.path == "/auth/v1" + path, sourceLocation: sourceLocation)
    #expect(goTrueQuery(request, sourceLocation: sourceLocation) == query, sourceLocation: sourceLocation)
    #expect(request.headerValues("apikey") == [GoTrueServer.secretKey], sourceLocation: sourceLocation)
    #expect(request.headerValues("Authorization") == ["Bearer " + bearer], sourceLocation: sourceLocation)
    #expect(request.headerValues("X-Supabase-Api-Version") == ["2024-01-01"], sourceLocation: sourceLocation)
    if let body {
        #expect(request.headerValues("Content-Type") == ["application/json"], sourceLocation: sourceLocation)
        #expect(
            (request.jsonBody as? NSDictionary) == (body as NSDictionary), "body \(request.bodyText ?? "<binary>")",
            sourceLocation: sourceLocation)
    } else {
        #expect(request.body.isEmpty, "body \(request.bodyText ?? "<binary>")", sourceLocation: sourceLocation)
    }
}

extension ActionResult {
    /// The JSON document of a `.document` result, as Foundation objects.
    var json: Any? {
        switch self {
        case .document(let document):
            (try? JSONEncoder().encode(document)).flatMap { try? JSONSerialization.jsonObject(with: $0) }
        case .page(let page):
            (try? JSONEncoder().encode(page.document)).flatMap { try? JSONSerialization.jsonObject(with: $0) }
        default: nil
        }
    }

    /// The JSON object of a `.document` result.
    var object: [String: Any] { json as? [String: Any] ?? [:] }
}
