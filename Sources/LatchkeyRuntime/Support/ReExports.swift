// What `import LatchkeyRuntime` re-exports from the modules below it, declaration by declaration (the import of
// an app that selects its providers; `import Latchkey` re-exports fewer). Each name is a type the runtime's
// public API spells, so an app can name it too:
// - `LatchkeyDuration` (LatchkeyPlatform): leeways, timeouts, clocks.
// - `AuthError` (LatchkeyTokens), with its nested `Code` and `Kind`; `ErrorKind` (LatchkeyVocabulary) is what
//   `AuthError.Kind` names, so that an app can switch on `error.kind`'s cases.
// - `JSON` (`User.attributes`, `ActionResult`, passkey options), and what `IDTokenValidator` and `JWKSCache`
//   take and return: `IDTokenClaims`, `JSONWebKeySet`, `SignatureAlgorithm` (LatchkeyTokens) and
//   `IssuerValidation` (LatchkeyVocabulary).
// No other name of LatchkeyTokens or LatchkeyVocabulary enters an app's namespace; the runtime's files import
// those modules themselves. Re-exporting declarations of a module still makes its members visible to importers
// (member import visibility), which is how `error.kind == .network` and generated specs' `.json` compile.
// `Tests/LatchkeyImportTests/RuntimeReExportTests.swift` pins this list.
@_exported import struct LatchkeyPlatform.LatchkeyDuration
@_exported import struct LatchkeyTokens.AuthError
@_exported import struct LatchkeyTokens.IDTokenClaims
@_exported import enum LatchkeyTokens.JSON
@_exported import struct LatchkeyTokens.JSONWebKeySet
@_exported import enum LatchkeyTokens.SignatureAlgorithm
@_exported import enum LatchkeyVocabulary.ErrorKind
@_exported import enum LatchkeyVocabulary.IssuerValidation
