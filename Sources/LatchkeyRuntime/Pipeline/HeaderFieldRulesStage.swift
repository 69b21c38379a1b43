import Foundation
import LatchkeyTokens

/// Checks the request as the stages before it left it against ``HeaderFieldRules`` (no header that could smuggle
/// another one reaches any transport). It runs last among the stages that prepare a request.
struct HeaderFieldRulesStage: RequestStage {
    func prepare(_ request: inout TransportRequest, context: RequestContext) throws(AuthError) {
        do {
            try HeaderFieldRules.check(request)
        } catch {
            var refused = error
            refused.provider = context.provider
            throw refused
        }
    }
}
