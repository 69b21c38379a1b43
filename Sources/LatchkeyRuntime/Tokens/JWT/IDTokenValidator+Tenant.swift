import Foundation
import LatchkeyTokens
import LatchkeyVocabulary

extension IDTokenValidator {
    /// The largest `tid` accepted in place of `{tenantid}`, in bytes.
    static let maximumTenantIDLength = 64

    /// The issuer `iss` must equal: ``issuer``, or, with ``IssuerValidation/tenantPlaceholder`` and an
    /// issuer that holds `{tenantid}`, that issuer with the token's own `tid` claim in its place.
    ///
    /// The claims come from a token whose signature is already verified. The `tid` must be a plain
    /// identifier (letters, digits, `-`, `.`, `_`), so that it can never change the issuer's structure.
    /// - Throws: `invalid_id_token` when the token has no usable `tid`.
    func expectedIssuer(for claims: IDTokenClaims) throws(AuthError) -> String {
        let placeholder = IssuerValidation.tenantPlaceholderText
        guard issuerValidation == .tenantPlaceholder, issuer.range(of: placeholder) != nil else { return issuer }
        guard case .string(let tenant)? = claims.raw["tid"] else {
            throw AuthError(.invalidIDToken, "the token has no tid claim to fill in the issuer's {tenantid}")
        }
        guard Self.isPlainTenantID(tenant) else {
            throw AuthError(.invalidIDToken, "the tid claim is not a tenant identifier")
        }
        return issuer.replacingOccurrences(of: placeholder, with: tenant)
    }

    /// Whether a `tid` value is a non-empty identifier of letters, digits, `-`, `.` and `_`.
    static func isPlainTenantID(_ tenant: String) -> Bool {
        !tenant.isEmpty && tenant.utf8.count <= maximumTenantIDLength && tenant != "." && tenant != ".."
            && tenant.unicodeScalars.allSatisfy { scalar in
                scalar.isASCII
                    && (CharacterSet.alphanumerics.contains(scalar) || scalar == "-" || scalar == "." || scalar == "_")
            }
    }

    /// Whether a discovery document's issuer is acceptable for the issuer the client asked for: equal, or,
    /// with ``IssuerValidation/tenantPlaceholder``, the requested issuer with one path segment replaced by
    /// `{tenantid}` (the document of a `common` or `organizations` tenant).
    /// - Parameters:
    ///   - documentIssuer: The discovery document's `issuer`.
    ///   - requested: The issuer the client was configured with.
    ///   - validation: The descriptor's issuer validation.
    public static func acceptsDiscoveredIssuer(
        _ documentIssuer: String, requested: String, validation: IssuerValidation
    ) -> Bool {
        if documentIssuer == requested { return true }
        let placeholder = IssuerValidation.tenantPlaceholderText
        guard validation == .tenantPlaceholder, let range = documentIssuer.range(of: placeholder) else { return false }
        let prefix = documentIssuer[..<range.lowerBound]
        let suffix = documentIssuer[range.upperBound...]
        guard prefix.hasSuffix("/"), suffix.isEmpty || suffix.hasPrefix("/"), !suffix.contains(placeholder),
            requested.hasPrefix(prefix), requested.hasSuffix(suffix),
            requested.count > prefix.count + suffix.count
        else { return false }
        let segment = requested.dropFirst(prefix.count).dropLast(suffix.count)
        return isPlainTenantID(String(segment))
    }
}
