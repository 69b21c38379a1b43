import Foundation
@_spi(Generated) import LatchkeyRuntime
import LatchkeyTesting
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// How hard the reliability tests push: meaningful defaults that keep the suite fast, heavier counts with
/// `LATCHKEY_STRESS=1`.
enum Stress {
    static let enabled = ProcessInfo.processInfo.environment["LATCHKEY_STRESS"] == "1"

    /// `normal` by default, `stress` under `LATCHKEY_STRESS=1`.
    static func count(_ normal: Int, stress: Int) -> Int { enabled ? stress : normal }
}

/// Prints a figure for the README's Reliability section, as `[reliability] name: value`.
func reportFigure(_ name: String, _ value: String) {
    print("[reliability] \(name): \(value)")
}

/// A private scratch directory, removed by ``remove()``.
struct ScratchDirectory {
    let url: URL

    init(_ label: String) {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-\(label)-\(UUID().uuidString)")
    }

    /// A subdirectory path (not created).
    func child(_ name: String) -> URL { url.appendingPathComponent(name, isDirectory: true) }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

/// The POSIX permission bits of a file.
func permissions(_ url: URL) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
    return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
}

/// `latchkey-store-crasher`, the helper executable the cross-process and crash tests run.
enum StoreCrasher {
    /// The binary: `$LATCHKEY_STORE_CRASHER`, or the one built next to the tests.
    static let url: URL? = {
        if let path = ProcessInfo.processInfo.environment["LATCHKEY_STORE_CRASHER"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        return BuildProducts.executable("latchkey-store-crasher")
    }()

    /// The binary, or `nil` after recording an issue (the test then fails).
    static func require(sourceLocation: SourceLocation = #_sourceLocation) -> URL? {
        if let url { return url }
        let message =
            "latchkey-store-crasher is not built next to the tests: run `swift build --build-tests` (it is the "
            + "`latchkey-store-crasher` executable target), or set LATCHKEY_STORE_CRASHER to its path."
        Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
        return nil
    }
}

/// A fixed session of a made-up provider, for store-level tests.
func sampleSession(_ label: String, tokenBytes: Int, issuedAt: Date, expiresAt: Date?) -> Session {
    Session(
        accessToken: "at-\(label)-" + String(repeating: label, count: tokenBytes / max(label.count, 1)),
        refreshToken: "rt-\(label)-" + String(repeating: "r", count: tokenBytes / 4),
        idToken: nil, expiresAt: expiresAt, issuedAt: issuedAt,
        user: User(id: "user-\(label)", email: "\(label)@example.com"), provider: "crasher")
}
