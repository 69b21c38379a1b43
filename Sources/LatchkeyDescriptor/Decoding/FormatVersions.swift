/// The descriptor format versions this decoder reads, and the gate for keys added after version 1.
///
/// Version 2 added: `callback.location` `form_post` and `callback.user`, the per-request `session`
/// mapping, optional client authentication (`clientAuthentication` as an object with `optional`),
/// `authorizationScheme`, `tokens.issuerValidation`, and the OpenID additions (client credentials,
/// end-session, endpoint fallbacks). A version-1 descriptor that uses one of them gets a located
/// error naming the key and the version it needs.
public enum DescriptorFormat {
    /// The newest format version; `latchkey-gen new` writes it and every catalog descriptor uses it.
    public static let currentVersion = 2
    /// Every format version the decoder accepts.
    public static let supportedVersions: ClosedRange<Int> = 1...2
}

extension DescriptorDecoder {
    /// Reads `formatVersion`, reporting an unknown version with the versions that are known.
    func decodeFormatVersion(_ node: JSONNode) -> Int? {
        let range = DescriptorFormat.supportedVersions
        guard case .number(let number) = node.value, let version = number.int else {
            sink.error(
                "expected the format version, a whole number, found \(node.describedBriefly)", at: node,
                fixIt: "write \"formatVersion\": \(DescriptorFormat.currentVersion)")
            return nil
        }
        guard range.contains(version) else {
            sink.error(
                "unknown formatVersion \(version): this decoder reads versions \(range.lowerBound) to \(range.upperBound)",
                at: node,
                fixIt:
                    "use \"formatVersion\": \(DescriptorFormat.currentVersion), or update latchkey-gen if the descriptor was written for a newer one"
            )
            return nil
        }
        return version
    }

    /// Reports a key that needs a newer format version than the descriptor declares.
    /// - Parameters:
    ///   - key: The key (or `key: value`) as written, for the message.
    ///   - version: The version that introduced it.
    ///   - node: Where it is written.
    func requireFormatVersion(_ version: Int, for key: String, at node: JSONNode) {
        guard formatVersion < version else { return }
        sink.error(
            "\(key) needs formatVersion \(version) (this descriptor declares formatVersion \(formatVersion))",
            at: node, fixIt: "change \"formatVersion\" to \(version)")
    }
}
