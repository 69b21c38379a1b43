import LatchkeyVocabulary

/// How an ID token's `iss` claim is checked against the expected issuer.
public typealias IssuerValidation = LatchkeyVocabulary.IssuerValidation
