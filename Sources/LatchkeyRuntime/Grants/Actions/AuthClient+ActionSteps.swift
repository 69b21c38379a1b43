import Foundation
import LatchkeyTokens

extension AuthClient {
    /// The largest value read from an answer for a follow-up action, in bytes.
    static var maximumFollowUpValueBytes: Int { 2048 }

    /// Performs an action's follow-up: the next action, with the arguments both share and the values the
    /// first answer holds at the follow-up's pointers (a challenge's `id` as the verification's
    /// `challengeId`).
    /// - Throws: `invalid_response` when the answer lacks a value (nothing more is sent); the next action's
    ///   errors.
    func perform(
        _ followUp: ActionFollowUpSpec, after spec: ActionSpec, arguments: [String: ActionArgument], document: JSON?
    ) async throws(AuthError) -> ActionResult {
        guard let next = provider.actions.first(where: { $0.name == followUp.action }) else {
            throw failure(.invalidConfiguration, "This provider has no action '\(followUp.action)'.")
        }
        var nextArguments = arguments.filter { name, _ in next.parameters.contains { $0.name == name } }
        for (name, pointer) in followUp.arguments.sorted(by: { $0.key < $1.key }) {
            let value = document?.value(at: pointer)
            let text: String? =
                switch value {
                case .string(let string)?: string
                case .number(let number)? where number == number.rounded() && abs(number) < 1e15:
                    String(Int(number))
                default: nil
                }
            guard let text, !text.isEmpty, text.utf8.count <= Self.maximumFollowUpValueBytes else {
                throw failure(
                    .invalidResponse,
                    "The answer to '\(spec.name)' has no usable value at \(pointer) for '\(followUp.action)'.")
            }
            nextArguments[name] = .string(text)
        }
        return try await perform(action: next.name, arguments: nextArguments)
    }
}
