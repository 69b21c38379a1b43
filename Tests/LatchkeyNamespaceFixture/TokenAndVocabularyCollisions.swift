// Types named like declarations of LatchkeyTokens and LatchkeyVocabulary that `import LatchkeyRuntime` does not
// re-export. RuntimeReExportTests imports this module beside LatchkeyRuntime and uses them unqualified: that
// compiles only while the runtime re-exports those modules declaration by declaration, not whole.

/// Named like LatchkeyTokens' `PasetoV4Public`.
public struct PasetoV4Public: Sendable {
    /// Creates one.
    public init() {}
}
/// Named like LatchkeyTokens' `JWSHeader`.
public struct JWSHeader: Sendable {
    /// Creates one.
    public init() {}
}
/// Named like LatchkeyVocabulary's `TokenFormat`.
public struct TokenFormat: Sendable {
    /// Creates one.
    public init() {}
}
/// Named like LatchkeyVocabulary's `Flow`.
public struct Flow: Sendable {
    /// Creates one.
    public init() {}
}
/// Named like LatchkeyVocabulary's `ValueTemplate`.
public struct ValueTemplate: Sendable {
    /// Creates one.
    public init() {}
}
/// Named like LatchkeyVocabulary's `BodyEncoding`.
public struct BodyEncoding: Sendable {
    /// Creates one.
    public init() {}
}
/// Named like LatchkeyVocabulary's `ClientAuthenticationMethod`.
public struct ClientAuthenticationMethod: Sendable {
    /// Creates one.
    public init() {}
}
/// The types above and those of `fixtureTypeNames` that `import LatchkeyRuntime` does not make visible
/// (LatchkeyTokens' own, or the runtime's SPI), by name, so the runtime test can check it used this module's.
public let runtimeFixtureTypeNames = [
    "PasetoV4Public", "JWSHeader", "TokenFormat", "Flow", "ValueTemplate", "BodyEncoding",
    "ClientAuthenticationMethod", "Base64URL", "JSONWebKey", "JWSToken", "ProviderSpec", "AuthClient",
]
