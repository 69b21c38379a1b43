extension AuthClient {
    /// Performs a provider-specific action (sign-up, password reset, ...).
    ///
    /// Arguments are checked against the action's parameters (presence, type, minimum length, allowed
    /// values) before any request is sent.
    /// - Parameters:
    ///   - action: The action's name.
    ///   - arguments: The arguments by parameter name.
    /// - Returns: The result, as the action's response kind says.
    /// - Throws: `invalid_configuration` for an unknown action; `validation_failed` for bad arguments;
    ///   the provider's mapped error.
    public func perform(action: String, arguments: [String: ActionArgument] = [:]) async throws(AuthError)
        -> ActionResult
    {
        guard let spec = provider.actions.first(where: { $0.name == action }) else {
            throw failure(.invalidConfiguration, "This provider has no action '\(action)'.")
        }
        try validate(arguments, for: spec)
        let variables = arguments.mapValues { Optional($0.variable) }
        let (request, document, response) = try await send(spec.request, flow: variables)
        return try await result(of: request, document: document, response: response)
    }

    /// Fetches the signed-in user through the user-info flow and keeps it in the session.
    /// - Returns: The user.
    /// - Throws: `invalid_configuration` without a user-info flow; `session_missing` when signed out.
    @discardableResult
    public func fetchUser() async throws(AuthError) -> User {
        guard let flow = provider.flows.userInfo else {
            throw failure(.invalidConfiguration, "This provider has no user-info request.")
        }
        let (_, document, _) = try await send(flow.request)
        let user = try decoder.user(from: document ?? .null)
        try await adopt(user)
        return user
    }

    private func validate(_ arguments: [String: ActionArgument], for spec: ActionSpec) throws(AuthError) {
        for name in arguments.keys.sorted() where !spec.parameters.contains(where: { $0.name == name }) {
            throw failure(.validationFailed, "The action '\(spec.name)' has no parameter '\(name)'.")
        }
        for parameter in spec.parameters {
            guard let argument = arguments[parameter.name] else {
                if parameter.isOptional { continue }
                throw failure(.validationFailed, "The parameter '\(parameter.name)' is required.")
            }
            guard argument.matches(parameter.type) else {
                throw failure(.validationFailed, "The parameter '\(parameter.name)' must be of type \(parameter.type.rawValue).")
            }
            guard case .string(let text) = argument else { continue }
            if let minimum = parameter.minimumLength, text.count < minimum {
                throw failure(.validationFailed, "The parameter '\(parameter.name)' must have at least \(minimum) characters.")
            }
            if !parameter.allowedValues.isEmpty, !parameter.allowedValues.contains(text) {
                let allowed = parameter.allowedValues.joined(separator: ", ")
                throw failure(.validationFailed, "The parameter '\(parameter.name)' must be one of \(allowed).")
            }
        }
    }

    private func result(of request: RequestSpec, document: JSON?, response: HTTPResponse) async throws(AuthError)
        -> ActionResult
    {
        switch request.response {
        case .none:
            return .none
        case .document:
            return .document(document ?? .null)
        case .session:
            return .session(try await install(try decodeSession(document, response)))
        case .user:
            let user = try decoder.user(from: document ?? .null)
            try await adopt(user)
            return .user(user)
        case .sessionOrUser:
            if let document, decoder.hasAccessToken(document) {
                return .session(try await install(try decodeSession(document, response)))
            }
            return .user(try decoder.user(from: document ?? .null))
        }
    }

    /// Puts a fresh user document into the current session when it is the same person.
    private func adopt(_ user: User) async throws(AuthError) {
        guard var current = session, current.user == nil || current.user?.id == user.id else {
            return
        }
        current.user = user
        if case .installedNotStored(let error) = await commit(current, generation: generation) { throw error }
    }
}
