import Foundation
import LatchkeyTokens
import LatchkeyVocabulary

/// Adds the extra token parameters to every token request (code exchange, refresh, device-code token, client
/// credentials): the descriptor's `tokenParameters` (``ProviderSpec/extraTokenParameters``), then the app's
/// ``AuthClientOptions/additionalTokenParameters`` (checked by ``AdditionalTokenParameters``), after the
/// request's own parameters, in its encoding.
struct ExtraParametersStage: RequestStage {
    /// The parameters, in the order they are sent.
    let parameters: [ParameterSpec]

    func prepare(_ request: inout TransportRequest, context: RequestContext) throws(AuthError) {
        guard !parameters.isEmpty, let descriptor = context.descriptorRequest, descriptor.isTokenRequest else {
            return
        }
        switch descriptor.spec.encoding {
        case .json:
            var members: [String: JSON] = [:]
            for parameter in parameters {
                if let value = try TemplateRenderer.render(parameter.value, in: descriptor.scope) {
                    members[parameter.name] = value
                }
            }
            request.mergeJSONMembers(members)
        case .form, .none:
            request.appendParameters(
                try TemplateRenderer.pairs(parameters, in: descriptor.scope), encoding: descriptor.spec.encoding)
        }
    }
}
