import Foundation

/// What an action's answer asks of the client, read by ``ActionGrant/interpret(_:headers:decoder:)``.
enum ActionAnswer: Sendable, Hashable {
    /// The result as it is (nothing, a document, a page, or a user that is not adopted).
    case result(ActionResult)
    /// A user to put into the current session when it is the same person, then return.
    case user(User)
    /// A token response: decoded into a session and installed when no sign-out happened meanwhile.
    case session
}

extension ActionGrant {
    /// The largest value read from an answer for a follow-up action, in bytes.
    static let maximumFollowUpValueBytes = 2048

    /// What the answer means, as the request's `response` kind says: with `pagination`, a document answer is a
    /// page (the counts its headers give); with the action's result pointer (the descriptor's `returns`), a
    /// document answer is that member.
    /// - Parameters:
    ///   - document: The answer's JSON body (`nil`: none).
    ///   - headers: The answer's header fields.
    ///   - decoder: The provider's session and user mapping.
    /// - Throws: `invalid_response` for a missing `returns` member; the decoder's errors for a user document.
    func interpret(_ document: JSON?, headers: HTTPHeaderFields, decoder: SessionDecoder) throws(AuthError)
        -> ActionAnswer
    {
        guard let requestSpec else { return .result(.none) }
        switch requestSpec.response {
        case .none:
            return .result(.none)
        case .document:
            if let pagination = requestSpec.pagination {
                return .result(.page(ActionPage.read(document ?? .null, headers: headers, spec: pagination)))
            }
            return .result(.document(try returned(document ?? .null)))
        case .session:
            return .session
        case .user:
            return .user(try decoder.user(from: document ?? .null))
        case .sessionOrUser:
            if let document, decoder.hasAccessToken(document) { return .session }
            return .result(.user(try decoder.user(from: document ?? .null)))
        case .sessionOrDocument:
            if let document, decoder.hasAccessToken(document) { return .session }
            return .result(.document(try returned(document ?? .null)))
        }
    }

    /// The member the caller wants (Supabase's `/identities`, `/url`), or the whole document without `returns`.
    private func returned(_ answer: JSON) throws(AuthError) -> JSON {
        guard let pointer = action.resultPointer else { return answer }
        guard let member = answer.value(at: pointer), !member.isNull else {
            throw failure(.invalidResponse, "The answer has no '\(pointer)' member.")
        }
        return member
    }

    /// The values a follow-up step reads from the answer before it (``ActionFollowUpSpec/arguments``: a
    /// challenge's `id` as the verification's `challengeId`), as text (a whole number is written without a
    /// fraction).
    /// - Parameters:
    ///   - followUp: The step.
    ///   - answer: The answer of the action before it.
    ///   - answeredBy: That action's name, for the error.
    ///   - provider: The provider's descriptor name, for the error.
    /// - Throws: `invalid_response` when the answer lacks a value or it is longer than
    ///   ``maximumFollowUpValueBytes`` (nothing more is sent).
    static func followUpValues(
        _ followUp: ActionFollowUpSpec, answer: JSON?, answeredBy: String, provider: String
    ) throws(AuthError) -> [String: ActionArgument] {
        var values: [String: ActionArgument] = [:]
        for (name, pointer) in followUp.arguments.sorted(by: { $0.key < $1.key }) {
            let text: String? =
                switch answer?.value(at: pointer) {
                case .string(let string)?: string
                case .number(let number)? where number == number.rounded() && abs(number) < 1e15:
                    String(Int(number))
                default: nil
                }
            guard let text, !text.isEmpty, text.utf8.count <= Self.maximumFollowUpValueBytes else {
                throw AuthError(
                    .invalidResponse,
                    "The answer to '\(answeredBy)' has no usable value at \(pointer) for '\(followUp.action)'.",
                    provider: provider)
            }
            values[name] = .string(text)
        }
        return values
    }

    /// The arguments of a follow-up step's action: those it declares among the ones known so far (the
    /// caller's, and every value read or made by an earlier step).
    static func arguments(of next: ActionSpec, among known: [String: ActionArgument]) -> [String: ActionArgument] {
        known.filter { name, _ in next.parameters.contains { $0.name == name } }
    }
}
