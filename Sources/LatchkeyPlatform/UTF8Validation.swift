extension String {
    /// The string whose UTF-8 encoding is exactly `bytes`, or nil when they are not valid UTF-8.
    ///
    /// `String(validating:as:)` where the OS has it (iOS 18 / macOS 15); before, ``init(strictlyDecodingUTF8:)``.
    /// - Parameter bytes: The bytes.
    @inlinable
    package init?(validatingUTF8Bytes bytes: some Collection<UInt8>) {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            guard let string = String(validating: bytes, as: UTF8.self) else { return nil }
            self = string
        } else {
            self.init(strictlyDecodingUTF8: bytes)
        }
    }

    /// The string whose UTF-8 encoding is exactly `bytes`, or nil when they are not valid UTF-8, on any OS.
    ///
    /// Decoding repairs ill-formed input with U+FFFD, so the result encodes back to `bytes` exactly when nothing
    /// was repaired.
    /// - Parameter bytes: The bytes.
    @inlinable
    package init?(strictlyDecodingUTF8 bytes: some Collection<UInt8>) {
        let decoded = String(decoding: bytes, as: UTF8.self)
        guard decoded.utf8.elementsEqual(bytes) else { return nil }
        self = decoded
    }
}
