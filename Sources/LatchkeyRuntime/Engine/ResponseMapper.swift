import Foundation
import LatchkeyTokens
import LatchkeyVocabulary

/// Checks HTTP responses and turns failures into ``AuthError``s through the provider's error mapping.
struct ResponseMapper: Sendable {
    /// The descriptor name.
    let provider: String
    /// The error mapping.
    let errors: ErrorMappingSpec
    /// Where token responses keep the access token (the provider's ``SessionMapping/accessToken``), for
    /// telling an OAuth error answered with HTTP 200 from a token response.
    var accessTokenPointer = "/access_token"

    /// Checks a response and returns its JSON body.
    /// - Parameters:
    ///   - response: The response.
    ///   - spec: The request it answers.
    ///   - name: The request's name, for mapping rows that name requests.
    /// - Returns: The parsed body, or `nil` when there is none and none is needed.
    /// - Throws: The mapped error for a redirect, an error status, an error in a success body (the
    ///   descriptor's `errorInSuccessBody`, or an OAuth `error` member in a token response without an access
    ///   token), or a body that is not JSON where JSON is required.
    func document(from response: TransportResponse, for spec: RequestSpec, named name: String? = nil) throws(AuthError)
        -> JSON?
    {
        let document = JSON(data: response.body)
        let status = response.status
        if (300..<400).contains(status) {
            throw AuthError(
                .redirectRefused, "The endpoint answered HTTP \(status) (a redirect, never followed).", status: status,
                provider: provider)
        }
        if spec.ignoredErrorStatuses.contains(status) { return document }
        guard (200..<300).contains(status) else {
            throw failure(status: status, document: document, response: response, request: name)
        }
        if document == nil, spec.response != .none {
            throw AuthError(.invalidResponse, "The response body is not JSON.", status: status, provider: provider)
        }
        if let pointer = errors.successBodyErrorPointer, document?.value(at: pointer)?.isPresentValue == true {
            // The status the body names counts as the real one: a 5xx or 429 there is a transport failure
            // (the session is kept), exactly as when it arrives as the HTTP status.
            let realStatus = errors.statusPointer.flatMap { document?.value(at: $0)?.int } ?? status
            throw failure(status: realStatus, document: document, response: response, request: name)
        }
        if spec.response == .session, let document,
            let oauthError = Self.oauthError(in: document, accessToken: spec.session?.accessToken ?? accessTokenPointer)
        {
            // RFC 6749 §5.2 errors belong in a 400, but some providers (SAP Customer Data Cloud, GitHub) answer
            // them with 200. A token response without its access token and with an OAuth `error` is that error,
            // mapped like one, not an unreadable response.
            let realStatus = errors.statusPointer.flatMap { document.value(at: $0)?.int } ?? status
            throw failure(
                status: realStatus, document: document, response: response, fallbackCode: oauthError, request: name)
        }
        return document
    }

    /// The OAuth `error` member of a token response that carries no access token, or `nil`.
    static func oauthError(in document: JSON, accessToken pointer: String) -> String? {
        guard let code = document.value(at: "/error")?.string, !code.isEmpty else { return nil }
        switch document.value(at: pointer) {
        case nil, .null?: return code
        case .string(let token)? where token.isEmpty: return code
        default: return nil
        }
    }

    /// The error for a non-success status.
    /// - Parameters:
    ///   - fallbackCode: The provider code when the descriptor's code pointers find none.
    ///   - request: The request's name, for mapping rows that name requests.
    func failure(
        status: Int, document: JSON?, response: TransportResponse, fallbackCode: String? = nil, request: String? = nil
    ) -> AuthError {
        let providerCode = ErrorClassifier.firstCode(in: document, pointers: errors.codePointers) ?? fallbackCode
        var error = classifiedFailure(
            status: status, document: document, response: response, providerCode: providerCode, request: request)
        error.providerMessage = ErrorClassifier.providerMessage(in: document, pointers: errors.messagePointers)
        return error
    }

    private func classifiedFailure(
        status: Int, document: JSON?, response: TransportResponse, providerCode: String?, request: String?
    ) -> AuthError {
        switch status {
        case 429:
            var message = "The provider is rate limiting requests (HTTP 429)."
            if let retryAfter = response.header("Retry-After")?.trimmingCharacters(in: .whitespaces),
                !retryAfter.isEmpty
            {
                message += " Retry-After: \(retryAfter.prefix(64))."
            }
            return AuthError(.rateLimited, message, providerCode: providerCode, status: status, provider: provider)
        case 500..<600:
            let detail = ErrorClassifier.firstMessage(in: document, pointers: errors.messagePointers)
            // A row naming the provider's code may refine a server error into another transport code (a
            // gateway timeout into `timeout`); a 5xx never becomes a rejection. A row naming only requests is
            // the code the provider's SDKs raise for every failure of those requests (Base IdP's
            // `token_exchange_failed`): a 5xx takes its name but stays a transport failure, so the session
            // is kept.
            var code = AuthError.Code.serverError
            if let providerCode,
                let rule = errors.rules.first(where: {
                    ($0.providerCode != nil || $0.providerCodePrefix != nil)
                        && $0.matches(
                            providerCode: providerCode, status: status, request: nil,
                            member: { ErrorClassifier.memberText(document, $0) })
                }), rule.kind == .transport
            {
                code = AuthError.Code(rule.code, kind: rule.kind)
            } else if let request,
                let rule = errors.rules.first(where: {
                    $0.providerCode == nil && $0.providerCodePrefix == nil && $0.status == nil && $0.match.isEmpty
                        && $0.requests.contains(request)
                })
            {
                code = AuthError.Code(rule.code, kind: .transport)
            }
            return AuthError(
                code, "The provider failed (HTTP \(status))" + (detail.map { ": \($0)" } ?? "."),
                providerCode: providerCode, status: status, provider: provider)
        default:
            return classified(status: status, document: document, providerCode: providerCode, request: request)
        }
    }

    private func classified(status: Int, document: JSON?, providerCode: String?, request: String?) -> AuthError {
        let code = ErrorClassifier.code(
            providerCode: providerCode, status: status, rules: errors.rules, request: request, document: document)
        let detail =
            ErrorClassifier.firstMessage(in: document, pointers: errors.messagePointers)
            ?? (document == nil ? "the error body is not JSON" : "no description")
        return AuthError(
            code, "The provider refused the request (HTTP \(status)): \(detail)", providerCode: providerCode,
            status: status, provider: provider)
    }
}
