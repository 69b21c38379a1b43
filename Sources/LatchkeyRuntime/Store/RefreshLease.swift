import Foundation
import LatchkeyPlatform

/// A time-limited claim on a session's refresh, shared by processes through a keychain item or a lock file,
/// for stores where no lock may be held across the refresh request (the keychain has no locks; an iOS app
/// suspended while holding a file lock in an App Group container is killed with `0xdead10cc`).
///
/// The claim names its owner (random per acquisition) and when it expires, in milliseconds of wall-clock
/// time (processes share no other clock). A lease whose expiry lies further ahead than the longest lease
/// can last was written before the clock was set back: it counts as expired, so a clock change never blocks
/// refreshes for longer than one lease.
package struct RefreshLease: Sendable, Equatable {
    /// Who holds the lease: random per acquisition.
    package var owner: String
    /// When the lease ends, in milliseconds since 1970.
    package var expiresAt: Int64

    /// Creates a lease.
    package init(owner: String, expiresAt: Int64) {
        self.owner = owner
        self.expiresAt = expiresAt
    }

    /// The text form: `latchkey-refresh-lease v1 <owner> <expiresAt>`.
    package var encoded: String { "\(RefreshLease.prefix) \(owner) \(expiresAt)" }

    /// Reads the text form; `nil` for anything else.
    package init?(encoded: String) {
        let parts = encoded.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 4, "\(parts[0]) \(parts[1])" == RefreshLease.prefix, !parts[2].isEmpty,
            let expiresAt = Int64(parts[3])
        else { return nil }
        self.init(owner: String(parts[2]), expiresAt: expiresAt)
    }

    /// Whether the lease still excludes others at `now`.
    /// - Parameters:
    ///   - now: The current time, in milliseconds since 1970.
    ///   - longest: The longest a lease can last, in milliseconds.
    package func isLive(now: Int64, longest: Int64) -> Bool {
        now < expiresAt && expiresAt - now <= longest
    }

    /// What a process that wants the lease does, given what it found.
    package enum Decision: Sendable, Equatable {
        /// Nothing is there: create the lease.
        case claim
        /// Someone else's live lease: wait and look again.
        case wait
        /// An expired, unreadable or clock-skewed lease: replace exactly that one (compare-and-swap on its text).
        case replace(String)
    }

    /// Decides what to do about the lease text found in the store.
    /// - Parameters:
    ///   - found: The text found, or `nil` when there is none.
    ///   - now: The current time, in milliseconds since 1970.
    ///   - longest: The longest a lease can last, in milliseconds.
    package static func decide(found: String?, now: Int64, longest: Int64) -> Decision {
        guard let found, !found.isEmpty else { return .claim }
        guard let lease = RefreshLease(encoded: found), lease.isLive(now: now, longest: longest) else {
            return .replace(found)
        }
        return .wait
    }

    /// The current wall-clock time in milliseconds since 1970.
    package static func currentMilliseconds() -> Int64 {
        Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
    }

    /// A fresh owner name (128 random bits, hex).
    package static func newOwner() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in String(generator.next() as UInt64, radix: 16) }.joined(separator: "-")
    }

    private static let prefix = "latchkey-refresh-lease v1"
}

extension LatchkeyDuration {
    /// The duration in whole milliseconds (at least 1).
    var leaseMilliseconds: Int64 {
        max(1, nanoseconds / 1_000_000)
    }
}
