// The words the runtime shares with the descriptor decoder and the generator (encodings, token formats,
// client authentication, error kinds, value templates, ...) are part of the runtime's own API: generated
// code spells their cases (`.json`, `.basicIfSecret`) and apps switch on `AuthError.Kind`'s cases, so they
// are visible wherever the runtime is imported. The vocabulary declares nothing else.
@_exported import LatchkeyVocabulary
