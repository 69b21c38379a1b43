// What `import LatchkeyRuntime` re-exports from the modules below it, declaration by declaration (the path an
// app that selects its providers takes, `import Latchkey` narrows it further). Each name is a type the runtime's
// public API spells, so an app can name it too:
// - `LatchkeyDuration` (LatchkeyPlatform): leeways, timeouts, clocks.
// - `AuthError` (LatchkeyTokens), with its nested `Code` and `Kind`; `ErrorKind` (LatchkeyVocabulary) is what
//   `AuthError.Kind` names, so that an app can switch on `error.kind`'s cases.
// - `JSON` (`User.attributes`, `ActionResult`, passkey options), and what `IDTokenValidator` and `JWKSCache`
//   take and return: `IDTokenClaims`, `JSONWebKeySet`, `SignatureAlgorithm` (LatchkeyTokens) and
//   `IssuerValidation` (LatchkeyVocabulary).
// Everything else in LatchkeyTokens and LatchkeyVocabulary stays out of an app's namespace: the runtime's files
// import those modules themselves, and generated code imports LatchkeyVocabulary for the words its specs spell.
// `Tests/LatchkeyImportTests/RuntimeReExportTests.swift` pins this list.
@_exported import struct LatchkeyPlatform.LatchkeyDuration
@_exported import struct LatchkeyTokens.AuthError
@_exported import struct LatchkeyTokens.IDTokenClaims
@_exported import enum LatchkeyTokens.JSON
@_exported import struct LatchkeyTokens.JSONWebKeySet
@_exported import enum LatchkeyTokens.SignatureAlgorithm
@_exported import enum LatchkeyVocabulary.ErrorKind
@_exported import enum LatchkeyVocabulary.IssuerValidation
