import LatchkeyDescriptor

/// The line `latchkey-gen validate` prints for a valid descriptor: what was checked, counted.
enum ValidationSummary {
    /// `Descriptors/acme.json: valid (3 flows, 1 action, 2 inputs, 5 error rows)`.
    static func line(path: String, descriptor d: Descriptor) -> String {
        let f = d.flows
        let declared: [Bool] = [
            f.password != nil, f.authorizationCode != nil, f.refresh != nil, f.signOut != nil, f.userInfo != nil,
            f.deviceCode != nil, f.clientCredentials != nil, f.endSession != nil,
        ]
        let counts = [
            count(declared.filter { $0 }.count, "flow"),
            count(d.actions.count, "action"),
            count(d.inputs.count, "input"),
            count(d.errors.map.count + d.errors.callback.count, "error row"),
        ]
        return "\(path): valid (\(counts.joined(separator: ", ")))"
    }

    /// `1 flow`, `3 flows`.
    private static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
}
