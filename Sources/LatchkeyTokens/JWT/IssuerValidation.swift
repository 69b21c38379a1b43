/// How an ID token's `iss` claim is checked against the expected issuer.
public enum IssuerValidation: String, Sendable, Hashable {
    /// `iss` equals the expected issuer.
    case exact
    /// The expected issuer may hold the `{tenantid}` placeholder, which is replaced by the token's own
    /// `tid` claim before the exact comparison (Microsoft's documented rule for multi-tenant apps). A
    /// discovery document whose issuer holds the placeholder is accepted for an issuer that differs from it
    /// in that one path segment only (the `common` and `organizations` tenants).
    case tenantPlaceholder = "tenant_placeholder"

    /// The placeholder the issuer template holds.
    public static let tenantPlaceholderText = "{tenantid}"
}
