import Foundation

/// Reads the `kid` claim of a JSON footer (paseto-spec, Registered Claims, footer claims).
package enum PasetoFooterKeyID {
    /// The footer's `kid`, or `nil` when the footer is empty, not a JSON object within
    /// ``PasetoJSONLimits/footer``, or has no non-empty string `kid`. Footers need not be JSON, so
    /// this never fails.
    package static func parse(_ footer: [UInt8]) -> String? {
        guard !footer.isEmpty, PasetoJSONLimits.footer.allows(footer),
            let object = JSON(data: Data(footer))?.object,
            let keyID = object["kid"]?.string, !keyID.isEmpty
        else { return nil }
        return keyID
    }
}
