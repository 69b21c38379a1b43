import Foundation

/// Reads typed claims from a JWT payload; a claim of the wrong type is an error, `null` counts as absent.
package struct ClaimReader {
    package let claims: [String: JSON]
    package let failureCode: AuthError.Code

    /// A string claim, or `nil` when absent or `null`.
    package func string(_ name: String) throws(AuthError) -> String? {
        guard let value = present(name) else { return nil }
        guard let text = value.string else { throw AuthError(failureCode, "the \(name) claim is not a string") }
        return text
    }

    /// A string claim that must be present and non-empty.
    package func requiredString(_ name: String) throws(AuthError) -> String {
        guard let text = try string(name) else { throw AuthError(failureCode, "the \(name) claim is missing") }
        guard !text.isEmpty else { throw AuthError(failureCode, "the \(name) claim is empty") }
        return text
    }

    /// A NumericDate claim (seconds since the epoch, possibly fractional), or `nil` when absent or `null`.
    /// 9999-12-31T23:59:59Z, the latest NumericDate accepted.
    package static let latestNumericDate: Double = 253_402_300_799

    package func date(_ name: String) throws(AuthError) -> Date? {
        guard let value = present(name) else { return nil }
        // NumericDates past 9999-12-31 are refused: no real token needs them, and they overflow the
        // integer conversions that printing a date does.
        guard let seconds = value.double, seconds.isFinite, seconds >= 0, seconds <= Self.latestNumericDate else {
            throw AuthError(failureCode, "the \(name) claim is not a NumericDate")
        }
        return Date(timeIntervalSince1970: seconds)
    }

    /// A NumericDate claim that must be present.
    package func requiredDate(_ name: String) throws(AuthError) -> Date {
        guard let date = try date(name) else { throw AuthError(failureCode, "the \(name) claim is missing") }
        return date
    }

    /// The `aud` claim: one string or a non-empty array of strings.
    package func audiences() throws(AuthError) -> [String] {
        guard let value = present("aud") else { throw AuthError(failureCode, "the aud claim is missing") }
        if let single = value.string { return [single] }
        guard let list = value.array, !list.isEmpty else {
            throw AuthError(failureCode, "the aud claim is neither a string nor a non-empty array of strings")
        }
        var audiences: [String] = []
        for element in list {
            guard let text = element.string else {
                throw AuthError(failureCode, "the aud claim has a member that is not a string")
            }
            audiences.append(text)
        }
        return audiences
    }

    /// A boolean claim, also accepting the strings `"true"` and `"false"` that some providers send;
    /// `nil` when absent or anything else.
    package func lenientBool(_ name: String) -> Bool? {
        switch present(name) {
        case .bool(let flag): flag
        case .string("true"): true
        case .string("false"): false
        default: nil
        }
    }

    private func present(_ name: String) -> JSON? {
        guard let value = claims[name], !value.isNull else { return nil }
        return value
    }
}
