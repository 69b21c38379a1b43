import Foundation
import LatchkeyTokens

/// Cuts every secret the request carried (``RequestContext/secrets``: codes, verifiers, passwords, tokens, the
/// client secret) out of the error it ends with, for transports and providers that echo what they were sent.
struct RedactionStage: RequestStage {
    func prepare(_ request: inout TransportRequest, context: RequestContext) throws(AuthError) {}

    func redact(_ error: AuthError, context: RequestContext) -> AuthError {
        error.redacting(context.secrets)
    }
}

extension AuthError {
    /// The error with every secret (and any truncated echo of one's start) cut out of its message, provider
    /// code and provider message, for providers that echo what they were sent. Secrets shorter than 8
    /// characters are left alone.
    /// - Parameter secrets: Tokens, codes or passwords the request carried.
    /// - Returns: The redacted error.
    func redacting(_ secrets: [String?]) -> AuthError {
        let secrets = secrets.compactMap { $0 }.filter { $0.count >= 8 }
        guard !secrets.isEmpty else { return self }
        var error = self
        error.message = AuthError.redact(error.message, secrets)
        error.providerCode = error.providerCode.map { AuthError.redact($0, secrets) }
        error.providerMessage = error.providerMessage.map { AuthError.redact($0, secrets) }
        return error
    }

    /// Replaces every run of text that starts like a secret (its first 8 characters) and continues as it does.
    static func redact(_ text: String, _ secrets: [String]) -> String {
        var result = text
        for secret in secrets {
            let probe = secret.prefix(8)
            guard result.range(of: probe) != nil else { continue }
            var output = ""
            var rest = Substring(result)
            while let found = rest.range(of: probe) {
                output += rest[..<found.lowerBound]
                var end = found.upperBound
                var next = secret.index(secret.startIndex, offsetBy: probe.count)
                while end < rest.endIndex, next < secret.endIndex, rest[end] == secret[next] {
                    end = rest.index(after: end)
                    next = secret.index(after: next)
                }
                output += "<redacted>"
                rest = rest[end...]
            }
            result = output + rest
        }
        return result
    }
}
