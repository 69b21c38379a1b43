/// A user document that a callback carries as one parameter (a JSON object), such as Sign in with
/// Apple's `user` member on the first sign-in: `{"name": {"firstName": …, "lastName": …}, "email": …}`.
///
/// It is never trusted for identity: the user's `id` always comes from the verified ID token (or the
/// user endpoint). Its name and email only fill in what the token lacks.
@_spi(Generated) public struct CallbackUserSpec: Sendable {
    /// The callback parameter holding the JSON object.
    public var parameter: String
    /// The pointer of the email address.
    public var email: String?
    /// The pointer of a full name.
    public var name: String?
    /// The pointer of the given name, joined with ``familyName`` when there is no full name.
    public var givenName: String?
    /// The pointer of the family name.
    public var familyName: String?

    /// Creates the spec.
    /// - Parameters:
    ///   - parameter: The callback parameter holding the JSON object.
    ///   - email: The pointer of the email address.
    ///   - name: The pointer of a full name.
    ///   - givenName: The pointer of the given name.
    ///   - familyName: The pointer of the family name.
    public init(
        parameter: String, email: String? = nil, name: String? = nil, givenName: String? = nil,
        familyName: String? = nil
    ) {
        self.parameter = parameter
        self.email = email
        self.name = name
        self.givenName = givenName
        self.familyName = familyName
    }
}
