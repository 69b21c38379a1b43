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
    ///
    /// Compares UTF-8 bytes, not characters through `String.range(of:)`: a secret with an embedded NUL byte is
    /// found whole whatever the platform's string search does with NUL, and a secret's last character is cut
    /// even when the echo glues a combining mark to it (as characters, `e` and `e` + U+0301 differ, so it leaked).
    /// A cut never splits a UTF-8 sequence. The secret's composed and decomposed forms (NFC, NFD) are cut too,
    /// for providers that normalize what they echo.
    static func redact(_ text: String, _ secrets: [String]) -> String {
        var result = Array(text.utf8)
        let marker = Array("<redacted>".utf8)
        var forms: [String] = []
        for secret in secrets {
            for form in [
                secret, secret.precomposedStringWithCanonicalMapping, secret.decomposedStringWithCanonicalMapping,
            ] where !forms.contains(where: { $0.utf8.elementsEqual(form.utf8) }) {
                forms.append(form)
            }
        }
        for secret in forms {
            let secretBytes = Array(secret.utf8)
            let probe = Array(secret.prefix(8).utf8)
            guard !probe.isEmpty else { continue }
            var output: [UInt8] = []
            var position = 0
            var changed = false
            while let found = firstIndex(of: probe, in: result, from: position) {
                output += result[position..<found]
                var end = found + probe.count
                var next = probe.count
                while end < result.count, next < secretBytes.count, result[end] == secretBytes[next] {
                    end += 1
                    next += 1
                }
                // Never end inside a character: step back over UTF-8 continuation bytes (0b10xxxxxx).
                while end < result.count, end > found + probe.count, result[end] & 0xC0 == 0x80 { end -= 1 }
                output += marker
                position = end
                changed = true
            }
            guard changed else { continue }
            result = output + result[position...]
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// The first position at or after `start` where `bytes` holds `probe`.
    private static func firstIndex(of probe: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard probe.count <= bytes.count else { return nil }
        var index = start
        while index + probe.count <= bytes.count {
            if bytes[index] == probe[0], bytes[index..<(index + probe.count)].elementsEqual(probe) { return index }
            index += 1
        }
        return nil
    }
}
