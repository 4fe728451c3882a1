import COpenSSL

/// Bytes from OpenSSL's CSPRNG (`RAND_bytes`).
public enum SecureRandom {
    /// `count` random bytes.
    /// - Throws: ``CryptoError/Code/openSSLFailure`` when the CSPRNG fails.
    public static func bytes(count: Int) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        try fill(&out)
        return out
    }

    /// Fills `buffer` with random bytes.
    public static func fill(_ buffer: inout [UInt8]) throws {
        guard !buffer.isEmpty else { return }
        let ok = buffer.withUnsafeMutableBufferPointer { RAND_bytes($0.baseAddress, Int32($0.count)) }
        guard ok == 1 else { throw CryptoError(.openSSLFailure, "RAND_bytes failed") }
    }

    /// A uniformly random integer in `range` (for jitter, not for keys).
    public static func uniform(in range: ClosedRange<UInt64>) -> UInt64 {
        var raw: UInt64 = 0
        _ = withUnsafeMutableBytes(of: &raw) { RAND_bytes($0.baseAddress!.assumingMemoryBound(to: UInt8.self), 8) }
        let span = range.upperBound &- range.lowerBound
        if span == .max { return raw }
        return range.lowerBound + raw % (span + 1)
    }
}
