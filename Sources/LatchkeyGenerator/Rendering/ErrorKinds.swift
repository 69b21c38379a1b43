import LatchkeyDescriptor
import LatchkeyVocabulary

/// The kind of every error code a descriptor can name: its own declared codes first, then the built-in ones.
struct ErrorKinds {
    /// The kinds the descriptor declares, by code.
    var declared: [String: ErrorKind]

    /// The kinds of a descriptor's declared codes.
    /// - Parameter declared: The descriptor's `errors.codes`.
    init(declared: [Named<Descriptor.Errors.DeclaredCode>]) {
        var kinds: [String: ErrorKind] = [:]
        for code in declared { kinds[code.name] = code.value.kind }
        self.declared = kinds
    }

    /// The kind of a code: declared, else built in, else `invalid_response` (what the runtime gives an
    /// unknown code).
    func kind(of code: String) -> ErrorKind {
        declared[code] ?? BuiltInErrorCode(rawValue: code)?.kind ?? .invalidResponse
    }
}
