import COpenSSL
import MediaCore

/// A SHA-256 digest held inline: its 32 bytes in four words, with no heap storage. A Merkle tree makes one per leaf and
/// node (``SHA256/inlineHash(_:)``); ``SHA256Digest`` keeps its bytes in an array, one allocation each.
public struct InlineSHA256Digest: Hashable, Sendable {
    private var w0: UInt64 = 0, w1: UInt64 = 0, w2: UInt64 = 0, w3: UInt64 = 0

    /// Fills the 32 bytes with `fill`.
    init(_ fill: (UnsafeMutableRawBufferPointer) -> Void) {
        withUnsafeMutableBytes(of: &self) { fill($0) }
    }

    /// The bytes of `digest`.
    public init(_ digest: SHA256Digest) {
        self.init { out in digest.bytes.withUnsafeBytes { out.copyMemory(from: $0) } }
    }

    /// Calls `body` with the 32 bytes.
    public func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withUnsafeBytes(of: self) { try body($0) }
    }

    /// The same digest with its bytes in an array.
    public var digest: SHA256Digest { SHA256Digest(bytes: withBytes { Array($0) }) }

    /// The digest as 64 lower-case hex characters.
    public var hex: String { withBytes { Hex.encode($0) } }

    /// Writes the 64 lower-case hex characters to `out` (at least 64 bytes).
    public func writeHex(to out: UnsafeMutableRawBufferPointer) {
        withBytes { Hex.encode($0, into: out) }
    }
}

extension SHA256 {
    /// The SHA-256 digest of raw bytes in one call, held inline (no heap context, no array).
    public static func inlineHash(_ buffer: UnsafeRawBufferPointer) -> InlineSHA256Digest {
        InlineSHA256Digest { digest in
            mediactl_sha256_oneshot(buffer.baseAddress, buffer.count, digest.baseAddress!.assumingMemoryBound(to: UInt8.self))
        }
    }

    /// The SHA-256 digest of `first` followed by `second`, held inline (one context on the stack): text with a gap.
    public static func inlineHash(_ first: UnsafeRawBufferPointer, _ second: UnsafeRawBufferPointer) -> InlineSHA256Digest {
        InlineSHA256Digest { digest in
            mediactl_sha256_twopart(first.baseAddress, first.count, second.baseAddress, second.count,
                                    digest.baseAddress!.assumingMemoryBound(to: UInt8.self))
        }
    }
}
