import LatchkeyPlatform
import LatchkeyTokens

/// A deterministic byte source for tests: SHA-256 in counter mode over a seed.
///
/// The same seed always yields the same sequence, so tests can predict verifiers, states and nonces.
/// **Never use it in production**: anyone who knows the seed knows every byte.
public final class SeededRandomSource: RandomSource {
    private let seed: [UInt8]
    private let state = Locked(State())

    private struct State {
        var counter: UInt64 = 0
        var pending: [UInt8] = []
    }

    /// Creates a source from seed bytes.
    /// - Parameter seed: The seed.
    public init(seed: [UInt8]) {
        self.seed = seed
    }

    /// Creates a source from a string seed (its UTF-8 bytes).
    /// - Parameter seed: The seed.
    public convenience init(seed: String) {
        self.init(seed: Array(seed.utf8))
    }

    /// Returns the next `count` bytes of the sequence.
    /// - Parameter count: How many bytes (zero or more).
    public func bytes(count: Int) -> [UInt8] {
        precondition(count >= 0, "count must not be negative")
        return state.withLock { state in
            while state.pending.count < count {
                var block = seed
                withUnsafeBytes(of: state.counter.bigEndian) { block.append(contentsOf: $0) }
                state.pending.append(contentsOf: SHA2Hash.sha256(block))
                state.counter += 1
            }
            let output = Array(state.pending.prefix(count))
            state.pending.removeFirst(count)
            return output
        }
    }
}
