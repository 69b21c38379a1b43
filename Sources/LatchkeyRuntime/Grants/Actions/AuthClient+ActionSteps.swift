import Foundation

extension AuthClient {
    /// The largest value read from an answer for a follow-up action, in bytes.
    static var maximumFollowUpValueBytes: Int { 2048 }

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
            for (name, pointer) in followUp.arguments.sorted(by: { $0.key < $1.key }) {
                known[name] = .string(try value(at: pointer, of: previous, for: followUp.action))
            }
            if let ceremony = followUp.ceremony {
                guard let authenticator else {
                    throw failure(
                        .invalidConfiguration,
                        "The action '\(spec.name)' runs a passkey ceremony and needs an authenticator.")
                }
                let credential = try await ceremony.run(on: previous.answer, with: authenticator)
                known[ceremony.credentialParameter] = .object(credential)
            }
            let nextArguments = known.filter { name, _ in next.parameters.contains { $0.name == name } }
            let (nextResult, nextAnswer) = try await performStep(next, arguments: nextArguments)
            result = nextResult
            previous = (next.name, nextAnswer)
        }
        return result
    }

    /// The string or integer an answer holds at a follow-up's pointer.
    private func value(at pointer: String, of previous: (name: String, answer: JSON?), for action: String)
        throws(AuthError) -> String
    {
        let text: String? =
            switch previous.answer?.value(at: pointer) {
            case .string(let string)?: string
            case .number(let number)? where number == number.rounded() && abs(number) < 1e15:
                String(Int(number))
            default: nil
            }
        guard let text, !text.isEmpty, text.utf8.count <= Self.maximumFollowUpValueBytes else {
            throw failure(
                .invalidResponse, "The answer to '\(previous.name)' has no usable value at \(pointer) for '\(action)'.")
        }
        return text
    }
}
