/// The format of a provider's access tokens (`tokens.accessToken`).
public enum TokenFormat: String, VocabularyTerm {
    /// A token the client must not look into.
    case opaque
    /// A JSON Web Token.
    case jwt
    /// PASETO version 4, public purpose (Ed25519).
    case pasetoV4Public = "paseto_v4_public"
}
