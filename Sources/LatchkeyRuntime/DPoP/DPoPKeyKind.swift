import LatchkeyTokens

/// Where a ``DPoPKey``'s private key lives, and how the session record tags its stored form.
///
/// The choice and the format are the same on every platform (and tested on Linux); only the Apple backend can
/// make or read a ``secureEnclave`` key.
enum DPoPKeyKind: Sendable, Equatable, CaseIterable {
    /// A P-256 key in the process's memory: libcrypto's DER on Linux, CryptoKit's raw scalar on Apple
    /// platforms. Stored untagged, as before the Secure Enclave was used.
    case software
    /// A P-256 key inside the device's Secure Enclave (Apple platforms): the stored bytes are CryptoKit's
    /// `dataRepresentation`, an opaque blob that only the enclave that made it can use.
    case secureEnclave

    /// The prefix of a ``secureEnclave`` key's stored form. `.` is not a base64url character, so an untagged
    /// (``software``) stored form never starts with it.
    static let secureEnclaveTag = "se."

    /// The kinds to try for a new key, best first: the Secure Enclave when the device has one, then software.
    static func preferred(secureEnclaveAvailable: Bool) -> [DPoPKeyKind] {
        secureEnclaveAvailable ? [.secureEnclave, .software] : [.software]
    }

    /// Makes a key of the first kind in `kinds` that `make` can make.
    /// - Throws: The last kind's error, when none could be made.
    static func first(
        of kinds: [DPoPKeyKind], _ make: (DPoPKeyKind) throws(AuthError) -> DPoPKey
    ) throws(AuthError) -> DPoPKey {
        var failure = AuthError(.invalidConfiguration, "DPoP key: no key kind to make.")
        for kind in kinds {
            do {
                return try make(kind)
            } catch {
                failure = error
            }
        }
        throw failure
    }

    /// A stored form: the kind's tag, then base64url of the key's bytes.
    static func storedForm(kind: DPoPKeyKind, bytes: [UInt8]) -> String {
        switch kind {
        case .software: Base64URL.encode(bytes)
        case .secureEnclave: secureEnclaveTag + Base64URL.encode(bytes)
        }
    }

    /// The kind and bytes of a stored form; `nil` when it is neither tagged nor base64url.
    static func parse(storedForm: String) -> (kind: DPoPKeyKind, bytes: [UInt8])? {
        var kind = DPoPKeyKind.software
        var encoded = Substring(storedForm)
        if encoded.hasPrefix(secureEnclaveTag) {
            kind = .secureEnclave
            encoded = encoded.dropFirst(secureEnclaveTag.count)
        }
        guard !encoded.isEmpty, let bytes = Base64URL.decode(String(encoded)) else { return nil }
        return (kind, bytes)
    }
}
