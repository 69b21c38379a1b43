import LatchkeyVocabulary

extension AuthError {
    /// This error, marked with why a token failed verification (kept when already marked).
    /// - Parameter reason: The reason.
    /// - Returns: The marked error.
    package func because(_ reason: TokenVerificationFailure) -> AuthError {
        var marked = self
        marked.verificationFailure = marked.verificationFailure ?? reason
        return marked
    }
}
