import MediaCrypto
import Synchronization

/// Deterministic 96-bit AES-GCM nonces (NIST SP 800-38D §8.2.1): a 32-bit field fixed per key
/// (random) ‖ a 64-bit invocation counter. Never repeats under one key (2^64 seals), and is
/// cheaper than drawing 12 random bytes per seal.
final class NonceSequence: Sendable {
    private let fixed: [UInt8]
    private let counter = Atomic<UInt64>(0)

    init() throws { fixed = try SecureRandom.bytes(count: 4) }

    /// The next nonce: 12 bytes.
    func next() -> [UInt8] {
        let value = counter.wrappingAdd(1, ordering: .relaxed).oldValue
        var writer = ByteWriter(capacity: AESGCM.nonceByteCount)
        writer.bytes.append(contentsOf: fixed)
        writer.append(value)
        return writer.bytes
    }
}
