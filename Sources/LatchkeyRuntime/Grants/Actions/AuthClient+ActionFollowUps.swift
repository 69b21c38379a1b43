import Foundation
import LatchkeyTokens

extension AuthClient {
    /// Performs an action's follow-ups in order (the descriptor's `then`): each next action gets the arguments
    /// it declares among those known so far (the caller's, and every value read or made since) and the values
    /// the answer before it holds at its pointers (a challenge's `id` as the verification's `challengeId`);
    /// a follow-up with a ceremony first has the authenticator make a credential from that answer's options.
    /// - Returns: The last follow-up's result.
    /// - Throws: `invalid_response` when an answer lacks a value or its options (nothing more is sent); the
    ///   authenticator's and the next actions' errors.
    func performFollowUps(
        of spec: ActionSpec, arguments: [String: ActionArgument], answer: JSON?,
        authenticator: (any PasskeyAuthenticator)?
    ) async throws(AuthError) -> ActionResult {
        var known = arguments
        var previous = (name: spec.name, answer: answer)
        var result = ActionResult.none
        for followUp in spec.followUps {
            guard let next = provider.actions.first(where: { $0.name == followUp.action }) else {
                throw failure(.invalidConfiguration, "This provider has no action '\(followUp.action)'.")
            }
            let values = try ActionGrant.followUpValues(
                followUp, answer: previous.answer, answeredBy: previous.name, provider: provider.name)
            known.merge(values, uniquingKeysWith: { _, read in read })
            if let ceremony = followUp.ceremony {
                guard let authenticator else {
                    throw failure(
                        .invalidConfiguration,
                        "The action '\(spec.name)' runs a passkey ceremony and needs an authenticator.")
                }
                let credential = try await ceremony.run(on: previous.answer, with: authenticator)
                known[ceremony.credentialParameter] = .object(credential)
            }
            let (nextResult, nextAnswer) = try await performStep(
                next, arguments: ActionGrant.arguments(of: next, among: known))
            result = nextResult
            previous = (next.name, nextAnswer)
        }
        return result
    }
}
