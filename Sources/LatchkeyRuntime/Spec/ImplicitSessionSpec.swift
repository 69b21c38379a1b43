/// Sessions that arrive in a callback URL's fragment (OAuth's implicit shape: GoTrue's confirmation, magic and
/// recovery links, `#access_token=…&refresh_token=…&expires_in=…&type=recovery`).
///
/// A redirect URI accepts them only when its name is in ``redirects``. The tokens are read with the
/// provider's ``SessionMapping`` (one-segment pointers name fragment parameters); the user is never taken
/// from the fragment: it is fetched with the user-info flow using the new access token.
@_spi(Generated) public struct ImplicitSessionSpec: Sendable {
    /// The name of the configured redirect URI itself (``ProviderConfiguration/redirectURI``) in ``redirects``.
    public static let defaultRedirect = "default"

    /// The redirect URIs that accept a session in the fragment: ``defaultRedirect`` for the configured
    /// redirect URI, any other name for ``ProviderConfiguration/redirectURIs`` under that name.
    public var redirects: [String]
    /// The fragment parameter that names the kind of link (`type`), if any.
    public var typeParameter: String?
    /// Events published after such a session is installed, by the value of ``typeParameter``
    /// (e.g. `recovery` → `password_recovery`).
    public var events: [String: String]

    /// Creates the spec.
    /// - Parameters:
    ///   - redirects: The redirect URI names that accept a session in the fragment.
    ///   - typeParameter: The fragment parameter naming the kind of link.
    ///   - events: Event names by kind of link.
    public init(redirects: [String], typeParameter: String? = nil, events: [String: String] = [:]) {
        self.redirects = redirects
        self.typeParameter = typeParameter
        self.events = events
    }
}
